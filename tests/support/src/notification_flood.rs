//! A hostile notification sender: `Notify` called a great many times
//! without waiting for an answer, as a program in a loop would, on a
//! connection to the bus under test.

use zbus::blocking::Connection;

const NAME: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";

/// Sends `count` notifications summarised `0`, `1` … from `connection`,
/// not waiting for the server to answer any.
pub fn flood(connection: &Connection, count: usize) {
    type Hints<'a> = std::collections::HashMap<&'a str, zbus::zvariant::Value<'a>>;
    for number in 0..count {
        let arguments = ("flood", 0u32, "", number.to_string(), "", Vec::<&str>::new(), Hints::new(), -1i32);
        let message = zbus::message::Message::method_call(PATH, "Notify")
            .and_then(|message| message.destination(NAME))
            .and_then(|message| message.interface(NAME))
            .and_then(|message| message.with_flags(zbus::message::Flags::NoReplyExpected))
            .and_then(|message| message.build(&arguments))
            .expect("a Notify call");
        connection.send(&message).expect("sending a notification");
    }
}
