//! The bar as an X11 citizen, over a connection of its own (x11rb): the
//! monitors as RandR lists them (the order `monitor` indexes), a thread that
//! reports when they change, and the properties that make window managers
//! keep the bar's space free (`_NET_WM_STRUT_PARTIAL`) and show it on every
//! desktop, and the colour it maps in; the pixels of its frames, put into
//! its window when GL draws in software. And what a panic means once the
//! X server is gone.

use crate::bar::{Output, ScreenRect};
use crate::colour::Rgba;
use crate::render::Rect;
use crate::window::gl::Presenter;
use anyhow::Context;
use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::Event;
use x11rb::protocol::randr::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{self, AtomEnum, ConnectionExt as _, PropMode};
use x11rb::rust_connection::RustConnection;
use x11rb::wrapper::ConnectionExt as _;

pub struct X11 {
    connection: RustConnection,
    root: xproto::Window,
    screen: usize,
}

impl X11 {
    pub fn connect() -> anyhow::Result<X11> {
        let (connection, screen) = x11rb::connect(None).context("connecting to X")?;
        let root = connection.setup().roots[screen].root;
        let version =
            connection.randr_query_version(1, 5).context("asking for RandR")?.reply().context("asking for RandR")?;
        if (version.major_version, version.minor_version) < (1, 5) {
            anyhow::bail!(
                "the X server has RandR {}.{}; monitors need 1.5",
                version.major_version,
                version.minor_version
            );
        }
        Ok(X11 { connection, root, screen })
    }

    /// The active monitors, in RandR's order.
    pub fn monitors(&self) -> anyhow::Result<Vec<Output>> {
        let reply = self
            .connection
            .randr_get_monitors(self.root, true)
            .context("listing monitors")?
            .reply()
            .context("listing monitors")?;
        reply
            .monitors
            .iter()
            .map(|monitor| {
                let name = self
                    .connection
                    .get_atom_name(monitor.name)
                    .context("listing monitors")?
                    .reply()
                    .context("listing monitors")?;
                Ok(Output {
                    name: String::from_utf8_lossy(&name.name).into_owned(),
                    rect: ScreenRect {
                        x: monitor.x.into(),
                        y: monitor.y.into(),
                        width: monitor.width.into(),
                        height: monitor.height.into(),
                    },
                    primary: monitor.primary,
                    scale: 1.0,
                })
            })
            .collect()
    }

    /// Whether a compositor runs (it owns `_NET_WM_CM_S<screen>`): without
    /// one, nothing shows through a window whatever its visual.
    pub fn has_compositor(&self) -> bool {
        let owner = || -> Result<u32, Box<dyn std::error::Error>> {
            let name = format!("_NET_WM_CM_S{}", self.screen);
            let atom = self.connection.intern_atom(false, name.as_bytes())?.reply()?.atom;
            Ok(self.connection.get_selection_owner(atom)?.reply()?.owner)
        };
        owner().is_ok_and(|owner| owner != x11rb::NONE)
    }

    /// Tells window managers that `bar` (at `rect` on the root window)
    /// keeps its edge of the screen, and that it belongs on every desktop.
    pub fn reserve(&self, bar: u32, rect: ScreenRect) -> anyhow::Result<()> {
        let screen = self
            .connection
            .get_geometry(self.root)
            .context("setting the bar's strut")?
            .reply()
            .context("setting the bar's strut")?;
        let atom = |name: &str| -> anyhow::Result<u32> {
            Ok(self
                .connection
                .intern_atom(false, name.as_bytes())
                .context("setting the bar's strut")?
                .reply()
                .context("setting the bar's strut")?
                .atom)
        };
        let (left, right) = (rect.x.max(0) as u32, (rect.x + rect.width as i32 - 1).max(0) as u32);
        let screen_height = i32::from(screen.height);
        // A bar in the upper half of the screen holds the top edge, else the bottom one.
        let strut: [u32; 12] = if rect.y + rect.height as i32 / 2 < screen_height / 2 {
            [0, 0, (rect.y + rect.height as i32).max(0) as u32, 0, 0, 0, 0, 0, left, right, 0, 0]
        } else {
            [0, 0, 0, (screen_height - rect.y).max(0) as u32, 0, 0, 0, 0, 0, 0, left, right]
        };
        let connection = &self.connection;
        let cardinal = AtomEnum::CARDINAL;
        connection
            .change_property32(PropMode::REPLACE, bar, atom("_NET_WM_STRUT_PARTIAL")?, cardinal, &strut)
            .context("setting the bar's strut")?;
        connection
            .change_property32(PropMode::REPLACE, bar, atom("_NET_WM_STRUT")?, cardinal, &strut[..4])
            .context("setting the bar's strut")?;
        connection
            .change_property32(PropMode::REPLACE, bar, atom("_NET_WM_DESKTOP")?, cardinal, &[ALL_DESKTOPS])
            .context("setting the bar's strut")?;
        let sticky = atom("_NET_WM_STATE_STICKY")?;
        connection
            .change_property32(PropMode::REPLACE, bar, atom("_NET_WM_STATE")?, AtomEnum::ATOM, &[sticky])
            .context("setting the bar's strut")?;
        connection.flush().context("setting the bar's strut")
    }

