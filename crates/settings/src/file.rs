//! Writes changes back to `settings.toml` for the owner (`owner.rs`), keeping everything else in the
//! file (comments, other sections, formatting) as the user left it. The write is
//! atomic: a crash leaves the old file or the new one, never half of one.
//!
//! Over 400 lines: with its tests; the code is 379.

use std::path::Path;

use toml_edit::{value, Array, ArrayOfTables, DocumentMut, Item, Table};

use crate::{ProviderKind, ProviderSettings};

#[derive(Debug, thiserror::Error)]
pub enum SettingsFileError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("{path} is not valid TOML, so it was not changed: {message}")]
    Parse { path: String, message: String },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: std::io::Error },
}

/// Edits the file at `path` (created if missing) with `change`, keeping everything
/// else as it is; a file that is not valid TOML is left alone.
fn edit(path: &Path, change: impl FnOnce(&mut DocumentMut)) -> Result<(), SettingsFileError> {
    let shown = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => return Err(SettingsFileError::Read { path: shown, source }),
    };
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| SettingsFileError::Parse { path: shown.clone(), message: e.to_string() })?;
    change(&mut doc);
    sidecar_domain::write_atomically(path, doc.to_string().as_bytes()).map_err(|source| SettingsFileError::Write { path: shown, source })
}

/// Replaces the `[[providers]]` list and `routing.chat` in the file at `path`.
pub(super) fn save_providers(path: &Path, providers: &[ProviderSettings], chat: &[String]) -> Result<(), SettingsFileError> {
    edit(path, |doc| replace_providers(doc, providers, chat))
}

fn replace_providers(doc: &mut DocumentMut, providers: &[ProviderSettings], chat: &[String]) {
    let mut list = ArrayOfTables::new();
    for p in providers {
        let mut table = Table::new();
        table["id"] = value(&p.id);
        table["kind"] = value(match p.kind {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
        });
        table["base_url"] = value(&p.base_url);
        table["model"] = value(&p.model);
        if let Some(env) = &p.api_key_env {
            table["api_key_env"] = value(env);
        }
        if !p.tools {
            table["tools"] = value(false);
        }
        if let Some(vision) = p.vision {
            table["vision"] = value(vision);
        }
        if let Some(window) = p.context_window {
            table["context_window"] = value(i64::from(window));
        }
        if !p.sampling.is_unset() {
            table["sampling"] = toml_edit::Item::Table(sampling_table(&p.sampling));
        }
        list.push(table);
    }
    if providers.is_empty() {
        doc.remove("providers");
    } else {
        doc["providers"] = Item::ArrayOfTables(list);
    }
    if !doc.contains_key("routing") {
        let mut routing = Table::new();
        routing.set_implicit(false);
        doc["routing"] = Item::Table(routing);
    }
    doc["routing"]["chat"] = value(chat.iter().map(String::as_str).collect::<Array>());
}

/// Sets `[user] timezone` in the file at `path`, keeping the rest as it is.
fn sampling_table(sampling: &crate::llm::sampling::Sampling) -> Table {
    let mut table = Table::new();
    // f32 → f64 through the decimal text, so 0.7 is written as 0.7, not 0.699999988.
    let decimal = |v: f32| value(v.to_string().parse::<f64>().unwrap_or(f64::from(v)));
    if let Some(v) = sampling.temperature {
        table["temperature"] = decimal(v);
    }
    if let Some(v) = sampling.top_p {
        table["top_p"] = decimal(v);
    }
    if let Some(v) = sampling.repeat_penalty {
        table["repeat_penalty"] = decimal(v);
    }
    if let Some(v) = sampling.max_tokens {
        table["max_tokens"] = value(i64::from(v));
    }
    table
}

