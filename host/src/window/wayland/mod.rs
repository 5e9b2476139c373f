//! The bar on Wayland: a wlr-layer-shell surface (layer `top`, namespace
//! `obi`, no keyboard focus) across its output, anchored to the top edge,
//! or the bottom one when `edge` says, or `position` puts the bar in the
//! lower half of its output, with an exclusive zone of its height so that tiled windows leave
//! it room. A bar narrower than its output (a `position` with a width) is
//! anchored to both sides as well, with margins that give its x and width:
//! a surface anchored to a corner reserves nothing. GL is glutin's EGL on the surface, presenting with the damage
//! named; frames are not waited for, so a bar the compositor does not show
//! never blocks.
//!
//! Its output is the config's `monitor`: an index into the outputs ordered
//! by their place in the compositor's layout, left to right, then top to
//! bottom (the first when none is configured). Outputs are followed as
//! they come, go, move or change size: an output that goes away takes the
//! bar with it, and the bar comes back when there is an output for it
//! again; `obi msg hide` unmaps the surface (its zone is given back)
//! and `show` maps it anew.
//!
//! Each bar of the process has a layer surface of its own; they share the
//! connection, the outputs and the GL device. With `--every-monitor` an
//! output that comes gets a bar, and one that goes takes its bar along.
//!
//! Pointer input comes from the seat ([`pointer`]); a tooltip is an xdg
//! popup of the layer surface ([`tooltip`]), and so is a widget's popup,
//! which grabs the seat ([`popup`]). The desktop's notifications and the
//! on-screen display are layer surfaces of their own on the overlay layer
//! ([`cards`]). The process's hold on idling is an idle inhibitor on the
//! first bar's surface ([`idle`]). All are drawn
//! at the scale the compositor prefers, fractional where it says one
//! ([`scale`]).

mod cards;
mod idle;
mod keyboard;
pub mod outputs;
mod pointer;
mod popup;
mod scale;
mod tooltip;

use super::gl::{GlBar, SharedDevice};
use crate::bar::{
    BarEvent, CardPlace, Deliver, Fleet, Flow, Located, Member, Origin, Placement, ReportOutput, Running, ScreenRect,
    Surface, dispatch,
};
use crate::config::model::Edge;
use crate::render::{Frame, PopupLayout, Rect, Style};
use crate::sync::lock;
use anyhow::Context;
use glutin::config::{Config, ConfigTemplateBuilder, GlConfig};
use glutin::display::{Display, DisplayApiPreference, GlDisplay};
use raw_window_handle::{RawDisplayHandle, RawWindowHandle, WaylandDisplayHandle, WaylandWindowHandle};
use scale::{FollowedScale, Fractional, Scale};
use smithay_client_toolkit::compositor::{CompositorHandler, CompositorState};
use smithay_client_toolkit::globals::GlobalData;
use smithay_client_toolkit::output::{OutputHandler, OutputInfo, OutputState};
use smithay_client_toolkit::reexports::calloop::{EventLoop, channel};
use smithay_client_toolkit::reexports::calloop_wayland_source::WaylandSource;
use smithay_client_toolkit::reexports::client::globals::{GlobalList, registry_queue_init};
use smithay_client_toolkit::reexports::client::protocol::{wl_keyboard, wl_output, wl_pointer, wl_seat, wl_surface};
use smithay_client_toolkit::reexports::client::{Connection, EventQueue, Proxy, QueueHandle};
use smithay_client_toolkit::registry::{ProvidesRegistryState, RegistryState};
use smithay_client_toolkit::seat::SeatState;
use smithay_client_toolkit::shell::WaylandSurface;
use smithay_client_toolkit::shell::wlr_layer::{
    Anchor, KeyboardInteractivity, Layer, LayerShell, LayerShellHandler, LayerSurface, LayerSurfaceConfigure,
};
use smithay_client_toolkit::{
    delegate_compositor, delegate_layer, delegate_output, delegate_pointer, delegate_registry, delegate_seat,
    delegate_xdg_popup, registry_handlers,
};
use std::cell::RefCell;
use std::num::NonZeroU32;
use std::ptr::NonNull;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tooltip::{Tooltip, WmBase};

