//! The bar window's GL side: the context and surface on the window, the
//! femtovg painter, and how a frame reaches the screen.
//!
//! Painting only a damaged region needs the last frame under it, and
//! presenting only that region needs a way to say so. In order of choice:
//! with a software rasteriser on X11, the bar paints into a framebuffer it
//! keeps and puts the damaged pixels into the window itself (a swap would
//! send the whole window to the server); where EGL keeps the back buffer
//! across swaps (`EGL_BUFFER_PRESERVED`) the region is painted straight into
//! it and swapped with its damage named; elsewhere into a kept framebuffer
//! that is copied whole to the back buffer before the swap.

use super::tooltip::TooltipWindow;
use crate::render::{Framebuffer, Layout, Painter, Rect, Style};
use femtovg::Canvas;
use femtovg::renderer::OpenGl;
use glutin::config::Config;
use glutin::context::{ContextAttributesBuilder, PossiblyCurrentContext};
use glutin::display::{GetGlDisplay, GlDisplay};
use glutin::prelude::*;
use glutin::surface::{Surface, SurfaceAttributesBuilder, WindowSurface};
use raw_window_handle::{HasWindowHandle, RawWindowHandle};
use std::num::NonZeroU32;
use winit::window::Window;

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

/// GL on a bar's native window, owned by `W` (a winit window on X11, a
/// layer surface on Wayland), which outlives the GL surface drawing into it.
pub struct GlBar<W = Window> {
    painter: Painter<OpenGl>,
    /// Paints tooltips, on the same context, into the tooltip's window.
    /// It is a painter of its own because femtovg deletes the framebuffer
    /// it drew into when told to draw elsewhere: the bar's painter keeps
    /// drawing into the bar's frame.
    tooltip_painter: Option<Painter<OpenGl>>,
    /// The last frame, when the back buffer does not keep it.
    kept: Option<Framebuffer>,
    /// Puts damaged regions of `kept` into the window, instead of swapping.
    #[cfg(free_unix)]
    presenter: Option<super::x11::Presenter>,
    gl: glow::Context,
    size: (u32, u32),
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
    /// The GL config of the window, which a tooltip's window must share.
    pub config: Config,
    // Dropped after the surface and context that draw into it.
    pub window: W,
}

impl GlBar<Window> {
    /// GL on a winit window; on X11 with a software rasteriser, frames are
    /// put into the window by Obi (see the module's notes).
    pub fn new(window: Window, config: &Config, text_font: &[u8]) -> Result<GlBar<Window>, String> {
        let handle = window.window_handle().map_err(|error| format!("the bar window has no handle: {error}"))?.as_raw();
        let size = (window.inner_size().width, window.inner_size().height);
        #[cfg(free_unix)]
        let presenter = super::x11::window_id(&window);
        #[cfg(not(free_unix))]
        let presenter = None;
        GlBar::on(window, handle, size, config, text_font, presenter)
    }
}

