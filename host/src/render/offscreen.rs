//! Renders the bar with no window and no X server: an EGL device (Mesa's
//! software renderer here; CGL on macOS), a surfaceless GL context and a framebuffer
//! object that femtovg draws into. The same [`Painter`] as the window's, so
//! a screenshot is exactly what the window shows.

use super::framebuffer::Framebuffer;
use super::{Frame, Layout, Measure, Painter, Rect, Scene};
use anyhow::Context;
use femtovg::renderer::OpenGl;
use glow::HasContext;
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{ContextApi, ContextAttributesBuilder, Version};
use glutin::display::GlDisplay;
use std::path::Path;

pub struct Offscreen {
    pub painter: Painter<OpenGl>,
    gl: glow::Context,
    /// Where fresh renderers come from, when the painter starts over.
    display: surfaceless::Display,
    framebuffer: Framebuffer,
    // Dropped last: the GL objects above belong to this context.
    _context: surfaceless::Context,
}

impl Offscreen {
    /// A `width` x `height` frame, painted at scale 1; texts are shaped
    /// in each scene's text font.
    pub fn new(width: u32, height: u32) -> anyhow::Result<Offscreen> {
        let display = surfaceless::display()?;
        let template = ConfigTemplateBuilder::new().with_surface_type(ConfigSurfaceTypes::empty()).build();
        // SAFETY: the template names no native window.
        let config = unsafe { display.find_configs(template) }
            .context("finding a GL config")?
            .next()
            .context("the GL display offers no config")?;
        let attributes =
            ContextAttributesBuilder::new().with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3)))).build(None);
        // SAFETY: as above, no raw window handle is involved.
        let context = unsafe { display.create_context(&config, &attributes) }
            .context("creating a GL context")?
            .make_current_surfaceless()
            .context("making the GL context current")?;

        // SAFETY: the context is current on this thread, and the loader is its display's.
        let gl = unsafe { glow::Context::from_loader_function_cstr(|name| display.get_proc_address(name).cast()) };
        let framebuffer = Framebuffer::new(&gl, width, height).context("offscreen")?;
        let painter = Painter::new(renderer(&display, &gl, &framebuffer)?, Measure::new())?;
        Ok(Offscreen { painter, gl, display, framebuffer, _context: context })
    }

    pub fn size(&self) -> (u32, u32) {
        (self.framebuffer.width, self.framebuffer.height)
    }

    /// Where everything in `scene` goes on the frame.
    pub fn lay_out(&self, scene: &Scene) -> Layout {
        let (width, height) = self.size();
        self.painter.measure().lay_out(scene, width as f32, height as f32)
    }

    /// Paints all of `scene` and returns where everything went.
    pub fn paint(&mut self, scene: &Scene) -> Layout {
        let layout = self.lay_out(scene);
        self.paint_region(scene, &layout, layout.window);
        layout
    }

    /// Paints the part of `layout` inside `region` over the last frame, as
    /// the window does when widgets change.
    pub fn paint_region(&mut self, scene: &Scene, layout: &Layout, region: Rect) {
        if self.painter.glyphs_over_budget() {
            let started_over = renderer(&self.display, &self.gl, &self.framebuffer)
                .and_then(|renderer| self.painter.start_over(renderer));
            if let Err(error) = started_over {
                tracing::warn!("{error:#}");
            }
        }
        self.painter.paint(Frame { style: &scene.style, layout, damage: region, focus: None });
    }

    /// Waits until the GPU (here, llvmpipe's threads) has drawn everything asked of it.
    pub fn finish(&mut self) {
        self.painter.canvas().flush();
        // SAFETY: the context is current on this thread.
        unsafe { self.gl.finish() };
    }

    /// Paints `scene` and writes the frame to the PNG file at `path`.
    pub fn render(&mut self, scene: &Scene, path: &Path) -> anyhow::Result<()> {
        self.paint(scene);
        let (width, height) = self.size();
        write_png(path, width, height, &self.read_rgba()?)
    }

    /// Reads back the last painted frame as RGBA rows, top row first, with
    /// straight (not premultiplied) alpha, as image files hold it.
    pub fn read_rgba(&mut self) -> anyhow::Result<Vec<u8>> {
        let canvas = self.painter.canvas();
        canvas.flush();
        let image = canvas.screenshot().context("reading the frame back")?;
        Ok(image.into_buf().into_iter().flat_map(|pixel| unpremultiply([pixel.r, pixel.g, pixel.b, pixel.a])).collect())
    }
}

impl Drop for Offscreen {
    fn drop(&mut self) {
        self.framebuffer.delete(&self.gl);
    }
}

/// A femtovg renderer drawing into `framebuffer`, on the context of
/// `display` that is current on this thread.
fn renderer(display: &surfaceless::Display, gl: &glow::Context, framebuffer: &Framebuffer) -> anyhow::Result<OpenGl> {
    // SAFETY: the context is current on this thread, and the loader is its display's.
    let mut renderer = unsafe { OpenGl::new_from_function_cstr(|name| display.get_proc_address(name).cast()) }
        .context("starting the renderer")?;
    // An alias: a renderer deletes its target when it is dropped.
    renderer.set_screen_target(Some(framebuffer.alias(gl)?));
    Ok(renderer)
}

/// A GL display that needs no window system: an EGL device where there is
/// EGL, CGL on macOS.
#[cfg(egl)]
mod surfaceless {
    use anyhow::Context as _;
    use glutin::api::egl::device::Device;
    pub use glutin::api::egl::display::Display;
    pub type Context = glutin::api::egl::context::PossiblyCurrentContext;

    pub fn display() -> anyhow::Result<Display> {
        let device = Device::query_devices()
            .context("no EGL devices for offscreen rendering")?
            .next()
            .context("no EGL device for offscreen rendering (install Mesa's libegl-mesa0 and libgl1-mesa-dri)")?;
        // SAFETY: no native display is passed; the EGL display lives as long
        // as the context and GL objects made from it (all owned by `Offscreen`).
        unsafe { Display::with_device(&device, None) }.context("opening the EGL device")
    }
}

#[cfg(target_os = "macos")]
mod surfaceless {
    use anyhow::Context as _;
    pub use glutin::api::cgl::display::Display;
    use raw_window_handle::{AppKitDisplayHandle, RawDisplayHandle};
    pub type Context = glutin::api::cgl::context::PossiblyCurrentContext;

    pub fn display() -> anyhow::Result<Display> {
        // SAFETY: AppKit's display handle carries nothing; CGL contexts need no window to be current.
        unsafe { Display::new(RawDisplayHandle::AppKit(AppKitDisplayHandle::new())) }.context("opening CGL")
    }
}

fn unpremultiply([r, g, b, a]: [u8; 4]) -> [u8; 4] {
    if a == 0 || a == 255 {
        return [r, g, b, a];
    }
    let straight = |channel: u8| ((channel as u32 * 255 + a as u32 / 2) / a as u32).min(255) as u8;
    [straight(r), straight(g), straight(b), a]
}

/// Writes RGBA rows as a PNG file.
pub fn write_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> anyhow::Result<()> {
    let file = std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().with_context(|| format!("writing {}", path.display()))?;
    writer.write_image_data(rgba).with_context(|| format!("writing {}", path.display()))
}
