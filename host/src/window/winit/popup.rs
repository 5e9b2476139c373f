//! A popup's hold on the pointer and the keyboard on X11, over a
//! connection of its own (x11rb), as menus hold them: while it lasts every
//! press on the screen, the pointer's moves, and the keys a menu answers
//! (Escape, the arrows, Tab, Return, Space) come to the bar (in root coordinates, through [`Grabbed`]), so that a
//! click outside the popup closes it. A press that opened the popup still
//! holds the pointer for the bar's window until it is released; the grab
//! is tried again until then, for up to a second. The keyboard is taken
//! first, so that once the pointer is held both are.

use crate::bar::{Grabbed, PopupKey};
use crate::view::{Input, ScrollDirection};
use anyhow::Context;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use x11rb::connection::Connection;
use x11rb::protocol::Event;
use x11rb::protocol::xproto::{
    ClientMessageEvent, ConnectionExt as _, CreateWindowAux, EventMask, GrabMode, GrabStatus, Keycode, WindowClass,
};
use x11rb::rust_connection::RustConnection;
use x11rb::{CURRENT_TIME, NONE};

/// How long a grab is tried while another client (the bar's own window,
/// under the press that opened the popup) holds the pointer.
const GRAB_TRIES_FOR: Duration = Duration::from_secs(1);
const GRAB_RETRY: Duration = Duration::from_millis(10);
/// The keysyms a popup answers, and what each does.
const KEYS: [(u32, PopupKey); 9] = [
    (0xff1b, PopupKey::Close),    // Escape
    (0xff51, PopupKey::Previous), // Left
    (0xff52, PopupKey::Previous), // Up
    (0xff53, PopupKey::Next),     // Right
    (0xff54, PopupKey::Next),     // Down
    (0xff09, PopupKey::Next),     // Tab
    (0xff0d, PopupKey::Choose),   // Return
    (0xff8d, PopupKey::Choose),   // KP_Enter
    (0x0020, PopupKey::Choose),   // space
];

