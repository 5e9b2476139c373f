//! JS values to and from the Rust types of obi:widget's bindings, as jco
//! maps WIT types: the two traits, their impls for WIT's primitive, option
//! and list types, and the helpers the generated glue ([`crate::glue`])
//! calls for records, variants, enums and flags. A value of the wrong shape
//! is a `TypeError` that says where in the value it was.

use boa_engine::object::builtins::{JsArray, JsUint8Array};
use boa_engine::value::JsVariant;
use boa_engine::{Context, JsBigInt, JsError, JsNativeError, JsObject, JsResult, JsString, JsValue};
use std::fmt;

/// A Rust value made from a JS value.
pub trait FromJs: Sized {
    fn from_js(value: &JsValue, at: &At<'_>, context: &mut Context) -> JsResult<Self>;

    /// What an absent (`undefined`) field or argument is, if it may be absent.
    fn absent() -> Option<Self> {
        None
    }

    /// A list of these, from an array or an array-like (a `Uint8Array`).
    fn list_from_js(value: &JsValue, at: &At<'_>, context: &mut Context) -> JsResult<Vec<Self>> {
        let object = object(value, at, "list")?;
        let length = object.get(JsString::from("length"), context)?.to_length(context)?;
        (0..length)
            .map(|index| {
                let item = object.get(index, context)?;
                Self::from_js(&item, &at.index(index as usize), context)
            })
            .collect()
    }
}

/// A JS value made from a Rust value.
pub trait IntoJs {
    fn into_js(self, context: &mut Context) -> JsResult<JsValue>;

    /// A list of these: an array.
    fn list_into_js(items: Vec<Self>, context: &mut Context) -> JsResult<JsValue>
    where
        Self: Sized,
    {
        let values = items.into_iter().map(|item| item.into_js(context)).collect::<JsResult<Vec<_>>>()?;
        Ok(JsArray::from_iter(values, context).into())
    }
}

/// Where a value is, for errors: `refresh() → view.items[2].pieces[0]`.
pub struct At<'a> {
    parent: Option<&'a At<'a>>,
    step: Step<'a>,
}

