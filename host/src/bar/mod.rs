//! The bar without its display: what one config makes of it (the scene it
//! shows, the specs the runtime runs for its widgets, where it goes, what
//! its `mouse` config does), the states its widgets report, a reload, and
//! where input on it goes ([`Bar`]); and the bar as it runs beside its
//! widgets, driven by a surface's events ([`Running`], [`Surface`]). A
//! surface (an X11 window, a Wayland layer surface, an offscreen buffer)
//! paints the scene, tells the bar what it painted, and hands it input;
//! nothing here needs a display, and the model's tests run without one.

mod fleet;
pub mod placement;
mod popup;
mod running;
mod surface;

pub use fleet::{Fleet, Listening, Member, Plan, dispatch};
pub use placement::{Output, Placement, ScreenRect};
pub use popup::{Grabbed, Located, PopupKey};
pub use running::{BarEvent, BarId, BarKey, BarSource, Deliver, Flow, NoticeInput, NotificationHost, OsdHost, Running};
pub use surface::{CardMonitor, CardPlace, Origin, ReportOutput, Surface};

use crate::config::BarConfig;
use crate::input::{Action, MouseActions};
use crate::render::{FontData, Layout, PlacedItem, Scene, SceneWidget, Style};
use crate::scheduler::WidgetEvent;
use crate::spec::{WidgetSpec, continued};
use crate::view::{Input, Pointer, WidgetState};

pub struct Bar {
    scene: Scene,
    /// What the runtime runs, in order.
    specs: Vec<WidgetSpec>,
    /// For each spec, the index of its widget in the scene.
    in_scene: Vec<usize>,
    /// Counts reloads; states reported for an older config are dropped.
    generation: u64,
    placement: Placement,
    font_family: Option<String>,
    /// What the `mouse` config does where no item takes the input.
    mouse: MouseActions,
    /// The surface cannot show through: the bar is painted opaque.
    opaque: bool,
    /// What the surface shows now: the layout last painted, against which
    /// input is routed.
    shown: Layout,
}

/// Where an input on the bar goes.
#[derive(Debug, PartialEq)]
pub enum Route<'a> {
    /// To a widget, for one of its items: the runtime's event.
    Widget(WidgetEvent),
    /// To the bar's `mouse` config.
    Bar(&'a Action),
    /// Nowhere: nothing takes it.
    Nothing,
}

/// What a reload changed, for the surface and the runtime to follow.
pub struct Reloaded {
    /// The runtime's new widgets, and which running ones they continue.
    pub reconfigure: WidgetEvent,
    pub font_changed: bool,
    pub placement_changed: bool,
}

