//! `sidecar mcp`: the MCP servers Sidecar can use, and what each may do without asking.

use clap::Subcommand;
use sidecar::Companion;
use sidecar_actions::McpConfig;
use sidecar_actions::McpSession;
use sidecar_actions::ServerEntry;
use sidecar_actions::Verdict;
use sidecar_tools::Action;

#[derive(Subcommand)]
pub(crate) enum McpCommand {
    /// The servers in mcp.json, and the grants each holds.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Adds a server: `sidecar mcp add time -- uvx mcp-server-time`, or `--url URL`.
    Add {
        name: String,
        /// A remote (streamable HTTP) server's address.
        #[arg(long, conflicts_with = "command")]
        url: Option<String>,
        /// KEY=VALUE for the server's environment (`${VAR}` is read from yours).
        #[arg(long = "env", value_name = "KEY=VALUE")]
        env: Vec<String>,
        /// The command and its arguments, after `--`.
        #[arg(last = true, num_args = 1..)]
        command: Vec<String>,
    },
    /// Turns a server on: it starts with the app and with each `sidecar ask`.
    On { name: String },
    /// Turns a server off, keeping it and its grants.
    Off { name: String },
    /// Removes a server and every grant it held.
    Rm { name: String },
    /// Starts the server and lists its tools, each with its permission.
    Tools {
        name: String,
        #[arg(long)]
        json: bool,
    },
    /// Lets a tool (NAME/TOOL) or every tool of a server (NAME) run without asking.
    Allow { target: String },
    /// Never runs this tool (NAME/TOOL), and never asks about it.
    Deny { target: String },
    /// Takes back what `allow` or `deny` gave (NAME/TOOL, or NAME for all of it).
    Revoke { target: String },
    /// Adds the servers of Claude Desktop, Cursor, LM Studio or Jan (their file, or
    /// with no FILE every one found on this computer), off until you turn each on.
    Import { file: Option<std::path::PathBuf> },
    /// Serves Sidecar itself over MCP on standard input and output, for a client that
    /// starts it (Claude Desktop, Cursor…). A client gets nothing until you allow it:
    /// `sidecar connections allow NAME --scopes read_memory,reminders`.
    Serve,
}

