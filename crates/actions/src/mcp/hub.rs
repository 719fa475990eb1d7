//! Keeps the user's MCP servers running: starts each enabled one, lists its tools,
//! follows `tools/list_changed`, and restarts a server that stops, waiting 1 s, then
//! twice as long each time up to 30 s. Every change goes to one callback, which
//! rebuilds the tools the model is offered, and to Settings as an event.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::config::{ConfigError, McpConfig, ServerEntry};
use super::form::ServerForm;
use super::session::Session;
pub use super::status::{ServerState, ServerStatus};
use super::tool::{McpTool, Slot};
use crate::mcp::events::McpEvent;
use sidecar_domain::Emitter;
use sidecar_tools::Tool;
use sidecar_tools::ToolDefinition;

const FIRST_WAIT: Duration = Duration::from_secs(1);
const LONGEST_WAIT: Duration = Duration::from_secs(30);
/// A server that ran this long before stopping starts again from the first wait.
const STEADY: Duration = Duration::from_secs(60);
/// How often a running server is looked at to notice it stopped.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// Told the running servers' tools, and whether a server is still starting (a turn
/// waits briefly for it, so the message after adding a server can use it).
type ToolsChanged = Box<dyn Fn(Vec<Arc<dyn Tool>>, bool) + Send + Sync>;

struct Running {
    status: ServerStatus,
    slot: Arc<Slot>,
    identity: String,
    stop: CancellationToken,
}

pub struct McpHub {
    /// Supervisors run here, whichever thread asks for a reload (the desktop's IPC
    /// commands come from its main thread, outside the runtime).
    runtime: tokio::runtime::Handle,
    path: PathBuf,
    events: Emitter<McpEvent>,
    servers: Mutex<BTreeMap<String, Running>>,
    on_tools: ToolsChanged,
    /// Where the secrets typed in Settings are kept.
    secrets: Arc<sidecar_domain::Secrets>,
}

impl McpHub {
    /// Must be called inside the runtime the servers will run on.
    pub fn new(path: PathBuf, events: Emitter<McpEvent>, on_tools: ToolsChanged, secrets: Arc<sidecar_domain::Secrets>) -> Arc<Self> {
        Arc::new(Self { runtime: tokio::runtime::Handle::current(), path, events, servers: Mutex::default(), on_tools, secrets })
    }

    pub fn config_path(&self) -> &std::path::Path {
        &self.path
    }

    /// Reads `mcp.json` and brings the running servers in line with it: new or edited
    /// servers start, removed or disabled ones stop.
    pub fn reload(self: &Arc<Self>) -> Result<(), ConfigError> {
        let config = McpConfig::load(&self.path)?;
        let mut servers = self.servers.lock().expect("servers lock");
        servers.retain(|name, running| {
            // An edited environment or header restarts the server too.
            let keep = config
                .servers
                .get(name)
                .is_some_and(|e| e.enabled && e.identity() == running.identity && running.status.enabled && ServerForm::of(e) == running.status.form);
            if !keep {
                running.stop.cancel();
            }
            keep
        });
        for (name, entry) in &config.servers {
            if servers.contains_key(name) {
                continue;
            }
            let slot = Arc::new(Slot::default());
            let stop = CancellationToken::new();
            let state = if entry.enabled { ServerState::Starting } else { ServerState::Off };
            let status =
                ServerStatus { name: name.clone(), summary: entry.summary(), enabled: entry.enabled, state, tools: Vec::new(), form: ServerForm::of(entry) };
            servers.insert(name.clone(), Running { status, slot: slot.clone(), identity: entry.identity(), stop: stop.clone() });
            if entry.enabled {
                self.runtime.spawn(self.clone().supervise(name.clone(), entry.clone(), slot, stop));
            }
        }
        drop(servers);
        self.changed();
        Ok(())
    }

    pub fn servers(&self) -> Vec<ServerStatus> {
        self.servers.lock().expect("servers lock").values().map(|r| r.status.clone()).collect()
    }

    /// Adds or edits a server as Settings' form has it (secrets to the keychain).
    pub fn save(self: &Arc<Self>, name: &str, form: &ServerForm) -> Result<(), ConfigError> {
        let mut config = McpConfig::load(&self.path)?;
        super::config::check_name(name)?;
        let entry = form.entry(name, config.servers.get(name), &self.secrets)?;
        config.add(name, entry)?;
        config.save(&self.path)?;
        self.reload()
    }

    /// Removes a server from `mcp.json`, with the secrets Settings kept for it; false
    /// when there was none by that name.
    pub fn remove(self: &Arc<Self>, name: &str) -> Result<bool, ConfigError> {
        let mut config = McpConfig::load(&self.path)?;
        let removed = config.servers.remove(name);
        if let Some(entry) = &removed {
            super::form::forget_dropped(name, entry, &ServerEntry::default(), &self.secrets);
        }
        let removed = removed.is_some();
        config.save(&self.path)?;
        self.reload()?;
        Ok(removed)
    }

    pub fn set_enabled(self: &Arc<Self>, name: &str, enabled: bool) -> Result<(), ConfigError> {
        let mut config = McpConfig::load(&self.path)?;
        config.set_enabled(name, enabled);
        config.save(&self.path)?;
        self.reload()
    }

