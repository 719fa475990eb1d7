//! `mcp.json`: the MCP servers Sidecar may start, in the `mcpServers` shape Claude
//! Desktop, Cursor and LM Studio write, so a file copied from one of them works as is.
//!
//! Keys Sidecar does not know (another app's, or a newer format's) are kept on save.
//! `${VAR}` in a command, argument, environment value, address or header is read from
//! the environment when the server starts, so secrets can stay out of the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// What a `${…}` reference to a secret kept in the keychain starts with.
pub(crate) const KEYCHAIN: &str = "keychain:";

/// Call and start-up timeout when a server does not set `timeout_secs`.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("could not read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{path} is not a valid MCP configuration ({source}); fix the file or move it aside")]
    Malformed { path: PathBuf, source: serde_json::Error },
    #[error("could not write {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("the server \"{0}\" has neither a \"command\" nor a \"url\"")]
    NoTransport(String),
    #[error("the server \"{server}\" uses ${{{variable}}}, which is not set in the environment")]
    MissingVariable { server: String, variable: String },
    #[error("the server \"{server}\" needs its secret {field}, which is not in the keychain; enter it again in Settings → Tools")]
    MissingSecret { server: String, field: String },
    #[error("\"{0}\" is not a variable or header name with a value (a secret needs its value the first time)")]
    BadField(String),
    #[error("\"{0}\" is not a command line (an empty line, or a quote left open)")]
    BadCommandLine(String),
    #[error("the server \"{server}\" is at a plain http:// address on another computer ({address}), where anyone on the way could read and change its tools and answers; use its https:// address")]
    NotEncrypted { server: String, address: String },
    #[error("a server name must be 1–40 letters, digits, '-' or '_', and not \"notes\" (got \"{0}\")")]
    BadName(String),
}

/// One server as the file says it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ServerEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<PathBuf>,
    /// `"stdio"`, or `"http"` / `"streamable-http"` for a remote server.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// Sidecar's own: a server can be kept in the file but not started.
    #[serde(default = "enabled_by_default", skip_serializing_if = "is_true")]
    pub enabled: bool,
    /// Sidecar's own: start-up and per-call timeout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

fn enabled_by_default() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

/// How to reach a server, with `${VAR}` already expanded.
#[derive(Debug, Clone, PartialEq)]
pub enum Transport {
    Stdio { command: String, args: Vec<String>, env: BTreeMap<String, String>, cwd: Option<PathBuf> },
    Http { url: String, headers: BTreeMap<String, String> },
}

impl ServerEntry {
    pub fn stdio(command: &str, args: &[String]) -> Self {
        Self { command: Some(command.to_string()), args: args.to_vec(), enabled: true, ..Self::default() }
    }

    /// A server from one typed line: an address, or a command with its arguments
    /// (quoted as in a shell).
    pub(crate) fn from_line(line: &str) -> Result<Self, ConfigError> {
        let line = line.trim();
        if line.starts_with("http://") || line.starts_with("https://") {
            return Ok(Self::http(line));
        }
        let words = shlex::split(line).filter(|w| !w.is_empty()).ok_or_else(|| ConfigError::BadCommandLine(line.to_string()))?;
        let (command, args) = words.split_first().ok_or_else(|| ConfigError::BadCommandLine(line.to_string()))?;
        Ok(Self::stdio(command, args))
    }

    pub fn http(url: &str) -> Self {
        Self { kind: Some("http".into()), url: Some(url.to_string()), enabled: true, ..Self::default() }
    }

    pub fn timeout(&self) -> Duration {
        self.timeout_secs.map(Duration::from_secs).unwrap_or(DEFAULT_TIMEOUT)
    }

    /// What a grant is bound to: the command and its arguments, or the address, as
    /// written (before expansion, so a rotated secret in the environment keeps grants).
    /// Editing either voids every grant given to the server.
    pub fn identity(&self) -> String {
        match (&self.command, &self.url) {
            (Some(command), _) => serde_json::json!({ "command": command, "args": self.args }).to_string(),
            (None, Some(url)) => serde_json::json!({ "url": url }).to_string(),
            (None, None) => String::new(),
        }
    }

    /// One line for lists: the command with its arguments, or the address.
    pub fn summary(&self) -> String {
        match (&self.command, &self.url) {
            (Some(command), _) => std::iter::once(command.as_str()).chain(self.args.iter().map(String::as_str)).collect::<Vec<_>>().join(" "),
            (None, Some(url)) => without_password(url),
            (None, None) => String::new(),
        }
    }

    /// A remote server's address as written, when it holds no `${VAR}` to expand yet:
    /// https, or plain http on this computer.
    pub(crate) fn check_address(&self, server: &str) -> Result<(), ConfigError> {
        match self.url.as_deref().filter(|url| self.command.is_none() && !url.contains("${")) {
            Some(url) => encrypted_or_local(server, url.to_string()).map(drop),
            None => Ok(()),
        }
    }

