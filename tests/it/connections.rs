//! Consent for programs that use Sidecar as a server: over random sequences of
//! allowing (with random scopes), revoking and calls from several clients, a call is
//! served only when its client is allowed now with the scope it needs, and every call
//! is logged with what was decided.

use sidecar_serve::ConnectionsStore;
use std::collections::HashMap;

use proptest::prelude::*;
use sidecar_serve::Connections;
use sidecar_serve::Refused;
use sidecar_serve::Scope;
use sidecar_store::Store;

#[derive(Debug, Clone)]
enum Step {
    Allow(usize, Vec<Scope>),
    Revoke(usize),
    Call(usize, Scope),
}

const CLIENTS: [&str; 3] = ["claude-desktop", "cursor", "a script"];

fn scope() -> impl Strategy<Value = Scope> {
    prop::sample::select(Scope::ALL.to_vec())
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0..3usize, prop::collection::vec(scope(), 0..4)).prop_map(|(c, s)| Step::Allow(c, s)),
        (0..3usize).prop_map(Step::Revoke),
        (0..3usize, scope()).prop_map(|(c, s)| Step::Call(c, s)),
        (0..3usize, scope()).prop_map(|(c, s)| Step::Call(c, s)),
    ]
}

async fn run_steps(steps: Vec<Step>) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let connections = Connections::new(Store::open(dir.path()).await.unwrap(), sidecar_domain::system_clock());
    // The model: what each client holds now (None: never allowed, or revoked).
    let mut holds: HashMap<usize, Option<Vec<Scope>>> = HashMap::new();
    let mut logged: HashMap<usize, (usize, usize)> = HashMap::new();
    for step in steps {
        match step {
            Step::Allow(client, scopes) => {
                connections.allow(CLIENTS[client], &scopes).await.unwrap();
                holds.insert(client, Some(scopes));
            }
            Step::Revoke(client) => {
                connections.revoke(CLIENTS[client]).await.unwrap();
                holds.insert(client, None);
            }
            Step::Call(client, scope) => {
                let arrived = connections.arrived(CLIENTS[client]).await.unwrap();
                prop_assert_eq!(arrived.name.as_str(), CLIENTS[client]);
                let verdict = connections.check(CLIENTS[client], scope, "a call").await;
                let expected = holds.get(&client).cloned().flatten().is_some_and(|s| s.contains(&scope));
                prop_assert_eq!(verdict.is_ok(), expected, "{:?} for {} with {:?}", verdict, CLIENTS[client], holds.get(&client));
                if let Err(refused) = verdict {
                    let revoked = matches!(holds.get(&client), Some(None));
                    prop_assert!(matches!(refused, Refused::Revoked(_)) == revoked, "{:?}", refused);
                }
                let entry = logged.entry(client).or_default();
                if expected {
                    entry.0 += 1
                } else {
                    entry.1 += 1
                }
            }
        }
    }
    for (client, (served, refused)) in logged {
        let activity = connections.activity(CLIENTS[client], 1000).await.unwrap();
        prop_assert_eq!(activity.iter().filter(|a| a.allowed).count(), served);
        prop_assert_eq!(activity.iter().filter(|a| !a.allowed).count(), refused);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn nothing_is_served_without_consent_and_the_scope(steps in prop::collection::vec(step(), 1..30)) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(run_steps(steps))?;
    }
}

/// A program that connects is said once, in the user's language, while it waits.
#[tokio::test]
async fn a_waiting_program_is_said_once() {
    use sidecar::events::{CoreEvent, EventBus};
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let connections = Connections::new(store.clone(), sidecar_domain::system_clock());
    let events = EventBus::default();
    let mut heard = events.subscribe();
    let watching = std::sync::Arc::new(Connections::new(store, sidecar_domain::system_clock()));
    tokio::spawn(sidecar_serve::watch(
        watching,
        events.emitter(sidecar::events::CoreEvent::Connections),
        sidecar::words::Lang::Es,
        std::time::Duration::from_millis(20),
    ));
    connections.arrived("cursor").await.unwrap();
    let said = tokio::time::timeout(std::time::Duration::from_secs(5), heard.recv()).await.unwrap().unwrap();
    let CoreEvent::Connections(sidecar_serve::ConnectionEvent::ConnectionWaiting { name, body, .. }) = said else { panic!("{said:?}") };
    assert_eq!(name, "cursor");
    assert!(body.contains("Ajustes → Conexiones"), "{body}");
    // Seen again, it is not said again; once allowed, nothing more is said.
    connections.arrived("cursor").await.unwrap();
    connections.allow("cursor", &[Scope::ReadMemory]).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(heard.try_recv().is_err(), "said once");
}

#[tokio::test]
async fn a_client_that_calls_all_day_keeps_only_its_latest_calls_and_others_keep_theirs() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let rows = store.connections();
    let now = chrono::Utc::now();
    rows.log("quiet", "recall", true, now).await.unwrap();
    let kept = sidecar_serve::KEPT_PER_CLIENT as usize;
    for n in 0..kept + 300 {
        rows.log("busy", &format!("call {n}"), true, now).await.unwrap();
    }
    let busy = rows.activity("busy", 10_000).await.unwrap();
    assert!(busy.len() >= kept && busy.len() <= kept + 100, "{}", busy.len());
    assert_eq!(busy[0].action, format!("call {}", kept + 299), "the newest is kept");
    assert_eq!(rows.activity("quiet", 10).await.unwrap().len(), 1, "another client's log is not touched");
}
