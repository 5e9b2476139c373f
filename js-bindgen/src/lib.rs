//! Reads the newest `obi:widget` world and writes what a widget in
//! JavaScript needs of it, following jco's mapping of WIT types to JS
//! values (records as objects with camelCase fields, variants as
//! `{ tag, val }`, enums as their names, flags as objects of booleans,
//! options as the value or `undefined`, 64-bit integers as BigInts):
//!
//! - [`WidgetWorld::rust_glue`]: the JS runtime's conversions between Boa's
//!   values and the Rust types wit-bindgen generates for the world, and a JS
//!   function for every imported WIT function ([`rust`]);
//! - [`WidgetWorld::typescript`]: declarations of every `obi:widget/...`
//!   module a widget imports and of the `guest` it exports, for editors
//!   ([`typescript`]).
//!
//! Both are written from the WIT at build time, so a new release's world
//! reaches JS widgets without code written by hand.

mod rust;
mod typescript;

use anyhow::{Context, bail};
use std::collections::HashSet;
use std::path::Path;
use wit_parser::{Docs, Function, InterfaceId, Resolve, Type, TypeDefKind, TypeId, TypeOwner, WorldItem};

/// The `widget` world of one release of `obi:widget`.
pub struct WidgetWorld {
    resolve: Resolve,
    /// The imported interfaces, in the world's order.
    imports: Vec<InterfaceId>,
    /// The exported `guest` interface.
    guest: InterfaceId,
    /// The package's version: `0.1.7`.
    version: String,
}

impl WidgetWorld {
    /// The world `widget` of the package in the folder `wit`.
    pub fn load(wit: &Path) -> anyhow::Result<WidgetWorld> {
        let mut resolve = Resolve::default();
        let (package, _) = resolve.push_dir(wit).with_context(|| format!("reading {}", wit.display()))?;
        let world = resolve.select_world(&[package], Some("widget"))?;
        let interface = |item: &WorldItem| match item {
            WorldItem::Interface { id, .. } => Some(*id),
            _ => None,
        };
        let imports: Vec<InterfaceId> = resolve.worlds[world].imports.values().filter_map(interface).collect();
        let exports: Vec<InterfaceId> = resolve.worlds[world].exports.values().filter_map(interface).collect();
        let [guest] = exports[..] else { bail!("the widget world exports {} interfaces, not one", exports.len()) };
        let version = resolve.packages[package].name.version.as_ref().map(ToString::to_string).unwrap_or_default();
        let world = WidgetWorld { resolve, imports, guest, version };
        world.check_supported()?;
        Ok(world)
    }

    /// Fails on a WIT type jco's mapping is not written for here (resources,
    /// tuples, maps, streams): the runtime must not be built without it.
    fn check_supported(&self) -> anyhow::Result<()> {
        for (_, typedef) in self.resolve.types.iter() {
            let unsupported = match typedef.kind {
                TypeDefKind::Resource | TypeDefKind::Handle(_) => "resources",
                TypeDefKind::Tuple(_) => "tuples",
                TypeDefKind::Map(..) => "maps",
                TypeDefKind::FixedLengthList(..) => "fixed-length lists",
                TypeDefKind::Future(_) | TypeDefKind::Stream(_) => "futures and streams",
                _ => continue,
            };
            bail!("obi:widget uses {unsupported} (in {:?}), which the JS runtime cannot pass yet", typedef.name);
        }
        Ok(())
    }

    fn interface_name(&self, interface: InterfaceId) -> &str {
        self.resolve.interfaces[interface].name.as_deref().unwrap_or("(anonymous)")
    }

    /// The interface's named types that a function of the world reaches,
    /// in its order, aliases (`use`) left out: wit-bindgen generates no
    /// others (the view of 0.1.0 in `types`, kept for older widgets).
    fn own_types(&self, interface: InterfaceId) -> impl Iterator<Item = (&str, TypeId)> {
        let live = self.live_types();
        self.resolve.interfaces[interface].types.iter().filter_map(move |(name, &id)| {
            let alias = matches!(self.resolve.types[id].kind, TypeDefKind::Type(_));
            (!alias && live.contains(&id)).then_some((name.as_str(), id))
        })
    }

    /// Every type a parameter or result of the world's functions holds.
    fn live_types(&self) -> HashSet<TypeId> {
        let mut live = HashSet::new();
        let mut pending: Vec<Type> = Vec::new();
        for &interface in self.imports.iter().chain([&self.guest]) {
            for function in self.functions(interface) {
                pending.extend(function.params.iter().map(|param| param.ty));
                pending.extend(function.result);
            }
        }
        while let Some(ty) = pending.pop() {
            let Type::Id(id) = ty else { continue };
            if !live.insert(id) {
                continue;
            }
            match &self.resolve.types[id].kind {
                TypeDefKind::Record(record) => pending.extend(record.fields.iter().map(|field| field.ty)),
                TypeDefKind::Variant(variant) => pending.extend(variant.cases.iter().filter_map(|case| case.ty)),
                TypeDefKind::Option(inner) | TypeDefKind::List(inner) | TypeDefKind::Type(inner) => {
                    pending.push(*inner)
                }
                TypeDefKind::Result(result) => pending.extend([result.ok, result.err].into_iter().flatten()),
                _ => {}
            }
        }
        live
    }

    fn functions(&self, interface: InterfaceId) -> impl Iterator<Item = &Function> {
        self.resolve.interfaces[interface].functions.values()
    }

    /// `ty` with aliases followed to the type they name.
    fn unaliased(&self, ty: Type) -> Type {
        match ty {
            Type::Id(id) => match self.resolve.types[id].kind {
                TypeDefKind::Type(aliased) => self.unaliased(aliased),
                _ => ty,
            },
            _ => ty,
        }
    }

    /// The interface that defines the named type `id`.
    fn owner(&self, id: TypeId) -> Option<InterfaceId> {
        match self.resolve.types[id].owner {
            TypeOwner::Interface(interface) => Some(interface),
            _ => None,
        }
    }
}

/// A WIT name as jco names it in JS: `cpu-usage` is `cpuUsage`.
fn js_name(wit: &str) -> String {
    heck::ToLowerCamelCase::to_lower_camel_case(wit)
}

fn doc_lines(docs: &Docs) -> Vec<&str> {
    docs.contents.as_deref().map(|text| text.lines().collect()).unwrap_or_default()
}

/// The functions of `guest` a widget must export; the others are optional
/// (an input it never takes, a popup it never opens).
pub const REQUIRED_GUEST_FUNCTIONS: [&str; 2] = ["init", "refresh"];
