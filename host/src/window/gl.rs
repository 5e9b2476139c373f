//! The bars' GL side: one context and one femtovg painter for all the bars
//! of the process ([`GlDevice`], kept in a [`SharedDevice`] with what its
//! painters draw from: the images widgets show by handle, and the bars'
//! [`Measure`] that shapes their texts), a surface on each bar's window
//! ([`GlBar`]), and how a bar's finished frame reaches the screen.
//!
//! Painting only a damaged region needs the last frame under it, and
//! presenting only that region needs a way to say so. In order of choice:
//! where the platform's surface hands the bar a [`Presenter`] (with a
//! software rasteriser on X11, whose swap would send the whole window to
//! the server; a see-through bar on Windows), the bar paints into a
//! framebuffer it keeps and the presenter puts the damaged pixels into the
//! window; where EGL keeps the back buffer
//! across swaps (`EGL_BUFFER_PRESERVED`) the region is painted straight into
//! it and swapped with its damage named; elsewhere into a kept framebuffer
//! that is copied whole to the back buffer before the swap.

use crate::render::{Face, Frame, Framebuffer, Measure, Painter, PopupLayout, Rect, Style};
use crate::view::images::HeldImages;
use anyhow::Context;
use femtovg::renderer::OpenGl;
use glutin::config::Config;
use glutin::context::{ContextAttributesBuilder, PossiblyCurrentContext};
use glutin::display::{GetGlDisplay, GlDisplay};
use glutin::prelude::*;
use glutin::surface::{Surface, SurfaceAttributesBuilder, WindowSurface};
use raw_window_handle::RawWindowHandle;
use std::cell::{Cell, RefCell, RefMut};
use std::num::NonZeroU32;
use std::rc::Rc;

/// Asks Mesa's software rasteriser (llvmpipe) to draw on the calling thread
/// instead of its pool of rasteriser threads, unless `LP_NUM_THREADS` says
/// otherwise: a bar repaints a clock's worth of pixels at a time, and
/// waking the pool for that costs more CPU than it saves. Other drivers
/// ignore the variable.
///
/// # Safety
/// Changes the environment: call it before any other thread is started.
pub unsafe fn rasterise_on_calling_thread() {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        unsafe { std::env::set_var("LP_NUM_THREADS", "0") };
    }
}

/// Puts the damaged pixels of a bar's kept frame on the screen where a
/// buffer swap will not do; the platform's surface hands the bar one.
pub trait Presenter {
    /// Puts `region` (device pixels) of the frame bound on the current
    /// context into the window of `size`, whose bar fills the frame's top
    /// `bar_height` rows.
    fn put(&mut self, gl: &glow::Context, region: Rect, size: (u32, u32), bar_height: i32) -> anyhow::Result<()>;

    /// Follows the window to `size`.
    fn resize(&mut self, size: (u32, u32)) -> anyhow::Result<()> {
        let _ = size;
        Ok(())
    }
}

/// The process's GL, shared by its bars: one context, current on one
/// surface at a time, one painter for the bars (femtovg's shaders compiled
/// once: under a software rasteriser most of what a bar's GL costs) and
/// one for their tooltips. Its clones share it.
#[derive(Clone)]
pub struct GlDevice {
    inner: Rc<Device>,
}

struct Device {
    // The painters are dropped before the context their GL objects are of.
    painter: RefCell<Painter<OpenGl>>,
    /// Paints tooltips into their windows. It is a painter of its own
    /// because femtovg deletes the framebuffer it drew into when told to
    /// draw elsewhere: the bars' painter keeps drawing into their frames.
    tooltip_painter: RefCell<Option<Painter<OpenGl>>>,
    gl: glow::Context,
    context: PossiblyCurrentContext,
    /// The GL config every bar's and tooltip's window is made with.
    config: Config,
    /// The bar whose surface the context is current on (0: another's, a tooltip's).
    current: Cell<u64>,
    /// The bar whose frame the painter draws into (0: none yet, or one
    /// whose frame was made anew).
    target: Cell<u64>,
    /// The next bar's number, from 1.
    next_owner: Cell<u64>,
}

