//! What a Windows program sees of the desktop the bar is on, asked by the
//! Wine tests. `work-area` prints the primary monitor's work area (what
//! the taskbar and AppBars leave to other windows); `top-appbar-space`
//! asks, as an AppBar of its own would, where along the top of the screen
//! it may go, which the AppBars there already (the bar's) leave. Each
//! prints a rectangle: `left top right bottom`.

#[cfg(windows)]
fn main() -> std::process::ExitCode {
    let rectangle = match std::env::args().nth(1).as_deref() {
        Some("work-area") => windows::work_area(),
        Some("top-appbar-space") => windows::top_appbar_space(),
        _ => Err("usage: obi-windows-probe work-area|top-appbar-space".into()),
    };
    match rectangle {
        Ok(area) => {
            println!("{} {} {} {}", area.left, area.top, area.right, area.bottom);
            std::process::ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{error}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(windows)]
mod windows {
    use windows_sys::Win32::Foundation::RECT;
    use windows_sys::Win32::UI::Shell::{ABE_TOP, ABM_NEW, ABM_QUERYPOS, ABM_REMOVE, APPBARDATA, SHAppBarMessage};
    use windows_sys::Win32::UI::WindowsAndMessaging::{
        CreateWindowExW, DestroyWindow, GetSystemMetrics, SM_CXSCREEN, SM_CYSCREEN, SPI_GETWORKAREA,
        SystemParametersInfoW,
    };
    use windows_sys::w;

    pub fn work_area() -> Result<RECT, String> {
        let mut area = RECT { left: 0, top: 0, right: 0, bottom: 0 };
        // SAFETY: SPI_GETWORKAREA writes one RECT, which `area` is.
        let read = unsafe { SystemParametersInfoW(SPI_GETWORKAREA, 0, (&raw mut area).cast(), 0) };
        match read {
            0 => Err("SystemParametersInfoW(SPI_GETWORKAREA) failed".into()),
            _ => Ok(area),
        }
    }

    /// The top strip of the screen, as tall as a third of it, as Windows
    /// would let a new AppBar have it.
    pub fn top_appbar_space() -> Result<RECT, String> {
        // SAFETY: plain calls; the window is a STATIC one of this thread,
        // destroyed before returning, and `data` lives across each call.
        unsafe {
            let window = CreateWindowExW(
                0,
                w!("STATIC"),
                w!("probe"),
                0,
                0,
                0,
                0,
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null(),
            );
            if window.is_null() {
                return Err("no window for the probe's AppBar".into());
            }
            let (width, height) = (GetSystemMetrics(SM_CXSCREEN), GetSystemMetrics(SM_CYSCREEN));
            let mut data: APPBARDATA = std::mem::zeroed();
            data.cbSize = size_of::<APPBARDATA>() as u32;
            data.hWnd = window;
            let asked = if SHAppBarMessage(ABM_NEW, &mut data) == 0 {
                Err("Windows did not take the probe as an AppBar".into())
            } else {
                data.uEdge = ABE_TOP;
                data.rc = RECT { left: 0, top: 0, right: width, bottom: height / 3 };
                SHAppBarMessage(ABM_QUERYPOS, &mut data);
                SHAppBarMessage(ABM_REMOVE, &mut data);
                Ok(data.rc)
            };
            DestroyWindow(window);
            asked
        }
    }
}

#[cfg(not(windows))]
fn main() -> std::process::ExitCode {
    eprintln!("obi-windows-probe asks Windows (or Wine) what it sees; build it for Windows");
    std::process::ExitCode::FAILURE
}
