//! The only modules a widget's script can import: `obi:widget/INTERFACE`
//! (with or without the runtime's `@version`), each a module of the
//! interface's functions, and only those the widget's config grants.
//! Everything else, a refused capability first, fails the import with a
//! message that names the import's line; as imports are loaded before the
//! script's body runs, a refused one means nothing of it runs.

use crate::glue::INTERFACES;
use boa_engine::module::{ModuleLoader, ModuleRequest, Referrer, SyntheticModuleInitializer};
use boa_engine::{Context, JsNativeError, JsResult, JsString, Module, NativeFunction};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The release of `obi:widget` the runtime is built for.
pub const VERSION: &str = "0.1.8";

/// Whether an import may name `version`: the runtime's release or an
/// earlier 0.1 one, whose interfaces are the runtime's (an interface never
/// changes once released), so a script written for 0.1.6 runs unchanged.
fn served(version: &str) -> bool {
    let patch = |version: &str| version.strip_prefix("0.1.")?.parse::<u32>().ok();
    patch(version).is_some_and(|asked| patch(VERSION).is_some_and(|served| asked <= served))
}

pub struct ObiModules {
    /// The script's file, as errors name it, and its text, to find lines in.
    file: String,
    source: String,
    /// Each interface, and why the widget may not import it (none: it may).
    rules: HashMap<String, Option<String>>,
    loaded: RefCell<HashMap<String, Module>>,
    /// Why the first import refused was, as the widget's error.
    refused: RefCell<Option<String>>,
}

impl ObiModules {
    pub fn new(file: String, source: String, rules: HashMap<String, Option<String>>) -> ObiModules {
        ObiModules { file, source, rules, loaded: RefCell::default(), refused: RefCell::default() }
    }

    /// Why `specifier` cannot be imported, or the interface it names.
    fn interface<'a>(&self, specifier: &'a str) -> Result<&'a str, String> {
        let Some(named) = specifier.strip_prefix("obi:widget/") else {
            return Err(format!(
                "imports {specifier:?}: a widget is one file, and imports only obi:widget's interfaces \
                 (\"obi:widget/clock\", ...)"
            ));
        };
        let (interface, version) = named.split_once('@').map_or((named, None), |(name, version)| (name, Some(version)));
        if version.is_some_and(|version| !served(version)) {
            return Err(format!(
                "imports {specifier:?}: JS widgets are run against obi:widget@{VERSION} (and the 0.1 \
                 releases before it); import \"obi:widget/{interface}\" or \"obi:widget/{interface}@{VERSION}\""
            ));
        }
        match self.rules.get(interface) {
            Some(None) => Ok(interface),
            Some(Some(refused)) => Err(format!("imports {specifier:?}: {refused}")),
            None => Err(format!("imports {specifier:?}: obi:widget@{VERSION} has no interface {interface:?}")),
        }
    }

    /// Why an import was refused, if one was.
    pub fn refused(&self) -> Option<String> {
        self.refused.borrow().clone()
    }

    /// The place of the first line of the script that names `specifier`.
    fn place(&self, specifier: &str) -> String {
        let quoted =
            |line: &str| ['"', '\'', '`'].iter().any(|quote| line.contains(&format!("{quote}{specifier}{quote}")));
        match self.source.lines().position(quoted) {
            Some(index) => format!("{}:{}", self.file, index + 1),
            None => self.file.clone(),
        }
    }
}

impl ModuleLoader for ObiModules {
    async fn load_imported_module(
        self: Rc<Self>,
        _referrer: Referrer,
        request: ModuleRequest,
        context: &RefCell<&mut Context>,
    ) -> JsResult<Module> {
        let specifier = request.specifier().to_std_string_lossy();
        let interface = self.interface(&specifier).map_err(|why| {
            let why = format!("{}: {why}", self.place(&specifier));
            self.refused.borrow_mut().get_or_insert_with(|| why.clone());
            JsNativeError::typ().with_message(why)
        })?;
        if let Some(module) = self.loaded.borrow().get(interface) {
            return Ok(module.clone());
        }
        let functions =
            INTERFACES.iter().find(|(name, _)| *name == interface).map_or(&[][..], |(_, functions)| *functions);
        let names: Vec<JsString> = functions.iter().map(|(name, _)| JsString::from(*name)).collect();
        let exports = SyntheticModuleInitializer::from_copy_closure(move |module, context| {
            for (name, function) in functions {
                let function = NativeFunction::from_fn_ptr(*function).to_js_function(context.realm());
                module.set_export(&JsString::from(*name), function.into())?;
            }
            Ok(())
        });
        let module = Module::synthetic(&names, exports, None, None, &mut context.borrow_mut());
        self.loaded.borrow_mut().insert(interface.to_owned(), module.clone());
        Ok(module)
    }
}
