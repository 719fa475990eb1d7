//! `sidecar connections`: the programs that use Sidecar as a server (`sidecar mcp
//! serve`, the local HTTP API), what each may do, its API token, and what each did.

use clap::Subcommand;
use sidecar::Companion;
use sidecar_serve::Connections;
use sidecar_serve::Scope;

#[derive(Subcommand)]
pub(crate) enum ConnectionsCommand {
    /// Every client that connected, allowed or waiting, with its scopes.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Lets NAME in with these scopes (comma-separated): read_memory, write_memory,
    /// reminders, messages, health (health facts stay out without it), chat.
    Allow {
        name: String,
        #[arg(long, value_delimiter = ',', required = true)]
        scopes: Vec<String>,
    },
    /// Allows NAME with these scopes and prints a new token for the local HTTP API
    /// (replacing its old one); the token is kept in the system keychain.
    Token {
        name: String,
        #[arg(long, value_delimiter = ',', required = true)]
        scopes: Vec<String>,
    },
    /// Takes back everything NAME was allowed, at once, and forgets its API token.
    Revoke { name: String },
    /// What NAME did (and was refused), newest first.
    Activity {
        name: String,
        #[arg(long)]
        json: bool,
    },
}

/// The scopes as typed, or which words are not scopes.
fn scopes_of(typed: &[String]) -> anyhow::Result<Vec<Scope>> {
    let (known, unknown): (Vec<&String>, Vec<&String>) = typed.iter().partition(|s| Scope::parse(s).is_some());
    if !unknown.is_empty() {
        let all: Vec<&str> = Scope::ALL.iter().map(|s| s.as_str()).collect();
        anyhow::bail!("unknown scope {}; the scopes are {}", unknown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "), all.join(", "));
    }
    let mut scopes: Vec<Scope> = known.iter().filter_map(|s| Scope::parse(s)).collect();
    scopes.sort();
    scopes.dedup();
    Ok(scopes)
}

pub(crate) async fn connections(companion: &Companion, command: ConnectionsCommand) -> anyhow::Result<i32> {
    let hosting = companion.hosting();
    let connections: &Connections = &hosting.connections;
    match command {
        ConnectionsCommand::List { json } => {
            let clients = connections.clients().await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&clients)?);
            } else if clients.is_empty() {
                println!("No program has connected yet (see `sidecar mcp serve`).");
            }
            if !json {
                for client in clients {
                    println!("{}  {}  {}", client.name, client.state.as_str(), Scope::join(&client.scopes));
                }
            }
        }
        ConnectionsCommand::Allow { name, scopes } => {
            let scopes = scopes_of(&scopes)?;
            connections.allow(&name, &scopes).await?;
            println!("Allowed {name}: {}", Scope::join(&scopes));
        }
        ConnectionsCommand::Token { name, scopes } => {
            let scopes = scopes_of(&scopes)?;
            let issued = hosting.tokens.issue(&name, &scopes).await?;
            println!("{}", issued.token);
            eprintln!("Allowed {name}: {}. Send it as 'Authorization: Bearer …' to http://127.0.0.1:{}/v1/ (the app or `sidecar daemon` serves it when [connections] serve_http is on).", Scope::join(&scopes), companion.settings().connections.http_port);
            if let sidecar_domain::KeyStorage::Session { reason } = issued.storage {
                eprintln!("No keychain ({reason}): Settings cannot show this token again; keep it now.");
            }
        }
        ConnectionsCommand::Revoke { name } => {
            connections.revoke(&name).await?;
            hosting.tokens.forget(&name).await?;
            println!("Revoked {name}: it gets nothing from now on.");
        }
        ConnectionsCommand::Activity { name, json } => {
            let done = connections.activity(&name, 50).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&done)?);
            } else {
                for entry in done {
                    println!("{}  {}  {}", entry.at.format("%Y-%m-%d %H:%M"), entry.action, if entry.allowed { "served" } else { "refused" });
                }
            }
        }
    }
    Ok(0)
}