/// A connection to the compositor, made before the widgets start so that
/// they can be given a way into its loop.
pub struct Wayland {
    connection: Connection,
    globals: GlobalList,
    queue: EventQueue<LayerBar>,
    compositor: CompositorState,
    layer_shell: LayerShell,
    /// For tooltips: without it, none are shown.
    xdg_shell: Option<WmBase>,
    fractional: Option<Fractional>,
    event_loop: EventLoop<'static, LayerBar>,
    deliver: Deliver,
    /// Into the loop: hold idling off, or let it go.
    idle_asks: channel::Sender<bool>,
}

/// Connects to the compositor `WAYLAND_DISPLAY` names, which must offer
/// wlr-layer-shell.
pub fn connect() -> anyhow::Result<Wayland> {
    let connection = Connection::connect_to_env().context("cannot reach the Wayland compositor")?;
    let (globals, queue) = registry_queue_init(&connection).context("reading the compositor's globals")?;
    let qh = queue.handle();
    let compositor = CompositorState::bind(&globals, &qh).context("the compositor offers no wl_compositor")?;
    let layer_shell = LayerShell::bind(&globals, &qh).map_err(|_| {
        anyhow::anyhow!(
            "the Wayland compositor offers no wlr-layer-shell (zwlr_layer_shell_v1), which a bar needs to be \
             placed at an edge: sway, Hyprland, niri and KDE Plasma offer it, GNOME does not (there, run the bar \
             under X11 with --backend x11)"
        )
    })?;
    let xdg_shell = globals
        .bind(&qh, 1..=6, GlobalData)
        .map(WmBase)
        .inspect_err(|error| tracing::info!("the compositor offers no xdg-shell ({error:#}): no tooltips are shown"))
        .ok();
    let fractional = Fractional::bind(&globals, &qh);
    if fractional.is_none() {
        tracing::info!("the compositor offers no fractional scaling: the bar is drawn at whole scales");
    }
    let event_loop = EventLoop::try_new().context("starting the event loop")?;
    let (sender, events) = channel::channel::<BarEvent>();
    event_loop
        .handle()
        .insert_source(events, |event, _, state: &mut LayerBar| {
            if let channel::Event::Msg(event) = event {
                state.handle(event);
            }
        })
        .map_err(|error| anyhow::anyhow!("listening to the bar's threads: {error:#}"))?;
    let sender = Mutex::new(sender);
    let deliver: Deliver = Arc::new(move |event| lock(&sender).send(event).is_ok());
    let (idle_asks, asked) = channel::channel::<bool>();
    event_loop
        .handle()
        .insert_source(asked, |event, _, state: &mut LayerBar| {
            if let channel::Event::Msg(held) = event {
                state.idle.ask(held);
            }
        })
        .map_err(|error| anyhow::anyhow!("listening to the idle inhibitor: {error:#}"))?;
    Ok(Wayland {
        connection,
        globals,
        queue,
        compositor,
        layer_shell,
        xdg_shell,
        fractional,
        event_loop,
        deliver,
        idle_asks,
    })
}

impl Wayland {
    /// How other threads reach the bar's loop.
    pub fn deliver(&self) -> Deliver {
        self.deliver.clone()
    }

    /// Runs the fleet's bars until they are told to quit; an error when
    /// the compositor goes away.
    pub fn run(self, fleet: Fleet) -> anyhow::Result<()> {
        let Wayland {
            connection,
            globals,
            mut queue,
            compositor,
            layer_shell,
            xdg_shell,
            fractional,
            mut event_loop,
            deliver: _,
            idle_asks,
        } = self;
        let qh = queue.handle();
        let shell = Rc::new(Shell {
            connection: connection.clone(),
            qh: qh.clone(),
            compositor,
            layer_shell,
            xdg_shell,
            fractional,
            display: RefCell::new(None),
            device: RefCell::new(SharedDevice::new(fleet.held_images(), fleet.measure())),
        });
        let inhibition = fleet.idle_inhibition();
        inhibition.hand_to_compositor(move |held| _ = idle_asks.send(held));
        let idle = idle::IdleHold::bind(&globals, &qh, inhibition);
        let mut state = LayerBar {
            idle,
            fleet,
            members: Vec::new(),
            shell,
            outputs: OutputState::new(&globals, &qh),
            announced: Vec::new(),
            registry: RegistryState::new(&globals),
            seats: SeatState::new(&globals, &qh),
            pointer: None,
            pointer_seat: None,
            keyboard: None,
            shift_held: false,
            following_outputs: false,
            quit: false,
        };
        let _listening = state.fleet.listen();
        // The outputs' names and places arrive after their globals.
        for _ in 0..2 {
            queue.roundtrip(&mut state).context("asking the compositor for its outputs")?;
        }
        state.following_outputs = true;
        state.open_all()?;
        WaylandSource::new(connection, queue).insert(event_loop.handle()).context("listening to the compositor")?;
        while !state.quit {
            let dues = state.members.iter().flat_map(|member| [member.running.tooltip_due(), member.running.osd_due()]);
            let due = dues.flatten().min();
            let timeout = due.map(|due| due.saturating_duration_since(Instant::now()));
            event_loop
                .dispatch(timeout, &mut state)
                .map_err(|error| anyhow::anyhow!("the Wayland compositor went away ({error:#})"))?;
            state.after_events();
        }
        Ok(())
    }
}