    /// Has the server fill `window` with `colour` where nothing is drawn,
    /// as it maps and until the first frame: the bar shows in its colour at
    /// once, not what was beneath it. On a 32-bit (see-through) window the
    /// pixel is premultiplied, as compositors read it.
    pub fn fill_background(&self, window: u32, colour: Rgba, see_through: bool) -> anyhow::Result<()> {
        let attributes = xproto::ChangeWindowAttributesAux::new().background_pixel(pixel(colour, see_through));
        // Checked, so the server has it before winit's connection maps the window.
        self.connection
            .change_window_attributes(window, &attributes)
            .context("filling the bar's window")?
            .check()
            .context("filling the bar's window")
    }

    /// Calls `changed` (on a thread of its own) whenever monitors are added,
    /// removed or change resolution, until it returns false. Outputs and
    /// their modes are told by RandR's events; monitors a client sets
    /// (`xrandr --setmonitor`, an ultrawide split in two) only by the
    /// root window's ConfigureNotify, which the server sends for them.
    pub fn watch_monitors(self, mut changed: impl FnMut() -> bool + Send + 'static) -> anyhow::Result<()> {
        let mask = randr::NotifyMask::SCREEN_CHANGE | randr::NotifyMask::CRTC_CHANGE | randr::NotifyMask::OUTPUT_CHANGE;
        self.connection.randr_select_input(self.root, mask).context("watching monitors")?;
        let root_changes = xproto::ChangeWindowAttributesAux::new().event_mask(xproto::EventMask::STRUCTURE_NOTIFY);
        self.connection.change_window_attributes(self.root, &root_changes).context("watching monitors")?;
        self.connection.flush().context("watching monitors")?;
        std::thread::Builder::new()
            .name("obi-monitors".into())
            .spawn(move || {
                loop {
                    let monitors_changed = match self.connection.wait_for_event() {
                        Ok(Event::RandrScreenChangeNotify(_) | Event::RandrNotify(_)) => true,
                        Ok(Event::ConfigureNotify(configured)) => configured.window == self.root,
                        Ok(_) => false,
                        Err(error) => {
                            tracing::warn!("lost the X connection that watches monitors: {error:#}");
                            return;
                        }
                    };
                    if monitors_changed {
                        self.settle();
                        self.probe();
                        if !changed() {
                            return;
                        }
                    }
                }
            })
            .map(drop)
            .context("watching monitors")
    }
}

impl X11 {
    /// Waits until no event has come for [`SETTLE`]: a mode switch is
    /// a burst of them, and the server may report the new monitors only
    /// after the first (Xephyr does).
    fn settle(&self) {
        let mut quiet_since = std::time::Instant::now();
        while quiet_since.elapsed() < SETTLE {
            match self.connection.poll_for_event() {
                Ok(Some(_)) => quiet_since = std::time::Instant::now(),
                Ok(None) => std::thread::sleep(SETTLE / 10),
                Err(_) => return,
            }
        }
    }
}

impl X11 {
    /// Asks the server to look at its outputs again (GetScreenResources
    /// does, unlike the cached calls): some servers (Xephyr, some drivers)
    /// update their monitor list only when asked, after telling of a change.
    fn probe(&self) {
        let probed = self
            .connection
            .randr_get_screen_resources(self.root)
            .map_err(x11rb::errors::ReplyError::from)
            .and_then(|cookie| cookie.reply());
        if let Err(error) = probed {
            tracing::warn!("probing monitors: {error:#}");
        }
    }
}

const SETTLE: std::time::Duration = std::time::Duration::from_millis(200);

/// Makes a panic once the X server has gone away (winit panics on the
/// requests it still makes over the dead connection) the bar ending with
/// its display: one line and exit status 1, as when Xlib sees the loss
/// first. A panic while the server is there is reported as ever.
pub fn end_quietly_without_the_display() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |panic| {
        if std::env::var_os("DISPLAY").is_some() && x11rb::connect(None).is_err() {
            eprintln!("obi: the X server went away; the bar ends with it");
            std::process::exit(1);
        }
        report(panic);
    }));
}

/// `colour` as a pixel of a 24-bit window, or of a 32-bit one premultiplied.
fn pixel(colour: Rgba, see_through: bool) -> u32 {
    let Rgba(red, green, blue, alpha) = colour;
    let channel = |value: u8| match see_through {
        true => u32::from(value) * u32::from(alpha) / 255,
        false => u32::from(value),
    };
    let alpha = if see_through { u32::from(alpha) } else { 0 };
    alpha << 24 | channel(red) << 16 | channel(green) << 8 | channel(blue)
}

/// The X11 id of a winit window, when it is one.
pub fn window_id(window: &winit::window::Window) -> Option<u32> {
    use raw_window_handle::{HasWindowHandle, RawWindowHandle};
    match window.window_handle().ok()?.as_raw() {
        RawWindowHandle::Xlib(handle) => Some(handle.window as u32),
        RawWindowHandle::Xcb(handle) => Some(handle.window.get()),
        _ => None,
    }
}

