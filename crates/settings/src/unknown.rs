//! Keys in `settings.toml` that no setting reads. They are not errors (a newer file on
//! an older Sidecar should still start) but they are never silently ignored either: a
//! misspelled `max_retrys` is a setting the user thinks is on. Each one becomes a
//! warning, with the closest real key when one is near.
//!
//! The known keys come from the settings types' JSON schema, so they can never drift
//! from what the loader actually reads.

use serde_json::Value;

use super::Settings;

/// Parses `text` as settings and lists every key it holds that no setting reads.
pub(super) fn parse_noting_unknown(text: &str) -> Result<(Settings, Vec<String>), toml::de::Error> {
    let mut unknown = Vec::new();
    let settings = serde_ignored::deserialize(toml::Deserializer::new(text), |path| unknown.push(path.to_string()))?;
    let schema = serde_json::to_value(schemars::schema_for!(Settings)).unwrap_or(Value::Null);
    let warnings = unknown.iter().map(|path| describe(&schema, path)).collect();
    Ok((settings, warnings))
}

/// "unknown key llm.max_retrys (did you mean llm.max_retries?)".
fn describe(schema: &Value, path: &str) -> String {
    let (parent, key) = path.rsplit_once('.').unwrap_or(("", path));
    let what = if parent.is_empty() { "section or key" } else { "key" };
    let near = known_keys(schema, parent)
        .into_iter()
        .map(|known| (strsim::damerau_levenshtein(key, &known), known))
        .filter(|(distance, known)| *distance <= (known.len() / 3).max(1))
        .min();
    let shown = |k: &str| if parent.is_empty() { k.to_string() } else { format!("{parent}.{k}") };
    match near {
        Some((_, known)) => format!("unknown {what} {path} (did you mean {}?); it is ignored", shown(&known)),
        None => format!("unknown {what} {path}; it is ignored"),
    }
}

/// The keys allowed in the table at `parent` ("llm", "providers.0", "" for the top).
fn known_keys(schema: &Value, parent: &str) -> Vec<String> {
    let mut node = schema;
    for segment in parent.split('.').filter(|s| !s.is_empty()) {
        node = resolve(schema, node);
        node = if segment.parse::<usize>().is_ok() && node.get("items").is_some() {
            &node["items"]
        } else if let Some(child) = node.get("properties").and_then(|p| p.get(segment)) {
            child
        } else if let Some(values) = node.get("additionalProperties").filter(|v| v.is_object()) {
            values
        } else {
            return Vec::new();
        };
    }
    let node = resolve(schema, node);
    node.get("properties").and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default()
}

/// Follows a `$ref` (also one wrapped in `allOf`/`anyOf` for defaults and options).
fn resolve<'a>(schema: &'a Value, node: &'a Value) -> &'a Value {
    let reference = node.get("$ref").or_else(|| ["allOf", "anyOf"].iter().find_map(|k| node.get(*k)?.as_array()?.iter().find_map(|n| n.get("$ref"))));
    match reference.and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => schema.get("$defs").and_then(|d| d.get(name)).unwrap_or(node),
        None => node,
    }
}

#[cfg(test)]
mod tests {
    use super::parse_noting_unknown;

    fn warnings(text: &str) -> Vec<String> {
        parse_noting_unknown(text).unwrap().1
    }

    #[test]
    fn a_known_file_has_no_warnings() {
        let text = "[llm]\nmax_retries = 1\n[user]\ntimezone = \"UTC\"\n[[providers]]\nid = \"a\"\nbase_url = \"http://x\"\nmodel = \"m\"\ncontext_window = 9000\n[tools.read_url]\nmax_chars = 500\n[prices.\"m\"]\ninput_per_mtok = 1.0\noutput_per_mtok = 2.0\n";
        assert_eq!(warnings(text), Vec::<String>::new());
    }

    #[test]
    fn misspellings_are_named_with_the_nearest_key() {
        let found = warnings("[llm]\nmax_retrys = 3\n[llmm]\nx = 1\n[[providers]]\nid = \"a\"\nbase_url = \"http://x\"\nmodel = \"m\"\ncontext_windw = 1\n[tools.read_url]\nmax_char = 5\n[prices.\"m\"]\ninput_per_mtok = 1.0\noutput_per_mtok = 2.0\ncached = 1.0\n");
        let all = found.join("\n");
        assert!(all.contains("llm.max_retrys (did you mean llm.max_retries?)"), "{all}");
        assert!(all.contains("section or key llmm (did you mean llm?)"), "{all}");
        assert!(all.contains("providers.0.context_windw (did you mean providers.0.context_window?)"), "{all}");
        assert!(all.contains("tools.read_url.max_char (did you mean tools.read_url.max_chars?)"), "{all}");
        assert!(all.contains("unknown key prices.m.cached"), "{all}");
        assert_eq!(found.len(), 5, "{all}");
    }

    #[test]
    fn a_far_key_gets_no_suggestion() {
        let found = warnings("[llm]\ncompletely_else = 1\n");
        assert_eq!(found, vec!["unknown key llm.completely_else; it is ignored".to_string()]);
    }
}
