//! A window too small for what is never cut: the turn fails with words that name the
//! window and what to do, and nothing is sent to the model.

use crate::support::{reply_events, stream, LogBuffer, ScriptedServer};

#[tokio::test]
async fn a_profile_larger_than_the_window_is_never_cut_the_turn_says_why() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["never"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\ncontext_window = 1024\n[llm]\nmax_tokens = 256\n", server.base_url);
    let core = crate::support::core().settings(&text).open_in(dir.path()).await;
    let profile = format!("# Profile\n\n- Name: Ana\n\n{}\n", "I keep a long diary of every day of my life in this file. ".repeat(200));
    let (_, version) = core.knowledge().profile(sidecar_memory::ProfileFile::User).unwrap();
    core.knowledge().save_profile(sidecar_memory::ProfileFile::User, &profile, &version).unwrap();
    let error = core.send("hola").await.unwrap_err().to_string();
    assert!(error.contains("1024-token window") && error.contains("nothing was sent") && error.contains("context length in Settings"), "{error}");
    assert_eq!(server.request_count(), 0, "a cut prompt is never sent");
}

/// Past eight messages the tool rules are said again, in the per-turn block on the newest
/// message; the system prompt stays the same.
#[tokio::test]
async fn a_long_conversation_hears_the_tool_rules_again_late() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["ok"]))).await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\n", server.base_url);
    let core = crate::support::core().settings(&text).open_in(dir.path()).await;
    let mut systems = std::collections::HashSet::new();
    let mut previous: Option<serde_json::Value> = None;
    for n in 0..10 {
        let outcome = core.send(&format!("message {n}")).await.unwrap();
        let request = server.last_request();
        systems.insert(request["messages"][0]["content"].as_str().unwrap().to_string());
        let late = crate::support::late_block(&request);
        // Turn n is sent with 2n messages of history before it: the rules are said at
        // eight, kept with that message, and said again once eight more have passed.
        let due = n == 4 || n == 8;
        assert_eq!(late.contains("Reminder, as the conversation is long"), due, "turn {n}: {late}");
        assert_eq!(late.contains("set_reminder"), due, "the tools are named");
        assert_eq!(outcome.meta.reinforced, due, "the reply records that the rules were said again");
        // Each prompt starts as the last one did, up to the last reply: the earlier
        // messages keep the per-turn block they were sent with.
        if let Some(previous) = previous {
            let before = previous["messages"].as_array().unwrap();
            let now = request["messages"].as_array().unwrap();
            assert_eq!(&now[..before.len()], &before[..], "turn {n}: the previous prompt is a prefix of this one");
        }
        previous = Some(request);
    }
    assert_eq!(systems.len(), 1, "the system prompt did not move");
}

/// A message larger than the window is cut by the guard to fit; the reply records it,
/// and Usage counts it.
#[tokio::test]
async fn a_cut_to_fit_is_recorded_with_the_reply_and_counted() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["ok"]))).await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\ncontext_window = 4096\n[llm]\nmax_tokens = 256\n", server.base_url);
    let core = crate::support::core().settings(&text).open_in(dir.path()).await;
    let short = core.send("hola").await.unwrap();
    assert!(!short.meta.truncated);
    let long = core.send(&"a very long paste of a log line that goes on ".repeat(900)).await.unwrap();
    assert!(long.meta.truncated, "{:?}", long.meta);
    let measures = core.usage_report().await.unwrap().all_time.turns;
    assert_eq!((measures.turns, measures.truncated), (2, 1), "{measures:?}");
}

/// The plans' sliding window: with `max_history_turns` set, only the newest turns are
/// sent however much room is left, and the log line says how many there were, how many
/// were kept and how many left.
#[tokio::test(flavor = "current_thread")]
async fn max_history_turns_sends_the_newest_turns_and_the_log_says_what_left() {
    let logs = LogBuffer::default();
    let _guard = tracing::subscriber::set_default(logs.subscriber());
    let server = ScriptedServer::responding(|_| stream(reply_events(&["ok"]))).await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\n[context]\nmax_history_turns = 4\n", server.base_url);
    let core = crate::support::core().settings(&text).open_in(dir.path()).await;
    for n in 0..7 {
        core.send(&format!("message number {n}")).await.unwrap();
    }
    let request = server.last_request();
    let asked: Vec<&str> = request["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "user").map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(asked.len(), 4, "{asked:?}");
    for (sent, n) in asked.iter().zip(3..) {
        assert!(sent.starts_with(&format!("message number {n}")), "the newest four, oldest first: {asked:?}");
    }
    let log = logs.text();
    let line = log.lines().rfind(|l| l.contains("sliding window applied")).unwrap_or_else(|| panic!("no sliding-window line: {log}"));
    for field in ["total_turns=7", "kept_turns=4", "dropped_turns=3", "max_history_turns=Some(4)"] {
        assert!(line.contains(field), "{field} in: {line}");
    }
    let (stored,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM messages").fetch_one(core.store().pool()).await.unwrap();
    assert_eq!(stored, 14, "every turn is still stored");
}

/// The first-hour m5: the meter's whole is the model's window less the reply's reserve
/// before the first message, after it, and on every later turn; the tool definitions
/// sent beside the prompt (each turn's choice of them) count as used instead of
/// shrinking the whole. The estimate before any call counts the system prompt and the
/// tools as the call does.
#[tokio::test]
async fn the_context_meter_whole_stays_put_from_the_estimate_through_every_turn() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["ok"]))).await;
    let dir = tempfile::tempdir().unwrap();
    let text = format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\ncontext_window = 8192\n[llm]\nmax_tokens = 1024\n", server.base_url);
    let core = crate::support::core().settings(&text).open_in(dir.path()).await;
    let estimate = core.context().context_meter(&core.tools()).await.unwrap();
    assert_eq!(estimate.budget, 8192 - 1024, "{estimate:?}");
    assert!(estimate.tools > 500, "the tool definitions count as used: {estimate:?}");
    assert!(estimate.used > estimate.tools + 300, "the system prompt counts too: {estimate:?}");
    let mut events = core.events().subscribe();
    let mut meters = Vec::new();
    for said in ["hello there", "and what is the weather like in Lisbon tomorrow?"] {
        core.send(said).await.unwrap();
        while let Ok(event) = events.try_recv() {
            if let sidecar::events::CoreEvent::Chat(sidecar_agent::ChatEvent::ContextUsage { meter, .. }) = event {
                meters.push(meter);
            }
        }
    }
    assert!(meters.len() >= 2, "{meters:?}");
    // Each turn sends the tools chosen for it, fewer or more: the whole does not move.
    assert!(meters.iter().all(|m| m.budget == estimate.budget && m.tools > 0), "{estimate:?} then {meters:?}");
    // The first call's prompt is near the estimate: it adds the new message and the
    // per-turn block, and may send fewer tools than all of them.
    let first = meters[0].used;
    assert!(first.abs_diff(estimate.used) < 300, "estimate {} then {first}", estimate.used);
}
