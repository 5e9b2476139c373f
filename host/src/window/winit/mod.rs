//! The bars on X11, and wherever winit is the windowing layer: for each
//! bar of the process, a winit window of the configured height across its
//! monitor, with a GL surface (glutin, EGL preferred: it is faster than
//! GLX under Xvfb) that the shared painter draws into. On X11 the window is
//! a dock that reserves its edge of the screen and sits on every desktop,
//! with an ARGB visual when a bar is see-through; when monitors change,
//! each bar moves to its monitor again, or hides until that monitor is
//! back, and with `--every-monitor` bars come and go with monitors.
//! Tooltips and widgets' popups are windows of their own beside the bar;
//! an open popup holds the pointer and the keyboard (on X11 by a grab,
//! `grab`; on Windows by the focus, `focus_hold`), and so does a bar given
//! the keyboard (`keyboard`). Each window hands assistive technology its
//! bar's tree through AccessKit's winit adapter.
//!
//! What a bar does is its [`Running`] bar's: this module is the surfaces
//! and the event loop that feeds them. The loop sleeps between events; a
//! window repaints what its widgets changed once the events at hand are
//! handled, and everything when the system asks.

use super::gl::{GlBar, SharedDevice};
use crate::bar::{
    Bar, BarEvent, CardMonitor, CardPlace, Deliver, Fleet, Flow, Located, Member, NoticeInput, Origin, Output,
    Placement, ReportOutput, Running, ScreenRect, Surface, dispatch, placement,
};
use crate::render::{Frame, PopupLayout, Rect, Style};
use anyhow::Context;
use aside::{AsideWindow, Role};
use glutin::config::{Config, ConfigTemplateBuilder};
use glutin::display::GetGlDisplay;
use glutin::prelude::*;
use glutin_winit::{ApiPreference, DisplayBuilder};
use std::cell::RefCell;
use std::num::NonZeroU32;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowAttributes, WindowId};

mod aside;
mod cards;
#[cfg(windows)]
mod focus_hold;
#[cfg(free_unix)]
mod grab;
mod input;
mod keyboard;
#[cfg(windows)]
mod layered;
#[cfg(windows)]
mod win32;
#[cfg(free_unix)]
mod x11;

#[cfg(free_unix)]
pub use x11::end_quietly_without_the_display;

/// The winit event loop, made first so that widget threads can be given a
/// way to reach it.
pub fn event_loop() -> anyhow::Result<EventLoop<BarEvent>> {
    EventLoop::with_user_event()
        .build()
        .map_err(|error| anyhow::anyhow!("cannot open the display ({error:#}); is DISPLAY or WAYLAND_DISPLAY set?"))
}

/// The monitors of the X server `DISPLAY` names, in RandR's order: the
/// numbering of the bar's `monitor` on X11.
#[cfg(free_unix)]
pub fn x11_monitors() -> anyhow::Result<Vec<crate::bar::Output>> {
    x11::X11::connect()?.monitors()
}

/// How other threads reach `event_loop`.
pub fn deliver_to(event_loop: &EventLoop<BarEvent>) -> Deliver {
    let proxy = event_loop.create_proxy();
    Arc::new(move |event| proxy.send_event(event).is_ok())
}

/// The process's bars, each in a window of its own, on one event loop.
pub struct BarWindows {
    fleet: Fleet,
    members: Vec<Member<WindowSurface>>,
    screen: Screen,
    /// The bars were opened (the loop's first `resumed`).
    opened: bool,
    error: Option<String>,
}

/// The screen the bars share.
#[derive(Clone)]
struct Screen {
    /// The X server, for monitors, struts and the compositor (X11).
    #[cfg(free_unix)]
    x11: Option<Rc<x11::X11>>,
    /// The monitors as last listed.
    monitors: Vec<Output>,
    /// Some bar is see-through: the windows' GL config is asked to be.
    translucent: bool,
    /// The GL of every bar's window, once the first is made.
    gl: Rc<RefCell<SharedGl>>,
}

/// The GL device the bars share, and whether its config shows through.
struct SharedGl {
    device: SharedDevice,
    see_through: bool,
}

