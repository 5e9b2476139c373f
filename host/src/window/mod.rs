//! The bar on screen: a winit window of the configured height across its
//! monitor, with a GL surface (glutin, EGL preferred: it is faster than GLX
//! under Xvfb) that the [`Painter`] draws into. On X11 the window is a dock
//! that reserves its edge of the screen and sits on every desktop, with an
//! ARGB visual when the bar is see-through; when monitors change, it moves
//! to its monitor again, or hides until that monitor is back.
//!
//! The window repaints only when a widget's state changed or the system asks
//! for it; between those, the event loop sleeps. When the config file is
//! saved, it is read on another thread and the window runs it: a good config
//! replaces the running one (unchanged widgets keep their state), a bad one
//! is logged and ignored.
//!
//! Clicks (double clicks told apart) and scroll ticks go to the item under
//! the cursor when it takes them, and else to the bar's `mouse` config
//! ([`crate::input`]). The window tells the tiler connection which monitor
//! the bar is on, by name.

use crate::bar::{Bar, Monitor, Route, ScreenRect, placement};
use crate::capabilities::HeldImages;
use crate::config::{BarConfig, Diagnostic, Loaded};
use crate::control;
use crate::input::{DoubleClicks, ScrollTicks};
use crate::render::{damage, find_text_font};
use crate::runtime::SchedulerHandle;
use crate::tiler::Connection;
use crate::view::{Input, WidgetState};
use gl::GlBar;
use glutin::config::{Config, ConfigTemplateBuilder};
use glutin::display::GetGlDisplay;
use glutin::prelude::*;
use glutin_winit::{ApiPreference, DisplayBuilder};
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tooltip::{Hover, TooltipWindow};
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowAttributes, WindowId};

mod gl;
mod input;
mod tooltip;
#[cfg(free_unix)]
mod x11;

pub use gl::rasterise_on_calling_thread;
#[cfg(free_unix)]
pub use x11::end_quietly_without_the_display;

/// Messages from other threads to the window's event loop.
#[derive(Debug)]
pub enum BarEvent {
    /// Widget number `index` of the runtime's specs for config `generation` shows `state`.
    Widget { generation: u64, index: usize, state: WidgetState },
    /// The config file was saved, and read again (off the event loop).
    ConfigRead(Box<Result<Loaded, Vec<Diagnostic>>>),
    /// `obi msg ...` from the control socket.
    Control(control::Command),
    /// Monitors were added or removed, or changed resolution.
    MonitorsChanged,
}

/// A handle to send [`BarEvent`]s into the running bar.
pub type BarProxy = EventLoopProxy<BarEvent>;

/// What the bar shares with its widgets' capabilities: the tiler its
/// `mouse` config talks to, and the images widgets show by handle.
pub struct Desktop {
    pub tiler: Connection,
    pub held: HeldImages,
}

pub struct BarWindow {
    bar: Bar,
    /// The configured monitor is gone; the bar is hidden until it is back.
    waiting_for_monitor: bool,
    #[cfg(free_unix)]
    x11: Option<x11::X11>,
    text_font: Vec<u8>,
    config_path: Option<PathBuf>,
    proxy: Option<BarProxy>,
    scheduler: Option<SchedulerHandle>,
    gl: Option<GlBar>,
    /// A widget's state changed since the last frame: its region is
    /// repainted once the events at hand are handled. Any other redraw
    /// comes from the system (an expose, a resize) and repaints everything.
    widgets_changed: bool,
    cursor: (f32, f32),
    desktop: Desktop,
    double_clicks: DoubleClicks,
    scroll_ticks: ScrollTicks,
    /// Where the bar is on the screen, once placed.
    rect: Option<ScreenRect>,
    /// The item the cursor rests on, when it has a tooltip.
    hover: Option<Hover>,
    /// Made when the first tooltip is shown.
    tooltip: Option<TooltipWindow>,
    /// Making the tooltip window failed: tooltips are not shown.
    no_tooltips: bool,
    hidden: bool,
    error: Option<String>,
}

/// Creates the event loop first, so that widget threads can be given a proxy.
pub fn event_loop() -> Result<EventLoop<BarEvent>, String> {
    EventLoop::with_user_event()
        .build()
        .map_err(|error| format!("cannot open the display ({error}); is DISPLAY or WAYLAND_DISPLAY set?"))
}

