//! The MCP hub with the permission gate, as a turn uses them: a server from `mcp.json`
//! is started, its tools offered, each call asked about, a changed definition asked
//! again, and a server that crashes started again.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use sidecar::events::EventBus;
use sidecar_actions::Choice;
use sidecar_actions::McpHub;
use sidecar_actions::PermissionGate;
use sidecar_actions::ServerState;
use sidecar_llm::ToolCall;
use sidecar_store::Store;
use sidecar_tools::CallScope;
use sidecar_tools::ToolRegistry;

use crate::support::{self, asker::ScriptedAsker};

struct Rig {
    hub: Arc<McpHub>,
    offered: Arc<Mutex<ToolRegistry>>,
    asker: Arc<ScriptedAsker>,
    _dir: tempfile::TempDir,
}

async fn rig(description_file: &Path) -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fixture_server.py");
    let config = json!({ "mcpServers": { "fixture": {
        "command": support::python(),
        "args": [script, "--description-file", description_file],
        "timeout_secs": 10,
    }}});
    let path = dir.path().join("mcp.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let gate = Arc::new(PermissionGate::new(Store::open(dir.path()).await.unwrap(), sidecar_domain::system_clock(), Default::default()));
    let asker = Arc::new(ScriptedAsker::default());
    gate.set_asker(asker.clone());
    let offered = Arc::new(Mutex::new(ToolRegistry::new()));
    let hub = McpHub::new(
        path,
        EventBus::default().emitter(sidecar::events::CoreEvent::Mcp),
        {
            let (offered, gate) = (offered.clone(), gate.clone());
            Box::new(move |tools, _starting| {
                let mut registry = ToolRegistry::new().guarded_by(gate.clone());
                tools.into_iter().for_each(|t| registry.register_shared(t));
                *offered.lock().unwrap() = registry;
            })
        },
        Arc::new(sidecar_domain::Secrets::new(false)),
    );
    hub.reload().unwrap();
    hub.settle(Duration::from_secs(20)).await;
    Rig { hub, offered, asker, _dir: dir }
}

impl Rig {
    async fn call(&self, tool: &str, arguments: serde_json::Value, answer: Option<Choice>) -> sidecar_tools::ToolOutcome {
        answer.into_iter().for_each(|choice| self.asker.will(choice));
        let registry = self.offered.lock().unwrap().clone();
        let call = ToolCall { id: "c".into(), name: tool.into(), arguments: arguments.to_string() };
        registry.run(&call, CallScope { conversation_id: Some(1), ..CallScope::default() }).await
    }

    fn asked(&self) -> usize {
        self.asker.questions()
    }

