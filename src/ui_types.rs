//! The TypeScript types of what the core sends the window (`ui/src/types/core.ts`):
//! generated from the Rust types with ts-rs, never written by hand, so a change on one
//! side that the other misses fails `the_ui_types_are_the_cores`. `make ui-types` writes
//! the file anew after a change to an event or a view.

#[cfg(test)]
mod tests {
    use std::any::TypeId;
    use std::collections::{BTreeMap, HashSet};
    use std::path::Path;

    use ts_rs::{Config, TypeVisitor, TS};

    use crate::CoreEvent;

    /// Every declared type reachable from the roots, by name.
    struct Declarations {
        cfg: Config,
        seen: HashSet<TypeId>,
        found: BTreeMap<String, String>,
    }

    impl TypeVisitor for Declarations {
        fn visit<T: TS + 'static + ?Sized>(&mut self) {
            if !self.seen.insert(TypeId::of::<T>()) {
                return;
            }
            if T::output_path().is_none() {
                // A string, a list, an option: what it holds may be declared.
                T::visit_dependencies(self);
                T::visit_generics(self);
                return;
            }
            let docs = T::docs().map(|d| format!("{}\n", d.trim_end())).unwrap_or_default();
            let declared = format!("{docs}export {}", T::decl(&self.cfg));
            // Two Rust types of one name would be one TypeScript type: rename one (`#[ts(rename)]`).
            if let Some(other) = self.found.insert(T::ident(&self.cfg), declared.clone()) {
                assert_eq!(other, declared, "two types are called {} in TypeScript", T::ident(&self.cfg));
            }
            T::visit_dependencies(self);
        }
    }

    fn typescript() -> String {
        // The core's integers are JSON numbers, well inside a double's exact range.
        let mut declarations = Declarations { cfg: Config::new().with_large_int("number"), seen: HashSet::new(), found: BTreeMap::new() };
        declarations.visit::<CoreEvent>();
        // What the window's commands take and answer with.
        crate::commands::visit_types(&mut declarations);
        // What the shell's own commands answer with, and the events of the link to a home.
        declarations.visit::<crate::commands::CommandError>();
        declarations.visit::<sidecar_serve::EndpointView>();
        declarations.visit::<sidecar_desktop_features::Grown>();
        declarations.visit::<sidecar_desktop_features::WindowFacts>();
        declarations.visit::<sidecar_settings::HotkeyError>();
        declarations.visit::<crate::VoiceView>();
        declarations.visit::<sidecar_settings::VoiceSwitch>();
        declarations.visit::<crate::companion::home::HomeView>();
        declarations.visit::<crate::companion::home::HomeLinkChanged>();
        declarations.visit::<crate::companion::devices_sink::DeviceNotification>();
        let mut text = String::from(
            "// What the core sends the window, generated from its Rust types by ts-rs.\n// Do not edit: run `make ui-types` after changing an event or a view.\n\n",
        );
        text.push_str(&declarations.found.into_values().collect::<Vec<_>>().join("\n\n"));
        text.push('\n');
        text
    }

    #[test]
    fn the_ui_types_are_the_cores() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/src/types/core.ts");
        let now = typescript();
        if std::env::var_os("SIDECAR_WRITE_UI_TYPES").is_some() {
            std::fs::write(&path, &now).unwrap();
            return;
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(checked_in == now, "ui/src/types/core.ts is behind the core's Rust types: run `make ui-types` and commit the file");
    }
}