/// The local model's sampling and context window (`[local_model]`); unset values are
/// removed, so the catalogue's defaults apply again.
pub(super) fn save_local_sampling(path: &Path, sampling: &crate::llm::sampling::Sampling, context_tokens: Option<u32>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let local = table_at(doc, &["local_model"]);
        if sampling.is_unset() {
            local.remove("sampling");
        } else {
            local["sampling"] = toml_edit::Item::Table(sampling_table(sampling));
        }
        match context_tokens {
            Some(tokens) => local["context_tokens"] = value(i64::from(tokens)),
            None => {
                local.remove("context_tokens");
            }
        }
    })
}

pub(super) fn save_timezone(path: &Path, zone: &str) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        if !doc.contains_key("user") {
            doc["user"] = Item::Table(Table::new());
        }
        doc["user"]["timezone"] = value(zone);
    })
}

/// Writes `[budget]`: each limit set or removed, the currency, the rate, and the
/// providers' limits; other keys and comments in the table stay.
pub(super) fn save_budget(path: &Path, budget: &crate::budget::BudgetSettings) -> Result<(), SettingsFileError> {
    fn amount(table: &mut Table, key: &str, usd: Option<f64>) {
        match usd {
            Some(usd) => table[key] = value(usd),
            None => {
                table.remove(key);
            }
        }
    }
    edit(path, |doc| {
        let table = table_at(doc, &["budget"]);
        amount(table, "daily_usd", budget.daily_usd);
        amount(table, "monthly_usd", budget.monthly_usd);
        amount(table, "background_daily_usd", budget.background_daily_usd);
        table["currency"] = value(&budget.currency);
        table["usd_rate"] = value(budget.usd_rate);
        table["allow_unpriced"] = value(budget.allow_unpriced);
        table.remove("providers");
        for (id, limits) in &budget.providers {
            let provider = table_at(doc, &["budget", "providers", id]);
            amount(provider, "daily_usd", limits.daily_usd);
            amount(provider, "monthly_usd", limits.monthly_usd);
        }
    })
}

/// Sets `[desktop] KEY = VALUE` (theme, language, the shortcuts, the character).
pub(super) fn save_desktop(path: &Path, key: &str, setting: Item) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        table_at(doc, &["desktop"])[key] = setting;
    })
}

/// Sets `[updates] KEY = VALUE`, or removes the key for `None` (back to the default).
pub(super) fn save_updates(path: &Path, key: &str, setting: Option<Item>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["updates"]);
        match setting {
            Some(setting) => table[key] = setting,
            None => {
                table.remove(key);
            }
        }
    })
}

/// Sets `[tools.web_search] backend` and `url` (cleared when `None`).
pub(super) fn save_web_search(path: &Path, backend: crate::SearchBackend, url: Option<&str>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let search = table_at(doc, &["tools", "web_search"]);
        search["backend"] = value(backend.as_str());
        match url {
            Some(url) => search["url"] = value(url),
            None => {
                search.remove("url");
            }
        }
    })
}

/// Sets `[voice] speak_replies`.
pub(super) fn save_speak_replies(path: &Path, which: crate::voice::SpeakReplies) -> Result<(), SettingsFileError> {
    let word = match which {
        crate::voice::SpeakReplies::Off => "off",
        crate::voice::SpeakReplies::VoiceOnly => "voice_only",
        crate::voice::SpeakReplies::Always => "always",
    };
    edit(path, |doc| {
        table_at(doc, &["voice"])["speak_replies"] = value(word);
    })
}

/// Sets one of `[voice]`'s switches.
pub(super) fn save_voice_switch(path: &Path, which: crate::voice::VoiceSwitch, on: bool) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        table_at(doc, &["voice"])[which.key()] = value(on);
    })
}

/// Sets `[voice] input_device` or `output_device` (removed for the system's default).
pub(super) fn save_voice_device(path: &Path, key: &str, name: Option<&str>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["voice"]);
        match name {
            Some(name) => table[key] = value(name),
            None => {
                table.remove(key);
            }
        }
    })
}