/// A bar's window, once made, and what it needs to follow its monitor.
struct WindowSurface {
    /// The bar's space, kept as an AppBar's (Windows); before `gl`, whose
    /// window it names, so that it goes first.
    #[cfg(windows)]
    appbar: Option<win32::AppBar>,
    gl: Option<GlBar<Window>>,
    screen: Screen,
    /// Where the bar is on the screen, once placed.
    rect: Option<ScreenRect>,
    /// The number of the monitor it is on.
    monitor: Option<usize>,
    /// The configured monitor is gone; the bar is hidden until it is back.
    waiting_for_monitor: bool,
    /// The user has not hidden the bar.
    shown: bool,
    /// Made the first time a tooltip is due.
    tooltip: Option<AsideWindow>,
    /// Making the tooltip window failed: tooltips are not shown.
    no_tooltips: bool,
    /// The desktop's notifications, when the bar shows them.
    notices: cards::CardWindows,
    /// The on-screen display, when the bar shows one.
    osd: cards::CardWindows,
    /// Made the first time a popup is due.
    popup_window: Option<AsideWindow>,
    /// Making the popup window failed: popups are not shown.
    no_popups: bool,
    /// The popup shown, where its cells are, to paint it again.
    popup_layout: Option<PopupLayout>,
    /// The shown popup's hold on the pointer and the keyboard.
    #[cfg(free_unix)]
    popup_grab: Option<grab::Grab>,
    /// Where the pointer was last seen on the popup, in its logical pixels.
    #[cfg(windows)]
    popup_pointer: (f32, f32),
    /// Where what the popup's grab sees goes: the bar's event loop.
    #[cfg(free_unix)]
    report_grabbed: ReportGrabbed,
    /// Tells the bar which output it was put on, for its tiler.
    report_output: ReportOutput,
    /// Hands assistive technology the bar's tree, made with the window.
    access: Option<accesskit_winit::Adapter>,
    /// The bar's hold on the keyboard, while it has it.
    keyboard: keyboard::KeyboardHold,
    /// Shift is held (Windows' keys come to the bar's window itself).
    #[cfg(windows)]
    shift: bool,
}

/// Hands what an open popup's grab sees to the bar; false once the loop is gone.
#[cfg(free_unix)]
type ReportGrabbed = Arc<dyn Fn(crate::bar::Grabbed) -> bool + Send + Sync>;

impl BarWindows {
    pub fn new(fleet: Fleet) -> BarWindows {
        let screen = Screen {
            #[cfg(free_unix)]
            x11: None,
            monitors: Vec::new(),
            translucent: false,
            gl: Rc::new(RefCell::new(SharedGl {
                device: SharedDevice::new(fleet.held_images(), fleet.measure()),
                see_through: false,
            })),
        };
        BarWindows { fleet, members: Vec::new(), screen, opened: false, error: None }
    }

    /// Runs until every bar is told to quit or a window is closed.
    pub fn run(mut self, event_loop: EventLoop<BarEvent>) -> anyhow::Result<()> {
        let _listening = self.fleet.listen();
        event_loop.run_app(&mut self).context("the event loop failed")?;
        match self.error {
            Some(error) => Err(anyhow::Error::msg(error)),
            None => Ok(()),
        }
    }

    /// Opens a window for each bar the plan asks for; a bar that cannot
    /// have one is left out (the process fails when none can).
    fn open_all(&mut self, event_loop: &ActiveEventLoop) -> anyhow::Result<()> {
        #[cfg(free_unix)]
        {
            use winit::platform::x11::ActiveEventLoopExtX11;
            if event_loop.is_x11() {
                let _connecting = tracing::debug_span!("connecting to the X server").entered();
                self.screen.x11 = x11::X11::connect()
                    .inspect_err(|error| tracing::warn!("{error:#}; monitors come from winit, and no strut is set"))
                    .ok()
                    .map(Rc::new);
            }
        }
        // Watching starts before the first look, so no change falls between them.
        tracing::debug_span!("watching the monitors").in_scope(|| self.watch_monitors());
        self.screen.monitors = tracing::debug_span!("listing the monitors").in_scope(|| self.list_monitors(event_loop));
        let (started, mut failures) = tracing::debug_span!("starting the bars")
            .in_scope(|| self.fleet.start_first(&names(&self.screen.monitors)));
        self.screen.translucent = started.iter().any(|running| running.bar().scene().style.is_translucent());
        // Watched before any bar is placed.
        self.fleet.follow_tiler_monitors();
        for mut running in started {
            let opened = tracing::debug_span!("opening a bar's window and GL")
                .in_scope(|| open_surface(event_loop, self.screen.clone(), &mut running));
            match opened {
                Ok(surface) => self.members.push(Member { running, surface }),
                Err(error) => failures.push(format!("{error:#}")),
            }
        }
        failures.iter().for_each(|error| tracing::error!("{error:#}"));
        match self.members.is_empty() {
            true => Err(anyhow::Error::msg(failures.join("; "))),
            false => Ok(()),
        }
    }

    /// Starts reporting monitor changes to the event loop (X11, Windows).
    fn watch_monitors(&self) {
        #[cfg(free_unix)]
        if self.screen.x11.is_some() {
            let deliver = self.fleet.deliver();
            let watching =
                x11::X11::connect().and_then(|x11| x11.watch_monitors(move || deliver(BarEvent::MonitorsChanged)));
            if let Err(error) = watching {
                tracing::warn!("{error:#}; the bars will not follow monitor changes");
            }
        }
        #[cfg(windows)]
        {
            let deliver = self.fleet.deliver();
            if let Err(error) = win32::watch_monitors(move || {
                deliver(BarEvent::MonitorsChanged);
            }) {
                tracing::warn!("{error:#}; the bars will not follow monitor changes");
            }
        }
    }

