//! The keyboard layout as the X server's XKB tells it: its group, and the
//! names of the groups, followed through XKB's events.

use super::{KeyboardLayout, Pushed};
use x11rb::connection::{Connection, RequestConnection};
use x11rb::protocol::xkb::{
    self, ConnectionExt as _, EventType, ID, MapPart, NameDetail, SelectEventsAux, SelectEventsAuxStateNotify,
    StatePart,
};
use x11rb::protocol::xproto::{Atom, ConnectionExt as _};
use x11rb::rust_connection::RustConnection;

type Failure = Box<dyn std::error::Error>;

/// Publishes the layout now and after every XKB event that can change
/// it, until the X connection is lost.
pub fn follow(layout: &Pushed<Option<KeyboardLayout>>) -> Result<(), Failure> {
    let (connection, _) = x11rb::connect(None)?;
    if connection.extension_information(xkb::X11_EXTENSION_NAME)?.is_none() {
        return Err("the X server has no XKB".into());
    }
    connection.xkb_use_extension(1, 0)?.reply()?;
    let core = ID::USE_CORE_KBD.into();
    // Group changes only: modifier presses would wake this thread for nothing.
    let groups =
        SelectEventsAuxStateNotify { affect_state: StatePart::GROUP_STATE, state_details: StatePart::GROUP_STATE };
    let everything = EventType::NEW_KEYBOARD_NOTIFY | EventType::NAMES_NOTIFY;
    connection.xkb_select_events(
        core,
        EventType::from(0u16),
        everything,
        MapPart::from(0u16),
        MapPart::from(0u16),
        &SelectEventsAux::new().state_notify(groups),
    )?;
    connection.flush()?;
    loop {
        layout.publish(Some(read(&connection)?));
        connection.wait_for_event()?;
        // A new keymap comes as a burst of events: read once for all of them.
        while connection.poll_for_event()?.is_some() {}
    }
}

fn read(connection: &RustConnection) -> Result<KeyboardLayout, Failure> {
    let core = ID::USE_CORE_KBD.into();
    let group = usize::from(u8::from(connection.xkb_get_state(core)?.reply()?.group));
    let names = connection.xkb_get_names(core, NameDetail::GROUP_NAMES | NameDetail::SYMBOLS)?.reply()?;
    let atom_name = |atom: Atom| -> Result<String, Failure> {
        Ok(String::from_utf8_lossy(&connection.get_atom_name(atom)?.reply()?.name).into_owned())
    };
    let all = names.value_list.groups.unwrap_or_default().into_iter().map(atom_name).collect::<Result<Vec<_>, _>>()?;
    let symbols = names.value_list.symbols_name.map(atom_name).transpose()?.unwrap_or_default();
    let short = short_names(&symbols);
    Ok(KeyboardLayout {
        name: all.get(group).cloned().unwrap_or_default(),
        short_name: short.get(group).cloned().unwrap_or_default(),
        all,
    })
}

/// The layouts' own names in XKB's symbols name, by group:
/// `pc+us+de(nodeadkeys):2+inet(evdev)+group(alt_shift_toggle)` gives
/// `us`, `de(nodeadkeys)`. The other parts are the keyboard's model and
/// options.
fn short_names(symbols: &str) -> Vec<String> {
    const NOT_LAYOUTS: &[&str] = &[
        "pc",
        "inet",
        "group",
        "ctrl",
        "compose",
        "level3",
        "level5",
        "lv3",
        "lv5",
        "terminate",
        "altwin",
        "caps",
        "keypad",
        "kpdl",
        "eurosign",
        "nbsp",
        "japan",
        "shift",
        "srvr_ctrl",
        "capslock",
    ];
    let mut layouts: Vec<(usize, String)> = symbols
        .split('+')
        .filter(|part| !NOT_LAYOUTS.contains(&part.split(['(', ':']).next().unwrap_or_default()))
        .filter(|part| !part.is_empty())
        .map(|part| match part.rsplit_once(':') {
            Some((layout, group)) => (group.parse().unwrap_or(1), layout.to_owned()),
            None => (1, part.to_owned()),
        })
        .collect();
    layouts.sort_by_key(|(group, _)| *group);
    layouts.into_iter().map(|(_, layout)| layout).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_groups_own_symbols_are_found() {
        assert_eq!(short_names("pc+us+inet(evdev)"), ["us"]);
        assert_eq!(short_names("pc+us+de(nodeadkeys):2+inet(evdev)+group(alt_shift_toggle)"), ["us", "de(nodeadkeys)"]);
        assert_eq!(short_names("pc+fr:2+us+inet(evdev)+ctrl(nocaps)"), ["us", "fr"]);
        assert!(short_names("").is_empty());
    }
}