    pub fn transport(&self, server: &str, environment: &dyn Fn(&str) -> Option<String>) -> Result<Transport, ConfigError> {
        let expand = |text: &str| {
            expand(text, environment).map_err(|Unset(variable)| match variable.strip_prefix(KEYCHAIN) {
                Some(id) => ConfigError::MissingSecret { server: server.into(), field: id.rsplit('/').next().unwrap_or(id).to_string() },
                None => ConfigError::MissingVariable { server: server.into(), variable },
            })
        };
        let remote = matches!(self.kind.as_deref(), Some("http" | "streamable-http" | "streamableHttp" | "sse"));
        match (&self.command, &self.url) {
            (Some(command), _) if !remote => Ok(Transport::Stdio {
                command: expand(command)?,
                args: self.args.iter().map(|arg| expand(arg)).collect::<Result<_, _>>()?,
                env: self.env.iter().map(|(k, v)| Ok((k.clone(), expand(v)?))).collect::<Result<_, ConfigError>>()?,
                cwd: self.cwd.clone(),
            }),
            (_, Some(url)) => Ok(Transport::Http {
                url: encrypted_or_local(server, expand(url)?)?,
                headers: self.headers.iter().map(|(k, v)| Ok((k.clone(), expand(v)?))).collect::<Result<_, ConfigError>>()?,
            }),
            _ => Err(ConfigError::NoTransport(server.into())),
        }
    }
}

/// An address's password, when it carries one (`https://user:secret@host`), is not
/// shown in lists.
fn without_password(address: &str) -> String {
    match url::Url::parse(address) {
        Ok(mut url) if url.password().is_some() => {
            let _ = url.set_password(Some("REDACTED"));
            url.to_string()
        }
        _ => address.to_string(),
    }
}

/// A remote server is reached over https, or over plain http on this computer only.
fn encrypted_or_local(server: &str, address: String) -> Result<String, ConfigError> {
    match sidecar_domain::check_address(&address) {
        Err(sidecar_domain::AddressProblem::NotEncrypted) => Err(ConfigError::NotEncrypted { server: server.into(), address: without_password(&address) }),
        _ => Ok(address),
    }
}

/// A `${NAME}` whose variable is not set: its name.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unset(String);

/// Replaces each `${NAME}` with the variable's value.
pub(crate) fn expand(text: &str, environment: &dyn Fn(&str) -> Option<String>) -> Result<String, Unset> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        let Some(length) = rest[start + 2..].find('}') else { break };
        let name = &rest[start + 2..start + 2 + length];
        out.push_str(&rest[..start]);
        out.push_str(&environment(name).ok_or_else(|| Unset(name.to_string()))?);
        rest = &rest[start + 3 + length..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The whole file: the servers, and whatever else it held.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct McpConfig {
    #[serde(rename = "mcpServers", default)]
    pub servers: BTreeMap<String, ServerEntry>,
    #[serde(flatten)]
    pub other: Map<String, Value>,
}

impl McpConfig {
    /// A missing file is an empty configuration; a malformed one is an error that
    /// names the file, and nothing overwrites it.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) if text.trim().is_empty() => Ok(Self::default()),
            Ok(text) => serde_json::from_str(&text).map_err(|source| ConfigError::Malformed { path: path.into(), source }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(source) => Err(ConfigError::Read { path: path.into(), source }),
        }
    }

    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        let mut text = serde_json::to_string_pretty(self).expect("a configuration serializes");
        text.push('\n');
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| ConfigError::Write { path: path.into(), source })?;
        }
        sidecar_domain::write_atomically(path, text.as_bytes()).map_err(|source| ConfigError::Write { path: path.into(), source })
    }

    /// Turns the server `name` on or off; whether there is one.
    pub fn set_enabled(&mut self, name: &str, enabled: bool) -> bool {
        self.servers.get_mut(name).map(|entry| entry.enabled = enabled).is_some()
    }

    pub fn add(&mut self, name: &str, entry: ServerEntry) -> Result<(), ConfigError> {
        check_name(name)?;
        entry.check_address(name)?;
        self.servers.insert(name.to_string(), entry);
        Ok(())
    }
}

/// Names become part of the tool names the model sees, so they stay plain.
pub(crate) fn check_name(name: &str) -> Result<(), ConfigError> {
    // `notes` is the notes folder's own name in permissions.
    let plain = (1..=40).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') && name != "notes";
    if plain {
        Ok(())
    } else {
        Err(ConfigError::BadName(name.to_string()))
    }
}