    /// The monitors as the display server lists them: RandR's on X11,
    /// winit's elsewhere.
    fn list_monitors(&self, event_loop: &ActiveEventLoop) -> Vec<Output> {
        #[cfg(free_unix)]
        if let Some(x11) = &self.screen.x11 {
            match x11.monitors() {
                Ok(monitors) => return monitors,
                Err(error) => tracing::warn!("{error:#}; asking winit instead"),
            }
        }
        let primary = event_loop.primary_monitor();
        event_loop
            .available_monitors()
            .map(|monitor| Output {
                name: monitor.name().unwrap_or_default(),
                rect: ScreenRect {
                    x: monitor.position().x,
                    y: monitor.position().y,
                    width: monitor.size().width,
                    height: monitor.size().height,
                },
                primary: primary.as_ref() == Some(&monitor),
                // Windows' monitors are in device pixels, each at its own
                // scale (the process is per-monitor DPI aware, as winit makes it).
                scale: if cfg!(windows) { monitor.scale_factor() } else { 1.0 },
            })
            .collect()
    }

    /// The monitors changed: every bar learns the new list, and with
    /// `--every-monitor` bars come and go with them.
    fn monitors_changed(&mut self, event_loop: &ActiveEventLoop) {
        self.screen.monitors = self.list_monitors(event_loop);
        for member in &mut self.members {
            member.surface.screen.monitors = self.screen.monitors.clone();
        }
        let screen = &self.screen;
        self.fleet.follow_monitors(&mut self.members, &names(&screen.monitors), |running| {
            let opened = open_surface(event_loop, screen.clone(), running);
            opened.inspect_err(|error| tracing::error!("{error:#}")).ok()
        });
    }
}

/// A window for `running`'s bar on `screen`.
/// The names of `monitors`, in their order, as the fleet knows them.
fn names(monitors: &[Output]) -> Vec<String> {
    monitors.iter().map(|monitor| monitor.name.clone()).collect()
}

fn open_surface(event_loop: &ActiveEventLoop, screen: Screen, running: &mut Running) -> anyhow::Result<WindowSurface> {
    let mut surface = WindowSurface {
        #[cfg(windows)]
        appbar: None,
        gl: None,
        screen,
        rect: None,
        monitor: None,
        waiting_for_monitor: false,
        shown: true,
        tooltip: None,
        no_tooltips: false,
        notices: cards::CardWindows::new(aside::Role::Notification),
        osd: cards::CardWindows::new(aside::Role::Osd),
        popup_window: None,
        no_popups: false,
        popup_layout: None,
        #[cfg(free_unix)]
        popup_grab: None,
        #[cfg(windows)]
        popup_pointer: (0.0, 0.0),
        #[cfg(free_unix)]
        report_grabbed: running.report_grabbed(),
        report_output: running.report_output(),
        access: None,
        keyboard: keyboard::KeyboardHold::new(running.report_key()),
        #[cfg(windows)]
        shift: false,
    };
    let tiler_area = running.tiler_monitor_area();
    let handlers = running.access_handlers();
    let gl = surface.open(event_loop, running.bar_mut(), tiler_area, handlers)?;
    gl.window.request_redraw();
    surface.gl = Some(gl);
    Ok(surface)
}

impl WindowSurface {
    fn open(
        &mut self,
        event_loop: &ActiveEventLoop,
        bar: &mut Bar,
        tiler_area: Option<ScreenRect>,
        access: crate::access::Handlers,
    ) -> anyhow::Result<GlBar<Window>> {
        let monitor = bar.placement().monitor(&self.screen.monitors, tiler_area)?;
        (self.report_output)(&monitor.name);
        self.monitor = self.screen.monitors.iter().position(|listed| listed == monitor);
        let (rect, scale) = (bar.placement().rect_on(monitor), monitor.scale);
        let (window, config) = self.create_window(event_loop, rect, bar)?;
        // Before the window is first shown, as AccessKit asks.
        self.access = Some(accesskit_winit::Adapter::with_direct_handlers(
            event_loop,
            &window,
            access.clone(),
            access.clone(),
            access,
        ));
        #[cfg(windows)]
        win32::make_bar(&window, self.screen.gl.borrow().see_through).context("making the bar a tool window")?;
        self.rect = Some(rect);
        // Setting up GL and the painter is most of a start under a software
        // rasteriser (78 of 200 ms): on X11 the window maps before it, its
        // edge reserved, in the theme's background, as polybar's does.
        // Elsewhere it is placed and shown once it can be painted (Windows
        // would show it white meanwhile, and moves an AppBar as it is made).
        let shown_early = self.fill_background(&window, &bar.scene().style);
        if shown_early {
            self.reserve(&window, bar.placement(), rect);
            show(&window, self.shown);
        }
        let mut gl = gl_on(window, &config, &mut self.screen.gl.borrow_mut().device)?;
        gl.set_scale(scale as f32);
        tracing::info!(
            "bar window {}x{}{:+}{:+} among monitors {} ({})",
            rect.width,
            rect.height,
            rect.x,
            rect.y,
            placement::describe(&self.screen.monitors),
            config.display().version_string()
        );
        if !shown_early {
            self.reserve(&gl.window, bar.placement(), rect);
            show(&gl.window, self.shown);
        }
        Ok(gl)
    }