pub(crate) async fn mcp(companion: &Companion, command: McpCommand) -> anyhow::Result<i32> {
    let path = companion.mcp().config_path().to_path_buf();
    let gate = companion.permissions();
    match command {
        McpCommand::Serve => {
            use rmcp::ServiceExt;
            let server = companion.mcp_server();
            let running = server.serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
        }
        McpCommand::List { json } => {
            let config = McpConfig::load(&path)?;
            let grants = gate.grants().await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&serde_json::json!({ "servers": config.servers, "grants": grants }))?);
                return Ok(0);
            }
            if config.servers.is_empty() {
                println!("No MCP servers yet ({}). Add one: sidecar mcp add NAME -- COMMAND [ARGS…]", path.display());
            }
            for (name, entry) in &config.servers {
                let off = if entry.enabled { "" } else { " (off)" };
                let held: Vec<String> = grants
                    .iter()
                    .filter(|g| g.server == *name && g.identity == entry.identity())
                    .map(|g| format!("{} {}", if g.allow { "allows" } else { "denies" }, g.tool.as_deref().unwrap_or("every tool")))
                    .collect();
                let held = if held.is_empty() { String::new() } else { format!("  [{}]", held.join(", ")) };
                println!("{name}{off}: {}{held}", entry.summary());
            }
        }
        McpCommand::Add { name, url, env, command } => {
            let mut entry = match (url, command.split_first()) {
                (Some(url), _) => ServerEntry::http(&url),
                (None, Some((program, args))) => ServerEntry::stdio(program, args),
                (None, None) => anyhow::bail!("say how to start the server: sidecar mcp add {name} -- COMMAND [ARGS…], or --url URL"),
            };
            for pair in env {
                let (key, value) = pair.split_once('=').ok_or_else(|| anyhow::anyhow!("--env takes KEY=VALUE (got \"{pair}\")"))?;
                entry.env.insert(key.into(), value.into());
            }
            let mut config = McpConfig::load(&path)?;
            let replaced = config.servers.contains_key(&name);
            config.add(&name, entry)?;
            config.save(&path)?;
            println!("{} {name} in {}", if replaced { "Replaced" } else { "Added" }, path.display());
        }
        McpCommand::On { name } => return turn(&path, &name, true),
        McpCommand::Off { name } => return turn(&path, &name, false),
        McpCommand::Rm { name } => {
            let mut config = McpConfig::load(&path)?;
            if config.servers.remove(&name).is_none() {
                eprintln!("sidecar: there is no MCP server called \"{name}\"");
                return Ok(1);
            }
            config.save(&path)?;
            gate.revoke(&name, None).await?;
            println!("Removed {name} and its grants");
        }
        McpCommand::Tools { name, json } => {
            let entry = server(&path, &name)?;
            let session = McpSession::start(&entry.transport(&name, &|v| std::env::var(v).ok())?, entry.timeout(), &Default::default()).await?;
            let tools = session.tools().await?;
            session.stop().await;
            let mut rows = Vec::new();
            for definition in tools {
                let action = Action {
                    server: name.clone(),
                    identity: entry.identity(),
                    called_as: sidecar_actions::mcp_tool_name(&name, &definition.name),
                    definition,
                    asking: None,
                };
                let state = match gate.verdict(&action, None).await? {
                    Verdict::Allowed => "allowed".to_string(),
                    Verdict::Denied => "denied".to_string(),
                    Verdict::Ask { changed } if changed.is_empty() => "asks".to_string(),
                    Verdict::Ask { changed } => format!("asks again: its {} changed", changed.join(", ")),
                };
                rows.push((action, state));
            }
            if json {
                let rows: Vec<_> = rows.iter().map(|(a, state)| serde_json::json!({ "tool": a.definition.name, "called_as": a.called_as, "read_only": a.definition.read_only, "permission": state, "description": a.definition.description })).collect();
                println!("{}", serde_json::to_string_pretty(&rows)?);
            } else {
                for (action, state) in rows {
                    let read_only = if action.definition.read_only { ", read-only" } else { "" };
                    println!("{}  ({state}{read_only})  {}", action.definition.name, first_line(&action.definition.description));
                }
            }
        }
        McpCommand::Allow { target } => {
            let (name, tool) = split(&target);
            let entry = server(&path, name)?;
            gate.set_standing(name, &entry.identity(), tool, true).await?;
            println!("{} runs without asking", target);
        }
        McpCommand::Deny { target } => {
            let (name, Some(tool)) = split(&target) else { anyhow::bail!("name one tool: sidecar mcp deny SERVER/TOOL") };
            let entry = server(&path, name)?;
            gate.set_standing(name, &entry.identity(), Some(tool), false).await?;
            println!("{target} is denied; Sidecar will not ask about it");
        }
        McpCommand::Revoke { target } => {
            let (name, tool) = split(&target);
            let revoked = gate.revoke(name, tool).await?;
            println!("Revoked {revoked} grant(s) of {target}");
        }
        McpCommand::Import { file } => {
            let files = match file {
                Some(file) => vec![file],
                None => sidecar_actions::known_mcp_files(),
            };
            if files.is_empty() {
                println!("No Claude Desktop, Cursor, LM Studio or Jan configuration was found; name the file: sidecar mcp import FILE");
            }
            for file in files {
                let report = sidecar_actions::import_mcp_file(&path, &file)?;
                println!("{}: added {}", file.display(), list(&report.added));
                if !report.added.is_empty() {
                    println!("  each is off until you turn it on: sidecar mcp on NAME, or Settings → Tools");
                }
                if !report.kept.is_empty() {
                    println!("  already here, kept as they are: {}", report.kept.join(", "));
                }
                for (name, why) in &report.refused {
                    println!("  not taken: {name}: {why}");
                }
            }
        }
    }
    Ok(0)
}

/// Turns a server on or off in mcp.json (a running app reads it again at its next start,
/// or when Settings → Tools is reloaded).
fn turn(path: &std::path::Path, name: &str, on: bool) -> anyhow::Result<i32> {
    let mut config = McpConfig::load(path)?;
    if !config.set_enabled(name, on) {
        eprintln!("sidecar: there is no MCP server called \"{name}\"; `sidecar mcp list` shows them");
        return Ok(1);
    }
    config.save(path)?;
    println!("{name} is {}", if on { "on: it starts with Sidecar" } else { "off" });
    Ok(0)
}

fn server(path: &std::path::Path, name: &str) -> anyhow::Result<ServerEntry> {
    let config = McpConfig::load(path)?;
    config.servers.get(name).cloned().ok_or_else(|| anyhow::anyhow!("there is no MCP server called \"{name}\"; `sidecar mcp list` shows them"))
}

fn split(target: &str) -> (&str, Option<&str>) {
    match target.split_once('/') {
        Some((server, tool)) => (server, Some(tool)),
        None => (target, None),
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".into()
    } else {
        names.join(", ")
    }
}
