//! What a Windows program sees of the desktop the bar is on, asked by the
//! Wine tests. `work-area` prints the primary monitor's work area (what
//! the taskbar and AppBars leave to other windows); `top-appbar-space`
//! asks, as an AppBar of its own would, where along the top of the screen
//! it may go, which the AppBars there already (the bar's) leave. Each
//! prints a rectangle: `left top right bottom`. `notify-icon` adds a red
//! notification icon, as any program does, says `added`, and waits (a
//! minute at most) until the icon is clicked: then it says `clicked`.
//! `display-mode WIDTH HEIGHT` changes the display's resolution, as a
//! monitor switched to another mode does. `styles TITLE` prints the window
//! styles and extended styles of the window titled TITLE, in hexadecimal;
//! `shown TITLE` its rectangle, when it is shown, and whether it has the
//! focus (`focused` or `unfocused`) after it.
//! `full-screen TITLE 1|0` tells the AppBar titled TITLE what Windows tells
//! AppBars when a program goes full screen (1) or leaves it (0).
//! `taskbar [quiet]` stands in for Explorer's taskbar, started after the
//! bar: a top-most `Shell_TrayWnd` that announces itself (`TaskbarCreated`;
//! not when `quiet`, as Explorer's, brought forward by a click), says
//! `ready`, and then `copydata N` for each `WM_COPYDATA` it is sent (N its
//! `dwData`), answering each as taken, for a minute.