/// Sets `[voice]`'s voices (removed for the first on offer) and speed.
pub(super) fn save_voicing(path: &Path, spanish: Option<&str>, english: Option<&str>, speed: f32) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["voice"]);
        for (key, voice) in [("spanish_voice", spanish), ("english_voice", english)] {
            match voice {
                Some(voice) => table[key] = value(voice),
                None => {
                    table.remove(key);
                }
            }
        }
        // Two decimals: 1.1 is written as 1.1, not 1.100000023841858.
        table["speed"] = value((f64::from(speed) * 100.0).round() / 100.0);
    })
}

/// Sets a `[memory]` switch (`auto_remember`, `tidy_alone`).
pub(super) fn save_memory_switch(path: &Path, name: &str, on: bool) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        table_at(doc, &["memory"])[name] = value(on);
    })
}

/// Sets `[memory.embeddings]`: the backend, and for an endpoint its address and model
/// (cleared when `None`).
pub(super) fn save_embeddings(path: &Path, backend: crate::memory::EmbeddingsBackend, url: Option<&str>, model: Option<&str>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let embeddings = table_at(doc, &["memory", "embeddings"]);
        embeddings["backend"] = value(backend.as_str());
        for (key, setting) in [("url", url), ("model", model)] {
            match setting {
                Some(setting) => embeddings[key] = value(setting),
                None => {
                    embeddings.remove(key);
                }
            }
        }
    })
}

/// Sets or clears `[tools] notes_folder`, the folder the note tools work in.
pub(super) fn save_notes_folder(path: &Path, folder: Option<&Path>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["tools"]);
        match folder {
            Some(folder) => table["notes_folder"] = value(folder.display().to_string()),
            None => {
                table.remove("notes_folder");
            }
        }
    })
}

/// Writes `[retention]`: each limit set, or taken away when unset.
pub(super) fn save_retention(path: &Path, retention: &crate::RetentionSettings) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["retention"]);
        for (key, limit, _) in retention.limits() {
            let key = key.trim_start_matches("retention.");
            match limit {
                Some(limit) => table[key] = value(i64::from(limit)),
                None => {
                    table.remove(key);
                }
            }
        }
        table["tidy_often"] = value(retention.tidy_often);
    })
}

/// Sets `[user] place`, or takes it away.
pub(super) fn save_place(path: &Path, place: Option<&str>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["user"]);
        match place {
            Some(place) => table["place"] = value(place),
            None => {
                table.remove("place");
            }
        }
    })
}

/// Sets `[tools] auto_allow_read_only`: tools that only read run without asking.
pub(super) fn save_auto_allow_read_only(path: &Path, on: bool) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        table_at(doc, &["tools"])["auto_allow_read_only"] = value(on);
    })
}

/// Sets `[devices] listen`: where other devices reach this Sidecar.
pub(super) fn save_devices_listen(path: &Path, addresses: &[String]) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        table_at(doc, &["devices"])["listen"] = value(addresses.iter().map(String::as_str).collect::<Array>());
    })
}

/// Sets `[connections] serve_http`: the MCP endpoint on or off.
pub(super) fn save_serve_http(path: &Path, on: bool) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        table_at(doc, &["connections"])["serve_http"] = value(on);
    })
}

/// Sets or clears `[local_model] model`, the GGUF the local server runs.
pub(super) fn save_local_model(path: &Path, model: Option<&Path>) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["local_model"]);
        match model {
            Some(model) => table["model"] = value(model.display().to_string()),
            None => {
                table.remove("model");
            }
        }
    })
}

/// Sets `[channels.telegram] allowed_chats` (the section is created, enabled, when
/// missing), keeping the rest as it is.
pub(super) fn save_telegram_chats(path: &Path, chats: &[i64]) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        let table = table_at(doc, &["channels", "telegram"]);
        table["allowed_chats"] = value(chats.iter().copied().collect::<Array>());
    })
}