/// The bars' GL device, once the first bar's window has made it, and what
/// its painters draw from: the images widgets show by handle, and the
/// bars' measure, which shapes their texts.
pub struct SharedDevice {
    device: Option<GlDevice>,
    held: HeldImages,
    measure: Measure,
}

impl SharedDevice {
    /// No device yet; its painters will draw the images held in `held`
    /// and texts shaped through `measure`.
    pub fn new(held: HeldImages, measure: Measure) -> SharedDevice {
        SharedDevice { device: None, held, measure }
    }

    /// The GL config every bar's window is made with, once the first bar's made it.
    pub fn config(&self) -> Option<&Config> {
        self.device.as_ref().map(GlDevice::config)
    }
}

impl GlDevice {
    /// A context on `config`, made current on `surface` (the first bar's),
    /// and the bars' painter, drawing texts shaped through `measure` and
    /// images from `held`.
    fn new(
        config: &Config,
        handle: RawWindowHandle,
        surface: &Surface<WindowSurface>,
        held: &HeldImages,
        measure: &Measure,
    ) -> anyhow::Result<GlDevice> {
        let display = config.display();
        // SAFETY: the handle is of a live window; the context does not keep it.
        let context = unsafe { display.create_context(config, &ContextAttributesBuilder::new().build(Some(handle))) }
            .context("creating the GL context")?;
        let context = context.make_current(surface).context("activating the GL context")?;
        // SAFETY: the context is current on this thread and the loader is its display's.
        let gl = unsafe { glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name).cast()) };
        let mut painter = Painter::new(renderer(config)?, measure.clone())?;
        painter.use_held_images(held.clone());
        Ok(GlDevice {
            inner: Rc::new(Device {
                painter: RefCell::new(painter),
                tooltip_painter: RefCell::new(None),
                gl,
                context,
                config: config.clone(),
                current: Cell::new(0),
                target: Cell::new(0),
                next_owner: Cell::new(1),
            }),
        })
    }

    /// The GL config its windows are made with.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Makes the context current on `surface`, bar `owner`'s, unless it is.
    fn make_current(&self, owner: u64, surface: &Surface<WindowSurface>) {
        let device = &self.inner;
        if device.current.get() == owner && owner != 0 && device.context.is_current() {
            return;
        }
        match device.context.make_current(surface) {
            Ok(()) => device.current.set(owner),
            Err(error) => {
                device.current.set(0);
                tracing::warn!("activating the GL context on a bar's surface: {error:#}");
            }
        }
    }
}

/// GL on a bar's native window, owned by `W` (a winit window on X11, a
/// layer surface on Wayland), which outlives the GL surface drawing into it.
pub struct GlBar<W> {
    /// How the shared painter paints for this bar.
    face: Face,
    /// The last frame, when the back buffer does not keep it.
    kept: Option<Framebuffer>,
    /// Puts damaged regions of `kept` into the window, instead of swapping.
    presenter: Option<Box<dyn Presenter>>,
    size: (u32, u32),
    // Dropped before the surface, so that the last bar's device lets go of
    // its GL objects with a surface to be current on.
    device: GlDevice,
    surface: Surface<WindowSurface>,
    // Dropped after the surface that draws into it.
    pub window: W,
}