/// What every bar's surface is made with: the compositor's globals, and
/// EGL on its display once made.
struct Shell {
    connection: Connection,
    qh: QueueHandle<LayerBar>,
    compositor: CompositorState,
    layer_shell: LayerShell,
    /// For tooltips: without it, none are shown.
    xdg_shell: Option<WmBase>,
    fractional: Option<Fractional>,
    /// EGL on the compositor's display, and its config, made once.
    display: RefCell<Option<(Display, Config)>>,
    /// The bars' GL, made with the first bar's surface.
    device: RefCell<SharedDevice>,
}

/// The outputs in layout order, with what the compositor said of each.
type Outputs = Rc<[(wl_output::WlOutput, OutputInfo)]>;

/// The loop's state: the running bars with their surfaces, the outputs,
/// and the seat's pointer.
struct LayerBar {
    /// The process's hold on idling.
    idle: idle::IdleHold,
    fleet: Fleet,
    members: Vec<Member<Panel>>,
    shell: Rc<Shell>,
    outputs: OutputState,
    /// The outputs the compositor has told all of (their names and places),
    /// in the order they came; bars are placed among these alone.
    announced: Vec<wl_output::WlOutput>,
    registry: RegistryState,
    seats: SeatState,
    pointer: Option<wl_pointer::WlPointer>,
    /// The seat the pointer is of: a popup grabs it.
    pointer_seat: Option<wl_seat::WlSeat>,
    /// The seat's keyboard: a popup that grabs the seat has it (Escape),
    /// and a bar that holds it.
    keyboard: Option<wl_keyboard::WlKeyboard>,
    /// Shift is down on the seat's keyboard.
    shift_held: bool,
    /// The outputs there at the start are known: later changes move the
    /// bars.
    following_outputs: bool,
    quit: bool,
}

impl LayerBar {
    /// A surface for each bar the plan asks for; a bar that cannot have
    /// one is left out (the process fails when none can).
    fn open_all(&mut self) -> anyhow::Result<()> {
        let outputs = self.ordered_outputs();
        let (started, failures) = self.fleet.start_first(&outputs::names(&outputs));
        failures.iter().for_each(|error| tracing::error!("{error:#}"));
        for running in started {
            let surface = Panel::new(self.shell.clone(), outputs.clone(), &running);
            self.members.push(Member { running, surface });
        }
        if self.members.is_empty() {
            anyhow::bail!(failures.join("; "));
        }
        self.members.iter_mut().for_each(|member| member.surface.open());
        Ok(())
    }

    /// The announced outputs in layout order, with what the compositor
    /// said of each.
    fn ordered_outputs(&self) -> Outputs {
        let announced =
            self.announced.iter().filter_map(|output| Some((output.clone(), self.outputs.info(output)?))).collect();
        outputs::in_layout_order(announced).into()
    }

    /// Outputs came, went or moved: every bar goes where its placement now
    /// puts it, and with `--every-monitor` bars come and go with outputs.
    fn follow_outputs(&mut self) {
        if !self.following_outputs {
            return;
        }
        let outputs = self.ordered_outputs();
        for member in &mut self.members {
            member.surface.outputs = outputs.clone();
            member.surface.follow_outputs();
        }
        let shell = self.shell.clone();
        self.fleet.follow_monitors(&mut self.members, &outputs::names(&outputs), |running| {
            let mut panel = Panel::new(shell.clone(), outputs.clone(), running);
            panel.open();
            Some(panel)
        });
    }