pub struct Grab {
    connection: Arc<RustConnection>,
    /// A window of the grab's own that nobody sees: a message to it wakes
    /// the thread, to end it.
    wake: u32,
    ending: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Grab {
    /// Holds the pointer and the keyboard and hands what they do to
    /// `report` until dropped (or until `report` says the bar is gone).
    pub fn take(report: impl Fn(Grabbed) -> bool + Send + 'static) -> anyhow::Result<Grab> {
        let (connection, screen) = x11rb::connect(None).context("connecting to X for the popup's grab")?;
        let root = connection.setup().roots[screen].root;
        let keys = popup_keys(&connection)?;
        let wake = connection.generate_id()?;
        connection.create_window(
            0,
            wake,
            root,
            -1,
            -1,
            1,
            1,
            0,
            WindowClass::INPUT_ONLY,
            0,
            &CreateWindowAux::new(),
        )?;
        connection.flush()?;
        let connection = Arc::new(connection);
        let ending = Arc::new(AtomicBool::new(false));
        let thread = {
            let (connection, ending) = (connection.clone(), ending.clone());
            std::thread::Builder::new()
                .name("obi-popup-grab".into())
                .spawn(move || {
                    if let Err(error) = hold(&connection, root, &keys, &ending, &report) {
                        tracing::warn!("the popup's grab ended: {error:#}");
                    }
                })
                .context("starting the popup's grab")?
        };
        Ok(Grab { connection, wake, ending, thread: Some(thread) })
    }
}

impl Drop for Grab {
    fn drop(&mut self) {
        self.ending.store(true, Ordering::Release);
        let _ = self.connection.ungrab_pointer(CURRENT_TIME);
        let _ = self.connection.ungrab_keyboard(CURRENT_TIME);
        let message = ClientMessageEvent::new(32, self.wake, x11rb::protocol::xproto::AtomEnum::NOTICE, [0; 5]);
        let _ = self.connection.send_event(false, self.wake, EventMask::NO_EVENT, message);
        let _ = self.connection.flush();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Takes the grab (trying again while the pointer is held elsewhere), then
/// reports until told to end.
fn hold(
    connection: &RustConnection,
    root: u32,
    keys: &HashMap<Keycode, PopupKey>,
    ending: &AtomicBool,
    report: &dyn Fn(Grabbed) -> bool,
) -> anyhow::Result<()> {
    let keyboard = connection.grab_keyboard(false, root, CURRENT_TIME, GrabMode::ASYNC, GrabMode::ASYNC)?.reply()?;
    if keyboard.status != GrabStatus::SUCCESS {
        tracing::info!("X refused to grab the keyboard ({:?}); no key reaches the popup", keyboard.status);
    }
    let pointer = EventMask::BUTTON_PRESS | EventMask::BUTTON_RELEASE | EventMask::POINTER_MOTION;
    let until = Instant::now() + GRAB_TRIES_FOR;
    loop {
        if ending.load(Ordering::Acquire) {
            return Ok(());
        }
        let status = connection
            .grab_pointer(false, root, pointer, GrabMode::ASYNC, GrabMode::ASYNC, NONE, NONE, CURRENT_TIME)?
            .reply()?
            .status;
        match status {
            GrabStatus::SUCCESS => break,
            _ if Instant::now() < until => std::thread::sleep(GRAB_RETRY),
            refused => {
                // Keys held by a popup nobody can click away would be lost to every other window.
                connection.ungrab_keyboard(CURRENT_TIME)?;
                connection.flush()?;
                anyhow::bail!("X refused to grab the pointer ({refused:?}); a click outside will not close it")
            }
        }
    }
    while !ending.load(Ordering::Acquire) {
        let grabbed = match connection.wait_for_event()? {
            Event::ButtonPress(press) => match input_of_button(press.detail) {
                Some(input) => Grabbed::Pressed { input, at: (press.root_x.into(), press.root_y.into()) },
                None => continue,
            },
            Event::MotionNotify(motion) => Grabbed::Moved { at: (motion.root_x.into(), motion.root_y.into()) },
            Event::ButtonRelease(_) => Grabbed::Released,
            Event::KeyPress(key) => match keys.get(&key.detail) {
                Some(&key) => Grabbed::Key(key),
                None => continue,
            },
            _ => continue,
        };
        if !report(grabbed) {
            break;
        }
    }
    Ok(())
}

/// The input a core X button number is: 4 to 7 are the wheel's ticks.
fn input_of_button(button: u8) -> Option<Input> {
    Some(match button {
        1 => Input::PrimaryClick,
        2 => Input::MiddleClick,
        3 => Input::SecondaryClick,
        4 => Input::Scroll(ScrollDirection::Up),
        5 => Input::Scroll(ScrollDirection::Down),
        6 => Input::Scroll(ScrollDirection::Left),
        7 => Input::Scroll(ScrollDirection::Right),
        8 => Input::Extra1Click,
        9 => Input::Extra2Click,
        _ => return None,
    })
}

/// What each key the keyboard's map gives one of [`KEYS`] does, by keycode.
fn popup_keys(connection: &RustConnection) -> anyhow::Result<HashMap<Keycode, PopupKey>> {
    let setup = connection.setup();
    let (first, count) = (setup.min_keycode, setup.max_keycode - setup.min_keycode + 1);
    let map = connection.get_keyboard_mapping(first, count)?.reply().context("reading the keyboard's map")?;
    let per_key = usize::from(map.keysyms_per_keycode).max(1);
    let mut keys = HashMap::new();
    for (index, keysyms) in map.keysyms.chunks(per_key).enumerate() {
        // The key's own symbol, unshifted: a layout's Tab is Tab wherever it sits.
        if let Some(&(_, key)) = KEYS.iter().find(|(keysym, _)| keysyms.first() == Some(keysym)) {
            keys.insert(first + index as u8, key);
        }
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_are_the_inputs_the_bar_knows() {
        assert_eq!(input_of_button(1), Some(Input::PrimaryClick));
        assert_eq!(input_of_button(3), Some(Input::SecondaryClick));
        assert_eq!(input_of_button(5), Some(Input::Scroll(ScrollDirection::Down)));
        assert_eq!(input_of_button(9), Some(Input::Extra2Click));
        assert_eq!(input_of_button(12), None);
    }
}
