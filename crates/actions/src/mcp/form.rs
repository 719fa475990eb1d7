//! A server as Settings edits it: its command line or address, and its environment
//! variables (or, for an address, its headers). A value marked secret goes to the
//! keychain and the file keeps a `${keychain:…}` reference in its place, never the
//! value; the form never reads a kept secret back.

use serde::{Deserialize, Serialize};

use super::config::{ConfigError, ServerEntry, KEYCHAIN};
use sidecar_domain::Secrets;

/// One environment variable or header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct Field {
    pub name: String,
    /// `None` for a secret already kept (shown as kept; left empty, it stays).
    pub value: Option<String>,
    #[serde(default)]
    pub secret: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, ts_rs::TS)]
pub struct ServerForm {
    /// The command with its arguments (quoted as in a shell), or the address.
    pub line: String,
    /// Environment variables for a command, headers for an address.
    #[serde(default)]
    pub fields: Vec<Field>,
}

/// The keychain entry of one server's secret.
pub(crate) fn secret_id(server: &str, field: &str) -> String {
    format!("mcp/{server}/{field}")
}

/// The secret a whole value refers to, if it is a reference.
fn kept_secret(value: &str) -> Option<&str> {
    value.strip_prefix("${")?.strip_suffix('}')?.strip_prefix(KEYCHAIN)
}

impl ServerForm {
    /// The form of a stored server; kept secrets show as kept, without their value.
    pub(crate) fn of(entry: &ServerEntry) -> Self {
        let (line, values) = match (&entry.command, &entry.url) {
            (Some(command), _) => {
                let words = std::iter::once(command.as_str()).chain(entry.args.iter().map(String::as_str));
                (shlex::try_join(words).unwrap_or_else(|_| entry.summary()), &entry.env)
            }
            (None, Some(url)) => (url.clone(), &entry.headers),
            (None, None) => (String::new(), &entry.env),
        };
        let fields = values
            .iter()
            .map(|(name, value)| match kept_secret(value) {
                Some(_) => Field { name: name.clone(), value: None, secret: true },
                None => Field { name: name.clone(), value: Some(value.clone()), secret: false },
            })
            .collect();
        Self { line, fields }
    }

    /// The entry to store for `server`: what `previous` held beside the form's parts
    /// is kept (enabled, timeout, other apps' keys); each secret typed is handed to the
    /// keychain; secrets the form no longer has are forgotten.
    pub(crate) fn entry(&self, server: &str, previous: Option<&ServerEntry>, secrets: &Secrets) -> Result<ServerEntry, ConfigError> {
        let mut entry = ServerEntry::from_line(&self.line)?;
        if let Some(previous) = previous {
            entry = ServerEntry {
                enabled: previous.enabled,
                timeout_secs: previous.timeout_secs,
                cwd: previous.cwd.clone(),
                other: previous.other.clone(),
                ..entry
            };
        }
        let mut values = std::collections::BTreeMap::new();
        for field in &self.fields {
            let name = field.name.trim();
            if name.is_empty() || name.contains(['=', '\n']) {
                return Err(ConfigError::BadField(field.name.clone()));
            }
            let reference = format!("${{{KEYCHAIN}{}}}", secret_id(server, name));
            let value = match (&field.value, field.secret) {
                (Some(value), true) if !value.is_empty() => {
                    secrets.store(&secret_id(server, name), value);
                    reference
                }
                // Left empty: the secret kept before stays, if there was one.
                (_, true) if previous.is_some_and(|p| p.env.get(name).or(p.headers.get(name)) == Some(&reference)) => reference,
                (_, true) => return Err(ConfigError::BadField(field.name.clone())),
                (value, false) => value.clone().unwrap_or_default(),
            };
            values.insert(name.to_string(), value);
        }
        if entry.url.is_some() {
            entry.headers = values;
        } else {
            entry.env = values;
        }
        if let Some(previous) = previous {
            forget_dropped(server, previous, &entry, secrets);
        }
        Ok(entry)
    }
}