impl<W> GlBar<W> {
    /// GL on the native window `handle`, `size` pixels, owned by `window`.
    /// `x11_window`, when the window is an X11 one, is where a software
    /// rasteriser's frames are put.
    pub fn on(
        window: W,
        handle: RawWindowHandle,
        size: (u32, u32),
        config: &Config,
        text_font: &[u8],
        x11_window: Option<u32>,
    ) -> Result<GlBar<W>, String> {
        let display = config.display();
        // SAFETY: the handle is of `window`, which outlives the context (see the field order).
        let context = unsafe { display.create_context(config, &ContextAttributesBuilder::new().build(Some(handle))) }
            .map_err(|error| format!("creating the GL context: {error}"))?;
        let (width, height) =
            (NonZeroU32::new(size.0).unwrap_or(NonZeroU32::MIN), NonZeroU32::new(size.1).unwrap_or(NonZeroU32::MIN));
        let surface_attributes = SurfaceAttributesBuilder::<WindowSurface>::new().build(handle, width, height);
        // SAFETY: as above.
        let surface = unsafe { display.create_window_surface(config, &surface_attributes) }
            .map_err(|error| format!("creating the GL surface: {error}"))?;
        let context = context.make_current(&surface).map_err(|error| format!("activating the GL context: {error}"))?;
        // SAFETY: the context is current on this thread and the loader is its display's.
        let mut renderer = unsafe { OpenGl::new_from_function_cstr(|name| display.get_proc_address(name).cast()) }
            .map_err(|error| format!("starting the renderer: {error}"))?;
        // SAFETY: as above.
        let gl = unsafe { glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name).cast()) };
        #[cfg(free_unix)]
        let presenter = x11_window.and_then(|window| software_presenter(&gl, window));
        #[cfg(free_unix)]
        let presents_itself = presenter.is_some();
        #[cfg(not(free_unix))]
        let (presents_itself, _) = (false, x11_window);
        let kept = if !presents_itself && preserve_back_buffer(&surface) {
            None
        } else {
            let frame = Framebuffer::new(&gl, size.0, size.1).map_err(|error| format!("the bar's frame: {error}"))?;
            renderer.set_screen_target(Some(frame.object));
            Some(frame)
        };
        tracing::debug!(
            "damaged regions are painted {}{}",
            if kept.is_some() { "into a kept frame" } else { "in place" },
            if presents_itself { " and put into the window" } else { "" }
        );
        let canvas = Canvas::new(renderer).map_err(|error| format!("creating the canvas: {error}"))?;
        let painter = Painter::new(canvas, text_font)?;
        Ok(GlBar {
            painter,
            tooltip_painter: None,
            kept,
            #[cfg(free_unix)]
            presenter,
            gl,
            size,
            surface,
            context,
            config: config.clone(),
            window,
        })
    }

    pub fn painter(&mut self) -> &mut Painter<OpenGl> {
        self.make_current();
        &mut self.painter
    }

    /// Makes the bar's context current on its surface, when it is not:
    /// each bar of the process has a context of its own, and GL calls go
    /// to whichever is current.
    fn make_current(&self) {
        if self.context.is_current() {
            return;
        }
        if let Err(error) = self.context.make_current(&self.surface) {
            tracing::warn!("activating the bar's GL context: {error}");
        }
    }

    /// `scene` laid out on the window as it is now.
    pub fn lay_out(&mut self, scene: &crate::render::Scene) -> Layout {
        self.make_current();
        let (width, height) = self.size;
        self.painter.lay_out(scene, width, height)
    }

    /// The window's size as last reported (asking X would cost a round trip
    /// a frame): the Wayland surface follows its configured size with it.
    #[cfg(free_unix)]
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// Follows the window to a new size; the caller repaints everything.
    pub fn resize(&mut self, width: NonZeroU32, height: NonZeroU32) {
        self.make_current();
        self.size = (width.get(), height.get());
        self.surface.resize(&self.context, width, height);
        if self.kept.is_some() {
            match Framebuffer::new(&self.gl, width.get(), height.get()) {
                Ok(frame) => {
                    if let Some(old) = self.kept.replace(frame) {
                        old.delete(&self.gl);
                    }
                    let object = self.kept.as_ref().map(|frame| frame.object);
                    self.painter.canvas().renderer_mut().set_screen_target(object);
                }
                Err(error) => tracing::warn!("resizing the bar's frame: {error}"),
            }
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
    ) -> Result<(), String> {
        let attributes = SurfaceAttributesBuilder::<WindowSurface>::new().build(handle, width, height);
        // SAFETY: the handle is of `self.window`, which outlives the surface (see the field order).
        let surface = unsafe { self.config.display().create_window_surface(&self.config, &attributes) }
            .map_err(|error| format!("making the GL surface anew at {width}x{height}: {error}"))?;
        self.context.make_current(&surface).map_err(|error| format!("activating the new GL surface: {error}"))?;
        self.surface = surface;
        self.swap_without_waiting();
        if self.kept.is_none() && !preserve_back_buffer(&self.surface) {
            let frame = Framebuffer::new(&self.gl, width.get(), height.get())
                .map_err(|error| format!("the bar's frame: {error}"))?;
            self.painter.canvas().renderer_mut().set_screen_target(Some(frame.object));
            self.kept = Some(frame);
        }
        self.resize(width, height);
        Ok(())
    }

    /// Paints what of `layout` lies in `region` over the last frame and
    /// presents the result, naming the region to EGL where it takes damage.
    pub fn present(&mut self, style: &Style, layout: &Layout, region: Rect) {
        self.make_current();
        self.painter.paint(style, layout, region);
        self.painter.canvas().flush_to_output(());
        // From here on, in the device pixels of the window.
        let scale = self.painter.scale();
        let (region, layout_window) = (region.scaled(scale), layout.window.scaled(scale));
        #[cfg(free_unix)]
        if let Some(presenter) = &self.presenter {
            if let Err(error) = self.put(presenter, region, layout_window.height as i32) {
                tracing::warn!("{error}");
            }
            return;
        }
        if let Some(frame) = &self.kept {
            frame.copy_to_window(&self.gl);
        }
        if let Err(error) = self.swap(region, layout_window.height as i32) {
            tracing::warn!("presenting the frame failed: {error}");
        }
    }

    /// Paints `text` into the tooltip's window and presents it, then turns
    /// the context back to the bar. `text_font` is the bar's, for the
    /// tooltip's painter when it is first made.
    pub fn present_tooltip(&mut self, tooltip: &TooltipWindow, style: &Style, text: &str, text_font: &[u8]) {
        // An X11 window's size is in device pixels.
        self.present_tooltip_on(&tooltip.surface, tooltip.size, 1.0, style, text, text_font);
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
        text_font: &[u8],
    ) {
        if let Err(error) = self.context.make_current(surface) {
            return tracing::warn!("painting the tooltip: {error}");
        }
        // femtovg binds its target only when the target changes, and the
        // bar's frame stays bound across the switch of surfaces: unbound,
        // the tooltip is drawn into its own window.
        bind_framebuffer(&self.gl, None);
        match self.tooltip_painter(text_font) {
            Ok(painter) => {
                let (width, height) = size;
                painter.set_scale(scale);
                painter.paint_tooltip(style, text, width, height);
                painter.canvas().flush_to_output(());
                if let Err(error) = surface.swap_buffers(&self.context) {
                    tracing::warn!("presenting the tooltip: {error}");
                }
            }
            Err(error) => tracing::warn!("painting the tooltip: {error}"),
        }
        if let Err(error) = self.context.make_current(&self.surface) {
            tracing::warn!("returning to the bar's surface: {error}");
        }
        bind_framebuffer(&self.gl, self.kept.as_ref().map(|frame| frame.object));
    }

    /// The tooltips' painter, made on the current context the first time.
    fn tooltip_painter(&mut self, text_font: &[u8]) -> Result<&mut Painter<OpenGl>, String> {
        if self.tooltip_painter.is_none() {
            let display = self.config.display();
            // SAFETY: the bar's context is current, and the loader is its display's.
            let renderer = unsafe { OpenGl::new_from_function_cstr(|name| display.get_proc_address(name).cast()) }
                .map_err(|error| format!("starting the tooltip's renderer: {error}"))?;
            let canvas = Canvas::new(renderer).map_err(|error| format!("creating the tooltip's canvas: {error}"))?;
            self.tooltip_painter = Some(Painter::new(canvas, text_font)?);
        }
        Ok(self.tooltip_painter.as_mut().expect("made above"))
    }

    /// A GL surface of `size` on another native window (a tooltip's), on
    /// this bar's config, for [`GlBar::present_tooltip_on`]; it presents
    /// without waiting for the display to want a frame.
    #[cfg(free_unix)]
    pub fn surface_on(&self, handle: RawWindowHandle, size: (u32, u32)) -> Result<Surface<WindowSurface>, String> {
        let (width, height) =
            (NonZeroU32::new(size.0).unwrap_or(NonZeroU32::MIN), NonZeroU32::new(size.1).unwrap_or(NonZeroU32::MIN));
        let attributes = SurfaceAttributesBuilder::<WindowSurface>::new().build(handle, width, height);
        // SAFETY: the caller keeps the native window alive as long as the surface.
        let surface = unsafe { self.config.display().create_window_surface(&self.config, &attributes) }
            .map_err(|error| format!("creating the tooltip's GL surface: {error}"))?;
        if self.context.make_current(&surface).is_ok() {
            let _ = surface.set_swap_interval(&self.context, glutin::surface::SwapInterval::DontWait);
        }
        if let Err(error) = self.context.make_current(&self.surface) {
            tracing::warn!("returning to the bar's surface: {error}");
        }
        Ok(surface)
    }

    /// Presents without waiting for the display to want a frame: a Wayland
    /// compositor that does not show the surface would otherwise never let
    /// a swap return.
    #[cfg(free_unix)]
    pub fn swap_without_waiting(&self) {
        if let Err(error) = self.surface.set_swap_interval(&self.context, glutin::surface::SwapInterval::DontWait) {
            tracing::debug!("the swap interval stays: {error}");
        }
    }

    /// Draws text with another font from now on (a reloaded `font_family`).
    pub fn set_text_font(&mut self, text_font: &[u8]) -> Result<(), String> {
        self.make_current();
        // Made again, with the new font, at the next tooltip.
        self.tooltip_painter = None;
        self.painter.set_text_font(text_font)
    }

    /// Reads `region` of the kept frame back and puts it into the window.
    #[cfg(free_unix)]
    fn put(&self, presenter: &super::x11::Presenter, region: Rect, window_height: i32) -> Result<(), String> {
        let x = region.x.floor().max(0.0) as i32;
        let top = region.y.floor().max(0.0) as i32;
        let width = (region.right().ceil() as i32).min(self.size().0 as i32) - x;
        let height = (region.bottom().ceil() as i32).min(window_height) - top;
        if width <= 0 || height <= 0 {
            return Ok(());
        }
        let mut pixels = vec![0; width as usize * height as usize * 4];
        // SAFETY: the kept frame is bound on the current context and `pixels` holds the region.
        unsafe {
            use glow::HasContext;
            // GL counts rows from the bottom.
            let bottom = window_height - top - height;
            let data = glow::PixelPackData::Slice(Some(&mut pixels));
            self.gl.read_pixels(x, bottom, width, height, glow::BGRA, glow::UNSIGNED_BYTE, data);
        }
        let rows: Vec<u8> = pixels.chunks_exact(width as usize * 4).rev().flatten().copied().collect();
        presenter.put(x as i16, top as i16, width as u16, &rows)
    }

    fn swap(&self, changed: Rect, window_height: i32) -> glutin::error::Result<()> {
        #[cfg(egl)]
        if let (Surface::Egl(surface), glutin::context::PossiblyCurrentContext::Egl(context)) =
            (&self.surface, &self.context)
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
        self.surface.swap_buffers(&self.context)
    }
}

fn bind_framebuffer(gl: &glow::Context, framebuffer: Option<glow::Framebuffer>) {
    use glow::HasContext;
    // SAFETY: `framebuffer` is none or one made on this context, which is current.
    unsafe { gl.bind_framebuffer(glow::FRAMEBUFFER, framebuffer) };
}

impl<W> Drop for GlBar<W> {
    fn drop(&mut self) {
        // The painters' GL objects, dropped after this, are this context's too.
        self.make_current();
        if let Some(frame) = &self.kept {
            frame.delete(&self.gl);
        }
    }
}

/// A presenter for the X11 window `window` when GL rasterises in software.
#[cfg(free_unix)]
fn software_presenter(gl: &glow::Context, window: u32) -> Option<super::x11::Presenter> {
    use glow::HasContext;
    // SAFETY: a plain query on the current context.
    let renderer = unsafe { gl.get_parameter_string(glow::RENDERER) };
    if !["llvmpipe", "softpipe", "swrast"].iter().any(|software| renderer.contains(software)) {
        return None;
    }
    super::x11::Presenter::new(window).inspect_err(|error| tracing::warn!("{error}; the bar swaps whole frames")).ok()
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