/// `_NET_WM_DESKTOP`'s "all desktops".
const ALL_DESKTOPS: u32 = 0xFFFF_FFFF;

/// Puts pixels straight into a window: how the bar presents a damaged
/// region when GL renders in software and its swap would send the whole
/// window to the server every frame.
pub struct PixelPutter {
    connection: RustConnection,
    window: u32,
    gc: u32,
    depth: u8,
    /// Rows of this many bytes fit in one request.
    request_bytes: usize,
    /// The region being put, kept from frame to frame.
    pixels: Vec<u8>,
}

impl PixelPutter {
    pub fn new(window: u32) -> anyhow::Result<PixelPutter> {
        let (connection, _) = x11rb::connect(None).context("preparing to draw into the bar window")?;
        let depth = connection
            .get_geometry(window)
            .context("preparing to draw into the bar window")?
            .reply()
            .context("preparing to draw into the bar window")?
            .depth;
        let gc = connection.generate_id().context("preparing to draw into the bar window")?;
        connection
            .create_gc(gc, window, &xproto::CreateGCAux::new())
            .context("preparing to draw into the bar window")?
            .check()
            .context("preparing to draw into the bar window")?;
        // Room for the request's own header.
        let request_bytes = connection.maximum_request_bytes().saturating_sub(64);
        Ok(PixelPutter { connection, window, gc, depth, request_bytes, pixels: Vec::new() })
    }

    /// Puts a region of `width` × `height` pixels at `x`, `y`, which `fill`
    /// writes bottom row first (as GL reads them back), 4 bytes a pixel in
    /// the server's 32-bit order (B, G, R, A on little-endian).
    pub fn put_from_bottom(
        &mut self,
        (x, y): (i16, i16),
        (width, height): (u16, u16),
        fill: impl FnOnce(&mut [u8]),
    ) -> anyhow::Result<()> {
        let row = width as usize * 4;
        self.pixels.resize(row * height as usize, 0);
        fill(&mut self.pixels);
        flip_rows(&mut self.pixels, row);
        let pixels = &self.pixels;
        let rows_per_request = (self.request_bytes / row.max(1)).max(1);
        for (strip, chunk) in pixels.chunks(row * rows_per_request).enumerate() {
            let top = y + (strip * rows_per_request) as i16;
            let rows = (chunk.len() / row) as u16;
            let format = xproto::ImageFormat::Z_PIXMAP;
            self.connection
                .put_image(format, self.window, self.gc, width, rows, x, top, 0, self.depth, chunk)
                .context("drawing into the bar window")?;
        }
        self.connection.flush().context("drawing into the bar window")
    }
}

impl Presenter for PixelPutter {
    /// Reads `region` of the kept frame back and puts it into the window.
    fn put(&mut self, gl: &glow::Context, region: Rect, size: (u32, u32), bar_height: i32) -> anyhow::Result<()> {
        let x = region.x.floor().max(0.0) as i32;
        let top = region.y.floor().max(0.0) as i32;
        let width = (region.right().ceil() as i32).min(size.0 as i32) - x;
        let height = (region.bottom().ceil() as i32).min(bar_height) - top;
        if width <= 0 || height <= 0 {
            return Ok(());
        }
        self.put_from_bottom((x as i16, top as i16), (width as u16, height as u16), |pixels| {
            // SAFETY: the kept frame is bound on the current context and `pixels` holds the region.
            unsafe {
                use glow::HasContext;
                // GL counts rows from the bottom.
                let bottom = bar_height - top - height;
                let data = glow::PixelPackData::Slice(Some(pixels));
                gl.read_pixels(x, bottom, width, height, glow::BGRA, glow::UNSIGNED_BYTE, data);
            }
        })
    }
}

/// Turns rows of `row` bytes upside down, in place.
fn flip_rows(pixels: &mut [u8], row: usize) {
    let rows = pixels.len() / row.max(1);
    for upper in 0..rows / 2 {
        let (above, below) = pixels.split_at_mut((rows - 1 - upper) * row);
        above[upper * row..][..row].swap_with_slice(&mut below[..row]);
    }
}

#[cfg(test)]
mod tests {
    use super::{Rgba, flip_rows, pixel};

    #[test]
    fn a_background_is_a_pixel_of_the_windows_depth() {
        let catppuccin = Rgba(0x1e, 0x1e, 0x2e, 0x80);
        assert_eq!(pixel(catppuccin, false), 0x1e1e2e, "opaque: the colour, its alpha dropped");
        assert_eq!(pixel(catppuccin, true), 0x800f0f17, "see-through: premultiplied");
    }

    #[test]
    fn rows_are_turned_upside_down_in_place() {
        let mut odd = *b"aabbccddee";
        flip_rows(&mut odd, 2);
        assert_eq!(&odd, b"eeddccbbaa");
        let mut even = *b"abcdefgh";
        flip_rows(&mut even, 4);
        assert_eq!(&even, b"efghabcd");
        let mut one = *b"abcd";
        flip_rows(&mut one, 4);
        assert_eq!(&one, b"abcd");
    }
}