    /// Has the display server fill `window` with the bar's background until
    /// the first frame, where it can (X11); whether it did.
    fn fill_background(&self, window: &Window, style: &Style) -> bool {
        #[cfg(free_unix)]
        if let (Some(x11), Some(id)) = (&self.screen.x11, x11::window_id(window)) {
            let see_through = self.screen.gl.borrow().see_through;
            return x11
                .fill_background(id, style.theme.background, see_through)
                .inspect_err(|error| tracing::debug!("{error:#}"))
                .is_ok();
        }
        let _ = (window, style);
        false
    }

    /// A window with a GL config: see-through when some bar is and a
    /// compositor can show it (EGL, or else GLX: Mesa's EGL on X11 offers no
    /// ARGB visual without a GPU), opaque otherwise. The first bar's window
    /// chooses the config; the others' are made with it, to share its GL.
    fn create_window(
        &mut self,
        event_loop: &ActiveEventLoop,
        rect: ScreenRect,
        bar: &mut Bar,
    ) -> anyhow::Result<(Window, Config)> {
        let shared = self.screen.gl.borrow();
        if let Some(config) = shared.device.config() {
            let attributes = bar_attributes(rect, shared.see_through);
            let window =
                glutin_winit::finalize_window(event_loop, attributes, config).context("creating the bar window")?;
            bar.paint_opaque(!shared.see_through);
            return Ok((window, config.clone()));
        }
        drop(shared);
        #[cfg(free_unix)]
        let composited = self.screen.x11.as_ref().is_none_or(|x11| x11.has_compositor());
        #[cfg(not(free_unix))]
        let composited = true;
        let translucent = self.screen.translucent;
        if translucent && !composited {
            tracing::info!("no compositor runs: the bar's background is drawn opaque");
        }
        // On Windows a see-through bar is a layered window (see `layered`):
        // any GL config will do.
        let layered = cfg!(windows) && translucent;
        let see_through = if translucent && composited && !layered {
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
            .map_err(|error| anyhow::anyhow!("creating the bar window: {error:#}"))?;
        bar.paint_opaque(see_through.is_none() && !layered);
        self.screen.gl.borrow_mut().see_through = see_through.is_some() || layered;
        Ok((window.context("the bar window was not created")?, config))
    }

    /// Keeps the bar's edge of the screen free of other windows: with
    /// struts on X11; on Windows as an AppBar, unless the tiler keeps it
    /// (komorebi, for a `work_area_offset`).
    fn reserve(&mut self, window: &Window, placement: &Placement, rect: ScreenRect) {
        #[cfg(not(windows))]
        let _ = placement;
        #[cfg(free_unix)]
        if let (Some(x11), Some(id)) = (&self.screen.x11, x11::window_id(window))
            && let Err(error) = x11.reserve(id, rect)
        {
            tracing::warn!("{error:#}");
        }
        #[cfg(windows)]
        {
            let monitor = self.output().map_or(rect, |monitor| monitor.rect);
            match (placement.tiler_keeps_space, &self.appbar) {
                (true, _) => self.appbar = None,
                (false, Some(appbar)) => appbar.keep(rect, monitor),
                (false, None) => match win32::AppBar::register(window, rect, monitor) {
                    Ok(appbar) => self.appbar = Some(appbar),
                    Err(error) => tracing::warn!("{error:#}; other windows may cover the bar"),
                },
            }
        }
        #[cfg(not(any(free_unix, windows)))]
        let _ = (window, rect);
    }

    /// Makes the tooltip window, the first time one is due (X11 alone: an
    /// undecorated window placed by hand is an X11 notion).
    fn prepare_tooltips(&mut self, event_loop: &ActiveEventLoop) {
        if self.tooltip.is_some() || self.no_tooltips {
            return;
        }
        let Some(gl) = &self.gl else { return };
        #[cfg(free_unix)]
        {
            use winit::platform::x11::ActiveEventLoopExtX11;
            if !event_loop.is_x11() {
                tracing::info!("tooltips are shown on X11 only for now");
                self.no_tooltips = true;
                return;
            }
        }
        match AsideWindow::new(event_loop, gl.config(), Role::Tooltip) {
            Ok(window) => self.tooltip = Some(window),
            Err(error) => {
                tracing::warn!("{error:#}; tooltips are not shown");
                self.no_tooltips = true;
            }
        }
    }

    /// Makes the popup window, the first time a popup is due, where the
    /// bar can hold the pointer while it is open (see [`popups_held`]).
    fn prepare_popups(&mut self, event_loop: &ActiveEventLoop) {
        if self.popup_window.is_some() || self.no_popups || !popups_held(event_loop) {
            return;
        }
        let Some(gl) = &self.gl else { return };
        match AsideWindow::new(event_loop, gl.config(), Role::Popup) {
            Ok(window) => self.popup_window = Some(window),
            Err(error) => {
                tracing::warn!("{error:#}; widgets' popups are not shown");
                self.no_popups = true;
            }
        }
    }

    /// Paints the popup shown again (its window was exposed).
    fn repaint_popup(&mut self, style: &Style) {
        let scale = self.aside_scale();
        if let (Some(gl), Some(window), Some(layout)) = (&mut self.gl, &self.popup_window, &self.popup_layout) {
            gl.present_popup_on(&window.surface, scale, style, layout);
        }
    }

    /// The monitor the bar's window is on, on the screen; the bar's own
    /// rectangle when winit cannot say.
    fn monitor_rect(&self, bar: ScreenRect) -> ScreenRect {
        let Some(gl) = &self.gl else { return bar };
        gl.window.current_monitor().map_or(bar, |monitor| ScreenRect {
            x: monitor.position().x,
            y: monitor.position().y,
            width: monitor.size().width,
            height: monitor.size().height,
        })
    }

    /// Where the monitor `monitor` names is, for a bar at `bar`: where
    /// the tiler says, else the display's monitor of the tiler's name,
    /// else the bar's own.
    fn card_monitor(&self, bar: ScreenRect, monitor: &CardMonitor) -> ScreenRect {
        let CardMonitor::Focused { name, area } = monitor else { return self.monitor_rect(bar) };
        let named = || self.screen.monitors.iter().find(|output| Some(&output.name) == name.as_ref());
        area.or_else(|| named().map(|output| output.rect)).unwrap_or_else(|| self.monitor_rect(bar))
    }

    /// The monitor the bar is on now.
    fn output(&self) -> Option<&Output> {
        self.monitor.and_then(|index| self.screen.monitors.get(index))
    }

    /// Whether window `id` is this bar's, its tooltip's, its popup's, a
    /// notification's or the on-screen display's.
    fn owns(&self, id: WindowId) -> bool {
        self.gl.as_ref().is_some_and(|gl| gl.window.id() == id)
            || [&self.tooltip, &self.popup_window].into_iter().flatten().any(|aside| aside.id() == id)
            || self.notices.index_of(id).is_some()
            || self.osd.index_of(id).is_some()
    }

    /// Device pixels to each of the bar's on the windows beside it: its
    /// monitor's scale on Windows, 1 on X11.
    fn aside_scale(&self) -> f32 {
        self.output().map_or(1.0, |output| output.scale) as f32
    }

    /// Paints the tooltip shown again (its window was exposed).
    fn repaint_tooltip(&mut self, style: &Style, text: &str) {
        let scale = self.aside_scale();
        if let (Some(gl), Some(tooltip)) = (&mut self.gl, &self.tooltip) {
            let size = gl.painter().tooltip_size(style, text);
            gl.present_tooltip_on(&tooltip.surface, size, scale, style, text);
        }
    }
}

impl Surface for WindowSurface {
    fn size(&self) -> Option<(f32, f32)> {
        Some(self.gl.as_ref()?.logical_size())
    }

