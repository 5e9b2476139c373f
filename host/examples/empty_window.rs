//! The floor of what a bar drawn with winit, glutin and femtovg costs: a
//! 1920×40 window at the top of the screen, on the same GL setup as Obi's
//! (EGL, llvmpipe on the painting thread), cleared to a colour once and
//! then left alone. The desktop benchmark measures it beside Obi and
//! polybar; whatever Obi costs above it is Obi's own.
//!
//! `empty_window --text FONT_FILE` draws a line of text in that font as
//! well, as a bar's first frame does: the floor of a bar that shows text,
//! whose first draw makes the GL driver compile femtovg's shaders and the
//! glyphs be rasterised. `--fallback FONT_FILE` adds a font for what the
//! first lacks (femtovg takes each glyph from the first font that has it)
//! and each `--line TEXT` is drawn too, from the left: the floor of a bar
//! showing those texts, in Chinese, Japanese or Korean say. The font files
//! are mapped, as Obi maps the system's fonts, so that only the pages of the
//! glyphs drawn are resident (a CJK collection is 19 MB). Either way it
//! says on stderr when its first frame was presented.

use femtovg::renderer::OpenGl;
use femtovg::{Canvas, Color, FontId, Paint, TextContext};
use glutin::config::ConfigTemplateBuilder;
use glutin::context::ContextAttributesBuilder;
use glutin::display::GetGlDisplay;
use glutin::prelude::*;
use glutin::surface::{Surface, WindowSurface};
use glutin_winit::{DisplayBuilder, GlWindow};
use raw_window_handle::HasWindowHandle;
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowAttributes, WindowId};

struct Shown {
    canvas: Canvas<OpenGl>,
    fonts: Vec<FontId>,
    surface: Surface<WindowSurface>,
    context: glutin::context::PossiblyCurrentContext,
    window: Window,
}

struct EmptyWindow {
    shown: Option<Shown>,
    started: std::time::Instant,
    /// The text's font, then its fallbacks; none for no text.
    font_files: Vec<std::path::PathBuf>,
    lines: Vec<String>,
    presented: bool,
}

impl ApplicationHandler for EmptyWindow {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.shown.is_some() {
            return;
        }
        let attributes = WindowAttributes::default()
            .with_title("empty-window")
            .with_decorations(false)
            .with_inner_size(PhysicalSize::new(1920, 40))
            .with_position(PhysicalPosition::new(0, 0));
        let (window, config) = DisplayBuilder::new()
            .with_window_attributes(Some(attributes))
            .build(event_loop, ConfigTemplateBuilder::new(), |mut configs| configs.next().unwrap())
            .expect("a window with a GL config");
        let window = window.unwrap();
        let display = config.display();
        let handle = window.window_handle().unwrap().as_raw();
        // SAFETY: the handle is of `window`, which `Shown` drops last.
        let context = unsafe { display.create_context(&config, &ContextAttributesBuilder::new().build(Some(handle))) }
            .expect("a GL context");
        let attributes = window.build_surface_attributes(Default::default()).unwrap();
        // SAFETY: as above.
        let surface = unsafe { display.create_window_surface(&config, &attributes) }.expect("a GL surface");
        let context = context.make_current(&surface).unwrap();
        // SAFETY: the context is current on this thread and the loader is its display's.
        let renderer = unsafe { OpenGl::new_from_function_cstr(|name| display.get_proc_address(name).cast()) }.unwrap();
        let text_context = TextContext::default();
        let fonts = self.font_files.iter().map(|path| add_mapped_font(&text_context, path)).collect();
        let canvas = Canvas::new_with_text_context(renderer, text_context).unwrap();
        self.shown = Some(Shown { canvas, fonts, surface, context, window });
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(shown) = &mut self.shown else { return };
        match event {
            WindowEvent::RedrawRequested => {
                let size = shown.window.inner_size();
                shown.canvas.set_size(size.width, size.height, 1.0);
                shown.canvas.clear_rect(0, 0, size.width, size.height, Color::rgb(0x1e, 0x1e, 0x2e));
                if !shown.fonts.is_empty() {
                    let paint = Paint::color(Color::rgb(0xcd, 0xd6, 0xf4)).with_font(&shown.fonts).with_font_size(14.0);
                    let line = "CPU 3%   Memory 41%   / 63%   Tue 24 November 2026   14:38:07";
                    let _ = shown.canvas.fill_text(1400.0, 25.0, line, &paint);
                    for (at, line) in self.lines.iter().enumerate() {
                        let _ = shown.canvas.fill_text(8.0 + 400.0 * at as f32, 25.0, line, &paint);
                    }
                }
                shown.canvas.flush();
                shown.surface.swap_buffers(&shown.context).unwrap();
                if !std::mem::replace(&mut self.presented, true) {
                    eprintln!("first frame presented {:.1?} after the start", self.started.elapsed());
                }
            }
            WindowEvent::CloseRequested => event_loop.exit(),
            _ => {}
        }
    }
}

fn add_mapped_font(text_context: &TextContext, path: &std::path::Path) -> FontId {
    let file = std::fs::File::open(path).expect("a font file");
    // SAFETY: the bench's fonts are the system's, which nothing rewrites while it runs.
    let mapped = unsafe { memmap2::Mmap::map(&file) }.expect("a mapped font file");
    text_context.add_shared_font_with_index(mapped, 0).expect("a font")
}

fn main() {
    let started = std::time::Instant::now();
    let (mut font_files, mut lines) = (Vec::new(), Vec::new());
    let mut arguments = std::env::args().skip(1);
    while let (Some(option), Some(value)) = (arguments.next(), arguments.next()) {
        match option.as_str() {
            "--text" | "--fallback" => font_files.push(value.into()),
            "--line" => lines.push(value),
            _ => panic!("usage: empty_window [--text FONT_FILE [--fallback FONT_FILE]... [--line TEXT]...]"),
        }
    }
    // As Obi does: llvmpipe rasterises on the painting thread.
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        // SAFETY: no other thread runs yet.
        unsafe { std::env::set_var("LP_NUM_THREADS", "0") };
    }
    let event_loop = EventLoop::new().expect("a display");
    event_loop.run_app(&mut EmptyWindow { shown: None, started, font_files, lines, presented: false }).unwrap();
}