/// Turns a phone channel on or off (`[channels.NAME] enabled`).
pub(super) fn save_channel_enabled(path: &Path, channel: &str, enabled: bool) -> Result<(), SettingsFileError> {
    edit(path, |doc| {
        table_at(doc, &["channels", channel])["enabled"] = value(enabled);
    })
}

/// The table at `path` (`["tools", "web_search"]`), made where missing; a level made
/// only to hold the next is implicit (no empty `[tools]` header is written).
fn table_at<'d>(doc: &'d mut DocumentMut, path: &[&str]) -> &'d mut Table {
    let mut table = doc.as_table_mut();
    for (depth, name) in path.iter().enumerate() {
        // Anything not a table there would not have loaded; it is replaced, never a panic.
        if !table.get(name).is_some_and(Item::is_table) {
            let mut made = Table::new();
            made.set_implicit(depth + 1 < path.len());
            table.insert(name, Item::Table(made));
        }
        table = table[*name].as_table_mut().expect("made a table above");
    }
    table
}

impl sidecar_domain::Worded for SettingsFileError {
    fn spanish(&self) -> String {
        match self {
            SettingsFileError::Read { path, source } => format!("no se puede leer {path}: {source}"),
            SettingsFileError::Parse { path, message } => format!("{path} no es TOML válido, así que no se ha cambiado: {message}"),
            SettingsFileError::Write { path, source } => format!("no se puede escribir {path}: {source}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    fn provider(id: &str, kind: ProviderKind) -> ProviderSettings {
        ProviderSettings {
            id: id.into(),
            kind,
            base_url: "https://api.example.com/v1".into(),
            model: "m".into(),
            api_key_env: None,
            api_key: Some("sk-must-not-be-written".into()),
            tools: true,
            context_window: None,
            vision: None,
            sampling: Default::default(),
        }
    }

    #[test]
    fn keeps_comments_and_other_sections_and_never_writes_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        std::fs::write(
            &path,
            "# my settings\n[llm]\nmax_tokens = 2048 # long answers\n\n[[providers]]\nid = \"old\"\nbase_url = \"http://x/v1\"\nmodel = \"a\"\n",
        )
        .unwrap();
        save_providers(&path, &[provider("a", ProviderKind::Openai), provider("b", ProviderKind::Anthropic)], &["b".into(), "a".into()]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("# my settings") && text.contains("max_tokens = 2048 # long answers"), "{text}");
        assert!(!text.contains("sk-must-not-be-written"));
        assert!(!text.contains("\"old\""));
        let parsed: Settings = toml::from_str(&text).unwrap();
        assert_eq!(parsed.llm.max_tokens, Some(2048));
        assert_eq!(parsed.chat_chain().iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["b", "a"]);
        assert_eq!(parsed.providers[1].kind, ProviderKind::Anthropic);
    }

    #[test]
    fn timezone_is_written_under_user_keeping_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        std::fs::write(&path, "# mine\n[llm]\nmax_tokens = 99\n").unwrap();
        save_timezone(&path, "America/Argentina/Buenos_Aires").unwrap();
        let parsed: Settings = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(parsed.user.timezone.as_deref(), Some("America/Argentina/Buenos_Aires"));
        assert_eq!(parsed.llm.max_tokens, Some(99));
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("# mine"));
    }

    #[test]
    fn a_malformed_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        std::fs::write(&path, "[llm\nbroken").unwrap();
        let error = save_providers(&path, &[], &[]).unwrap_err().to_string();
        assert!(error.contains("not valid TOML"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[llm\nbroken");
    }

    #[test]
    fn creates_the_file_and_its_directory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config/Sidecar/settings.toml");
        save_providers(&path, &[provider("a", ProviderKind::Openai)], &["a".into()]).unwrap();
        let parsed: Settings = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(parsed.providers.len(), 1);
        assert!(std::fs::read_dir(path.parent().unwrap()).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp")));
    }
}