impl Bar {
    /// A widget that cannot run (a bad plugin entry, a broken component) is
    /// shown failed in its place; the others run.
    pub fn new(config: &BarConfig) -> Bar {
        let (widgets, specs, in_scene) = widgets(config);
        Bar {
            scene: Scene { style: Style::from_config(config), widgets },
            specs,
            in_scene,
            generation: 0,
            placement: Placement::from_config(config),
            font_family: config.font_family().map(str::to_owned),
            mouse: MouseActions::from_config(config.model.mouse.as_ref()),
            opaque: false,
            shown: Layout::default(),
        }
    }

    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    pub fn specs(&self) -> &[WidgetSpec] {
        &self.specs
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// The bar's height in whole pixels, at least one.
    pub fn pixel_height(&self) -> u32 {
        self.scene().style.height.round().max(1.0) as u32
    }

    pub fn font_family(&self) -> Option<&str> {
        self.font_family.as_deref()
    }

    /// Draws the bar's texts in `font`, the one its `font_family` names
    /// (found by the caller), now and after reloads that keep the family.
    pub fn set_text_font(&mut self, font: FontData) {
        self.scene.style.text_font = Some(font);
    }

    pub fn mouse(&self) -> &MouseActions {
        &self.mouse
    }

    /// The surface cannot show through (no compositor, no see-through GL
    /// config): the background is painted opaque, now and after reloads.
    pub fn paint_opaque(&mut self, opaque: bool) {
        self.opaque = opaque;
        self.scene.style.fit_window(opaque);
    }

    /// Widget `index` of the specs of config `generation` shows `state`.
    /// Whether what the bar shows changed.
    pub fn apply(&mut self, generation: u64, index: usize, state: WidgetState) -> bool {
        if generation != self.generation {
            return false;
        }
        let Some(widget) = self.in_scene.get(index).and_then(|scene_index| self.scene.widgets.get_mut(*scene_index))
        else {
            return false;
        };
        let changed = widget.state != state;
        widget.state = state;
        changed
    }

    /// Runs `config` in place of the running one. Widgets that continue
    /// keep showing what they showed (the runtime keeps them running, told
    /// by [`Reloaded::reconfigure`]); states of the older config that are
    /// still on their way are dropped.
    pub fn reload(&mut self, config: &BarConfig) -> Reloaded {
        let (mut widgets, specs, in_scene) = widgets(config);
        let continued = continued(&self.specs, &specs);
        for (scene_index, from) in in_scene.iter().zip(&continued) {
            if let Some(from) = from {
                widgets[*scene_index].state = self.scene.widgets[self.in_scene[*from]].state.clone();
            }
        }
        let font_family = config.font_family().map(str::to_owned);
        let placement = Placement::from_config(config);
        let reloaded = Reloaded {
            reconfigure: WidgetEvent::Reconfigure { generation: self.generation + 1, specs: specs.clone(), continued },
            font_changed: font_family != self.font_family,
            placement_changed: placement != self.placement,
        };
        self.generation += 1;
        let text_font = self.scene.style.text_font.take();
        self.scene = Scene { style: Style { text_font, ..Style::from_config(config) }, widgets };
        self.scene.style.fit_window(self.opaque);
        self.specs = specs;
        self.in_scene = in_scene;
        self.placement = placement;
        self.font_family = font_family;
        self.mouse = MouseActions::from_config(config.model.mouse.as_ref());
        reloaded
    }

    /// The surface painted `layout`: input is routed against it from now.
    pub fn show(&mut self, layout: Layout) {
        self.shown = layout;
    }

    pub fn shown(&self) -> &Layout {
        &self.shown
    }

    /// The item shown at `x`.
    pub fn item_at(&self, x: f32) -> Option<&PlacedItem> {
        self.shown.items.iter().find(|placed| (placed.rect.x..placed.rect.right()).contains(&x))
    }

    /// The widgets (as the runtime numbers them) named `name`.
    pub fn widgets_named(&self, name: &str) -> Vec<usize> {
        self.specs.iter().enumerate().filter(|(_, spec)| spec.name == name).map(|(index, _)| index).collect()
    }

    /// The widgets that listen to the real-time signal `number`.
    pub fn widgets_signalled(&self, number: u8) -> Vec<usize> {
        let listening = |spec: &WidgetSpec| spec.refresh_signal == Some(number);
        self.specs.iter().enumerate().filter(|(_, spec)| listening(spec)).map(|(index, _)| index).collect()
    }

    /// Where `input` at `at` goes: to the item there when it takes it
    /// (told where the pointer was, on the bar at `origin`), else to the
    /// bar's `mouse` config.
    pub fn route(&self, input: Input, at: (f32, f32), origin: Origin) -> Route<'_> {
        if let Some(hit) = self.item_at(at.0) {
            // A button clicked twice quickly is clicked twice.
            let taken = if hit.item.takes.takes(input) {
                Some(input)
            } else if input == Input::DoubleClick && hit.item.takes.takes(Input::PrimaryClick) {
                Some(Input::PrimaryClick)
            } else {
                None
            };
            // Items name scene widgets; the runtime knows its specs.
            if let Some(input) = taken {
                let Some(widget) = self.in_scene.iter().position(|scene_index| *scene_index == hit.widget) else {
                    return Route::Nothing;
                };
                let pointer = Pointer {
                    x: at.0,
                    y: at.1,
                    bar_x: origin.x,
                    bar_y: origin.y,
                    output_x: origin.output_x,
                    output_y: origin.output_y,
                    item_x: hit.rect.x,
                    item_y: hit.rect.y,
                    item_width: hit.rect.width,
                    item_height: hit.rect.height,
                    scale: origin.scale,
                };
                return Route::Widget(WidgetEvent::Input { widget, key: hit.item.key.clone(), input, pointer });
            }
        }
        match self.mouse.action(input) {
            Some(action) => Route::Bar(action),
            None => Route::Nothing,
        }
    }
}