impl<W> GlBar<W> {
    /// GL on the native window `handle`, `size` pixels, owned by `window`,
    /// with the shared device (made here for the first bar).
    pub fn on(
        window: W,
        handle: RawWindowHandle,
        size: (u32, u32),
        config: &Config,
        shared: &mut SharedDevice,
    ) -> anyhow::Result<GlBar<W>> {
        let config = shared.config().unwrap_or(config).clone();
        let (width, height) =
            (NonZeroU32::new(size.0).unwrap_or(NonZeroU32::MIN), NonZeroU32::new(size.1).unwrap_or(NonZeroU32::MIN));
        let surface_attributes = SurfaceAttributesBuilder::<WindowSurface>::new().build(handle, width, height);
        // SAFETY: the handle is of `window`, which outlives the surface (see the field order).
        let surface = unsafe { config.display().create_window_surface(&config, &surface_attributes) }
            .context("creating the GL surface")?;
        let device = match &shared.device {
            Some(device) => device.clone(),
            None => {
                let made = GlDevice::new(&config, handle, &surface, &shared.held, &shared.measure)?;
                shared.device.insert(made).clone()
            }
        };
        let owner = device.inner.next_owner.replace(device.inner.next_owner.get() + 1);
        device.make_current(owner, &surface);
        let kept = match preserve_back_buffer(&surface) {
            true => None,
            false => Some(Framebuffer::new(&device.inner.gl, size.0, size.1).context("the bar's frame")?),
        };
        tracing::debug!(
            "damaged regions are painted {}",
            if kept.is_some() { "into a kept frame" } else { "in place" }
        );
        Ok(GlBar { face: Face { owner, scale: 1.0 }, kept, presenter: None, size, device, surface, window })
    }