#[cfg(windows)]
fn main() -> std::process::ExitCode {
    let rectangle = match std::env::args().nth(1).as_deref() {
        Some("work-area") => windows::work_area(),
        Some("top-appbar-space") => windows::top_appbar_space(),
        Some("display-mode") => {
            let number = |at: usize| std::env::args().nth(at).and_then(|text| text.parse().ok());
            return match (number(2), number(3)) {
                (Some(width), Some(height)) if windows::display_mode(width, height) => std::process::ExitCode::SUCCESS,
                _ => {
                    eprintln!("usage: obi-windows-probe display-mode WIDTH HEIGHT (a mode the display has)");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        Some("styles") => {
            let title = std::env::args().nth(2).unwrap_or_default();
            return match windows::styles(&title) {
                Some((style, extended)) => {
                    println!("{style:08x} {extended:08x}");
                    std::process::ExitCode::SUCCESS
                }
                None => {
                    eprintln!("no window titled {title:?}");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        Some("shown") => {
            let title = std::env::args().nth(2).unwrap_or_default();
            return match windows::shown(&title) {
                Some((area, focused)) => {
                    let focus = if focused { "focused" } else { "unfocused" };
                    println!("{} {} {} {} {focus}", area.left, area.top, area.right, area.bottom);
                    std::process::ExitCode::SUCCESS
                }
                None => {
                    eprintln!("no window titled {title:?} is shown");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        Some("full-screen") => {
            let (title, full) = (std::env::args().nth(2).unwrap_or_default(), std::env::args().nth(3));
            return match windows::full_screen(&title, full.as_deref() == Some("1")) {
                true => std::process::ExitCode::SUCCESS,
                false => {
                    eprintln!("no window titled {title:?}");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        Some("taskbar") => {
            let announced = std::env::args().nth(2).as_deref() != Some("quiet");
            return match windows::taskbar(announced) {
                Ok(()) => std::process::ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("{error}");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        Some("notify-icon") => {
            return match windows::notify_icon() {
                Ok(()) => std::process::ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("{error}");
                    std::process::ExitCode::FAILURE
                }
            };
        }
        _ => Err(
            "usage: obi-windows-probe work-area|top-appbar-space|notify-icon|taskbar|display-mode|styles|shown|full-screen"
                .into(),
        ),
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
    use std::io::Write;
    use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
    use windows_sys::Win32::Foundation::{HWND, LPARAM, LRESULT, RECT, WPARAM};
    use windows_sys::Win32::System::DataExchange::COPYDATASTRUCT;
    use windows_sys::Win32::UI::Shell::{
        ABE_TOP, ABM_NEW, ABM_QUERYPOS, ABM_REMOVE, APPBARDATA, NIF_ICON, NIF_MESSAGE, NIF_TIP, NIM_ADD, NIM_DELETE,
        NOTIFYICONDATAW, SHAppBarMessage, Shell_NotifyIconW,
    };
    use windows_sys::Win32::UI::WindowsAndMessaging::{
        CreateIcon, CreateWindowExW, DefWindowProcW, DestroyWindow, DispatchMessageW, GetMessageW, GetSystemMetrics,
        HWND_BROADCAST, MSG, PostQuitMessage, RegisterClassW, RegisterWindowMessageW, SM_CXSCREEN, SM_CYSCREEN,
        SPI_GETWORKAREA, SendNotifyMessageW, SetTimer, SystemParametersInfoW, WM_APP, WM_COPYDATA, WM_LBUTTONUP,
        WM_TIMER, WNDCLASSW, WS_EX_TOOLWINDOW, WS_EX_TOPMOST, WS_POPUP,
    };
    use windows_sys::w;

    /// The styles and extended styles of the top-level window titled `title`.
    pub fn styles(title: &str) -> Option<(u32, u32)> {
        use windows_sys::Win32::UI::WindowsAndMessaging::{FindWindowW, GWL_EXSTYLE, GWL_STYLE, GetWindowLongW};
        let title: Vec<u16> = title.encode_utf16().chain([0]).collect();
        // SAFETY: the title is NUL-ended and alive for the call; the window is only read.
        unsafe {
            let window = FindWindowW(std::ptr::null(), title.as_ptr());
            (!window.is_null())
                .then(|| (GetWindowLongW(window, GWL_STYLE) as u32, GetWindowLongW(window, GWL_EXSTYLE) as u32))
        }
    }

    /// The rectangle of the shown top-level window titled `title`, and
    /// whether it is the foreground window.
    pub fn shown(title: &str) -> Option<(RECT, bool)> {
        use windows_sys::Win32::UI::WindowsAndMessaging::{
            FindWindowW, GetForegroundWindow, GetWindowRect, IsWindowVisible,
        };
        let title: Vec<u16> = title.encode_utf16().chain([0]).collect();
        let mut rect = RECT { left: 0, top: 0, right: 0, bottom: 0 };
        // SAFETY: the title is NUL-ended and alive for the call; the window is only read.
        unsafe {
            let window = FindWindowW(std::ptr::null(), title.as_ptr());
            let shown = !window.is_null() && IsWindowVisible(window) != 0 && GetWindowRect(window, &mut rect) != 0;
            shown.then(|| (rect, GetForegroundWindow() == window))
        }
    }

    /// Tells the AppBar titled `title` that a program went full screen
    /// (`full`) or left it, as Windows tells AppBars with the message they
    /// registered (`WM_APP + 1`, the bar's); whether there is such a window.
    pub fn full_screen(title: &str, full: bool) -> bool {
        use windows_sys::Win32::UI::Shell::ABN_FULLSCREENAPP;
        use windows_sys::Win32::UI::WindowsAndMessaging::{FindWindowW, PostMessageW};
        let title: Vec<u16> = title.encode_utf16().chain([0]).collect();
        // SAFETY: the title is NUL-ended and alive for the call; a message posted.
        unsafe {
            let window = FindWindowW(std::ptr::null(), title.as_ptr());
            !window.is_null() && PostMessageW(window, WM_APP + 1, ABN_FULLSCREENAPP as usize, full as isize) != 0
        }
    }

    /// Whether the display took the mode `width` × `height`.
    pub fn display_mode(width: u32, height: u32) -> bool {
        use windows_sys::Win32::Graphics::Gdi::{ChangeDisplaySettingsW, DEVMODEW, DM_PELSHEIGHT, DM_PELSWIDTH};
        // SAFETY: DEVMODEW is plain data, zero its empty value; it lives across the call.
        unsafe {
            let mut mode: DEVMODEW = std::mem::zeroed();
            mode.dmSize = size_of::<DEVMODEW>() as u16;
            mode.dmPelsWidth = width;
            mode.dmPelsHeight = height;
            mode.dmFields = DM_PELSWIDTH | DM_PELSHEIGHT;
            ChangeDisplaySettingsW(&mode, 0) == 0
        }
    }

    /// A hidden window of `class`, on this thread.
    fn window_of(class: windows_sys::core::PCWSTR) -> Option<HWND> {
        let null = std::ptr::null_mut();
        // SAFETY: the class is a NUL-ended name alive for the call.
        let window =
            unsafe { CreateWindowExW(0, class, w!("probe"), 0, 0, 0, 0, 0, null, null, null, std::ptr::null()) };
        (!window.is_null()).then_some(window)
    }

    /// The icon's callback message.
    const CLICKED: u32 = WM_APP + 7;
    /// The icon's window and picture, for the window procedure.
    static WINDOW: AtomicPtr<core::ffi::c_void> = AtomicPtr::new(std::ptr::null_mut());
    static ICON: AtomicPtr<core::ffi::c_void> = AtomicPtr::new(std::ptr::null_mut());
    static TASKBAR_CREATED: AtomicU32 = AtomicU32::new(0);

    pub fn notify_icon() -> Result<(), String> {
        // SAFETY: a window of a class of this program, its icon and its
        // messages, all on this thread; `data` lives across each call.
        unsafe {
            let class = WNDCLASSW { lpfnWndProc: Some(procedure), lpszClassName: w!("ObiProbe"), ..std::mem::zeroed() };
            RegisterClassW(&class);
            let window = window_of(w!("ObiProbe")).ok_or("no window for the icon")?;
            // 16 × 16 opaque red: no AND mask, BGRA colour.
            let mask = [0u8; 16 * 16 / 8];
            let red: Vec<u8> = std::iter::repeat_n([0, 0, 255, 255], 16 * 16).flatten().collect();
            let icon = CreateIcon(std::ptr::null_mut(), 16, 16, 1, 32, mask.as_ptr(), red.as_ptr());
            if icon.is_null() {
                return Err("no icon".into());
            }
            WINDOW.store(window, Ordering::SeqCst);
            ICON.store(icon, Ordering::SeqCst);
            TASKBAR_CREATED.store(RegisterWindowMessageW(w!("TaskbarCreated")), Ordering::SeqCst);
            if !add() {
                return Err("Shell_NotifyIconW refused the icon".into());
            }
            say("added");
            SetTimer(window, 1, 60_000, None);
            let mut message: MSG = std::mem::zeroed();
            while GetMessageW(&mut message, std::ptr::null_mut(), 0, 0) > 0 {
                DispatchMessageW(&message);
            }
            let mut data = icon_data();
            Shell_NotifyIconW(NIM_DELETE, &mut data);
        }
        Ok(())
    }

    fn icon_data() -> NOTIFYICONDATAW {
        // SAFETY: NOTIFYICONDATAW is plain data; zero is its empty value.
        let mut data: NOTIFYICONDATAW = unsafe { std::mem::zeroed() };
        data.cbSize = size_of::<NOTIFYICONDATAW>() as u32;
        data.hWnd = WINDOW.load(Ordering::SeqCst);
        data.uID = 1;
        data.uFlags = NIF_ICON | NIF_TIP | NIF_MESSAGE;
        data.uCallbackMessage = CLICKED;
        data.hIcon = ICON.load(Ordering::SeqCst);
        for (at, unit) in "Obi probe".encode_utf16().enumerate() {
            data.szTip[at] = unit;
        }
        data
    }

    fn add() -> bool {
        let data = icon_data();
        // SAFETY: `data` is a whole NOTIFYICONDATAW for the call.
        unsafe { Shell_NotifyIconW(NIM_ADD, &data) != 0 }
    }

    fn say(what: &str) {
        println!("{what}");
        let _ = std::io::stdout().flush();
    }

    unsafe extern "system" fn procedure(window: HWND, message: u32, wparam: WPARAM, lparam: LPARAM) -> LRESULT {
        match message {
            CLICKED if (lparam & 0xffff) as u32 == WM_LBUTTONUP => {
                say("clicked");
                // SAFETY: ends this thread's message loop.
                unsafe { PostQuitMessage(0) };
                0
            }
            WM_TIMER => {
                // SAFETY: as above: a minute without a click.
                unsafe { PostQuitMessage(1) };
                0
            }
            _ if message == TASKBAR_CREATED.load(Ordering::SeqCst) && message != 0 => {
                add();
                0
            }
            // SAFETY: the default handling of this window's other messages.
            _ => unsafe { DefWindowProcW(window, message, wparam, lparam) },
        }
    }

    pub fn taskbar(announced: bool) -> Result<(), String> {
        // SAFETY: a window of a class of this program and its messages, on
        // this thread; the broadcast is sent without waiting.
        unsafe {
            let class = WNDCLASSW {
                lpfnWndProc: Some(taskbar_procedure),
                lpszClassName: w!("Shell_TrayWnd"),
                ..std::mem::zeroed()
            };
            RegisterClassW(&class);
            let null = std::ptr::null_mut();
            let window = CreateWindowExW(
                WS_EX_TOPMOST | WS_EX_TOOLWINDOW,
                w!("Shell_TrayWnd"),
                w!(""),
                WS_POPUP,
                0,
                0,
                0,
                0,
                null,
                null,
                null,
                std::ptr::null(),
            );
            if window.is_null() {
                return Err("no window for the taskbar".into());
            }
            if announced {
                SendNotifyMessageW(HWND_BROADCAST, RegisterWindowMessageW(w!("TaskbarCreated")), 0, 0);
            }
            say("ready");
            SetTimer(window, 1, 60_000, None);
            let mut message: MSG = std::mem::zeroed();
            while GetMessageW(&mut message, std::ptr::null_mut(), 0, 0) > 0 {
                DispatchMessageW(&message);
            }
        }
        Ok(())
    }

    unsafe extern "system" fn taskbar_procedure(window: HWND, message: u32, wparam: WPARAM, lparam: LPARAM) -> LRESULT {
        match message {
            WM_COPYDATA => {
                // SAFETY: WM_COPYDATA's lParam is a COPYDATASTRUCT.
                let kind = unsafe { (*(lparam as *const COPYDATASTRUCT)).dwData };
                say(&format!("copydata {kind}"));
                1
            }
            WM_TIMER => {
                // SAFETY: ends this thread's message loop after its minute.
                unsafe { PostQuitMessage(0) };
                0
            }
            // SAFETY: the default handling of this window's other messages.
            _ => unsafe { DefWindowProcW(window, message, wparam, lparam) },
        }
    }

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
            let window = window_of(w!("STATIC")).ok_or("no window for the probe's AppBar")?;
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