    /// The bar whose layer surface is `surface`.
    fn member_on(&mut self, surface: &wl_surface::WlSurface) -> Option<&mut Member<Panel>> {
        self.members.iter_mut().find(|member| member.surface.layer().is_some_and(|layer| layer.wl_surface() == surface))
    }

    /// The compositor's fractional scale for `surface`.
    fn preferred_scale(&mut self, surface: &wl_surface::WlSurface, scale: Scale) {
        if let Some(member) = self.member_on(surface) {
            member.surface.set_scale(scale);
        }
    }

    fn handle(&mut self, event: BarEvent) {
        if dispatch(&mut self.members, event) == Flow::Quit {
            self.quit = true;
        }
    }

    /// Once the events at hand are handled: a surface the compositor closed
    /// is made anew, what widgets changed is painted, notifications that
    /// changed are shown, a tooltip whose time has come is shown, and idling
    /// is held off on the first bar's surface while it is to be.
    fn after_events(&mut self) {
        for Member { running, surface } in &mut self.members {
            if std::mem::take(&mut surface.reopen) {
                surface.open();
            }
            if std::mem::take(&mut surface.redraw) {
                running.paint_all(surface);
            } else {
                running.paint_changes(surface);
            }
            running.paint_notices(surface);
            running.paint_osd(surface);
            if running.tooltip_due().is_some_and(|due| due <= Instant::now()) {
                running.show_tooltip(surface);
            }
        }
        let first = self.members.iter().find_map(|member| member.surface.layer()).map(|layer| layer.wl_surface());
        self.idle.keep(first, &self.shell.qh);
    }
}

/// The bar's layer surface, once the compositor configured it, and what it
/// needs to make one again.
struct Panel {
    shell: Rc<Shell>,
    /// The outputs there are, in layout order.
    outputs: Outputs,
    /// The bar's surface's fractional scale, when the compositor has them.
    followed_scale: Option<FollowedScale>,
    /// The tooltip shown, or on its way.
    tooltip: Option<Tooltip>,
    /// A widget's popup shown, or on its way.
    popup: Option<popup::WidgetPopup>,
    /// The seat and serial of the last press on the bar, which a popup
    /// opened in answer to it grabs the seat with.
    last_press: Option<(wl_seat::WlSeat, u32)>,
    /// The bar sits at its output's bottom edge.
    at_bottom: bool,
    /// The margins from its output's left and right sides that gave a bar
    /// narrower than its output its place, when it was placed.
    side_margins: Option<(i32, i32)>,
    gl: Option<GlBar<LayerSurface>>,
    /// A layer surface waiting for its first configure.
    pending: Option<LayerSurface>,
    /// The output the bar is on.
    output: Option<wl_output::WlOutput>,
    placement: Placement,
    /// Tells the bar which output it was put on, for its tiler.
    report_output: ReportOutput,
    /// The user has not hidden the bar.
    shown: bool,
    /// Everything is to be painted again.
    redraw: bool,
    /// The compositor closed the surface: a new one is made once the events
    /// at hand are handled (an output going away closes it before the
    /// output is gone).
    reopen: bool,
    /// The surface's size in logical pixels, as last configured.
    logical: (u32, u32),
    /// Buffer pixels to a logical one, as the compositor prefers for the
    /// outputs the surface is on.
    scale: Scale,
    /// Hands assistive technology the bar's tree (AT-SPI: winit is not in
    /// this path, and a Wayland surface has no place on the screen to tell).
    access: accesskit_unix::Adapter,
    /// The bar holds the keyboard (`obi msg focus`).
    keyboard_wanted: bool,
    /// The desktop's notifications shown, newest first, the on-screen
    /// display shown, and the style they are painted in.
    notices: Vec<cards::CardSurface>,
    osd: Vec<cards::CardSurface>,
    card_style: Option<Style>,
}

