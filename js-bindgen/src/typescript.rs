//! TypeScript declarations of the modules a JS widget imports
//! (`obi:widget/clock`, without a version and with its own or an earlier 0.1 release's) and of the
//! `guest` object it exports, so that an editor completes and checks them.

use super::{REQUIRED_GUEST_FUNCTIONS, WidgetWorld, doc_lines, js_name};
use heck::ToUpperCamelCase;
use std::fmt::Write;
use wit_parser::{Docs, Function, InterfaceId, Type, TypeDefKind, TypeId};

impl WidgetWorld {
    /// The declarations, as the text of a `.d.ts` file.
    pub fn typescript(&self) -> String {
        let mut out = format!(
            "// What a JS widget imports from, and exports to, Obi: obi:widget@{version}, as jco maps its WIT.\n\
             // Generated from the WIT by Obi; `obi widget new --js` writes it beside a new widget.\n\
             //\n\
             // In a widget: /** @type {{import(\"obi:widget/guest\").Guest}} */ export const guest = {{ ... }};\n\n",
            version = self.version
        );
        for &interface in self.imports.iter().chain([&self.guest]) {
            self.write_module(&mut out, interface);
        }
        out
    }

    fn write_module(&self, out: &mut String, interface: InterfaceId) {
        let name = self.interface_name(interface);
        write_docs(out, "", &self.resolve.interfaces[interface].docs);
        let _ = writeln!(out, "declare module \"obi:widget/{name}\" {{");
        let live = self.live_types();
        let types = self.resolve.interfaces[interface].types.iter().filter(|(_, id)| live.contains(id));
        for (type_name, &id) in types {
            let typedef = &self.resolve.types[id];
            write_docs(out, "  ", &typedef.docs);
            let ts_name = type_name.to_upper_camel_case();
            match &typedef.kind {
                TypeDefKind::Record(record) => {
                    let _ = writeln!(out, "  export interface {ts_name} {{");
                    for field in &record.fields {
                        write_docs(out, "    ", &field.docs);
                        let (optional, ty) = self.field_type(field.ty, interface);
                        let _ = writeln!(out, "    {}{optional}: {ty};", js_name(&field.name));
                    }
                    out.push_str("  }\n");
                }
                TypeDefKind::Flags(flags) => {
                    let _ = writeln!(out, "  export interface {ts_name} {{");
                    for flag in &flags.flags {
                        write_docs(out, "    ", &flag.docs);
                        let _ = writeln!(out, "    {}?: boolean;", js_name(&flag.name));
                    }
                    out.push_str("  }\n");
                }
                TypeDefKind::Variant(variant) => {
                    let _ = writeln!(out, "  export type {ts_name} =");
                    for case in &variant.cases {
                        let val =
                            case.ty.map(|ty| format!(", val: {}", self.ts_type(ty, interface))).unwrap_or_default();
                        let _ = writeln!(out, "    | {{ tag: {:?}{val} }}", case.name);
                    }
                    out.push_str("  ;\n");
                }
                TypeDefKind::Enum(cases) => {
                    let names: Vec<String> = cases.cases.iter().map(|case| format!("{:?}", case.name)).collect();
                    let _ = writeln!(out, "  export type {ts_name} = {};", names.join(" | "));
                }
                TypeDefKind::Type(aliased) => {
                    let _ = writeln!(out, "  export type {ts_name} = {};", self.ts_type(*aliased, interface));
                }
                _ => {}
            }
        }
        if interface == self.guest {
            out.push_str("  /** What a widget exports as `guest`. */\n  export interface Guest {\n");
            for function in self.functions(interface) {
                self.write_function(out, function, interface, true);
            }
            out.push_str("  }\n");
        } else {
            for function in self.functions(interface) {
                self.write_function(out, function, interface, false);
            }
        }
        out.push_str("}\n");
        for version in self.versions_named() {
            let _ = writeln!(
                out,
                "declare module \"obi:widget/{name}@{version}\" {{\n  export * from \"obi:widget/{name}\";\n}}\n"
            );
        }
    }