    /// Waits (at most `within`) until no server is still starting.
    pub async fn settle(&self, within: Duration) {
        let starting = || self.servers().iter().any(|s| s.state == ServerState::Starting);
        let _ = tokio::time::timeout(within, async {
            while starting() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
    }

    /// Stops every server (the app is quitting).
    pub fn stop_all(&self) {
        self.servers.lock().expect("servers lock").values().for_each(|r| r.stop.cancel());
    }

    /// Every running server's tools, as the model is offered them.
    pub(crate) fn tools(&self) -> Vec<Arc<dyn Tool>> {
        let servers = self.servers.lock().expect("servers lock");
        servers
            .values()
            .filter(|r| r.status.state == ServerState::Running)
            .flat_map(|r| r.status.tools.iter().map(|d| Arc::new(McpTool::new(&r.status.name, &r.identity, d.clone(), r.slot.clone())) as Arc<dyn Tool>))
            .collect()
    }

    fn set(&self, name: &str, stop: &CancellationToken, state: ServerState, tools: Option<Vec<ToolDefinition>>) {
        let mut servers = self.servers.lock().expect("servers lock");
        // A server removed or replaced meanwhile is no longer this supervisor's.
        let Some(running) = servers.get_mut(name).filter(|_| !stop.is_cancelled()) else { return };
        running.status.state = state;
        if let Some(tools) = tools {
            running.status.tools = tools;
        }
        drop(servers);
        self.changed();
    }

    fn changed(&self) {
        let servers = self.servers();
        let starting = servers.iter().any(|s| s.state == ServerState::Starting);
        (self.on_tools)(self.tools(), starting);
        self.events.publish(McpEvent::McpServers { servers });
    }

    async fn supervise(self: Arc<Self>, name: String, entry: ServerEntry, slot: Arc<Slot>, stop: CancellationToken) {
        let mut wait = FIRST_WAIT;
        while !stop.is_cancelled() {
            self.set(&name, &stop, ServerState::Starting, None);
            let started = Instant::now();
            let failure = match self.run_once(&name, &entry, &slot, &stop).await {
                Ok(()) => return,
                Err(failure) => failure,
            };
            if started.elapsed() >= STEADY {
                wait = FIRST_WAIT;
            }
            tracing::warn!(server = %name, error = %failure.0, "MCP server stopped; starting it again in {wait:?}");
            *slot.failure.write().expect("slot lock") = Some(failure.0.clone());
            let state = ServerState::Failed { error: failure.0, stderr: failure.1, retry_in_secs: wait.as_secs() };
            self.set(&name, &stop, state, Some(Vec::new()));
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = stop.cancelled() => break,
            }
            wait = (wait * 2).min(LONGEST_WAIT);
        }
        *slot.session.write().expect("slot lock") = None;
    }

    /// One life of the server: `Ok` when it was asked to stop, `Err` with what went wrong.
    async fn run_once(&self, name: &str, entry: &ServerEntry, slot: &Slot, stop: &CancellationToken) -> Result<(), (String, Vec<String>)> {
        // The keychain may take a moment to answer: not on the runtime's threads.
        let (secrets, server, stored) = (self.secrets.clone(), name.to_string(), entry.clone());
        let transport = tokio::task::spawn_blocking(move || stored.transport(&server, &|v| super::form::resolve(v, &secrets)))
            .await
            .map_err(|e| (e.to_string(), Vec::new()))?
            .map_err(|e| (e.to_string(), Vec::new()))?;
        let session = tokio::select! {
            started = Session::start(&transport, entry.timeout(), self.secrets.redactor()) => started.map_err(|e| (e.to_string(), stderr_of(&e)))?,
            _ = stop.cancelled() => return Ok(()),
        };
        let session = Arc::new(session);
        let mut changed = session.tools_changed();
        let tools = session.tools().await.map_err(|e| (e.to_string(), session.stderr_tail()))?;
        *slot.session.write().expect("slot lock") = Some(session.clone());
        *slot.failure.write().expect("slot lock") = None;
        self.set(name, stop, ServerState::Running, Some(tools));
        loop {
            tokio::select! {
                _ = stop.cancelled() => {
                    *slot.session.write().expect("slot lock") = None;
                    if let Ok(session) = Arc::try_unwrap(session) {
                        session.stop().await;
                    }
                    return Ok(());
                }
                Ok(()) = changed.changed() => {
                    let tools = session.tools().await.map_err(|e| (e.to_string(), session.stderr_tail()))?;
                    self.set(name, stop, ServerState::Running, Some(tools));
                }
                _ = tokio::time::sleep(WATCH_EVERY) => {
                    if session.is_closed() {
                        *slot.session.write().expect("slot lock") = None;
                        return Err(("it stopped".into(), session.stderr_tail()));
                    }
                }
            }
        }
    }
}

fn stderr_of(error: &super::session::SessionError) -> Vec<String> {
    use super::session::SessionError::{Closed, Timeout};
    match error {
        Closed { stderr, .. } | Timeout { stderr, .. } => stderr.clone(),
        _ => Vec::new(),
    }
}
