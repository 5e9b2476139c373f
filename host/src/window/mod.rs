//! The bar on screen: a winit window of the configured height across its
//! monitor, with a GL surface (glutin, EGL preferred: it is faster than GLX
//! under Xvfb) that the [`Painter`] draws into. On X11 the window is a dock,
//! so window managers keep it out of tiling and on every workspace.
//!
//! The window repaints only when a widget's state changed or the system asks
//! for it; between those, the event loop sleeps. When the config file is
//! saved, the window reloads it: a good config replaces the running one
//! (unchanged widgets keep their state), a bad one is logged and ignored.

use crate::bar::Plan;
use crate::config::{self, BarConfig};
use crate::control;
use crate::render::{DamageHistory, Layout, Painter, Rect, Scene, damage, find_text_font};
use crate::runtime::{SchedulerHandle, WidgetEvent, WidgetSpec};
use crate::view::WidgetState;
use femtovg::Canvas;
use femtovg::renderer::OpenGl;
use glutin::config::{Config, ConfigTemplateBuilder};
use glutin::context::{ContextAttributesBuilder, PossiblyCurrentContext};
use glutin::display::GetGlDisplay;
use glutin::prelude::*;
use glutin::surface::{Surface, WindowSurface};
use glutin_winit::{ApiPreference, DisplayBuilder, GlWindow};
use raw_window_handle::HasWindowHandle;
use std::num::NonZeroU32;
use std::path::PathBuf;
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowAttributes, WindowId};

mod input;

/// Messages from other threads to the window's event loop.
#[derive(Debug)]
pub enum BarEvent {
    /// Widget number `index` of the runtime's specs for config `generation` shows `state`.
    Widget { generation: u64, index: usize, state: WidgetState },
    /// The config file was saved.
    ConfigChanged,
    /// `obi msg ...` from the control socket.
    Control(control::Command),
}

/// A handle to send [`BarEvent`]s into the running bar.
pub type BarProxy = EventLoopProxy<BarEvent>;

pub struct BarWindow {
    scene: Scene,
    monitor: Option<usize>,
    font_family: Option<String>,
    text_font: Vec<u8>,
    /// The runtime's specs and, for each, its widget's index in the scene.
    specs: Vec<WidgetSpec>,
    slots: Vec<usize>,
    /// Counts reloads; widget states of an older config are dropped.
    generation: u64,
    config_path: Option<PathBuf>,
    scheduler: Option<SchedulerHandle>,
    gl: Option<GlBar>,
    /// What the window shows now: the last layout painted.
    shown: Layout,
    history: DamageHistory,
    /// A widget changed and asked for this redraw; any other redraw comes
    /// from the system (an expose, a resize) and repaints everything.
    redraw_for_change: bool,
    cursor_x: f32,
    hidden: bool,
    error: Option<String>,
}

struct GlBar {
    painter: Painter<OpenGl>,
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
    // Dropped after the surface and context that draw into it.
    window: Window,
}

/// Creates the event loop first, so that widget threads can be given a proxy.
pub fn event_loop() -> Result<EventLoop<BarEvent>, String> {
    EventLoop::with_user_event()
        .build()
        .map_err(|error| format!("cannot open the display ({error}); is DISPLAY or WAYLAND_DISPLAY set?"))
}

impl BarWindow {
    /// `config_path`, when given, is watched and reloaded on every save.
    pub fn new(plan: Plan, text_font: Vec<u8>, config_path: Option<PathBuf>) -> BarWindow {
        BarWindow {
            scene: Scene { style: plan.style, widgets: plan.widgets },
            monitor: plan.monitor,
            font_family: plan.font_family,
            text_font,
            specs: plan.specs,
            slots: plan.slots,
            generation: 0,
            config_path,
            scheduler: None,
            gl: None,
            shown: Layout::default(),
            history: DamageHistory::default(),
            redraw_for_change: false,
            cursor_x: 0.0,
            hidden: false,
            error: None,
        }
    }