/// The scene's widgets for `config`, the specs the runtime runs, and for
/// each spec its widget's index in the scene.
fn widgets(config: &BarConfig) -> (Vec<SceneWidget>, Vec<WidgetSpec>, Vec<usize>) {
    let mut widgets = Vec::new();
    let mut specs = Vec::new();
    let mut in_scene = Vec::new();
    for entry in config.widgets() {
        match WidgetSpec::from_entry(&entry, config) {
            Ok(spec) => {
                in_scene.push(widgets.len());
                widgets.push(SceneWidget { side: entry.side, name: spec.name.clone(), state: WidgetState::Pending });
                specs.push(spec);
            }
            Err(no_spec) => {
                tracing::warn!("{no_spec}");
                widgets.push(SceneWidget {
                    side: entry.side,
                    name: entry.config.kind().into(),
                    state: WidgetState::Failed { message: no_spec.to_string() },
                });
            }
        }
    }
    (widgets, specs, in_scene)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::lay_out;
    use crate::view::{Emphasis, Inputs, Item, Piece, View};

    fn config(json: &str) -> BarConfig {
        BarConfig::parse(json, "bar.json").unwrap().config
    }

    const TWO_CPUS_AND_A_CLOCK: &str = r#"{ "left_widgets": [ { "Cpu": { "enable": true } }, { "Cpu": { "enable": true } } ],
        "right_widgets": [ { "Time": { "enable": true, "format": "TwentyFourHour" } } ] }"#;

    fn item(key: &str, text: &str, takes: Inputs) -> Item {
        Item {
            key: key.into(),
            pieces: vec![Piece::Text(text.into())],
            emphasis: Emphasis::Normal,
            takes,
            tooltip: None,
            look: None,
        }
    }

    fn showing(text: &str) -> WidgetState {
        WidgetState::Ready(View::of(vec![item(text, text, Inputs::NONE)]))
    }

    fn text_of(bar: &Bar, widget: usize) -> String {
        match &bar.scene().widgets[widget].state {
            WidgetState::Ready(view) => match &view.items[0].pieces[0] {
                Piece::Text(text) => text.clone(),
                other => format!("{other:?}"),
            },
            other => format!("{other:?}"),
        }
    }

    /// Lays the scene out with every character 10 pixels wide, as the
    /// running bar does with its measure before it paints.
    fn lay_out_and_show(bar: &mut Bar) {
        let layout = lay_out(bar.scene(), 1000.0, 30.0, &mut |piece, _| {
            let width = match piece {
                Piece::Text(text) => text.chars().count() as f32 * 10.0,
                _ => 10.0,
            };
            (piece.clone(), width)
        });
        bar.show(layout);
    }

    #[test]
    fn states_land_in_their_widgets_and_a_reload_keeps_those_that_continue() {
        let mut bar = Bar::new(&config(TWO_CPUS_AND_A_CLOCK));
        assert!(bar.apply(0, 0, showing("first")));
        assert!(bar.apply(0, 1, showing("second")));
        assert!(!bar.apply(0, 1, showing("second")), "the same state again changes nothing");
        assert!(bar.apply(0, 2, showing("12:00")));

        // The clock goes; the two identical Cpus stay, each keeping its own state.
        let reloaded = bar.reload(&config(
            r#"{ "left_widgets": [ { "Cpu": { "enable": true } }, { "Cpu": { "enable": true } } ], "right_widgets": [] }"#,
        ));
        let WidgetEvent::Reconfigure { generation, specs, continued } = &reloaded.reconfigure else { panic!() };
        assert_eq!((*generation, specs.len(), continued.as_slice()), (1, 2, [Some(0), Some(1)].as_slice()));
        assert!(!reloaded.font_changed && !reloaded.placement_changed);
        assert_eq!((text_of(&bar, 0), text_of(&bar, 1)), ("first".into(), "second".into()));
        assert!(!bar.apply(0, 0, showing("late")), "a state of the older config is dropped");
        assert!(bar.apply(1, 0, showing("new")));
        assert_eq!(text_of(&bar, 0), "new");
    }

    #[test]
    fn a_reload_says_what_the_surface_must_follow() {
        let mut bar = Bar::new(&config(TWO_CPUS_AND_A_CLOCK));
        let reloaded = bar.reload(&config(
            r#"{ "height": 40, "font_family": "DejaVu Serif", "monitor": 1,
                 "left_widgets": [ { "Cpu": { "enable": true, "data_refresh_interval": 2 } } ], "right_widgets": [] }"#,
        ));
        let WidgetEvent::Reconfigure { continued, .. } = &reloaded.reconfigure else { panic!() };
        assert_eq!(continued.as_slice(), [None], "a changed config is a new widget");
        assert!(reloaded.font_changed && reloaded.placement_changed);
        assert_eq!(
            (bar.placement().monitor, bar.placement().height, bar.font_family()),
            (Some(1), 40, Some("DejaVu Serif"))
        );
        assert_eq!(bar.scene().widgets[0].state, WidgetState::Pending);
    }

    #[test]
    fn widgets_are_found_by_name_and_by_the_signal_they_listen_to() {
        let bar = Bar::new(&config(
            r#"{ "left_widgets": [ { "Custom": { "enable": true, "name": "mail", "exec": "m", "signal": 8 } },
                                  { "Cpu": { "enable": true } },
                                  { "Custom": { "enable": true, "exec": "u", "signal": 8 } },
                                  { "Custom": { "enable": true, "exec": "v", "signal": 9 } } ],
                 "right_widgets": [] }"#,
        ));
        assert_eq!(bar.widgets_named("mail"), [0]);
        assert_eq!(bar.widgets_signalled(8), [0, 2]);
        assert_eq!(bar.widgets_signalled(9), [3]);
        assert!(bar.widgets_signalled(1).is_empty());
    }

    #[test]
    fn the_text_font_stays_across_reloads_until_another_is_set() {
        let mut bar = Bar::new(&config(TWO_CPUS_AND_A_CLOCK));
        assert_eq!(bar.scene().style.text_font, None, "found by the caller, not the model");
        bar.set_text_font(crate::render::icon_font());
        bar.reload(&config(r#"{ "height": 40, "left_widgets": [], "right_widgets": [] }"#));
        assert_eq!(bar.scene().style.text_font, Some(crate::render::icon_font()), "a reload keeps the font");
        assert_eq!(bar.scene().style.height, 40.0, "and takes the rest of the new look");
    }

    #[test]
    fn input_goes_to_the_item_that_takes_it_and_else_to_the_mouse_config() {
        let mut bar = Bar::new(&config(
            r#"{ "left_widgets": [ { "Cpu": { "enable": true } } ], "right_widgets": [],
                 "mouse": { "on_middle_click": "echo middle", "on_primary_double_click": "echo double" } }"#,
        ));
        bar.apply(0, 0, WidgetState::Ready(View::of(vec![item("cpu", "CPU 5%", Inputs::PRIMARY_CLICK)])));
        lay_out_and_show(&mut bar);
        let rect = bar.shown().items[0].rect;
        let on_item = (rect.x + 1.0, 7.0);
        let origin = Origin { x: 100.0, y: 1040.0, output_x: 0.0, output_y: 0.0, scale: 2.0 };

        let pointer = Pointer {
            x: on_item.0,
            y: 7.0,
            bar_x: 100.0,
            bar_y: 1040.0,
            output_x: 0.0,
            output_y: 0.0,
            item_x: rect.x,
            item_y: rect.y,
            item_width: rect.width,
            item_height: rect.height,
            scale: 2.0,
        };
        let to_cpu = |input| Route::Widget(WidgetEvent::Input { widget: 0, key: "cpu".into(), input, pointer });
        assert_eq!(bar.route(Input::PrimaryClick, on_item, origin), to_cpu(Input::PrimaryClick));
        assert_eq!(bar.route(Input::DoubleClick, on_item, origin), to_cpu(Input::PrimaryClick), "clicked twice");
        let middle = Route::Bar(&Action::Command("echo middle".into()));
        assert_eq!(bar.route(Input::MiddleClick, on_item, origin), middle);
        let off_items = (900.0, 7.0);
        let double = Route::Bar(&Action::Command("echo double".into()));
        assert_eq!(bar.route(Input::DoubleClick, off_items, origin), double);
        assert_eq!(bar.route(Input::SecondaryClick, off_items, origin), Route::Nothing);
    }
}
