//! Properties of peers on the bus (tray items, media players), each asked
//! for by name and read straight from the answer as the type it should be.
//! No value tree is made of an answer: a list of bytes costs its bytes
//! (a tree costs about 130 bytes a byte), and what a reader does not keep
//! is passed over in place. A peer is never asked for all its properties
//! at once, so one it fills with megabytes nobody reads sends them nowhere.

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, SeqAccess, Visitor};
use std::fmt;
use zbus::blocking::Connection;
use zbus::zvariant::{Signature, Type, as_value};

const PROPERTIES: &str = "org.freedesktop.DBus.Properties";

/// The property `name` of `interface` at `bus` and `path`, as `T`; `None`
/// when the peer has no such property or gives it as another type. Only a
/// call that fails (runs out of time, finds nobody) is an error.
pub fn property<T>(
    connection: &Connection,
    bus: &str,
    path: &str,
    interface: &str,
    name: &str,
) -> zbus::Result<Option<T>>
where
    T: for<'de> Deserialize<'de> + Type,
{
    let reply = match connection.call_method(Some(bus), path, Some(PROPERTIES), "Get", &(interface, name)) {
        Ok(reply) => reply,
        // How zbus and GDBus say the object has no such property; any other
        // error (no such object or interface: the peer is not there yet) is
        // the call's.
        Err(zbus::Error::MethodError(error, ..))
            if ["org.freedesktop.DBus.Error.UnknownProperty", "org.freedesktop.DBus.Error.InvalidArgs"]
                .contains(&error.as_str()) =>
        {
            return Ok(None);
        }
        Err(error) => return Err(error),
    };
    let body = reply.body();
    let read = body.deserialize::<as_value::Deserialize<'_, T>>();
    if let Err(error) = &read {
        tracing::debug!("{bus} gives {interface}.{name} as something else: {error}");
    }
    Ok(read.ok().map(|value| value.0))
}

/// The value of a variant when it is a `T` (or a variant holding one);
/// anything else is passed over as nothing. For the values of a dictionary
/// of variants, whose types the peer chooses.
#[derive(Debug)]
pub struct Loose<T>(pub Option<T>);

impl<T> Default for Loose<T> {
    fn default() -> Self {
        Loose(None)
    }
}

impl<'de, T: Deserialize<'de> + Type> Deserialize<'de> for Loose<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A variant is read as its signature, then its value.
        deserializer.deserialize_tuple(2, LooseVisitor(std::marker::PhantomData))
    }
}

impl<T> Type for Loose<T> {
    const SIGNATURE: &'static Signature = &Signature::Variant;
}

struct LooseVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de> + Type> Visitor<'de> for LooseVisitor<T> {
    type Value = Loose<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a variant")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut variant: A) -> Result<Loose<T>, A::Error> {
        let signature: &str = variant.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        if *T::SIGNATURE == signature {
            return Ok(Loose(variant.next_element::<T>()?));
        }
        match signature {
            "v" => Ok(variant.next_element::<Loose<T>>()?.unwrap_or_default()),
            "ay" => variant.next_element::<&[u8]>().map(|_| Loose(None)),
            _ => variant.next_element::<IgnoredAny>().map(|_| Loose(None)),
        }
    }
}

/// A variant passed over where it stands: a list of bytes at once, as a
/// slice of the answer, anything else part by part. For the values of a
/// dictionary nobody reads.
pub struct PassedOver;

impl<'de> Deserialize<'de> for PassedOver {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Variant;
        impl<'de> Visitor<'de> for Variant {
            type Value = PassedOver;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a variant")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut variant: A) -> Result<PassedOver, A::Error> {
                let signature: &str = variant.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                match signature {
                    "ay" => variant.next_element::<&[u8]>().map(drop)?,
                    _ => variant.next_element::<IgnoredAny>().map(drop)?,
                }
                Ok(PassedOver)
            }
        }
        deserializer.deserialize_tuple(2, Variant)
    }
}

/// A value of `T`'s type, passed over where it stands: a part of a
/// property nobody reads (a tooltip's pixmaps).
pub struct Skipped<T>(std::marker::PhantomData<T>);

impl<'de, T> Deserialize<'de> for Skipped<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_ignored_any(IgnoredAny)?;
        Ok(Skipped(std::marker::PhantomData))
    }
}

impl<T: Type> Type for Skipped<T> {
    const SIGNATURE: &'static Signature = T::SIGNATURE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use zbus::zvariant::{LE, Value, serialized::Context, to_bytes};

    #[test]
    fn a_loose_value_is_read_when_it_has_the_type_asked_for() {
        let read = |value: Value<'_>| {
            let bytes = to_bytes(Context::new_dbus(LE, 0), &HashMap::from([("key", value)])).unwrap();
            let (mut read, _): (HashMap<String, Loose<bool>>, _) = bytes.deserialize().unwrap();
            read.remove("key").unwrap().0
        };
        assert_eq!(read(Value::from(true)), Some(true));
        assert_eq!(read(Value::Value(Box::new(Value::from(false)))), Some(false), "in a variant of its own");
        assert_eq!(read(Value::from("true")), None);
        assert_eq!(read(Value::from(vec![1u8; 1 << 20])), None);
    }
}