    fn present(&mut self, frame: Frame) {
        if let Some(gl) = &mut self.gl {
            gl.present(frame);
        }
    }

    fn redraw(&mut self) {
        if let Some(gl) = &self.gl {
            gl.window.request_redraw();
        }
    }

    fn set_visible(&mut self, visible: bool) {
        self.shown = visible;
        if let Some(gl) = &self.gl {
            show(&gl.window, visible && !self.waiting_for_monitor);
        }
    }

    /// Puts the bar where its placement says among the monitors there are
    /// now, or hides it while its monitor is missing.
    fn place(&mut self, placement: &Placement, tiler_area: Option<ScreenRect>) {
        // Taken while it is placed, so that the surface can note the AppBar.
        let Some(mut gl) = self.gl.take() else { return };
        match placement.monitor(&self.screen.monitors, tiler_area) {
            Ok(monitor) => {
                (self.report_output)(&monitor.name);
                gl.set_scale(monitor.scale as f32);
                self.monitor = self.screen.monitors.iter().position(|listed| listed == monitor);
                let rect = placement.rect_on(monitor);
                gl.window.set_outer_position(PhysicalPosition::new(rect.x, rect.y));
                let _ = gl.window.request_inner_size(PhysicalSize::new(rect.width, rect.height));
                self.reserve(&gl.window, placement, rect);
                self.rect = Some(rect);
                if std::mem::take(&mut self.waiting_for_monitor) {
                    tracing::info!("the bar's monitor is back: {}", placement::describe(&self.screen.monitors));
                    show(&gl.window, self.shown);
                }
                tracing::info!("bar placed at {}x{}{:+}{:+}", rect.width, rect.height, rect.x, rect.y);
                gl.window.request_redraw();
            }
            Err(error) => {
                if !self.waiting_for_monitor {
                    tracing::warn!("{error:#}; the bar is hidden until it is back");
                }
                self.waiting_for_monitor = true;
                self.monitor = None;
                show(&gl.window, false);
            }
        }
        self.gl = Some(gl);
    }

