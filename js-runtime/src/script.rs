//! A widget's script, loaded: its own JS context (a realm with the
//! language's built-ins, `console`, and the `obi:widget` modules its
//! config grants), and the `guest` object it exports, whose functions the
//! runtime calls for the host.

use crate::convert::{At, FromJs};
use crate::errors;
use crate::glue::{GUEST_FUNCTIONS, REQUIRED_GUEST_FUNCTIONS};
use crate::loader::ObiModules;
use boa_engine::builtins::promise::PromiseState;
use boa_engine::object::ObjectInitializer;
use boa_engine::property::{Attribute, PropertyKey};
use boa_engine::{Context, JsError, JsObject, JsResult, JsString, JsValue, Module, NativeFunction, Source};
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

pub struct Script {
    context: Context,
    /// The file, as errors name it.
    file: String,
    guest: JsObject,
}

impl Script {
    /// Parses `source`, loads its imports by `rules` (each interface and why
    /// the widget may not import it) and runs its body.
    pub fn load(file: String, source: String, rules: HashMap<String, Option<String>>) -> Result<Script, String> {
        let loader = Rc::new(ObiModules::new(file.clone(), source.clone(), rules));
        let mut context = Context::builder()
            .module_loader(loader.clone())
            .build()
            .map_err(|error| format!("{file}: starting the JS engine: {error}"))?;
        install_console(&mut context).map_err(|error| format!("{file}: {error}"))?;
        let parsed = Source::from_bytes(source.as_bytes()).with_path(Path::new(&file));
        let module = Module::parse(parsed, None, &mut context)
            .map_err(|error| errors::describe_parse(&error, &file, &source))?;
        let evaluated = module.load_link_evaluate(&mut context);
        let settled = context.run_jobs().map(|()| evaluated.state());
        let failed = match settled {
            Ok(PromiseState::Fulfilled(_)) => None,
            Ok(PromiseState::Rejected(thrown)) => Some(JsError::from_opaque(thrown)),
            Ok(PromiseState::Pending) => {
                return Err(format!("{file}: its body waits for what never comes (an `await`)"));
            }
            Err(error) => Some(error),
        };
        if let Some(error) = failed {
            // A refused import is said as the loader said it.
            return Err(loader.refused().unwrap_or_else(|| errors::describe(&error, &file)));
        }
        let guest = module.namespace(&mut context).get(JsString::from("guest"), &mut context);
        let guest = guest.map_err(|error| errors::describe(&error, &file))?;
        let Some(guest) = guest.as_object() else {
            return Err(format!(
                "{file} exports no `guest` object: export const guest = {{ init(configJson, bar) {{ ... }}, refresh() {{ ... }} }}"
            ));
        };
        check_guest(&guest, &file, &source, &mut context)?;
        Ok(Script { context, file, guest })
    }

    /// Calls `guest`'s function `name` with the arguments `arguments` makes;
    /// none when the script does not have it. An exception, or a promise
    /// returned, is the error.
    pub fn call(
        &mut self,
        name: &str,
        arguments: impl FnOnce(&mut Context) -> JsResult<Vec<JsValue>>,
    ) -> Result<Option<JsValue>, String> {
        let context = &mut self.context;
        let describe = |error: JsError| errors::describe(&error, &self.file);
        let function = self.guest.get(JsString::from(name), context).map_err(describe)?;
        let Some(function) = function.as_callable() else { return Ok(None) };
        let arguments = arguments(context).map_err(describe)?;
        let returned = function.call(&self.guest.clone().into(), &arguments, context).map_err(describe)?;
        // Promises the call made settle now, as far as they can without the host.
        context.run_jobs().map_err(describe)?;
        if returned.as_promise().is_some() {
            return Err(format!("{}: guest.{name} returned a promise; a widget answers each call at once", self.file));
        }
        Ok(Some(returned))
    }

    /// `value`, returned by `guest.name`, as the WIT type the call returns.
    pub fn convert<T: FromJs>(&mut self, value: &JsValue, name: &str) -> Result<T, String> {
        T::from_js(value, &At::returned(name), &mut self.context)
            .map_err(|error| format!("{}: {}", self.file, error_text(&error)))
    }

    pub fn context(&mut self) -> &mut Context {
        &mut self.context
    }
}

/// A conversion's error: its message alone.
fn error_text(error: &JsError) -> String {
    error.as_native().map_or_else(|| error.to_string(), |native| native.message().to_string())
}

/// `guest` has the functions it must and names none that obi:widget's
/// `guest` does not have (a misspelt one would never be called). An error
/// names the place in `source` of the name it is about, or of the export.
fn check_guest(guest: &JsObject, file: &str, source: &str, context: &mut Context) -> Result<(), String> {
    let at = |word: &str| {
        errors::place_of(source, word)
            .map_or_else(|| file.to_owned(), |(line, column)| format!("{file}:{line}:{column}"))
    };
    let keys = guest.own_property_keys(context).map_err(|error| errors::describe(&error, file))?;
    for key in keys {
        let PropertyKey::String(name) = key else { continue };
        let name = name.to_std_string_lossy();
        if !GUEST_FUNCTIONS.contains(&name.as_str()) {
            let nearest =
                GUEST_FUNCTIONS.iter().min_by_key(|known| distance(known, &name)).expect("guest has functions");
            let hint =
                if distance(nearest, &name) <= 3 { format!("did you mean `{nearest}`? ") } else { String::new() };
            return Err(format!(
                "{}: guest.{name} is not a function of obi:widget/guest; {hint}it has {}",
                at(&name),
                GUEST_FUNCTIONS.join(", ")
            ));
        }
    }
    for name in GUEST_FUNCTIONS {
        let value = guest.get(JsString::from(*name), context).map_err(|error| errors::describe(&error, file))?;
        let required = REQUIRED_GUEST_FUNCTIONS.contains(name);
        if (required && !value.is_callable()) || !(value.is_undefined() || value.is_callable()) {
            let place = match value.is_undefined() {
                true => at("guest"),
                false => at(name),
            };
            return Err(format!("{place}: guest.{name} must be a function"));
        }
    }
    Ok(())
}

/// How many letters must change to make `a` into `b` (Levenshtein).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, left) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &right) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(left != right);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// `console.log` and its kin write a line to the widget's stderr, which
/// the bar logs under the widget's name.
fn install_console(context: &mut Context) -> JsResult<()> {
    fn print(_: &JsValue, arguments: &[JsValue], context: &mut Context) -> JsResult<JsValue> {
        let words: Vec<String> = arguments
            .iter()
            .map(|argument| match argument.as_string() {
                Some(text) => Ok(text.to_std_string_lossy()),
                None => Ok(argument.to_string(context)?.to_std_string_lossy()),
            })
            .collect::<JsResult<_>>()?;
        eprintln!("{}", words.join(" "));
        Ok(JsValue::undefined())
    }
    let mut console = ObjectInitializer::new(context);
    for name in ["log", "info", "warn", "error", "debug"] {
        console.function(NativeFunction::from_fn_ptr(print), JsString::from(name), 0);
    }
    let console = console.build();
    context.register_global_property(JsString::from("console"), console, Attribute::WRITABLE | Attribute::CONFIGURABLE)
}
