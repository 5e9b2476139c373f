//! The keyboard layout as Windows tells it: the input language of the
//! window in the foreground (each thread has its own), named by its
//! locale ("en-US") and shown by the locale's display name. Windows tells a
//! switch only to the window that switched, so the layout is read again
//! twice a second: two calls that take microseconds, and nothing is
//! published unless it changed.

use super::{KeyboardLayout, Pushed};
use std::time::Duration;
use windows::Win32::Globalization::{
    GetLocaleInfoEx, LCIDToLocaleName, LOCALE_ALLOW_NEUTRAL_NAMES, LOCALE_SLOCALIZEDDISPLAYNAME,
};
use windows::Win32::System::SystemServices::LOCALE_NAME_MAX_LENGTH;
use windows::Win32::UI::Input::KeyboardAndMouse::{GetKeyboardLayout, GetKeyboardLayoutList, HKL};
use windows::Win32::UI::WindowsAndMessaging::{GetForegroundWindow, GetWindowThreadProcessId};
use windows::core::PCWSTR;

/// How often the layout is read again.
const EVERY: Duration = Duration::from_millis(500);

/// Publishes the layout now and each time it changes, for as long as the
/// bar runs.
pub fn follow(layout: &Pushed<Option<KeyboardLayout>>) -> anyhow::Result<()> {
    loop {
        layout.publish(Some(read()?));
        std::thread::sleep(EVERY);
    }
}

fn read() -> anyhow::Result<KeyboardLayout> {
    // SAFETY: neither call takes a pointer. Without a foreground window the
    // thread is 0, and the layout this thread's: the one new windows get.
    let current = unsafe { GetKeyboardLayout(GetWindowThreadProcessId(GetForegroundWindow(), None)) };
    let locale =
        locale_name(current).ok_or_else(|| anyhow::anyhow!("the input language {:?} has no locale", current.0))?;
    Ok(KeyboardLayout { name: display_name(&locale), all: installed(), short_name: locale })
}

/// The display names of the input languages one can switch between, in order.
fn installed() -> Vec<String> {
    let mut layouts = [HKL::default(); 64];
    // SAFETY: the buffer is ours, and its length is passed with it.
    let count = unsafe { GetKeyboardLayoutList(Some(&mut layouts)) }.clamp(0, 64) as usize;
    layouts[..count].iter().filter_map(|layout| locale_name(*layout)).map(|locale| display_name(&locale)).collect()
}

/// The locale of an input language ("en-US"): its low word is the language.
fn locale_name(layout: HKL) -> Option<String> {
    let language = (layout.0 as usize & 0xffff) as u32;
    let mut name = [0u16; LOCALE_NAME_MAX_LENGTH as usize];
    // SAFETY: the buffer is ours, and its length is passed with it.
    let written = unsafe { LCIDToLocaleName(language, Some(&mut name), LOCALE_ALLOW_NEUTRAL_NAMES) };
    // The count includes the terminating NUL.
    (written > 1).then(|| String::from_utf16_lossy(&name[..written as usize - 1]))
}

/// How Windows shows `locale` to its user ("English (United States)"), or
/// the locale itself when it cannot.
fn display_name(locale: &str) -> String {
    let wide: Vec<u16> = locale.encode_utf16().chain([0]).collect();
    let mut name = [0u16; 128];
    // SAFETY: `wide` ends in NUL and outlives the call; the buffer is ours, its length passed with it.
    let written = unsafe { GetLocaleInfoEx(PCWSTR(wide.as_ptr()), LOCALE_SLOCALIZEDDISPLAYNAME, Some(&mut name)) };
    match written {
        2.. => String::from_utf16_lossy(&name[..written as usize - 1]),
        _ => locale.to_owned(),
    }
}