impl Panel {
    /// The surface of `running`'s bar among `outputs`, not yet opened.
    fn new(shell: Rc<Shell>, outputs: Outputs, running: &Running) -> Panel {
        Panel {
            shell,
            outputs,
            followed_scale: None,
            tooltip: None,
            popup: None,
            last_press: None,
            at_bottom: false,
            side_margins: None,
            gl: None,
            pending: None,
            output: None,
            placement: running.bar().placement().clone(),
            report_output: running.report_output(),
            shown: true,
            redraw: false,
            reopen: false,
            notices: Vec::new(),
            osd: Vec::new(),
            card_style: None,
            logical: (1, 1),
            scale: Scale::ONE,
            access: {
                let handlers = running.access_handlers();
                accesskit_unix::Adapter::new(handlers.clone(), handlers.clone(), handlers)
            },
            keyboard_wanted: false,
        }
    }

    /// The output the placement's `monitor` names, among those there now.
    fn chosen_output(&self) -> Option<(wl_output::WlOutput, OutputInfo)> {
        self.outputs.get(self.placement.monitor.unwrap_or(0)).cloned()
    }

    /// Whether the bar belongs at the bottom edge of an output.
    fn belongs_at_bottom(&self, info: &OutputInfo) -> bool {
        let output_y = outputs::origin(info).1;
        let output_height = info.logical_size.map_or(0, |(_, height)| height);
        let height = self.placement.height as i32;
        match self.placement.start {
            Some((_, y)) => y - output_y + height / 2 > output_height / 2 && output_height > 0,
            None => self.placement.edge == Edge::Bottom,
        }
    }

    /// The margins from `info`'s output's left and right sides that give a
    /// bar narrower than its output the x and width `position` says; none
    /// for a bar across its output.
    fn side_margins(&self, info: &OutputInfo) -> Option<(i32, i32)> {
        let width = self.placement.width? as i32;
        let (origin, output_width) = (outputs::origin(info).0, info.logical_size.map_or(0, |(width, _)| width));
        let left = self.placement.start.map_or(0, |(x, _)| x - origin).max(0);
        Some((left, (output_width - left - width).max(0)))
    }

    /// Outputs came, went or moved: the bar goes where the placement now
    /// puts it, and stays untouched when that is where it is.
    fn follow_outputs(&mut self) {
        let chosen = self.chosen_output();
        let in_place = match (&chosen, &self.output) {
            (Some((output, info)), Some(current)) => {
                output == current
                    && self.belongs_at_bottom(info) == self.at_bottom
                    && self.side_margins(info) == self.side_margins
            }
            _ => false,
        };
        if !in_place {
            self.close();
            self.open();
        }
    }

    /// Makes the layer surface on the placement's output, when the user has
    /// not hidden the bar and the output is there; the compositor's
    /// configure brings its size.
    fn open(&mut self) {
        if !self.shown || self.gl.is_some() || self.pending.is_some() {
            return;
        }
        let Some((output, info)) = self.chosen_output() else {
            let names: Vec<String> = self.outputs.iter().map(|(_, info)| outputs::monitor(info).to_string()).collect();
            return tracing::warn!(
                "the bar's output (number {}) is not there; found {}: the bar waits for it",
                self.placement.monitor.unwrap_or(0),
                if names.is_empty() { "none".to_owned() } else { names.join(", ") }
            );
        };
        let height = self.placement.height;
        let at_bottom = self.belongs_at_bottom(&info);
        let edge = if at_bottom { Anchor::BOTTOM } else { Anchor::TOP };
        let shell = &self.shell;
        let surface = shell.compositor.create_surface(&shell.qh);
        self.followed_scale = shell.fractional.as_ref().map(|fractional| fractional.follow(&surface, &shell.qh));
        let layer = shell.layer_shell.create_layer_surface(&shell.qh, surface, Layer::Top, Some("obi"), Some(&output));
        // Anchored to an edge and both sides, as a surface must be for the
        // compositor to keep its zone free; a narrower bar's margins place it.
        let side_margins = self.side_margins(&info);
        let (left, right) = side_margins.unwrap_or_default();
        layer.set_anchor(edge | Anchor::LEFT | Anchor::RIGHT);
        layer.set_margin(0, right, 0, left);
        layer.set_size(0, height);
        layer.set_exclusive_zone(height as i32);
        layer.set_keyboard_interactivity(KeyboardInteractivity::None);
        layer.commit();
        if let Some(name) = &info.name {
            (self.report_output)(name);
        }
        tracing::info!(
            "bar on output {} at its {} edge, {} pixels tall",
            outputs::monitor(&info),
            if at_bottom { "bottom" } else { "top" },
            height
        );
        self.output = Some(output.clone());
        self.at_bottom = at_bottom;
        self.side_margins = side_margins;
        self.pending = Some(layer);
    }