    fn show_tooltip(&mut self, anchor: Rect, text: &str, style: &Style) {
        let Some(bar) = self.rect else { return };
        let (monitor, scale) = (self.monitor_rect(bar), self.aside_scale());
        let (Some(gl), Some(tooltip)) = (&mut self.gl, &mut self.tooltip) else { return };
        let size = gl.painter().tooltip_size(style, text);
        let device = aside::device_size(size, scale);
        tooltip.show_at(aside::position(bar, anchor, scale, device, monitor), device);
        gl.present_tooltip_on(&tooltip.surface, size, scale, style, text);
    }

    fn hide_tooltip(&mut self) {
        if let Some(tooltip) = &self.tooltip {
            tooltip.hide();
        }
    }

    /// Shows the popup in its window under the item, at the monitor's
    /// scale, and holds the pointer and the keyboard while it is open (on
    /// X11 by a grab; on Windows the window takes the focus).
    fn show_popup(&mut self, anchor: Rect, layout: &PopupLayout, style: &Style) -> bool {
        let Some(bar) = self.rect else { return false };
        let (monitor, scale) = (self.monitor_rect(bar), self.aside_scale());
        let (Some(gl), Some(window)) = (&mut self.gl, &mut self.popup_window) else {
            tracing::info!("widgets' popups are not shown here (X11, Wayland and Windows show them)");
            return false;
        };
        let size = aside::device_size(layout.size(), scale);
        window.show_at(aside::position(bar, anchor, scale, size, monitor), size);
        gl.present_popup_on(&window.surface, scale, style, layout);
        #[cfg(free_unix)]
        if self.popup_grab.is_none() {
            self.keyboard.pause();
            let report = self.report_grabbed.clone();
            self.popup_grab = grab::Grab::popup(move |grabbed| report(grabbed))
                .inspect_err(|error| tracing::warn!("{error:#}; a click outside will not close the popup"))
                .ok();
        }
        self.popup_layout = Some(layout.clone());
        true
    }

    fn repaint_popup(&mut self, layout: &PopupLayout, style: &Style) {
        let scale = self.aside_scale();
        let (Some(gl), Some(window)) = (&mut self.gl, &self.popup_window) else { return };
        gl.present_popup_on(&window.surface, scale, style, layout);
        self.popup_layout = Some(layout.clone());
    }

    fn hide_popup(&mut self) {
        #[cfg(free_unix)]
        {
            self.popup_grab = None;
        }
        self.popup_layout = None;
        if let Some(window) = &self.popup_window {
            window.hide();
        }
        if let Some(gl) = &self.gl {
            self.keyboard.resume(&gl.window);
        }
    }

    fn show_notices(&mut self, cards: &[PopupLayout], at: &CardPlace, style: &Style) {
        let Some(bar) = self.rect else { return };
        let (monitor, scale) = (self.card_monitor(bar, &at.monitor), self.aside_scale());
        if let Some(gl) = &mut self.gl {
            self.notices.show(gl, cards, at.place, style, (monitor, Some(bar)), scale);
        }
    }

    fn show_osd(&mut self, card: Option<&PopupLayout>, at: &CardPlace, style: &Style) {
        let Some(bar) = self.rect else { return };
        let (monitor, scale) = (self.card_monitor(bar, &at.monitor), self.aside_scale());
        let cards = card.map_or(&[][..], std::slice::from_ref);
        if let Some(gl) = &mut self.gl {
            self.osd.show(gl, cards, at.place, style, (monitor, Some(bar)), scale);
        }
    }

    fn locate(&self, (x, y): (i32, i32)) -> Located {
        let within = |left: i32, top: i32, (width, height): (u32, u32)| {
            (left..left + width as i32).contains(&x) && (top..top + height as i32).contains(&y)
        };
        if let (Some(window), Some(_)) = (&self.popup_window, &self.popup_layout)
            && within(window.position.x, window.position.y, window.size)
        {
            let scale = self.aside_scale();
            return Located::Popup((x - window.position.x) as f32 / scale, (y - window.position.y) as f32 / scale);
        }
        match self.rect {
            Some(bar) if within(bar.x, bar.y, (bar.width, bar.height)) => {
                let scale = self.output().map_or(1.0, |output| output.scale) as f32;
                Located::Bar((x - bar.x) as f32 / scale, (y - bar.y) as f32 / scale)
            }
            _ => Located::Elsewhere,
        }
    }

    fn monitor(&self) -> Option<usize> {
        self.monitor
    }

