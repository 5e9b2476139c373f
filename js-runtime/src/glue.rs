//! The generated glue (`build.rs`, `obi-js-bindgen`): conversions of every
//! named obi:widget type, a JS function for every import, and
//! [`INTERFACES`], the imports by interface.

#![allow(clippy::all, unused_variables, reason = "generated code")]

use crate::convert::{self, At, FromJs, IntoJs};
use boa_engine::native_function::NativeFunctionPointer;
use boa_engine::{Context, JsResult, JsString, JsValue};

include!(concat!(env!("OUT_DIR"), "/glue.rs"));