    /// The versions an import may name: the package's, and as the JS
    /// runtime takes them, every earlier 0.1 release's (`0.1.0` … `0.1.7`).
    fn versions_named(&self) -> Vec<String> {
        match self.version.strip_prefix("0.1.").and_then(|patch| patch.parse::<u32>().ok()) {
            Some(patch) => (0..=patch).map(|patch| format!("0.1.{patch}")).collect(),
            None => vec![self.version.clone()],
        }
    }

    fn write_function(&self, out: &mut String, function: &Function, interface: InterfaceId, method: bool) {
        write_docs(out, if method { "    " } else { "  " }, &function.docs);
        // Options at the end may be left out, as jco passes them `undefined`.
        let is_option = |ty: Type| matches!(self.unaliased(ty), Type::Id(id) if matches!(self.resolve.types[id].kind, TypeDefKind::Option(_)));
        let required = function.params.iter().rposition(|param| !is_option(param.ty)).map_or(0, |last| last + 1);
        let params: Vec<String> = function
            .params
            .iter()
            .enumerate()
            .map(|(index, param)| match index >= required {
                true => format!("{}?: {}", js_name(&param.name), self.ts_type(param.ty, interface)),
                false => format!("{}: {}", js_name(&param.name), self.ts_type(param.ty, interface)),
            })
            .collect();
        let returns = match function.result.map(|ty| self.unaliased(ty)) {
            None => "void".into(),
            // The error is thrown.
            Some(Type::Id(id)) if let TypeDefKind::Result(result) = &self.resolve.types[id].kind => {
                result.ok.map_or("void".into(), |ok| self.ts_type(ok, interface))
            }
            Some(ty) => self.ts_type(ty, interface),
        };
        let name = js_name(&function.name);
        let optional = if method && !REQUIRED_GUEST_FUNCTIONS.contains(&name.as_str()) { "?" } else { "" };
        let prefix = if method { "    " } else { "  export function " };
        let _ = writeln!(out, "{prefix}{name}{optional}({}): {returns};", params.join(", "));
    }

    /// A record field's type: an option's is an optional field.
    fn field_type(&self, ty: Type, interface: InterfaceId) -> (&'static str, String) {
        match self.unaliased(ty) {
            Type::Id(id) if let TypeDefKind::Option(inner) = self.resolve.types[id].kind => {
                ("?", self.ts_type(inner, interface))
            }
            _ => ("", self.ts_type(ty, interface)),
        }
    }

    fn ts_type(&self, ty: Type, interface: InterfaceId) -> String {
        match ty {
            Type::Bool => "boolean".into(),
            Type::U8 | Type::U16 | Type::U32 | Type::S8 | Type::S16 | Type::S32 | Type::F32 | Type::F64 => {
                "number".into()
            }
            Type::U64 | Type::S64 => "bigint".into(),
            Type::Char | Type::String => "string".into(),
            Type::ErrorContext => "unknown".into(),
            Type::Id(id) => match &self.resolve.types[id].kind {
                _ if self.resolve.types[id].name.is_some() => self.type_reference(id, interface),
                TypeDefKind::Option(inner) => format!("{} | undefined", self.ts_type(*inner, interface)),
                TypeDefKind::List(Type::U8) => "Uint8Array".into(),
                TypeDefKind::List(inner) => format!("Array<{}>", self.ts_type(*inner, interface)),
                TypeDefKind::Result(result) => result.ok.map_or("void".into(), |ok| self.ts_type(ok, interface)),
                TypeDefKind::Type(aliased) => self.ts_type(*aliased, interface),
                _ => "unknown".into(),
            },
        }
    }

    /// The named type `id` as seen from `interface`.
    fn type_reference(&self, id: TypeId, interface: InterfaceId) -> String {
        let name = self.resolve.types[id].name.as_deref().unwrap_or_default().to_upper_camel_case();
        match self.owner(id) {
            Some(owner) if owner != interface => {
                format!("import(\"obi:widget/{}\").{name}", self.interface_name(owner))
            }
            _ => name,
        }
    }
}

fn write_docs(out: &mut String, indent: &str, docs: &Docs) {
    let lines = doc_lines(docs);
    if lines.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}/**");
    for line in lines {
        let _ = writeln!(out, "{indent} * {}", line.replace("*/", "*\\/"));
    }
    let _ = writeln!(out, "{indent} */");
}