    fn origin(&self) -> Origin {
        let scale = self.output().map_or(1.0, |output| output.scale) as f32;
        let (x, y) = self.rect.map_or((0, 0), |bar| (bar.x, bar.y));
        let (output_x, output_y) = self.output().map_or((0, 0), |output| (output.rect.x, output.rect.y));
        Origin { x: x as f32, y: y as f32, output_x: output_x as f32, output_y: output_y as f32, scale }
    }

    fn publish(&mut self, update: &mut dyn FnMut() -> accesskit::TreeUpdate) {
        if let Some(access) = &mut self.access {
            access.update_if_active(update);
        }
    }

    fn hold_keyboard(&mut self, hold: bool) -> bool {
        let Some(gl) = &self.gl else { return false };
        if !self.keyboard.hold(&gl.window, hold) {
            return false;
        }
        // A grab leaves X's focus where it was: assistive technology is
        // told that the bar has the keyboard, as the bar's keys say.
        #[cfg(free_unix)]
        if let Some(access) = &mut self.access {
            access.process_event(&gl.window, &WindowEvent::Focused(hold));
        }
        true
    }
}

/// GL on the bar's `window`, made with `config` or with the shared device's
/// (the first bar's window makes it). Where a swap will not do, frames are
/// put into the window by Obi: under a software rasteriser on X11, and as
/// a layered window's pixels for a see-through bar on Windows.
fn gl_on(window: Window, config: &Config, shared: &mut SharedDevice) -> anyhow::Result<GlBar<Window>> {
    use raw_window_handle::HasWindowHandle;
    let handle = window.window_handle().context("the bar window has no handle")?.as_raw();
    let size = (window.inner_size().width, window.inner_size().height);
    #[cfg(free_unix)]
    let x11_window = x11::window_id(&window);
    #[cfg(windows)]
    let layered = layered::Layered::of(&window, size)?;
    #[cfg_attr(not(any(free_unix, windows)), allow(unused_mut))]
    let mut gl = GlBar::on(window, handle, size, config, shared)?;
    #[cfg(free_unix)]
    if let Some(window) = x11_window
        && gl.renders_in_software()
    {
        match x11::PixelPutter::new(window) {
            Ok(putter) => gl.present_through(Box::new(putter))?,
            Err(error) => tracing::warn!("{error:#}; the bar swaps whole frames"),
        }
    }
    #[cfg(windows)]
    if let Some(layered) = layered {
        gl.present_through(Box::new(layered))?;
    }
    Ok(gl)
}

/// What happens on the window of the `index`th notification the bar shows.
fn notice_event(running: &mut Running, surface: &mut WindowSurface, index: usize, event: WindowEvent) {
    let scale = surface.aside_scale();
    let input = match event {
        WindowEvent::RedrawRequested => {
            if let Some(gl) = &mut surface.gl {
                surface.notices.repaint(gl, index, &running.bar().scene().style, scale);
            }
            return;
        }
        WindowEvent::CursorMoved { position, .. } => {
            let at = position.to_logical::<f32>(f64::from(scale));
            surface.notices.pointer = (at.x, at.y);
            NoticeInput::Moved(at.x, at.y)
        }
        WindowEvent::CursorLeft { .. } => NoticeInput::Left,
        WindowEvent::MouseInput { state: ElementState::Pressed, button, .. } => match input::from_button(button) {
            Some(input) => NoticeInput::Pressed(input, surface.notices.pointer.0, surface.notices.pointer.1),
            None => return,
        },
        _ => return,
    };
    running.notice_input(index, input, surface);
}

/// Whether an open popup can hold the pointer and the keyboard here, as
/// menus do: on X11 by a grab, on Windows by the focus. (Wayland's bar is
/// not a winit window; see `wayland::popup`.)
fn popups_held(event_loop: &ActiveEventLoop) -> bool {
    #[cfg(free_unix)]
    let held = {
        use winit::platform::x11::ActiveEventLoopExtX11;
        event_loop.is_x11()
    };
    #[cfg(not(free_unix))]
    let held = {
        let _ = event_loop;
        cfg!(windows)
    };
    held
}

/// Shows or hides the bar's window.
fn show(window: &Window, visible: bool) {
    #[cfg(windows)]
    win32::show(window, visible);
    #[cfg(not(windows))]
    window.set_visible(visible);
}

/// A borderless window at `rect`, not shown until its X11 properties are set.
fn bar_attributes(rect: ScreenRect, translucent: bool) -> WindowAttributes {
    let attributes = Window::default_attributes()
        .with_title("obi")
        .with_decorations(false)
        .with_resizable(false)
        .with_visible(false)
        // Windows composes a see-through bar as a layered window instead.
        .with_transparent(translucent && !cfg!(windows))
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

impl ApplicationHandler<BarEvent> for BarWindows {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if std::mem::replace(&mut self.opened, true) {
            return;
        }
        if let Err(error) = self.open_all(event_loop) {
            self.error = Some(format!("{error:#}"));
            event_loop.exit();
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: BarEvent) {
        if matches!(event, BarEvent::MonitorsChanged) {
            self.monitors_changed(event_loop);
        }
        if dispatch(&mut self.members, event) == Flow::Quit {
            event_loop.exit();
        }
    }

    /// Widget changes are painted here, once the loop has handled every
    /// event at hand: changes that arrive together make one frame, and no
    /// redraw request costs the loop another turn.
    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let now = Instant::now();
        let mut next_due = None;
        for Member { running, surface } in &mut self.members {
            if running.wants_popup() {
                surface.prepare_popups(event_loop);
            }
            running.paint_changes(surface);
            let notices = running.notices_wanted();
            if let (Some(gl), true) = (&surface.gl, notices > 0) {
                surface.notices.prepare(event_loop, gl.config(), notices);
            }
            running.paint_notices(surface);
            if let (Some(gl), true) = (&surface.gl, running.osd_wanted()) {
                surface.osd.prepare(event_loop, gl.config(), 1);
            }
            running.paint_osd(surface);
            match running.tooltip_due() {
                Some(due) if due <= now => {
                    surface.prepare_tooltips(event_loop);
                    running.show_tooltip(surface);
                }
                Some(due) => next_due = next_due.min(Some(due)).or(Some(due)),
                None => {}
            }
            if let Some(due) = running.osd_due() {
                next_due = next_due.min(Some(due)).or(Some(due));
            }
        }
        event_loop.set_control_flow(next_due.map_or(ControlFlow::Wait, ControlFlow::WaitUntil));
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        if let WindowEvent::ScaleFactorChanged { .. } = event {
            // A monitor's scale changed, or the bar is on another monitor:
            // every bar is placed again, at its monitor's scale.
            return self.user_event(event_loop, BarEvent::MonitorsChanged);
        }
        let Some(Member { running, surface }) = self.members.iter_mut().find(|member| member.surface.owns(id)) else {
            return;
        };
        if surface.popup_window.as_ref().is_some_and(|window| window.id() == id) {
            // On X11 the popup's grab reports its input (`BarEvent::Grabbed`).
            match event {
                WindowEvent::RedrawRequested => surface.repaint_popup(&running.bar().scene().style),
                #[cfg(windows)]
                event => focus_hold::on_popup_window(running, surface, event),
                #[cfg(not(windows))]
                _ => {}
            }
            return;
        }
        if let Some(index) = surface.notices.index_of(id) {
            return notice_event(running, surface, index, event);
        }
        if let Some(index) = surface.osd.index_of(id) {
            // It takes no input: it only ever needs its picture again.
            let scale = surface.aside_scale();
            if let (WindowEvent::RedrawRequested, Some(gl)) = (event, &mut surface.gl) {
                surface.osd.repaint(gl, index, &running.bar().scene().style, scale);
            }
            return;
        }
        if surface.tooltip.as_ref().is_some_and(|tooltip| tooltip.id() == id) {
            // The tooltip's window only ever needs its picture again.
            if matches!(event, WindowEvent::RedrawRequested)
                && let Some(text) = running.shown_tooltip()
            {
                surface.repaint_tooltip(&running.bar().scene().style, text);
            }
            return;
        }
        // The adapter follows where the window is, and whether it has the keyboard.
        if let (Some(access), Some(gl)) = (&mut surface.access, &surface.gl) {
            access.process_event(&gl.window, &event);
        }
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => {
                if running.wants_popup() {
                    surface.prepare_popups(event_loop);
                }
                running.paint_all(surface)
            }
            WindowEvent::Resized(size) => {
                if let (Some(gl), Some(width), Some(height)) =
                    (&mut surface.gl, NonZeroU32::new(size.width), NonZeroU32::new(size.height))
                {
                    gl.resize(width, height);
                    surface.redraw();
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                let logical = position.to_logical::<f32>(surface.output().map_or(1.0, |output| output.scale));
                running.pointer_moved(logical.x, logical.y, surface);
            }
            WindowEvent::CursorLeft { .. } => running.pointer_left(surface),
            WindowEvent::MouseInput { state: ElementState::Pressed, button, .. } => {
                if let Some(input) = input::from_button(button) {
                    running.pressed(input, surface);
                }
            }
            WindowEvent::MouseWheel { delta, .. } => running.scrolled(input::points(delta), surface),
            // Windows' keys reach the bar's window while it holds the keyboard.
            #[cfg(windows)]
            WindowEvent::ModifiersChanged(modifiers) => surface.shift = modifiers.state().shift_key(),
            #[cfg(windows)]
            WindowEvent::KeyboardInput { event, .. }
                if event.state == ElementState::Pressed && surface.keyboard.wanted() =>
            {
                if let Some(key) = keyboard::bar_key(&event.logical_key, surface.shift) {
                    running.key(key, surface);
                }
            }
            #[cfg(windows)]
            WindowEvent::Focused(false) if surface.keyboard.wanted() && surface.popup_layout.is_none() => {
                surface.keyboard.lost();
                running.keyboard_lost(surface);
            }
            _ => {}
        }
    }
}