    /// The shared painter, painting for this bar, on its surface.
    pub fn painter(&mut self) -> RefMut<'_, Painter<OpenGl>> {
        self.device.make_current(self.face.owner, &self.surface);
        let device = &self.device.inner;
        let mut painter = device.painter.borrow_mut();
        painter.select(self.face);
        if painter.glyphs_over_budget() {
            match renderer(&device.config).and_then(|renderer| painter.start_over(renderer)) {
                // The fresh renderer draws into the window until told otherwise.
                Ok(()) => device.target.set(0),
                Err(error) => tracing::warn!("{error:#}"),
            }
        }
        if device.target.get() != self.face.owner {
            // femtovg draws into the frame of whichever bar drew last.
            let target = self.kept.as_ref().map(|frame| frame.alias(&device.gl)).transpose();
            match target {
                Ok(target) => painter.canvas().renderer_mut().set_screen_target(target),
                Err(error) => tracing::warn!("drawing into the bar's frame: {error:#}"),
            }
            device.target.set(self.face.owner);
        }
        painter
    }

    /// Whether GL draws in software here (Mesa's llvmpipe and the like).
    #[cfg(free_unix)]
    pub fn renders_in_software(&self) -> bool {
        use glow::HasContext;
        // SAFETY: a plain query on the device's context.
        let renderer = unsafe { self.device.inner.gl.get_parameter_string(glow::RENDERER) };
        ["llvmpipe", "softpipe", "swrast"].iter().any(|software| renderer.contains(software))
    }

    /// Has `presenter` put every frame into the window from now on, painted
    /// into a frame of the bar's own whatever the back buffer keeps.
    #[cfg(any(free_unix, windows))]
    pub fn present_through(&mut self, presenter: Box<dyn Presenter>) -> anyhow::Result<()> {
        if self.kept.is_none() {
            self.device.make_current(self.face.owner, &self.surface);
            let (width, height) = self.size;
            self.kept = Some(Framebuffer::new(&self.device.inner.gl, width, height).context("the bar's frame")?);
            self.forget_target();
        }
        tracing::debug!("frames are put into the window by Obi");
        self.presenter = Some(presenter);
        Ok(())
    }

    /// The painter is to be pointed at this bar's frame anew, at its next
    /// use: the frame is another.
    fn forget_target(&self) {
        let device = &self.device.inner;
        if device.target.get() == self.face.owner {
            device.painter.borrow_mut().canvas().renderer_mut().set_screen_target(None);
            device.target.set(0);
        }
    }

    /// The GL config the bar's windows are made with (a tooltip's too).
    pub fn config(&self) -> &Config {
        self.device.config()
    }

    /// Draws `scale` device pixels to a logical one from now on.
    pub fn set_scale(&mut self, scale: f32) {
        self.face.scale = scale;
    }

    /// The window's size in logical pixels, which the bar lays out in.
    pub fn logical_size(&self) -> (f32, f32) {
        let (width, height) = self.size;
        (width as f32 / self.face.scale, height as f32 / self.face.scale)
    }

    /// The window's size as last reported (asking X would cost a round trip
    /// a frame): the Wayland surface follows its configured size with it.
    #[cfg(free_unix)]
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Follows the window to a new size; the caller repaints everything.
    pub fn resize(&mut self, width: NonZeroU32, height: NonZeroU32) {
        self.device.make_current(self.face.owner, &self.surface);
        self.size = (width.get(), height.get());
        self.surface.resize(&self.device.inner.context, width, height);
        if self.kept.is_some() {
            match Framebuffer::new(&self.device.inner.gl, width.get(), height.get()) {
                Ok(frame) => {
                    if let Some(old) = self.kept.replace(frame) {
                        old.delete(&self.device.inner.gl);
                    }
                    self.forget_target();
                }
                Err(error) => tracing::warn!("resizing the bar's frame: {error:#}"),
            }
        }
        if let Some(presenter) = &mut self.presenter
            && let Err(error) = presenter.resize(self.size)
        {
            tracing::warn!("{error:#}");
        }
    }

    /// Follows a Wayland surface to a new size with a GL surface made anew
    /// on `handle`, the same `wl_surface`; the caller repaints everything.
    /// Resizing the `wl_egl_window` is not enough under Mesa's software
    /// rasteriser: once another surface (a tooltip's) has been current on
    /// the context, the first frame after a resize is still drawn into a
    /// buffer of the old size, and an idle bar stays cut until it changes.
    /// A new surface has its size from its first frame.
    #[cfg(free_unix)]
    pub fn resize_anew(
        &mut self,
        handle: RawWindowHandle,
        width: NonZeroU32,
        height: NonZeroU32,
    ) -> anyhow::Result<()> {
        let config = self.device.config();
        let attributes = SurfaceAttributesBuilder::<WindowSurface>::new().build(handle, width, height);
        // SAFETY: the handle is of `self.window`, which outlives the surface (see the field order).
        let surface = unsafe { config.display().create_window_surface(config, &attributes) }
            .with_context(|| format!("making the GL surface anew at {width}x{height}"))?;
        self.device.inner.context.make_current(&surface).context("activating the new GL surface")?;
        self.device.inner.current.set(self.face.owner);
        self.surface = surface;
        self.swap_without_waiting();
        if self.kept.is_none() && !preserve_back_buffer(&self.surface) {
            let frame =
                Framebuffer::new(&self.device.inner.gl, width.get(), height.get()).context("the bar's frame")?;
            self.kept = Some(frame);
            self.forget_target();
        }
        self.resize(width, height);
        Ok(())
    }

    /// Paints `frame`'s damage over the last frame and presents the
    /// result, naming the damage to EGL where it takes it.
    pub fn present(&mut self, frame: Frame) {
        let scale = {
            let mut painter = self.painter();
            painter.paint(frame);
            painter.canvas().flush_to_output(());
            painter.scale()
        };
        // From here on, in the device pixels of the window.
        let (region, layout_window) = (frame.damage.scaled(scale), frame.layout.window.scaled(scale));
        if let Some(presenter) = &mut self.presenter {
            let put = presenter.put(&self.device.inner.gl, region, self.size, layout_window.height as i32);
            if let Err(error) = put {
                tracing::warn!("{error:#}");
            }
            return;
        }
        if let Some(frame) = &self.kept {
            frame.copy_to_window(&self.device.inner.gl);
        }
        if let Err(error) = self.swap(region, layout_window.height as i32) {
            tracing::warn!("presenting the frame failed: {error:#}");
        }
    }

    /// Paints `text` as a tooltip of `size` logical pixels, `scale` device
    /// pixels to each (not always a whole number), into `surface` (a
    /// tooltip's own GL surface, made with [`GlBar::surface_on`]) and
    /// presents it, then turns the context back to the bar.
    pub fn present_tooltip_on(
        &mut self,
        surface: &Surface<WindowSurface>,
        size: (u32, u32),
        scale: f32,
        style: &Style,
        text: &str,
    ) {
        let (width, height) = size;
        self.present_aside(surface, scale, "the tooltip", |painter| painter.paint_tooltip(style, text, width, height));
    }

    /// Paints a popup laid out as `layout` into `surface` (the popup's own
    /// GL surface) at `scale`, presents it, and turns the context back to
    /// the bar.
    pub fn present_popup_on(
        &mut self,
        surface: &Surface<WindowSurface>,
        scale: f32,
        style: &Style,
        layout: &PopupLayout,
    ) {
        self.present_aside(surface, scale, "the popup", |painter| painter.paint_popup(style, layout));
    }

    /// Makes the context current on `surface` (a window beside the bar),
    /// lets `paint` draw into it at `scale` with the painter of such
    /// windows, presents it, then turns the context back to the bar.
    fn present_aside(
        &mut self,
        surface: &Surface<WindowSurface>,
        scale: f32,
        what: &str,
        paint: impl FnOnce(&mut Painter<OpenGl>),
    ) {
        let device = self.device.clone();
        device.make_current(0, surface);
        // femtovg binds its target only when the target changes, and the
        // bar's frame stays bound across the switch of surfaces: unbound,
        // the window beside the bar is drawn into its own surface.
        bind_framebuffer(&device.inner.gl, None);
        match self.tooltip_painter() {
            Ok(mut painter) => {
                painter.set_scale(scale);
                paint(&mut painter);
                painter.canvas().flush_to_output(());
                if let Err(error) = surface.swap_buffers(&device.inner.context) {
                    tracing::warn!("presenting {what}: {error:#}");
                }
            }
            Err(error) => tracing::warn!("painting {what}: {error:#}"),
        }
        device.make_current(self.face.owner, &self.surface);
        bind_framebuffer(&device.inner.gl, self.kept.as_ref().map(|frame| frame.object));
    }

    /// The tooltips' painter; made on the current context the first time.
    fn tooltip_painter(&mut self) -> anyhow::Result<RefMut<'_, Painter<OpenGl>>> {
        let device = &self.device.inner;
        let mut tooltip_painter = device.tooltip_painter.borrow_mut();
        match tooltip_painter.as_mut() {
            None => {
                let bars_painter = device.painter.borrow();
                let mut painter = Painter::new(renderer(&device.config)?, bars_painter.measure())?;
                // A popup shows the bar's held images too (a player's cover).
                painter.use_held_images(bars_painter.held_images());
                *tooltip_painter = Some(painter);
            }
            Some(painter) if painter.glyphs_over_budget() => painter.start_over(renderer(&device.config)?)?,
            Some(_) => {}
        }
        Ok(RefMut::map(tooltip_painter, |painter| painter.as_mut().expect("made above")))
    }

    /// A GL surface of `size` on another native window (a tooltip's), on
    /// this bar's config, for [`GlBar::present_tooltip_on`]; it presents
    /// without waiting for the display to want a frame.
    #[cfg(free_unix)]
    pub fn surface_on(&self, handle: RawWindowHandle, size: (u32, u32)) -> anyhow::Result<Surface<WindowSurface>> {
        let (width, height) =
            (NonZeroU32::new(size.0).unwrap_or(NonZeroU32::MIN), NonZeroU32::new(size.1).unwrap_or(NonZeroU32::MIN));
        let config = self.device.config();
        let attributes = SurfaceAttributesBuilder::<WindowSurface>::new().build(handle, width, height);
        // SAFETY: the caller keeps the native window alive as long as the surface.
        let surface = unsafe { config.display().create_window_surface(config, &attributes) }
            .context("creating the tooltip's GL surface")?;
        self.device.make_current(0, &surface);
        let _ = surface.set_swap_interval(&self.device.inner.context, glutin::surface::SwapInterval::DontWait);
        self.device.make_current(self.face.owner, &self.surface);
        Ok(surface)
    }

    /// Presents without waiting for the display to want a frame: a Wayland
    /// compositor that does not show the surface would otherwise never let
    /// a swap return.
    #[cfg(free_unix)]
    pub fn swap_without_waiting(&self) {
        self.device.make_current(self.face.owner, &self.surface);
        let context = &self.device.inner.context;
        if let Err(error) = self.surface.set_swap_interval(context, glutin::surface::SwapInterval::DontWait) {
            tracing::debug!("the swap interval stays: {error:#}");
        }
    }

    fn swap(&self, changed: Rect, window_height: i32) -> glutin::error::Result<()> {
        #[cfg(egl)]
        if let (Surface::Egl(surface), glutin::context::PossiblyCurrentContext::Egl(context)) =
            (&self.surface, &self.device.inner.context)
        {
            // EGL counts rows from the bottom.
            let rect = glutin::surface::Rect {
                x: changed.x.floor() as i32,
                y: window_height - changed.bottom().ceil() as i32,
                width: changed.width.ceil() as i32 + 1,
                height: changed.height.ceil() as i32 + 1,
            };
            return surface.swap_buffers_with_damage(context, &[rect]);
        }
        #[cfg(not(egl))]
        let _ = (changed, window_height); // CGL swaps whole frames.
        self.surface.swap_buffers(&self.device.inner.context)
    }
}