    /// Lets go of the layer surface (its zone is given back).
    fn close(&mut self) {
        self.tooltip = None;
        self.followed_scale = None;
        self.gl = None;
        self.pending = None;
        self.output = None;
    }

    /// The compositor gave the surface its size: the first time, GL is made
    /// on it; after, it follows the size. Whether the bar can show through.
    fn configured(&mut self, layer: &LayerSurface, size: (u32, u32)) -> anyhow::Result<Option<bool>> {
        self.logical = (size.0.max(1), size.1.max(1));
        let size = self.scale.buffer_size(self.logical);
        if let Some(followed) = &self.followed_scale {
            followed.viewport.show_at(self.logical);
        }
        if let Some(gl) = &mut self.gl {
            if gl.window == *layer {
                resize(gl, size);
            }
            self.redraw = true;
            return Ok(None);
        }
        let Some(layer) = self.pending.take().filter(|pending| pending == layer) else { return Ok(None) };
        let (egl, config) = self.display()?;
        let surface =
            NonNull::new(layer.wl_surface().id().as_ptr().cast()).context("the bar's surface has no handle")?;
        let handle = RawWindowHandle::Wayland(WaylandWindowHandle::new(surface));
        if let Some(factor) = self.buffer_scale() {
            layer.wl_surface().set_buffer_scale(factor);
        }
        let mut gl = GlBar::on(layer, handle, size, &config, &mut self.shell.device.borrow_mut())?;
        gl.swap_without_waiting();
        gl.set_scale(self.scale.factor());
        tracing::debug!("GL on the layer surface: {}", egl.version_string());
        self.gl = Some(gl);
        self.redraw = true;
        self.paint_waiting_cards();
        Ok(Some(config.supports_transparency().unwrap_or(false) && config.alpha_size() > 0))
    }

    /// EGL on the compositor's display, made the first time.
    fn display(&mut self) -> anyhow::Result<(Display, Config)> {
        if let Some(made) = &*self.shell.display.borrow() {
            return Ok(made.clone());
        }
        let pointer =
            NonNull::new(self.shell.connection.backend().display_ptr().cast()).context("no Wayland display")?;
        let raw = RawDisplayHandle::Wayland(WaylandDisplayHandle::new(pointer));
        // SAFETY: the display pointer is the connection's, which lives as long as the bar.
        let display = unsafe { Display::new(raw, DisplayApiPreference::Egl) }.context("EGL on the Wayland display")?;
        let template = ConfigTemplateBuilder::new().with_alpha_size(8).with_transparency(true).build();
        // SAFETY: the template names no native window.
        let config = unsafe { display.find_configs(template) }
            .context("finding a GL config")?
            .min_by_key(|config| (config.alpha_size() == 0, config.num_samples()))
            .context("the display offers no GL config")?;
        *self.shell.display.borrow_mut() = Some((display.clone(), config.clone()));
        Ok((display, config))
    }

    /// The compositor prefers `scale` buffer pixels to a logical one: the
    /// bar is drawn that much larger, not enlarged by the compositor.
    fn set_scale(&mut self, scale: Scale) {
        if scale == self.scale {
            return;
        }
        tracing::info!("the bar is drawn at scale {scale}");
        self.scale = scale;
        let buffer_scale = self.buffer_scale();
        if let Some(gl) = &mut self.gl {
            if let Some(factor) = buffer_scale {
                gl.window.wl_surface().set_buffer_scale(factor);
            }
            gl.set_scale(scale.factor());
            resize(gl, scale.buffer_size(self.logical));
            self.redraw = true;
        }
    }

    /// The `wl_surface` buffer scale the bar's surfaces take: none with a
    /// viewport (the buffer is shown at the viewport's size), else the scale.
    fn buffer_scale(&self) -> Option<i32> {
        match self.followed_scale {
            Some(_) => None,
            None => self.scale.whole_factor().map(|factor| factor as i32),
        }
    }

