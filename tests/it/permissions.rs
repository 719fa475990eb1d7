//! Permission before every action: no tool that acts runs without the user's grant,
//! over random sequences of grants, revocations, changed definitions and answers.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use serde_json::{json, Value};
use sidecar_actions::Answer;
use sidecar_actions::Choice;
use sidecar_actions::PermissionGate;
use sidecar_llm::ToolCall;
use sidecar_tools::Action;
use sidecar_tools::ToolDefinition;

use crate::support::asker::ScriptedAsker;
use sidecar_store::Store;
use sidecar_tools::CallScope;
use sidecar_tools::Tool;
use sidecar_tools::ToolFuture;
use sidecar_tools::ToolRegistry;

/// A tool that acts, and counts how often it really ran.
struct Acting {
    runs: Arc<AtomicUsize>,
    now: Arc<Mutex<(String, ToolDefinition)>>,
}

impl Tool for Acting {
    fn name(&self) -> &str {
        "mcp__srv__act"
    }
    fn description(&self) -> &str {
        "acts"
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }
    fn action(&self) -> Option<Action> {
        let (identity, definition) = self.now.lock().unwrap().clone();
        Some(Action { server: "srv".into(), identity, definition, called_as: "mcp__srv__act".into(), asking: None })
    }
    fn run(&self, _arguments: Value) -> ToolFuture<'_> {
        self.runs.fetch_add(1, Ordering::SeqCst);
        Box::pin(async { Ok("done".to_string()) })
    }
}

#[derive(Debug, Clone)]
enum Step {
    AllowTool,
    AllowServer,
    DenyTool,
    RevokeTool,
    RevokeServer,
    ChangeDefinition,
    ChangeCommand,
    Call { chat: i64, answer: Option<Choice> },
}

fn step() -> impl Strategy<Value = Step> {
    let answer = prop_oneof![
        Just(None),
        Just(Some(Choice::AllowOnce)),
        Just(Some(Choice::AllowInChat)),
        Just(Some(Choice::AlwaysTool)),
        Just(Some(Choice::AlwaysServer)),
        Just(Some(Choice::Deny)),
    ];
    prop_oneof![
        1 => Just(Step::AllowTool),
        1 => Just(Step::AllowServer),
        1 => Just(Step::DenyTool),
        1 => Just(Step::RevokeTool),
        1 => Just(Step::RevokeServer),
        2 => Just(Step::ChangeDefinition),
        1 => Just(Step::ChangeCommand),
        6 => (1i64..3, answer).prop_map(|(chat, answer)| Step::Call { chat, answer }),
    ]
}

fn definition(version: u32) -> ToolDefinition {
    ToolDefinition { name: "act".into(), description: format!("acts, version {version}"), input_schema: json!({"type": "object"}), read_only: false }
}

/// What the test itself knows gives a call a right to run without asking.
#[derive(Default)]
struct Known {
    tool_allowed: Option<String>,
    tool_denied: Option<String>,
    server_allowed: Option<String>,
    /// (chat, identity, definition version) allowed in that chat.
    in_chat: HashSet<(i64, String, u32)>,
    /// The definition the tool last ran or was allowed with, per identity, while the
    /// server's grants stand.
    last_seen: Option<(String, u32)>,
}