/// Every secret `entry` refers to.
fn secrets_of(entry: &ServerEntry) -> impl Iterator<Item = &str> {
    entry.env.values().chain(entry.headers.values()).filter_map(|v| kept_secret(v))
}

/// Deletes the kept secrets of `server` that `before` had and `after` no longer refers
/// to (all of them for a removed server: `after` empty).
pub(crate) fn forget_dropped(server: &str, before: &ServerEntry, after: &ServerEntry, secrets: &Secrets) {
    let kept: Vec<&str> = secrets_of(after).collect();
    for id in secrets_of(before).filter(|id| !kept.contains(id) && id.starts_with(&secret_id(server, ""))) {
        secrets.delete(id);
    }
}

/// Reads a `${…}` name: a kept secret from the keychain, anything else from the
/// environment.
pub(crate) fn resolve(name: &str, secrets: &Secrets) -> Option<String> {
    match name.strip_prefix(KEYCHAIN) {
        Some(id) => secrets.get(id),
        None => std::env::var(name).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_secret_is_kept_and_the_entry_holds_only_a_reference() {
        let secrets = Secrets::new(false);
        let form = ServerForm {
            line: "npx -y \"@acme/mcp server\"".into(),
            fields: vec![
                Field { name: "API_KEY".into(), value: Some("sk-live-1".into()), secret: true },
                Field { name: "REGION".into(), value: Some("eu".into()), secret: false },
            ],
        };
        let entry = form.entry("acme", None, &secrets).unwrap();
        assert_eq!(entry.env["API_KEY"], "${keychain:mcp/acme/API_KEY}");
        assert_eq!(entry.env["REGION"], "eu");
        assert!(!serde_json::to_string(&entry).unwrap().contains("sk-live-1"));
        assert_eq!(resolve("keychain:mcp/acme/API_KEY", &secrets).as_deref(), Some("sk-live-1"));
        // Read back for editing: the line round-trips, the secret is shown as kept.
        let shown = ServerForm::of(&entry);
        assert_eq!(shown.line, "npx -y '@acme/mcp server'");
        assert_eq!(shown.fields[0], Field { name: "API_KEY".into(), value: None, secret: true });
        // Saved again untouched, it keeps the secret; dropped, the secret goes.
        let again = shown.entry("acme", Some(&entry), &secrets).unwrap();
        assert_eq!(again, entry);
        let without = ServerForm { fields: Vec::new(), ..shown.clone() }.entry("acme", Some(&entry), &secrets).unwrap();
        assert!(without.env.is_empty());
        assert_eq!(secrets.get("mcp/acme/API_KEY"), None);
        // A secret with no value and none kept, or a name that is not one, is refused.
        assert!(matches!(
            ServerForm { fields: vec![Field { name: "K".into(), value: None, secret: true }], ..shown.clone() }.entry("acme", None, &secrets),
            Err(ConfigError::BadField(_))
        ));
        assert!(matches!(
            ServerForm { fields: vec![Field { name: "A=B".into(), value: Some("x".into()), secret: false }], ..shown }.entry("acme", None, &secrets),
            Err(ConfigError::BadField(_))
        ));
    }

    #[test]
    fn an_address_takes_headers_and_keeps_what_the_file_had_beside() {
        let secrets = Secrets::new(false);
        let mut previous = ServerEntry::http("https://old.example/mcp");
        previous.enabled = false;
        previous.timeout_secs = Some(9);
        let form = ServerForm {
            line: "https://mcp.example/mcp".into(),
            fields: vec![Field { name: "Authorization".into(), value: Some("Bearer t".into()), secret: true }],
        };
        let entry = form.entry("remote", Some(&previous), &secrets).unwrap();
        assert_eq!((entry.url.as_deref(), entry.enabled, entry.timeout_secs), (Some("https://mcp.example/mcp"), false, Some(9)));
        assert_eq!(entry.headers["Authorization"], "${keychain:mcp/remote/Authorization}");
        assert!(entry.env.is_empty());
    }
}