    /// Runs until the window is closed; the scheduler's widgets report to it.
    pub fn run(mut self, event_loop: EventLoop<BarEvent>, scheduler: SchedulerHandle) -> Result<(), String> {
        self.scheduler = Some(scheduler);
        let _watcher = match &self.config_path {
            Some(path) => {
                let proxy = event_loop.create_proxy();
                Some(config::watch(path, move || {
                    let _ = proxy.send_event(BarEvent::ConfigChanged);
                })?)
            }
            None => None,
        };
        let proxy = event_loop.create_proxy();
        // The bar works without its control socket; say so and go on.
        let _control = control::serve(move |command| proxy.send_event(BarEvent::Control(command)).is_ok())
            .inspect_err(|error| tracing::warn!("no control socket, `obi msg` will not reach this bar: {error}"))
            .ok();
        event_loop.run_app(&mut self).map_err(|error| format!("the event loop failed: {error}"))?;
        match self.error {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<GlBar, String> {
        let monitors: Vec<_> = event_loop.available_monitors().collect();
        let monitor = match self.monitor {
            Some(index) => monitors.get(index).cloned().ok_or_else(|| {
                let found: Vec<String> = monitors
                    .iter()
                    .enumerate()
                    .map(|(index, monitor)| {
                        let size = monitor.size();
                        format!("{index}: {} {}x{}", monitor.name().unwrap_or_default(), size.width, size.height)
                    })
                    .collect();
                format!(
                    "monitor {index} does not exist; found {}",
                    if found.is_empty() { "none".into() } else { found.join(", ") }
                )
            })?,
            None => event_loop.primary_monitor().or_else(|| monitors.first().cloned()).ok_or("no monitor found")?,
        };
        let height = self.scene.style.height.round().max(1.0) as u32;
        let attributes = bar_attributes(monitor.position(), PhysicalSize::new(monitor.size().width, height));
        let template = ConfigTemplateBuilder::new().with_alpha_size(8);
        let (window, config) = DisplayBuilder::new()
            .with_preference(ApiPreference::PreferEgl)
            .with_window_attributes(Some(attributes))
            .build(event_loop, template, pick_config)
            .map_err(|error| format!("creating the bar window: {error}"))?;
        let window = window.ok_or("the bar window was not created")?;
        let handle = window.window_handle().map_err(|error| format!("the bar window has no handle: {error}"))?;
        let gl_display = config.display();
        let display = &gl_display;
        // SAFETY: the handle is of `window`, which outlives the context (see `GlBar`).
        let context =
            unsafe { display.create_context(&config, &ContextAttributesBuilder::new().build(Some(handle.as_raw()))) }
                .map_err(|error| format!("creating the GL context: {error}"))?;
        let surface_attributes = window
            .build_surface_attributes(Default::default())
            .map_err(|error| format!("describing the GL surface: {error}"))?;
        // SAFETY: as above.
        let surface = unsafe { display.create_window_surface(&config, &surface_attributes) }
            .map_err(|error| format!("creating the GL surface: {error}"))?;
        let context = context.make_current(&surface).map_err(|error| format!("activating the GL context: {error}"))?;
        // SAFETY: the context is current on this thread and the loader is its display's.
        let renderer = unsafe { OpenGl::new_from_function_cstr(|name| display.get_proc_address(name).cast()) }
            .map_err(|error| format!("starting the renderer: {error}"))?;
        let canvas = Canvas::new(renderer).map_err(|error| format!("creating the canvas: {error}"))?;
        let painter = Painter::new(canvas, &self.text_font)?;
        tracing::info!(
            "bar window {}x{} on monitor {:?} ({})",
            monitor.size().width,
            height,
            monitor.name().unwrap_or_default(),
            gl_display.version_string()
        );
        Ok(GlBar { painter, surface, context, window })
    }

    /// Paints what changed since the last frame (everything after an expose
    /// or a reload) and presents it, telling EGL which pixels are new.
    fn paint(&mut self) {
        let Some(gl) = &mut self.gl else { return };
        let size = gl.window.inner_size();
        let layout = gl.painter.lay_out(&self.scene, size.width, size.height);
        let changed = if std::mem::take(&mut self.redraw_for_change) {
            damage(&self.shown, &layout, &self.scene.style)
        } else {
            Some(layout.window)
        };
        let Some(changed) = changed else { return };
        let region = self.history.region(gl.surface.buffer_age(), changed, layout.window);
        gl.painter.paint(&self.scene.style, &layout, region);
        gl.painter.canvas().flush_to_output(());
        if let Err(error) = present(gl, changed, size.height) {
            tracing::warn!("presenting the frame failed: {error}");
        }
        self.history.presented(changed);
        self.shown = layout;
    }

    /// Redraws the parts of the window whose widgets changed.
    fn redraw_changes(&mut self) {
        if let Some(gl) = &self.gl {
            self.redraw_for_change = true;
            gl.window.request_redraw();
        }
    }

    /// Redraws all of the window (a new config, a window shown again).
    fn redraw_all(&mut self) {
        if let Some(gl) = &self.gl {
            self.redraw_for_change = false;
            self.history.clear();
            gl.window.request_redraw();
        }
    }

    fn send_input(&self, input: crate::runtime::Input) {
        let Some(hit) =
            self.shown.items.iter().find(|placed| (placed.rect.x..placed.rect.right()).contains(&self.cursor_x))
        else {
            return;
        };
        // Items name scene widgets; the runtime knows its specs.
        let Some(spec) = self.slots.iter().position(|slot| *slot == hit.widget) else { return };
        if let Some(scheduler) = &self.scheduler {
            scheduler.send(WidgetEvent::Input { widget: spec, key: hit.item.key.clone(), input });
        }
    }

    fn obey(&mut self, command: control::Command, event_loop: &ActiveEventLoop) {
        use control::Command;
        let hidden = match command {
            Command::Toggle => !self.hidden,
            Command::Show => false,
            Command::Hide => true,
            Command::Reload => {
                match self.config_path {
                    Some(_) => self.reload(),
                    None => tracing::warn!("reload asked for, but this bar runs the built-in config"),
                }
                return;
            }
            Command::Quit => return event_loop.exit(),
        };
        self.hidden = hidden;
        if let Some(gl) = &self.gl {
            gl.window.set_visible(!hidden);
        }
        if !hidden {
            self.redraw_all();
        }
    }

    /// Reads the config file again and, if it is good, runs it.
    fn reload(&mut self) {
        let Some(path) = self.config_path.clone() else { return };
        let loaded = match BarConfig::load(&path) {
            Ok(loaded) => loaded,
            Err(diagnostics) => {
                tracing::error!("{} changed but cannot be used; the bar keeps its running config", path.display());
                diagnostics.iter().for_each(|diagnostic| tracing::error!("{diagnostic}"));
                return;
            }
        };
        loaded.warnings.iter().for_each(|warning| tracing::warn!("{warning}"));
        let plan = Plan::new(&loaded.config);
        if plan.font_family != self.font_family {
            match find_text_font(plan.font_family.as_deref()) {
                Ok(font) => {
                    self.text_font = font.data;
                    if let Some(gl) = &mut self.gl
                        && let Err(error) = gl.painter.set_text_font(&self.text_font)
                    {
                        tracing::warn!("{error}");
                    }
                }
                Err(error) => tracing::warn!("{error}"),
            }
        }
        let mut widgets = plan.widgets;
        // Unchanged widgets keep showing what they showed; the runtime keeps them running.
        for (spec, slot) in plan.specs.iter().zip(&plan.slots) {
            if let Some(old) = self.specs.iter().position(|old| old == spec) {
                widgets[*slot].state = self.scene.widgets[self.slots[old]].state.clone();
            }
        }
        self.generation += 1;
        if let Some(scheduler) = &self.scheduler {
            scheduler.send(WidgetEvent::Reconfigure { generation: self.generation, specs: plan.specs.clone() });
        }
        let height_changed = plan.style.height != self.scene.style.height;
        self.scene = Scene { style: plan.style, widgets };
        self.specs = plan.specs;
        self.slots = plan.slots;
        self.font_family = plan.font_family;
        self.monitor = plan.monitor;
        if let Some(gl) = &self.gl {
            if height_changed {
                let width = gl.window.inner_size().width;
                let _ = gl
                    .window
                    .request_inner_size(PhysicalSize::new(width, self.scene.style.height.round().max(1.0) as u32));
            }
        }
        self.redraw_all();
        tracing::info!("reloaded {}", path.display());
    }
}

/// Swaps with the damage named, where EGL can take it, so the X server
/// copies only the changed pixels.
fn present(gl: &GlBar, changed: Rect, window_height: u32) -> glutin::error::Result<()> {
    use glutin::context::PossiblyCurrentContext as Context;
    if let (Surface::Egl(surface), Context::Egl(context)) = (&gl.surface, &gl.context) {
        // EGL counts rows from the bottom.
        let rect = glutin::surface::Rect {
            x: changed.x.floor() as i32,
            y: window_height as i32 - changed.bottom().ceil() as i32,
            width: changed.width.ceil() as i32 + 1,
            height: changed.height.ceil() as i32 + 1,
        };
        return surface.swap_buffers_with_damage(context, &[rect]);
    }
    gl.surface.swap_buffers(&gl.context)
}

fn bar_attributes(position: PhysicalPosition<i32>, size: PhysicalSize<u32>) -> WindowAttributes {
    let attributes = Window::default_attributes()
        .with_title("obi")
        .with_decorations(false)
        .with_resizable(false)
        .with_inner_size(size)
        .with_position(position);
    #[cfg(all(unix, not(target_os = "macos")))]
    let attributes = {
        use winit::platform::x11::{WindowAttributesExtX11, WindowType};
        attributes.with_name("obi", "obi").with_x11_window_type(vec![WindowType::Dock])
    };
    attributes
}

/// Prefers a config with alpha (for a translucent background), then the
/// one with fewer samples: a bar needs no multisampling.
fn pick_config(configs: Box<dyn Iterator<Item = Config> + '_>) -> Config {
    configs
        .min_by_key(|config| (config.alpha_size() == 0, config.num_samples()))
        .expect("the display offers at least one GL config")
}

impl ApplicationHandler<BarEvent> for BarWindow {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gl.is_some() {
            return;
        }
        match self.open(event_loop) {
            Ok(gl) => {
                gl.window.request_redraw();
                self.gl = Some(gl);
            }
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: BarEvent) {
        match event {
            BarEvent::ConfigChanged => self.reload(),
            BarEvent::Control(command) => self.obey(command, event_loop),
            BarEvent::Widget { generation, index, state } => {
                if generation != self.generation {
                    return;
                }
                let Some(widget) = self.slots.get(index).and_then(|slot| self.scene.widgets.get_mut(*slot)) else {
                    return;
                };
                if widget.state != state {
                    widget.state = state;
                    self.redraw_changes();
                }
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => self.paint(),
            WindowEvent::Resized(size) => {
                if let (Some(gl), Some(width), Some(height)) =
                    (&self.gl, NonZeroU32::new(size.width), NonZeroU32::new(size.height))
                {
                    gl.surface.resize(&gl.context, width, height);
                    self.redraw_all();
                }
            }
            WindowEvent::CursorMoved { position, .. } => self.cursor_x = position.x as f32,
            WindowEvent::MouseInput { state: ElementState::Pressed, button, .. } => {
                if let Some(input) = input::from_button(button) {
                    self.send_input(input);
                }
            }
            WindowEvent::MouseWheel { delta, .. } => {
                if let Some(input) = input::from_wheel(delta) {
                    self.send_input(input);
                }
            }
            _ => {}
        }
    }
}