    fn layer(&self) -> Option<&LayerSurface> {
        self.gl.as_ref().map(|gl| &gl.window).or(self.pending.as_ref())
    }
}

/// GL's buffer at `size` device pixels.
fn resize(gl: &mut GlBar<LayerSurface>, size: (u32, u32)) {
    if gl.size() == size {
        return;
    }
    let (Some(width), Some(height)) = (NonZeroU32::new(size.0), NonZeroU32::new(size.1)) else { return };
    let Some(surface) = NonNull::new(gl.window.wl_surface().id().as_ptr().cast()) else { return };
    let handle = RawWindowHandle::Wayland(WaylandWindowHandle::new(surface));
    if let Err(error) = gl.resize_anew(handle, width, height) {
        tracing::warn!("{error:#}; the bar keeps its GL surface");
        gl.resize(width, height);
    }
}

impl Surface for Panel {
    fn size(&self) -> Option<(f32, f32)> {
        Some(self.gl.as_ref()?.logical_size())
    }

    fn present(&mut self, frame: Frame) {
        if let Some(gl) = &mut self.gl {
            gl.present(frame);
        }
    }

    fn redraw(&mut self) {
        self.redraw = true;
    }

    fn set_visible(&mut self, visible: bool) {
        self.shown = visible;
        if visible {
            self.open();
        } else {
            self.close();
        }
    }

    /// A compositor's outputs are its own: no tiler on Wayland says where
    /// they are.
    fn place(&mut self, placement: &Placement, _: Option<ScreenRect>) {
        self.placement = placement.clone();
        self.close();
        self.open();
    }

    fn show_tooltip(&mut self, anchor: Rect, text: &str, style: &Style) {
        self.open_tooltip(anchor, text, style);
    }

    fn hide_tooltip(&mut self) {
        self.tooltip = None;
    }

    fn show_notices(&mut self, cards: &[PopupLayout], at: &CardPlace, style: &Style) {
        self.show_cards(cards::Stack::Notices, cards, at, style);
    }

    fn show_osd(&mut self, card: Option<&PopupLayout>, at: &CardPlace, style: &Style) {
        self.show_cards(cards::Stack::Osd, card.map_or(&[][..], std::slice::from_ref), at, style);
    }

    fn show_popup(&mut self, anchor: Rect, layout: &PopupLayout, style: &Style) -> bool {
        self.open_popup(anchor, layout, style)
    }

    fn hide_popup(&mut self) {
        self.close_popup();
    }

    fn repaint_popup(&mut self, layout: &PopupLayout, _: &Style) {
        self.repaint_open_popup(layout);
    }

    fn locate(&self, _: (i32, i32)) -> Located {
        Located::Elsewhere
    }

    fn monitor(&self) -> Option<usize> {
        let output = self.output.as_ref()?;
        self.outputs.iter().position(|(listed, _)| listed == output)
    }

    /// In the compositor's logical layout: the output's corner, moved by
    /// the side margin and to the bottom edge where the bar is put.
    fn origin(&self) -> Origin {
        let scale = self.scale.factor();
        let Some((_, info)) = self.outputs.iter().find(|(listed, _)| Some(listed) == self.output.as_ref()) else {
            return Origin { x: 0.0, y: 0.0, output_x: 0.0, output_y: 0.0, scale };
        };
        let (x, y) = outputs::origin(info);
        let left = self.side_margins.map_or(0, |(left, _)| left);
        let output_height = info.logical_size.map_or(0, |(_, height)| height);
        let down = if self.at_bottom { output_height - self.logical.1 as i32 } else { 0 };
        Origin { x: (x + left) as f32, y: (y + down) as f32, output_x: x as f32, output_y: y as f32, scale }
    }

    fn publish(&mut self, update: &mut dyn FnMut() -> accesskit::TreeUpdate) {
        self.access.update_if_active(update);
    }

    fn hold_keyboard(&mut self, hold: bool) -> bool {
        self.ask_for_keyboard(hold)
    }
}