/// `mcp.json` beside the settings file in use; `SIDECAR_MCP_CONFIG` overrides.
pub fn config_path(settings_file: &Path) -> PathBuf {
    if let Some(path) = std::env::var_os("SIDECAR_MCP_CONFIG").filter(|p| !p.is_empty()) {
        return PathBuf::from(path);
    }
    settings_file.parent().unwrap_or(Path::new(".")).join("mcp.json")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        (name == "TOKEN").then(|| "s3cret".to_string())
    }

    #[test]
    fn a_typed_line_is_split_as_a_shell_would_or_refused() {
        let entry = ServerEntry::from_line(r#"npx -y @modelcontextprotocol/server-filesystem "/home/ana/My Notes""#).unwrap();
        assert_eq!(entry.command.as_deref(), Some("npx"));
        assert_eq!(entry.args, ["-y", "@modelcontextprotocol/server-filesystem", "/home/ana/My Notes"]);
        assert_eq!(ServerEntry::from_line(" https://mcp.example.com/mcp ").unwrap().url.as_deref(), Some("https://mcp.example.com/mcp"));
        assert!(matches!(ServerEntry::from_line("uvx \"open"), Err(ConfigError::BadCommandLine(_))));
        assert!(matches!(ServerEntry::from_line("  "), Err(ConfigError::BadCommandLine(_))));
    }

    #[test]
    fn a_claude_desktop_file_reads_and_keeps_what_sidecar_does_not_know() {
        let text = r#"{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"],
            "env": {"KEY": "${TOKEN}"}, "autoApprove": ["read"]}}, "globalShortcut": "Ctrl+Space"}"#;
        let config: McpConfig = serde_json::from_str(text).unwrap();
        let fs = &config.servers["fs"];
        assert!(fs.enabled);
        assert_eq!(fs.timeout(), DEFAULT_TIMEOUT);
        let Transport::Stdio { command, args, env: vars, .. } = fs.transport("fs", &env).unwrap() else { panic!() };
        assert_eq!((command.as_str(), args.len(), vars["KEY"].as_str()), ("npx", 3, "s3cret"));
        let again = serde_json::to_value(&config).unwrap();
        assert_eq!(again["globalShortcut"], "Ctrl+Space");
        assert_eq!(again["mcpServers"]["fs"]["autoApprove"][0], "read");
        assert!(again["mcpServers"]["fs"].get("enabled").is_none(), "defaults are not written");
    }

    #[test]
    fn a_remote_server_and_a_missing_variable() {
        let mut entry = ServerEntry::http("https://example.org/mcp");
        entry.headers.insert("Authorization".into(), "Bearer ${TOKEN}".into());
        assert_eq!(
            entry.transport("r", &env).unwrap(),
            Transport::Http { url: "https://example.org/mcp".into(), headers: [("Authorization".into(), "Bearer s3cret".into())].into() }
        );
        entry.headers.insert("X".into(), "${NOPE}".into());
        let error = entry.transport("r", &env).unwrap_err().to_string();
        assert!(error.contains("${NOPE}") && error.contains("\"r\""), "{error}");
        assert!(matches!(ServerEntry::default().transport("e", &env), Err(ConfigError::NoTransport(_))));
    }

    #[test]
    fn identity_follows_the_command_not_the_environment() {
        let mut entry = ServerEntry::stdio("uvx", &["mcp-server-time".into()]);
        let before = entry.identity();
        entry.env.insert("TZ".into(), "Europe/Madrid".into());
        assert_eq!(entry.identity(), before);
        entry.args.push("--local-timezone=UTC".into());
        assert_ne!(entry.identity(), before);
    }

    #[test]
    fn a_malformed_file_is_an_error_that_names_it_and_a_missing_one_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp.json");
        assert_eq!(McpConfig::load(&path).unwrap(), McpConfig::default());
        std::fs::write(&path, "{\"mcpServers\": [").unwrap();
        assert!(McpConfig::load(&path).unwrap_err().to_string().contains("mcp.json"));
        let mut config = McpConfig::default();
        config.add("time", ServerEntry::stdio("uvx", &[])).unwrap();
        assert!(config.add("no spaces", ServerEntry::default()).is_err());
        config.save(&path).unwrap();
        assert_eq!(McpConfig::load(&path).unwrap(), config);
    }

    #[test]
    fn expansion_leaves_text_without_variables_alone() {
        assert_eq!(expand("a ${TOKEN} b ${TOKEN}", &env).unwrap(), "a s3cret b s3cret");
        assert_eq!(expand("price $5 {x} ${unclosed", &env).unwrap(), "price $5 {x} ${unclosed");
        assert_eq!(expand("a ${NOT_SET}", &env), Err(Unset("NOT_SET".into())));
    }
}