impl BarWindow {
    /// `config_path`, when given, is watched and reloaded on every save.
    pub fn new(bar: Bar, text_font: Vec<u8>, config_path: Option<PathBuf>, desktop: Desktop) -> BarWindow {
        BarWindow {
            bar,
            waiting_for_monitor: false,
            #[cfg(free_unix)]
            x11: None,
            text_font,
            config_path,
            proxy: None,
            scheduler: None,
            gl: None,
            widgets_changed: false,
            cursor: (0.0, 0.0),
            desktop,
            double_clicks: DoubleClicks::default(),
            scroll_ticks: ScrollTicks::default(),
            rect: None,
            hover: None,
            tooltip: None,
            no_tooltips: false,
            hidden: false,
            error: None,
        }
    }

    /// Runs until the window is closed; the scheduler's widgets report to it.
    pub fn run(mut self, event_loop: EventLoop<BarEvent>, scheduler: SchedulerHandle) -> Result<(), String> {
        self.scheduler = Some(scheduler);
        let _watcher = match &self.config_path {
            Some(path) => {
                let (proxy, saved) = (event_loop.create_proxy(), path.clone());
                Some(crate::watch::watch(path, move || read_config_for(&proxy, &saved))?)
            }
            None => None,
        };
        self.proxy = Some(event_loop.create_proxy());
        // Signals and the control socket hand their commands to the loop alike.
        let deliver = |proxy: BarProxy| move |command| proxy.send_event(BarEvent::Control(command)).is_ok();
        #[cfg(unix)]
        if let Err(error) = control::quit_on_signals(deliver(event_loop.create_proxy())) {
            tracing::warn!("{error}; a signal ends the bar without its clean-up");
        }
        // The bar works without its control socket; say so and go on.
        let _control = control::serve(deliver(event_loop.create_proxy()))
            .inspect_err(|error| tracing::warn!("no control socket, `obi msg` will not reach this bar: {error}"))
            .ok();
        event_loop.run_app(&mut self).map_err(|error| format!("the event loop failed: {error}"))?;
        match self.error {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<GlBar, String> {
        #[cfg(free_unix)]
        {
            use winit::platform::x11::ActiveEventLoopExtX11;
            if event_loop.is_x11() {
                self.x11 = x11::X11::connect()
                    .inspect_err(|error| tracing::warn!("{error}; monitors come from winit, and no strut is set"))
                    .ok();
            }
        }
        // Watching starts before the first look, so no change falls between them.
        if let Some(proxy) = self.proxy.clone() {
            self.watch_monitors(proxy);
        }
        let monitors = self.monitors(event_loop);
        let monitor = self.bar.placement().monitor(&monitors)?;
        self.desktop.tiler.set_bar_output(&monitor.name);
        let rect = self.bar.placement().rect_on(monitor);
        let (window, config) = self.create_window(event_loop, rect)?;
        let mut gl = GlBar::new(window, &config, &self.text_font)?;
        gl.painter().use_held_images(self.desktop.held.clone());
        tracing::info!(
            "bar window {}x{}{:+}{:+} among monitors {} ({})",
            rect.width,
            rect.height,
            rect.x,
            rect.y,
            placement::describe(&monitors),
            config.display().version_string()
        );
        self.reserve(&gl, rect);
        self.rect = Some(rect);
        gl.window.set_visible(!self.hidden);
        Ok(gl)
    }

    /// A window with a GL config: see-through when the bar is and a
    /// compositor can show it (EGL, or else GLX: Mesa's EGL on X11 offers no
    /// ARGB visual without a GPU), opaque otherwise.
    fn create_window(&mut self, event_loop: &ActiveEventLoop, rect: ScreenRect) -> Result<(Window, Config), String> {
        #[cfg(free_unix)]
        let composited = self.x11.as_ref().is_none_or(x11::X11::has_compositor);
        #[cfg(not(free_unix))]
        let composited = true;
        let translucent = self.bar.scene().style.is_translucent();
        if translucent && !composited {
            tracing::info!("no compositor runs: the bar's background is drawn opaque");
        }
        let see_through = if translucent && composited {
            let found = see_through_apis().into_iter().find(|api| offers_see_through(event_loop, api));
            if found.is_none() {
                tracing::warn!("the display offers no see-through GL config: the bar is drawn opaque");
            }
            found
        } else {
            None
        };
        let preference = see_through.unwrap_or(ApiPreference::PreferEgl);
        let template = ConfigTemplateBuilder::new().with_alpha_size(8).with_transparency(see_through.is_some());
        let (window, config) = DisplayBuilder::new()
            .with_preference(preference)
            .with_window_attributes(Some(bar_attributes(rect, see_through.is_some())))
            .build(event_loop, template, pick_config)
            .map_err(|error| format!("creating the bar window: {error}"))?;
        self.bar.paint_opaque(see_through.is_none());
        Ok((window.ok_or("the bar window was not created")?, config))
    }

    /// The monitors as the display server lists them: RandR's on X11,
    /// winit's elsewhere.
    fn monitors(&self, event_loop: &ActiveEventLoop) -> Vec<Monitor> {
        #[cfg(free_unix)]
        if let Some(x11) = &self.x11 {
            match x11.monitors() {
                Ok(monitors) => return monitors,
                Err(error) => tracing::warn!("{error}; asking winit instead"),
            }
        }
        let primary = event_loop.primary_monitor();
        event_loop
            .available_monitors()
            .map(|monitor| Monitor {
                name: monitor.name().unwrap_or_default(),
                rect: ScreenRect {
                    x: monitor.position().x,
                    y: monitor.position().y,
                    width: monitor.size().width,
                    height: monitor.size().height,
                },
                primary: primary.as_ref() == Some(&monitor),
            })
            .collect()
    }

    /// Keeps the bar's edge of the screen free of other windows (X11).
    fn reserve(&self, gl: &GlBar, rect: ScreenRect) {
        #[cfg(free_unix)]
        if let (Some(x11), Some(id)) = (&self.x11, x11::window_id(&gl.window))
            && let Err(error) = x11.reserve(id, rect)
        {
            tracing::warn!("{error}");
        }
        #[cfg(not(free_unix))]
        let _ = (gl, rect);
    }

    /// Puts the bar where its placement says among the monitors there are
    /// now, or hides it while its monitor is missing.
    fn place(&mut self, event_loop: &ActiveEventLoop) {
        let monitors = self.monitors(event_loop);
        let Some(gl) = &self.gl else { return };
        match self.bar.placement().monitor(&monitors) {
            Ok(monitor) => {
                self.desktop.tiler.set_bar_output(&monitor.name);
                let rect = self.bar.placement().rect_on(monitor);
                gl.window.set_outer_position(PhysicalPosition::new(rect.x, rect.y));
                let _ = gl.window.request_inner_size(PhysicalSize::new(rect.width, rect.height));
                self.reserve(gl, rect);
                self.rect = Some(rect);
                if std::mem::take(&mut self.waiting_for_monitor) {
                    tracing::info!("the bar's monitor is back: {}", placement::describe(&monitors));
                    gl.window.set_visible(!self.hidden);
                }
                tracing::info!("bar placed at {}x{}{:+}{:+}", rect.width, rect.height, rect.x, rect.y);
                self.redraw_all();
            }
            Err(error) => {
                if !self.waiting_for_monitor {
                    tracing::warn!("{error}; the bar is hidden until it is back");
                }
                self.waiting_for_monitor = true;
                gl.window.set_visible(false);
            }
        }
    }

    /// Starts reporting monitor changes to the event loop (X11).
    fn watch_monitors(&self, proxy: BarProxy) {
        #[cfg(free_unix)]
        if self.x11.is_some() {
            let watching = x11::X11::connect()
                .and_then(|x11| x11.watch_monitors(move || proxy.send_event(BarEvent::MonitorsChanged).is_ok()));
            if let Err(error) = watching {
                tracing::warn!("{error}; the bar will not follow monitor changes");
            }
        }
        #[cfg(not(free_unix))]
        let _ = proxy;
    }

    /// Paints and presents everything (after an expose, a resize or a reload).
    fn paint_all(&mut self) {
        self.widgets_changed = false;
        let Some(gl) = &mut self.gl else { return };
        let (width, height) = gl.size();
        let layout = gl.painter().lay_out(self.bar.scene(), width, height);
        gl.present(&self.bar.scene().style, &layout, layout.window);
        self.bar.show(layout);
        self.follow_hovered_item();
    }

    /// Paints and presents only what the widgets changed since the last frame.
    fn paint_changes(&mut self) {
        if !std::mem::take(&mut self.widgets_changed) {
            return;
        }
        let Some(gl) = &mut self.gl else { return };
        let (width, height) = gl.size();
        let layout = gl.painter().lay_out(self.bar.scene(), width, height);
        if let Some(changed) = damage(self.bar.shown(), &layout, &self.bar.scene().style) {
            gl.present(&self.bar.scene().style, &layout, changed);
            self.bar.show(layout);
            self.follow_hovered_item();
        }
    }

    /// Redraws all of the window (a new config, a window shown again).
    fn redraw_all(&mut self) {
        if let Some(gl) = &self.gl {
            gl.window.request_redraw();
        }
    }

    /// Gives `input` to the item under the cursor when it takes it, and
    /// else does what the bar's `mouse` config says.
    fn dispatch(&self, input: Input) {
        match self.bar.route(input, self.cursor.0) {
            Route::Widget(event) => {
                if let Some(scheduler) = &self.scheduler {
                    scheduler.send(event);
                }
            }
            Route::Bar(action) => {
                tracing::debug!("{input:?} on the bar: {action:?}");
                action.run(&self.desktop.tiler);
            }
            Route::Nothing => tracing::debug!("{input:?} on the bar: nothing to do"),
        }
    }

    fn obey(&mut self, command: control::Command, event_loop: &ActiveEventLoop) {
        use control::Command;
        let hidden = match command {
            Command::Toggle => !self.hidden,
            Command::Show => false,
            Command::Hide => true,
            Command::Reload => {
                match (&self.config_path, &self.proxy) {
                    (Some(path), Some(proxy)) => {
                        let (path, proxy) = (path.clone(), proxy.clone());
                        let reading = std::thread::Builder::new()
                            .name("obi-config".into())
                            .spawn(move || read_config_for(&proxy, &path));
                        if let Err(error) = reading {
                            tracing::warn!("cannot read the config again: {error}");
                        }
                    }
                    _ => tracing::warn!("reload asked for, but this bar runs the built-in config"),
                }
                return;
            }
            Command::Quit => return event_loop.exit(),
        };
        self.hidden = hidden;
        self.end_hover();
        // A bar waiting for its monitor stays hidden; it shows when the monitor is back.
        let visible = !hidden && !self.waiting_for_monitor;
        if let Some(gl) = &self.gl {
            gl.window.set_visible(visible);
        }
        if visible {
            self.redraw_all();
        }
    }

    /// Runs the config file as read again, if it is good.
    fn reload(&mut self, read: Result<Loaded, Vec<Diagnostic>>, event_loop: &ActiveEventLoop) {
        let Some(path) = self.config_path.clone() else { return };
        let loaded = match read {
            Ok(loaded) => loaded,
            Err(diagnostics) => {
                tracing::error!("{} changed but cannot be used; the bar keeps its running config", path.display());
                diagnostics.iter().for_each(|diagnostic| tracing::error!("{diagnostic}"));
                return;
            }
        };
        loaded.warnings.iter().for_each(|warning| tracing::warn!("{warning}"));
        self.end_hover();
        let reloaded = self.bar.reload(&loaded.config);
        if reloaded.font_changed {
            match find_text_font(self.bar.font_family()) {
                Ok(font) => {
                    self.text_font = font.data;
                    if let Some(gl) = &mut self.gl
                        && let Err(error) = gl.set_text_font(&self.text_font)
                    {
                        tracing::warn!("{error}");
                    }
                }
                Err(error) => tracing::warn!("{error}"),
            }
        }
        if let Some(scheduler) = &self.scheduler {
            scheduler.send(reloaded.reconfigure);
        }
        tracing::info!("reloaded {}", path.display());
        if reloaded.placement_changed {
            self.place(event_loop);
        } else {
            self.redraw_all();
        }
    }
}

/// Reads the config at `path` on the calling thread, never the event
/// loop's (even a bounded file takes its time to read and check), and
/// hands what it read to the bar.
fn read_config_for(proxy: &BarProxy, path: &Path) {
    let _ = proxy.send_event(BarEvent::ConfigRead(Box::new(BarConfig::load(path))));
}

/// A borderless window at `rect`, not shown until its X11 properties are set.
fn bar_attributes(rect: ScreenRect, translucent: bool) -> WindowAttributes {
    let attributes = Window::default_attributes()
        .with_title("obi")
        .with_decorations(false)
        .with_resizable(false)
        .with_visible(false)
        .with_transparent(translucent)
        .with_inner_size(PhysicalSize::new(rect.width, rect.height))
        .with_position(PhysicalPosition::new(rect.x, rect.y));
    #[cfg(free_unix)]
    let attributes = {
        use winit::platform::x11::{WindowAttributesExtX11, WindowType};
        attributes.with_name("obi", "obi").with_x11_window_type(vec![WindowType::Dock])
    };
    attributes
}

/// The GL APIs to ask for a see-through config, in order of preference.
fn see_through_apis() -> Vec<ApiPreference> {
    #[cfg(free_unix)]
    return vec![ApiPreference::PreferEgl, ApiPreference::FallbackEgl];
    #[cfg(not(free_unix))]
    return vec![ApiPreference::PreferEgl];
}

/// Whether `api` has a see-through GL config on this display.
fn offers_see_through(event_loop: &ActiveEventLoop, api: &ApiPreference) -> bool {
    use glutin::display::{Display, DisplayApiPreference};
    use raw_window_handle::HasDisplayHandle;
    let Ok(handle) = event_loop.display_handle() else { return false };
    let preference = match api {
        #[cfg(free_unix)]
        ApiPreference::FallbackEgl => {
            DisplayApiPreference::Glx(Box::new(winit::platform::x11::register_xlib_error_hook))
        }
        #[cfg(egl)]
        _ => DisplayApiPreference::Egl,
        #[cfg(target_os = "macos")]
        _ => DisplayApiPreference::Cgl,
    };
    // SAFETY: the handle is the event loop's display, which outlives this short-lived GL display.
    let Ok(display) = (unsafe { Display::new(handle.as_raw(), preference) }) else { return false };
    let template = ConfigTemplateBuilder::new().with_alpha_size(8).with_transparency(true).build();
    // SAFETY: the template names no native window.
    unsafe { display.find_configs(template) }.is_ok_and(|mut configs| configs.next().is_some())
}

/// Prefers a config with alpha, then one with fewer samples: a bar needs no
/// multisampling.
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
            BarEvent::ConfigRead(read) => self.reload(*read, event_loop),
            BarEvent::MonitorsChanged => self.place(event_loop),
            BarEvent::Control(command) => self.obey(command, event_loop),
            BarEvent::Widget { generation, index, state } => {
                self.widgets_changed |= self.bar.apply(generation, index, state);
            }
        }
    }

    /// Widget changes are painted here, once the loop has handled every
    /// event at hand: changes that arrive together make one frame, and no
    /// redraw request costs the loop another turn.
    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        self.paint_changes();
        let waiting = self.hover.as_ref().filter(|hover| !hover.shown).map(|hover| hover.due);
        match waiting {
            Some(due) if due <= Instant::now() => {
                self.show_tooltip(Some(event_loop));
                event_loop.set_control_flow(ControlFlow::Wait);
            }
            Some(due) => event_loop.set_control_flow(ControlFlow::WaitUntil(due)),
            None => event_loop.set_control_flow(ControlFlow::Wait),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        if self.tooltip.as_ref().is_some_and(|tooltip| tooltip.id() == id) {
            // The tooltip's window only ever needs its picture again.
            if matches!(event, WindowEvent::RedrawRequested) {
                self.repaint_tooltip();
            }
            return;
        }
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => self.paint_all(),
            WindowEvent::Resized(size) => {
                if let (Some(gl), Some(width), Some(height)) =
                    (&mut self.gl, NonZeroU32::new(size.width), NonZeroU32::new(size.height))
                {
                    gl.resize(width, height);
                    self.redraw_all();
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.cursor = (position.x as f32, position.y as f32);
                self.track_hover();
            }
            WindowEvent::CursorLeft { .. } => {
                self.end_hover();
                self.scroll_ticks.reset();
            }
            WindowEvent::MouseInput { state: ElementState::Pressed, button, .. } => {
                self.end_hover();
                let input = match input::from_button(button) {
                    Some(Input::PrimaryClick) if self.double_clicks.press(Instant::now(), self.cursor) => {
                        Some(Input::DoubleClick)
                    }
                    other => other,
                };
                if let Some(input) = input {
                    self.dispatch(input);
                }
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let (horizontal, vertical) = self.bar.mouse().thresholds;
                for direction in self.scroll_ticks.scroll(input::points(delta), horizontal, vertical) {
                    self.dispatch(Input::Scroll(direction));
                }
            }
            _ => {}
        }
    }
}