impl CompositorHandler for LayerBar {
    fn scale_factor_changed(
        &mut self,
        _: &Connection,
        _: &QueueHandle<Self>,
        surface: &wl_surface::WlSurface,
        factor: i32,
    ) {
        // A fractional scale, where there is one, is the finer word.
        if let Some(member) = self.member_on(surface)
            && member.surface.followed_scale.is_none()
        {
            member.surface.set_scale(Scale::whole(factor.max(1) as u32));
        }
    }

    fn transform_changed(
        &mut self,
        _: &Connection,
        _: &QueueHandle<Self>,
        _: &wl_surface::WlSurface,
        _: wl_output::Transform,
    ) {
    }

    fn frame(&mut self, _: &Connection, _: &QueueHandle<Self>, _: &wl_surface::WlSurface, _: u32) {}

    fn surface_enter(
        &mut self,
        _: &Connection,
        _: &QueueHandle<Self>,
        _: &wl_surface::WlSurface,
        _: &wl_output::WlOutput,
    ) {
    }

    fn surface_leave(
        &mut self,
        _: &Connection,
        _: &QueueHandle<Self>,
        _: &wl_surface::WlSurface,
        _: &wl_output::WlOutput,
    ) {
    }
}

impl OutputHandler for LayerBar {
    fn output_state(&mut self) -> &mut OutputState {
        &mut self.outputs
    }

    /// An output came: a bar waiting for one may have it now, the outputs'
    /// order may have changed, and with `--every-monitor` it gets a bar.
    fn new_output(&mut self, _: &Connection, _: &QueueHandle<Self>, output: wl_output::WlOutput) {
        self.announced.push(output);
        self.follow_outputs();
    }

    /// An output moved or changed size: a bar's edge or output may too.
    fn update_output(&mut self, _: &Connection, _: &QueueHandle<Self>, _: wl_output::WlOutput) {
        self.follow_outputs();
    }

    /// An output went: the bar on it waits for one where its placement
    /// puts it (with `--every-monitor`, it goes), and others may move as
    /// the order changed.
    fn output_destroyed(&mut self, _: &Connection, _: &QueueHandle<Self>, output: wl_output::WlOutput) {
        self.announced.retain(|announced| *announced != output);
        for member in &mut self.members {
            if member.surface.output.as_ref() == Some(&output) {
                tracing::warn!("bar {}: its output went away", member.running.id().0);
                member.surface.close();
            }
        }
        self.follow_outputs();
    }
}

impl LayerShellHandler for LayerBar {
    /// The compositor ended the surface (its output is going): a new one is
    /// made where the placement says, when it can be.
    fn closed(&mut self, _: &Connection, _: &QueueHandle<Self>, layer: &LayerSurface) {
        if let Some(member) = self.member_with_card(layer.wl_surface()) {
            return member.surface.card_closed(layer);
        }
        if let Some(member) = self.member_on(layer.wl_surface()) {
            member.surface.close();
            member.surface.reopen = true;
        }
    }

    fn configure(
        &mut self,
        _: &Connection,
        _: &QueueHandle<Self>,
        layer: &LayerSurface,
        configure: LayerSurfaceConfigure,
        _: u32,
    ) {
        if let Some(member) = self.member_with_card(layer.wl_surface()) {
            return member.surface.card_configured(layer);
        }
        let Some(Member { running, surface }) = self.member_on(layer.wl_surface()) else { return };
        let width = match configure.new_size.0 {
            0 => surface.placement.width.unwrap_or(1),
            width => width,
        };
        let height = match configure.new_size.1 {
            0 => surface.placement.height,
            height => height,
        };
        match surface.configured(layer, (width, height)) {
            Ok(Some(see_through)) => running.bar_mut().paint_opaque(!see_through),
            Ok(None) => {}
            Err(error) => {
                tracing::error!("{error:#}");
                self.quit = true;
            }
        }
    }
}

impl ProvidesRegistryState for LayerBar {
    fn registry(&mut self) -> &mut RegistryState {
        &mut self.registry
    }
    registry_handlers![OutputState, SeatState];
}

delegate_compositor!(LayerBar);
delegate_output!(LayerBar);
delegate_seat!(LayerBar);
delegate_pointer!(LayerBar);
delegate_layer!(LayerBar);
delegate_registry!(LayerBar);
delegate_xdg_popup!(LayerBar);