enum Step<'a> {
    /// What a call of `guest`'s function returned.
    Returned(&'a str),
    /// An argument of an import.
    Argument {
        function: &'a str,
        name: &'a str,
    },
    Field(&'a str),
    Index(usize),
}

impl<'a> At<'a> {
    pub fn returned(function: &'a str) -> At<'a> {
        At { parent: None, step: Step::Returned(function) }
    }

    pub fn argument(function: &'a str, name: &'a str) -> At<'a> {
        At { parent: None, step: Step::Argument { function, name } }
    }

    pub fn field(&'a self, name: &'a str) -> At<'a> {
        At { parent: Some(self), step: Step::Field(name) }
    }

    pub fn index(&'a self, index: usize) -> At<'a> {
        At { parent: Some(self), step: Step::Index(index) }
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(parent) = self.parent {
            parent.fmt(formatter)?;
        }
        match self.step {
            Step::Returned(function) => write!(formatter, "{function}() →"),
            Step::Argument { function, name } => write!(formatter, "{function}({name})"),
            Step::Field(name) if matches!(self.parent.map(|parent| &parent.step), Some(Step::Returned(_))) => {
                write!(formatter, " {name}")
            }
            Step::Field(name) => write!(formatter, ".{name}"),
            Step::Index(index) => write!(formatter, "[{index}]"),
        }
    }
}

fn type_error(at: &At<'_>, message: impl fmt::Display) -> JsError {
    JsNativeError::typ().with_message(format!("{at}: {message}")).into()
}

/// What `value` is, in an error.
fn describe(value: &JsValue) -> String {
    match value.variant() {
        JsVariant::Undefined => "undefined".into(),
        JsVariant::Null => "null".into(),
        JsVariant::Boolean(value) => format!("the boolean {value}"),
        JsVariant::String(_) => "a string".into(),
        JsVariant::Integer32(_) | JsVariant::Float64(_) => format!("the number {}", value.display()),
        JsVariant::BigInt(value) => format!("the BigInt {value}n"),
        JsVariant::Symbol(_) => "a symbol".into(),
        JsVariant::Object(object) if object.is_array() => "an array".into(),
        JsVariant::Object(object) if object.is_callable() => "a function".into(),
        JsVariant::Object(_) => "an object".into(),
    }
}

/// `value` as an object, which a WIT `what` must be.
pub fn object(value: &JsValue, at: &At<'_>, what: &str) -> JsResult<JsObject> {
    value
        .as_object()
        .ok_or_else(|| type_error(at, format_args!("expected an object ({what}), found {}", describe(value))))
}

/// The field `name` of a record.
pub fn field<T: FromJs>(object: &JsObject, name: &str, at: &At<'_>, context: &mut Context) -> JsResult<T> {
    let value = object.get(JsString::from(name), context)?;
    let at = at.field(name);
    if value.is_undefined() {
        return T::absent().ok_or_else(|| type_error(&at, "missing"));
    }
    T::from_js(&value, &at, context)
}

/// The argument at `index` of an import's call.
pub fn argument<T: FromJs>(args: &[JsValue], index: usize, at: &At<'_>, context: &mut Context) -> JsResult<T> {
    match args.get(index).filter(|value| !value.is_undefined()) {
        Some(value) => T::from_js(value, at, context),
        None => T::absent().ok_or_else(|| type_error(at, "missing")),
    }
}

pub fn new_object(context: &mut Context) -> JsObject {
    JsObject::with_object_proto(context.intrinsics())
}

/// Sets a record's field, leaving an option's none out (jco's `undefined`).
pub fn set<T: IntoJs>(object: &JsObject, name: &str, value: T, context: &mut Context) -> JsResult<()> {
    let value = value.into_js(context)?;
    if !value.is_undefined() {
        object.set(JsString::from(name), value, true, context)?;
    }
    Ok(())
}

/// A variant's `tag` and `val`.
pub fn variant(value: &JsValue, at: &At<'_>, context: &mut Context) -> JsResult<(String, JsValue)> {
    let object = object(value, at, "a variant, { tag, val }")?;
    let tag = object.get(JsString::from("tag"), context)?;
    let tag = string(&tag, &at.field("tag"))?;
    Ok((tag, object.get(JsString::from("val"), context)?))
}

pub fn new_variant(tag: &str, val: Option<JsValue>, context: &mut Context) -> JsResult<JsValue> {
    let object = new_object(context);
    object.set(JsString::from("tag"), JsString::from(tag), true, context)?;
    if let Some(val) = val {
        object.set(JsString::from("val"), val, true, context)?;
    }
    Ok(object.into())
}

/// A case name no case of the WIT type `what` has.
pub fn unknown_case(at: &At<'_>, what: &str, found: &str, expected: &[&str]) -> JsError {
    type_error(at, format_args!("{found:?} is not a case of {what} ({})", expected.join(", ")))
}

pub fn string(value: &JsValue, at: &At<'_>) -> JsResult<String> {
    match value.as_string() {
        Some(string) => Ok(string.to_std_string_lossy()),
        None => Err(type_error(at, format_args!("expected a string, found {}", describe(value)))),
    }
}

/// One flag of a flags object: absent is unset.
pub fn flag(object: &JsObject, name: &str, at: &At<'_>, context: &mut Context) -> JsResult<bool> {
    let value = object.get(JsString::from(name), context)?;
    match value.variant() {
        JsVariant::Undefined => Ok(false),
        JsVariant::Boolean(set) => Ok(set),
        _ => Err(type_error(&at.field(name), format_args!("expected a boolean, found {}", describe(&value)))),
    }
}

/// What an import that returns a `result` gives JS: its value, or its
/// error thrown, as jco throws it (an `Error` whose `payload` is the value).
pub fn returned<T: IntoJs, E: IntoJs>(
    result: Result<T, E>,
    function: &str,
    context: &mut Context,
) -> JsResult<JsValue> {
    match result {
        Ok(value) => value.into_js(context),
        Err(error) => {
            let payload = error.into_js(context)?;
            let message = match payload.as_string() {
                Some(text) => format!("{function}: {}", text.to_std_string_lossy()),
                None => format!("{function} failed"),
            };
            let thrown = JsError::from(JsNativeError::error().with_message(message)).into_opaque(context)?;
            if let Some(object) = thrown.as_object() {
                object.set(JsString::from("payload"), payload, true, context)?;
            }
            Err(JsError::from_opaque(thrown))
        }
    }
}

impl FromJs for bool {
    fn from_js(value: &JsValue, at: &At<'_>, _: &mut Context) -> JsResult<Self> {
        value.as_boolean().ok_or_else(|| type_error(at, format_args!("expected a boolean, found {}", describe(value))))
    }
}

impl IntoJs for bool {
    fn into_js(self, _: &mut Context) -> JsResult<JsValue> {
        Ok(self.into())
    }
}

/// An integer of WIT's range `[low, high]` from a number, or a BigInt.
fn integer(value: &JsValue, at: &At<'_>, low: i128, high: i128) -> JsResult<i128> {
    let whole = match value.variant() {
        JsVariant::Integer32(number) => Some(i128::from(number)),
        JsVariant::Float64(number) if number.fract() == 0.0 && number.abs() < 2f64.powi(64) => Some(number as i128),
        JsVariant::BigInt(number) => Some(number.to_i128()),
        _ => None,
    };
    whole.filter(|whole| (low..=high).contains(whole)).ok_or_else(|| {
        type_error(at, format_args!("expected a whole number from {low} to {high}, found {}", describe(value)))
    })
}

/// Integers: numbers in JS, but `u64` and `s64`, BigInts (a whole number is
/// taken for those too).
macro_rules! integers {
    ($($rust:ty => $js:expr),*) => {$(
        impl FromJs for $rust {
            fn from_js(value: &JsValue, at: &At<'_>, _: &mut Context) -> JsResult<Self> {
                integer(value, at, <$rust>::MIN.into(), <$rust>::MAX.into()).map(|whole| whole as $rust)
            }
        }

        impl IntoJs for $rust {
            fn into_js(self, _: &mut Context) -> JsResult<JsValue> {
                Ok($js(self))
            }
        }
    )*};
}

integers!(
    u16 => JsValue::from, u32 => JsValue::from, i8 => JsValue::from, i16 => JsValue::from, i32 => JsValue::from,
    u64 => |whole| JsValue::from(JsBigInt::from(whole)), i64 => |whole| JsValue::from(JsBigInt::from(whole))
);

impl FromJs for u8 {
    fn from_js(value: &JsValue, at: &At<'_>, _: &mut Context) -> JsResult<Self> {
        integer(value, at, 0, 255).map(|whole| whole as u8)
    }

    fn list_from_js(value: &JsValue, at: &At<'_>, context: &mut Context) -> JsResult<Vec<Self>> {
        if let Some(bytes) = value.as_object().and_then(|object| JsUint8Array::from_object(object).ok()) {
            let length = bytes.length(context)?;
            return (0..length)
                .map(|index| u8::from_js(&bytes.at(index as i64, context)?, &at.index(index), context))
                .collect();
        }
        let object = object(value, at, "list")?;
        let length = object.get(JsString::from("length"), context)?.to_length(context)?;
        (0..length).map(|index| u8::from_js(&object.get(index, context)?, &at.index(index as usize), context)).collect()
    }
}

impl IntoJs for u8 {
    fn into_js(self, _: &mut Context) -> JsResult<JsValue> {
        Ok(JsValue::from(self))
    }

    /// Bytes are a `Uint8Array`, as jco gives a `list<u8>`.
    fn list_into_js(items: Vec<Self>, context: &mut Context) -> JsResult<JsValue> {
        Ok(JsUint8Array::from_iter(items, context)?.into())
    }
}

impl FromJs for f32 {
    fn from_js(value: &JsValue, at: &At<'_>, _: &mut Context) -> JsResult<Self> {
        value
            .as_number()
            .map(|number| number as f32)
            .ok_or_else(|| type_error(at, format_args!("expected a number, found {}", describe(value))))
    }
}

impl IntoJs for f32 {
    fn into_js(self, _: &mut Context) -> JsResult<JsValue> {
        Ok(JsValue::from(f64::from(self)))
    }
}

impl FromJs for f64 {
    fn from_js(value: &JsValue, at: &At<'_>, _: &mut Context) -> JsResult<Self> {
        value.as_number().ok_or_else(|| type_error(at, format_args!("expected a number, found {}", describe(value))))
    }
}

impl IntoJs for f64 {
    fn into_js(self, _: &mut Context) -> JsResult<JsValue> {
        Ok(JsValue::from(self))
    }
}

impl FromJs for String {
    fn from_js(value: &JsValue, at: &At<'_>, _: &mut Context) -> JsResult<Self> {
        string(value, at)
    }
}

impl IntoJs for String {
    fn into_js(self, _: &mut Context) -> JsResult<JsValue> {
        Ok(JsString::from(self.as_str()).into())
    }
}

impl IntoJs for () {
    fn into_js(self, _: &mut Context) -> JsResult<JsValue> {
        Ok(JsValue::undefined())
    }
}

/// `undefined` (or `null`) is none.
impl<T: FromJs> FromJs for Option<T> {
    fn from_js(value: &JsValue, at: &At<'_>, context: &mut Context) -> JsResult<Self> {
        if value.is_null_or_undefined() { Ok(None) } else { T::from_js(value, at, context).map(Some) }
    }

    fn absent() -> Option<Self> {
        Some(None)
    }
}

impl<T: IntoJs> IntoJs for Option<T> {
    fn into_js(self, context: &mut Context) -> JsResult<JsValue> {
        self.map_or(Ok(JsValue::undefined()), |value| value.into_js(context))
    }
}

impl<T: FromJs> FromJs for Vec<T> {
    fn from_js(value: &JsValue, at: &At<'_>, context: &mut Context) -> JsResult<Self> {
        T::list_from_js(value, at, context)
    }
}

impl<T: IntoJs> IntoJs for Vec<T> {
    fn into_js(self, context: &mut Context) -> JsResult<JsValue> {
        T::list_into_js(self, context)
    }
}
