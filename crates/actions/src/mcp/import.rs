//! Brings in the servers people already set up for Claude Desktop, Cursor, LM Studio
//! or Jan. All four keep them under `mcpServers`; Jan marks an off server `"active": false`.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::config::{check_name, ConfigError, McpConfig};

#[derive(Debug, Default, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(rename = "McpImportReport")]
pub struct ImportReport {
    pub added: Vec<String>,
    /// Already in Sidecar's file under that name: left as it is.
    pub kept: Vec<String>,
    /// Could not be taken, with why.
    pub refused: Vec<(String, String)>,
}

/// The most servers an import leaves in Sidecar's file. They come in off (each would
/// start with the next turn, even a one-line `sidecar ask`), but a file listing
/// hundreds must not fill the list either.
pub(crate) const MAX_SERVERS: usize = 20;

/// Adds the servers of `from` that `into` does not have, up to [`MAX_SERVERS`], off
/// until the user turns each on: another app's programs do not start for Sidecar
/// unasked. Never replaces one.
pub(crate) fn merge(into: &mut McpConfig, from: McpConfig) -> ImportReport {
    let mut report = ImportReport::default();
    for (name, mut entry) in from.servers {
        if into.servers.contains_key(&name) {
            report.kept.push(name);
            continue;
        }
        if let Err(error) = check_name(&name).and_then(|()| entry.check_address(&name)) {
            report.refused.push((name, error.to_string()));
            continue;
        }
        if into.servers.len() >= MAX_SERVERS {
            report.refused.push((name, format!("Sidecar already has {MAX_SERVERS} MCP servers; remove some, or add this one by hand")));
            continue;
        }
        if entry.command.is_none() && entry.url.is_none() {
            report.refused.push((name.clone(), ConfigError::NoTransport(name).to_string()));
            continue;
        }
        entry.other.remove("active");
        entry.enabled = false;
        into.servers.insert(name.clone(), entry);
        report.added.push(name);
    }
    report
}

/// Where the other apps keep their server lists on this system, those that exist.
pub fn known_files() -> Vec<PathBuf> {
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else { return Vec::new() };
    let config = std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".config"));
    [
        config.join("Claude/claude_desktop_config.json"),
        home.join("Library/Application Support/Claude/claude_desktop_config.json"),
        home.join(".cursor/mcp.json"),
        home.join(".lmstudio/mcp.json"),
        config.join("Jan/data/mcp_config.json"),
        home.join("Library/Application Support/Jan/data/mcp_config.json"),
    ]
    .into_iter()
    .filter(|p| p.is_file())
    .collect()
}

/// The largest file read as another app's MCP configuration.
const MAX_IMPORT_BYTES: u64 = 1_000_000;

/// Reads another app's file and adds its servers to Sidecar's `mcp.json` at `ours`.
pub fn import_file(ours: &Path, theirs: &Path) -> Result<ImportReport, ConfigError> {
    // Looked at before it is opened: a FIFO would block the read forever, a device never end.
    let refused = |why: &str| ConfigError::Read { path: theirs.to_path_buf(), source: std::io::Error::new(std::io::ErrorKind::InvalidInput, why.to_string()) };
    let meta = std::fs::metadata(theirs).map_err(|source| ConfigError::Read { path: theirs.to_path_buf(), source })?;
    if !meta.is_file() {
        return Err(refused("not a regular file"));
    }
    if meta.len() > MAX_IMPORT_BYTES {
        return Err(refused("larger than any app's MCP configuration (1 MB)"));
    }
    let from = McpConfig::load(theirs)?;
    let mut config = McpConfig::load(ours)?;
    let report = merge(&mut config, from);
    if !report.added.is_empty() {
        config.save(ours)?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_or_a_device_is_refused_without_reading_it() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.json");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        for theirs in [fifo.as_path(), Path::new("/dev/zero")] {
            let refused = import_file(&dir.path().join("mcp.json"), theirs).unwrap_err().to_string();
            assert!(refused.contains("not a regular file"), "{refused}");
        }
    }

    #[test]
    fn servers_of_another_app_are_added_beside_ours_and_never_replace_them() {
        let mut ours: McpConfig = serde_json::from_str(r#"{"mcpServers":{"time":{"command":"uvx","args":["mcp-server-time"]}}}"#).unwrap();
        // Jan's shape: `active` beside the usual keys.
        let theirs: McpConfig = serde_json::from_str(
            r#"{"mcpServers":{
                "time":{"command":"npx","args":["other"]},
                "fetch":{"command":"uvx","args":["mcp-server-fetch"],"active":false},
                "bad name!":{"command":"x"},
                "empty":{}
            }}"#,
        )
        .unwrap();
        let report = merge(&mut ours, theirs);
        assert_eq!(report.added, ["fetch"]);
        assert!(ours.servers["time"].enabled, "ours stays as it was");
        assert_eq!(report.kept, ["time"]);
        assert_eq!(report.refused.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(), ["bad name!", "empty"]);
        assert_eq!(ours.servers["time"].args, ["mcp-server-time"]);
        assert!(!ours.servers["fetch"].enabled);
        assert!(!ours.servers["fetch"].other.contains_key("active"));
    }

    #[test]
    fn an_import_takes_a_bounded_number_of_servers_and_no_plain_remote_one() {
        let many: serde_json::Map<String, serde_json::Value> = (0..500).map(|n| (format!("s{n:03}"), serde_json::json!({"command": "true"}))).collect();
        let mut theirs: McpConfig = serde_json::from_value(serde_json::json!({ "mcpServers": many })).unwrap();
        theirs.servers.insert("aaa".into(), super::super::config::ServerEntry::http("http://tools.example.org/mcp"));
        let mut ours = McpConfig::default();
        let report = merge(&mut ours, theirs);
        assert_eq!((ours.servers.len(), report.added.len()), (MAX_SERVERS, MAX_SERVERS));
        assert_eq!(report.refused.len(), 481);
        assert!(ours.servers.values().all(|s| !s.enabled), "each comes in off");
        assert!(report.refused[0].0 == "aaa" && report.refused[0].1.contains("plain http://"), "{:?}", report.refused[0]);
    }
}
