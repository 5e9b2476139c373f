//! A framebuffer object that keeps its pixels between frames: the bar is
//! painted into it, a damaged region at a time, and copied whole to the
//! window's back buffer, whose content is undefined after a swap wherever
//! EGL reports no buffer age (Mesa's software rasteriser on X11). The
//! offscreen renderer paints into one too and reads it back.

use glow::HasContext;

pub struct Framebuffer {
    pub object: glow::Framebuffer,
    colour: glow::Renderbuffer,
    stencil: glow::Renderbuffer,
    pub width: u32,
    pub height: u32,
}

impl Framebuffer {
    /// An RGBA framebuffer with a stencil (femtovg fills paths through it),
    /// left bound.
    pub fn new(gl: &glow::Context, width: u32, height: u32) -> anyhow::Result<Framebuffer> {
        // SAFETY: object creation and binding on the caller's current context.
        unsafe {
            let object = gl.create_framebuffer().map_err(anyhow::Error::msg)?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(object));
            let colour = gl.create_renderbuffer().map_err(anyhow::Error::msg)?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(colour));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, width as i32, height as i32);
            gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, glow::RENDERBUFFER, Some(colour));
            let stencil = gl.create_renderbuffer().map_err(anyhow::Error::msg)?;
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(stencil));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::DEPTH24_STENCIL8, width as i32, height as i32);
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::DEPTH_STENCIL_ATTACHMENT,
                glow::RENDERBUFFER,
                Some(stencil),
            );
            let framebuffer = Framebuffer { object, colour, stencil, width, height };
            if gl.check_framebuffer_status(glow::FRAMEBUFFER) != glow::FRAMEBUFFER_COMPLETE {
                framebuffer.delete(gl);
                anyhow::bail!("the framebuffer is incomplete");
            }
            gl.viewport(0, 0, width as i32, height as i32);
            Ok(framebuffer)
        }
    }

    /// Another framebuffer object on the same pixels, for femtovg to own:
    /// it deletes the object it draws into when told to draw elsewhere,
    /// which must not be this one (its pixels are kept across frames).
    pub fn alias(&self, gl: &glow::Context) -> anyhow::Result<glow::Framebuffer> {
        // SAFETY: object creation and binding on the caller's current context.
        unsafe {
            let alias = gl.create_framebuffer().map_err(anyhow::Error::msg)?;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(alias));
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::COLOR_ATTACHMENT0,
                glow::RENDERBUFFER,
                Some(self.colour),
            );
            let stencil = Some(self.stencil);
            gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::DEPTH_STENCIL_ATTACHMENT, glow::RENDERBUFFER, stencil);
            Ok(alias)
        }
    }

    /// Copies all of it to the default framebuffer (the window's back buffer).
    pub fn copy_to_window(&self, gl: &glow::Context) {
        let (width, height) = (self.width as i32, self.height as i32);
        // SAFETY: both framebuffers belong to the current context.
        unsafe {
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.object));
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, None);
            gl.blit_framebuffer(0, 0, width, height, 0, 0, width, height, glow::COLOR_BUFFER_BIT, glow::NEAREST);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.object));
        }
    }

    pub fn delete(&self, gl: &glow::Context) {
        // SAFETY: the objects were made on this context, which is current.
        unsafe {
            gl.delete_framebuffer(self.object);
            gl.delete_renderbuffer(self.colour);
            gl.delete_renderbuffer(self.stencil);
        }
    }
}