async fn run_steps(steps: Vec<Step>) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let gate = Arc::new(PermissionGate::new(store, sidecar_domain::system_clock(), Default::default()));
    let asker = Arc::new(ScriptedAsker::default());
    gate.set_asker(asker.clone());
    let runs = Arc::new(AtomicUsize::new(0));
    let (mut identity, mut version) = ("cmd-1".to_string(), 1u32);
    let now = Arc::new(Mutex::new((identity.clone(), definition(version))));
    let mut registry = ToolRegistry::new().guarded_by(gate.clone());
    registry.register(Acting { runs: runs.clone(), now: now.clone() });
    let mut known = Known::default();
    for step in steps {
        match step {
            Step::AllowTool => {
                gate.set_standing("srv", &identity, Some("act"), true).await.unwrap();
                known.tool_allowed = Some(identity.clone());
                known.tool_denied = None;
            }
            Step::AllowServer => {
                gate.set_standing("srv", &identity, None, true).await.unwrap();
                known.server_allowed = Some(identity.clone());
            }
            Step::DenyTool => {
                gate.set_standing("srv", &identity, Some("act"), false).await.unwrap();
                known.tool_denied = Some(identity.clone());
                known.tool_allowed = None;
            }
            Step::RevokeTool => {
                gate.revoke("srv", Some("act")).await.unwrap();
                (known.tool_allowed, known.tool_denied) = (None, None);
                known.in_chat.clear();
            }
            Step::RevokeServer => {
                gate.revoke("srv", None).await.unwrap();
                known = Known::default();
            }
            Step::ChangeDefinition => version += 1,
            Step::ChangeCommand => identity = format!("cmd-{}", identity.len() + version as usize),
            Step::Call { chat, answer } => {
                *now.lock().unwrap() = (identity.clone(), definition(version));
                let answer = answer.map(Answer::Chose).unwrap_or(Answer::NoAnswer);
                asker.answers.lock().unwrap().push_back(answer);
                let (asked_before, ran_before) = (asker.asked.lock().unwrap().len(), runs.load(Ordering::SeqCst));
                let call = ToolCall { id: "c".into(), name: "mcp__srv__act".into(), arguments: "{}".into() };
                let outcome = registry.run(&call, CallScope { conversation_id: Some(chat), ..CallScope::default() }).await;
                asker.answers.lock().unwrap().clear();
                let asked = asker.asked.lock().unwrap().len() > asked_before;
                let ran = runs.load(Ordering::SeqCst) > ran_before;
                prop_assert_eq!(ran, !outcome.denied);

                let denied_standing = known.tool_denied.as_deref() == Some(identity.as_str());
                prop_assert!(!(denied_standing && (ran || asked)), "a standing denial ran or asked");
                let changed = known.last_seen.as_ref().is_some_and(|(i, v)| *i == identity && *v != version);
                if ran && !asked {
                    let granted = known.tool_allowed.as_deref() == Some(identity.as_str())
                        || known.server_allowed.as_deref() == Some(identity.as_str())
                        || known.in_chat.contains(&(chat, identity.clone(), version));
                    prop_assert!(granted, "ran without a grant");
                    prop_assert!(!changed, "a changed definition ran without asking");
                }
                if asked {
                    prop_assert_eq!(ran, matches!(answer, Answer::Chose(c) if c.allows()));
                    let question = asker.asked.lock().unwrap().last().cloned().unwrap();
                    prop_assert_eq!(&question.tool, "act");
                    prop_assert_eq!(!question.changed.is_empty(), changed);
                }
                if ran {
                    // What ran is what a later change is measured from (the first run under
                    // a new command included).
                    known.last_seen = Some((identity.clone(), version));
                    match answer {
                        Answer::Chose(Choice::AllowInChat) if asked => {
                            known.in_chat.insert((chat, identity.clone(), version));
                        }
                        Answer::Chose(Choice::AlwaysTool) if asked => known.tool_allowed = Some(identity.clone()),
                        Answer::Chose(Choice::AlwaysServer) if asked => known.server_allowed = Some(identity.clone()),
                        _ => {}
                    }
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_tool_that_acts_runs_without_a_grant(steps in prop::collection::vec(step(), 1..25)) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(run_steps(steps))?;
    }
}

#[tokio::test]
async fn with_no_gate_or_no_one_to_ask_a_tool_that_acts_never_runs_and_says_which_waited() {
    let runs = Arc::new(AtomicUsize::new(0));
    let now = Arc::new(Mutex::new(("cmd".to_string(), definition(1))));
    let call = ToolCall { id: "c".into(), name: "mcp__srv__act".into(), arguments: "{}".into() };

    let mut ungated = ToolRegistry::new();
    ungated.register(Acting { runs: runs.clone(), now: now.clone() });
    let outcome = ungated.run(&call, CallScope::default()).await;
    assert!(outcome.denied && outcome.content.contains("srv/act"), "{}", outcome.content);

    let dir = tempfile::tempdir().unwrap();
    let gate = Arc::new(PermissionGate::new(Store::open(dir.path()).await.unwrap(), sidecar_domain::system_clock(), Default::default()));
    let mut gated = ToolRegistry::new().guarded_by(gate);
    gated.register(Acting { runs: runs.clone(), now });
    let outcome = gated.run(&call, CallScope::default()).await;
    assert!(outcome.denied, "{}", outcome.content);
    assert!(outcome.content.contains("srv/act") && outcome.content.contains("no one to ask"), "{}", outcome.content);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}