/// A femtovg renderer (its shaders compiled) on the GL context of
/// `config`'s display, which must be current on this thread.
fn renderer(config: &Config) -> anyhow::Result<OpenGl> {
    let display = config.display();
    // SAFETY: the caller has the context current, and the loader is its display's.
    unsafe { OpenGl::new_from_function_cstr(|name| display.get_proc_address(name).cast()) }
        .context("starting the renderer")
}

fn bind_framebuffer(gl: &glow::Context, framebuffer: Option<glow::Framebuffer>) {
    use glow::HasContext;
    // SAFETY: `framebuffer` is none or one made on this context, which is current.
    unsafe { gl.bind_framebuffer(glow::FRAMEBUFFER, framebuffer) };
}

impl<W> Drop for GlBar<W> {
    fn drop(&mut self) {
        self.device.make_current(self.face.owner, &self.surface);
        self.forget_target();
        if let Some(frame) = &self.kept {
            frame.delete(&self.device.inner.gl);
        }
        self.device.inner.painter.borrow_mut().forget_owner(self.face.owner);
    }
}

/// Asks EGL to keep the back buffer's content across swaps; whether it will.
#[cfg(not(egl))]
fn preserve_back_buffer(_: &Surface<WindowSurface>) -> bool {
    false
}

/// Asks EGL to keep the back buffer's content across swaps; whether it will.
#[cfg(egl)]
fn preserve_back_buffer(surface: &Surface<WindowSurface>) -> bool {
    use glutin::display::{AsRawDisplay, RawDisplay};
    use glutin::surface::{AsRawSurface, RawSurface};
    const EGL_SWAP_BEHAVIOR: i32 = 0x3093;
    const EGL_BUFFER_PRESERVED: i32 = 0x3094;
    type SurfaceAttrib = unsafe extern "C" fn(*const std::ffi::c_void, *const std::ffi::c_void, i32, i32) -> u32;
    let (Surface::Egl(egl), RawSurface::Egl(raw_surface)) = (surface, surface.raw_surface()) else { return false };
    let display = egl.display();
    let RawDisplay::Egl(raw_display) = display.raw_display() else { return false };
    let function = display.get_proc_address(c"eglSurfaceAttrib");
    if function.is_null() {
        return false;
    }
    // SAFETY: eglSurfaceAttrib has this signature in EGL 1.0 onwards; the
    // display and surface are live, and a config without the preserved bit
    // makes it fail with EGL_BAD_MATCH rather than misbehave.
    unsafe {
        let surface_attrib: SurfaceAttrib = std::mem::transmute(function);
        surface_attrib(raw_display, raw_surface, EGL_SWAP_BEHAVIOR, EGL_BUFFER_PRESERVED) == 1
    }
}