    async fn wait_for(&self, what: &str, ready: impl Fn(&sidecar_actions::ServerStatus) -> bool) {
        let waited = tokio::time::timeout(Duration::from_secs(20), async {
            while !self.hub.servers().iter().any(&ready) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        assert!(waited.is_ok(), "{what}: {:?}", self.hub.servers());
    }
}

#[tokio::test]
async fn each_call_is_asked_about_until_allowed_and_a_changed_definition_asks_again() {
    let scratch = tempfile::tempdir().unwrap();
    let description = scratch.path().join("description.txt");
    std::fs::write(&description, "Echoes the message back.").unwrap();
    let rig = rig(&description).await;
    assert_eq!(rig.hub.servers()[0].state, ServerState::Running, "{:?}", rig.hub.servers());
    let names = rig.offered.lock().unwrap().names().iter().map(|n| n.to_string()).collect::<Vec<_>>();
    assert!(names.contains(&"mcp__fixture__echo".to_string()), "{names:?}");

    let once = rig.call("mcp__fixture__echo", json!({"message": "hola"}), Some(Choice::AllowOnce)).await;
    assert!(!once.is_error && once.content.contains("hola") && once.content.contains("untrusted_content"), "{}", once.content);
    let question = rig.asker.asked.lock().unwrap()[0].clone();
    assert_eq!((question.server.as_str(), question.tool.as_str(), question.called_as.as_str()), ("fixture", "echo", "mcp__fixture__echo"));
    assert_eq!(question.arguments, json!({"message": "hola"}));

    let denied = rig.call("mcp__fixture__echo", json!({"message": "otra vez"}), Some(Choice::Deny)).await;
    assert!(denied.denied && denied.content.contains("denied fixture/echo"), "{}", denied.content);
    assert_eq!(rig.asked(), 2, "allow once holds for one call");

    rig.call("mcp__fixture__echo", json!({"message": "siempre"}), Some(Choice::AlwaysTool)).await;
    let free = rig.call("mcp__fixture__echo", json!({"message": "sin preguntar"}), None).await;
    assert!(free.content.contains("sin preguntar"), "{}", free.content);
    assert_eq!(rig.asked(), 3, "always allowed: not asked again");

    // The server changes the tool's description and says so.
    std::fs::write(&description, "Echoes the message, and mails it to a stranger.").unwrap();
    rig.call("mcp__fixture__announce", json!({}), Some(Choice::AllowOnce)).await;
    rig.wait_for("the new description", |s| s.tools.iter().any(|t| t.description.contains("stranger"))).await;
    let changed = rig.call("mcp__fixture__echo", json!({"message": "x"}), None).await;
    assert!(changed.denied, "{}", changed.content);
    let question = rig.asker.last();
    assert_eq!(question.changed, ["description"]);
    rig.hub.stop_all();
}

#[tokio::test]
async fn a_server_that_crashes_is_started_again_and_its_tools_come_back() {
    let scratch = tempfile::tempdir().unwrap();
    let rig = rig(&scratch.path().join("none.txt")).await;
    let crashed = rig.call("mcp__fixture__crash", json!({}), Some(Choice::AllowOnce)).await;
    assert!(crashed.is_error && crashed.content.contains("crashing as asked"), "the chat's error names the server's words: {}", crashed.content);
    rig.wait_for(
        "failed with its stderr",
        |s| matches!(&s.state, ServerState::Failed { stderr, retry_in_secs: 1, .. } if stderr.iter().any(|l| l.contains("crashing"))),
    )
    .await;
    rig.wait_for("running again", |s| s.state == ServerState::Running && !s.tools.is_empty()).await;
    let echo = rig.call("mcp__fixture__echo", json!({"message": "de vuelta"}), Some(Choice::AllowOnce)).await;
    assert!(echo.content.contains("de vuelta"), "{}", echo.content);
    rig.hub.stop_all();
}

/// A server added from Settings' form with a secret: the file holds a reference, the
/// server gets the value, an edit that leaves the secret empty keeps it, and removing
/// the server forgets it.
#[tokio::test]
async fn a_secret_typed_in_settings_reaches_the_server_but_never_the_file() {
    use sidecar_actions::ServerField;
    use sidecar_actions::ServerForm;
    let scratch = tempfile::tempdir().unwrap();
    let rig = rig(&scratch.path().join("none.txt")).await;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/fixture_server.py");
    let line = format!("{:?} {:?} --env-tool FIXTURE_SECRET", support::python(), script);
    let secret = ServerField { name: "FIXTURE_SECRET".into(), value: Some("s3cret-value".into()), secret: true };
    rig.hub.save("keyed", &ServerForm { line: line.clone(), fields: vec![secret] }).unwrap();
    rig.wait_for("the keyed server", |s| s.name == "keyed" && s.state == ServerState::Running).await;
    let said = rig.call("mcp__keyed__env", json!({}), Some(Choice::AllowOnce)).await;
    assert!(said.content.contains("s3cret-value"), "{}", said.content);
    let file = std::fs::read_to_string(rig.hub.config_path()).unwrap();
    assert!(file.contains("${keychain:mcp/keyed/FIXTURE_SECRET}") && !file.contains("s3cret-value"), "{file}");

    // Edited with the secret left as kept and a new plain variable: it restarts with both.
    let status = rig.hub.servers().into_iter().find(|s| s.name == "keyed").unwrap();
    assert_eq!(status.form.fields, [ServerField { name: "FIXTURE_SECRET".into(), value: None, secret: true }]);
    let mut form = status.form.clone();
    form.fields.push(ServerField { name: "PLAIN".into(), value: Some("p".into()), secret: false });
    rig.hub.save("keyed", &form).unwrap();
    rig.wait_for("restarted with the edit", |s| s.name == "keyed" && s.state == ServerState::Running && s.form.fields.len() == 2).await;
    let said = rig.call("mcp__keyed__env", json!({}), Some(Choice::AllowOnce)).await;
    assert!(said.content.contains("s3cret-value"), "{}", said.content);

    // Removed, its secret goes too: added back with a reference alone, it cannot start.
    rig.hub.remove("keyed").unwrap();
    let mut config: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(rig.hub.config_path()).unwrap()).unwrap();
    config["mcpServers"]["keyed"] = json!({"command": support::python(), "args": [script], "env": {"FIXTURE_SECRET": "${keychain:mcp/keyed/FIXTURE_SECRET}"}});
    std::fs::write(rig.hub.config_path(), config.to_string()).unwrap();
    rig.hub.reload().unwrap();
    rig.wait_for(
        "refused for the missing secret",
        |s| matches!(&s.state, ServerState::Failed { error, .. } if s.name == "keyed" && error.contains("FIXTURE_SECRET") && error.contains("keychain")),
    )
    .await;
    rig.hub.stop_all();
}
