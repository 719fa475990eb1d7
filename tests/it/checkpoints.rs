//! Checkpoints, plans, profile editing and the knowledge watcher through the
//! companion, against a scripted model.

use sidecar_agent::ChatEvent;
use sidecar_agent::ContextStore;
use sidecar_memory::MemoryEvent;
use std::sync::Arc;
use std::time::Duration;

use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};
use sidecar::{Companion, CoreEvent};
use sidecar_agent::CheckpointStatus;
use sidecar_memory::ProfileFile;

async fn open(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    crate::support::core().provider("p", base_url).settings("[user]\ntimezone = \"Europe/Madrid\"\n").open_in(dir).await
}

const DIGEST: &str = r#"{"summary": "Planning a trip to Lisbon", "checkpoint": {"title": "Trip to Lisbon", "current_work": "Choosing a hotel near Alfama", "completed": ["Flights booked for 3 May"], "pending": ["Book the hotel"], "decisions": ["Stay 5 nights"], "failed_approaches": [], "user_preferences": ["Quiet rooms"], "critical_info": ["Allergic to peanuts"]}, "facts": []}"#;

#[tokio::test]
async fn a_checkpoint_survives_a_restart_and_is_offered_in_a_new_conversation() {
    let server = ScriptedServer::start(vec![
        stream(reply_events(&["Flights booked. Now hotels?"])),
        stream(reply_events(&[DIGEST])),
        stream(reply_events(&["Welcome back: the hotel near Alfama is next."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    core.send("Book flights to Lisbon for 3 May").await.unwrap();
    let outcome = core.send("/checkpoint").await.unwrap();
    assert!(outcome.meta.command);
    assert!(outcome.reply.starts_with("Checkpoint #1 saved: Trip to Lisbon"), "{}", outcome.reply);
    // The command and its answer are not sent to the model later.
    let before_restart = core.conversation().history(10).await.unwrap();
    assert_eq!(before_restart.len(), 4);
    core.shutdown().await;
    drop(core);

    let core = open(dir.path(), &server.base_url).await;
    let listed = core.context().checkpoints().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].status, CheckpointStatus::InProgress);
    assert_eq!(listed[0].body.pending, ["Book the hotel"]);
    // The conversation it belongs to is not offered to itself.
    assert!(core.context().continuation_offer().await.unwrap().is_none());

    core.context().new_conversation().await.unwrap();
    assert_eq!(core.context().checkpoints().await.unwrap()[0].status, CheckpointStatus::Paused);
    let offer = core.context().continuation_offer().await.unwrap().expect("an offer in the new conversation");
    assert_eq!(offer.id, 1);
    let resumed = core.context().continue_from(offer.id).await.unwrap();
    assert_eq!(resumed.status, CheckpointStatus::Resumed);
    assert!(core.context().continuation_offer().await.unwrap().is_none(), "accepted: no second offer");

    core.send("Where were we?").await.unwrap();
    let request = server.last_request();
    // A resumed checkpoint goes late, on the newest message, not in the system prompt.
    let newest = request["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "user").unwrap()["content"].as_str().unwrap().to_string();
    let late = sidecar_llm::per_turn::split(&newest).1.unwrap().to_string();
    assert!(late.contains("<resumed_checkpoint>"), "{late}");
    assert!(late.contains("Choosing a hotel near Alfama"));
    assert!(!request["messages"][0]["content"].as_str().unwrap().contains("<resumed_checkpoint>"));
    let messages = request["messages"].as_array().unwrap();
    assert!(!messages.iter().any(|m| m["content"].as_str().unwrap_or("").contains("/checkpoint")));

    let path = core.context().export_checkpoint(1).await.unwrap();
    let markdown = std::fs::read_to_string(path).unwrap();
    assert!(markdown.starts_with("# Trip to Lisbon"));
    assert!(markdown.contains("## Critical information\n- Allergic to peanuts"));

    let closed = core.send("/checkpoint done").await.unwrap();
    assert!(closed.reply.contains("#1 marked completed"), "{}", closed.reply);
    let error = core.context().set_checkpoint_status(1, CheckpointStatus::Resumed).await.unwrap_err();
    assert!(error.to_string().contains("cannot become resumed"), "{error}");
    // Recall finds what the checkpoint says.
    let hits = core.recall_service().search("Alfama", 500).await.unwrap().hits;
    assert!(hits.iter().any(|h| h.source == "checkpoint"), "{hits:?}");
}

#[tokio::test]
async fn a_checkpoint_is_written_even_when_the_model_answers_nonsense() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Sure."])), stream(reply_events(&["I am a teapot"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    core.send("Help me plan the garden. Soy alérgico al polen.").await.unwrap();
    let outcome = core.send("/checkpoint").await.unwrap();
    assert!(outcome.reply.contains("saved"), "{}", outcome.reply);
    let checkpoint = &core.context().checkpoints().await.unwrap()[0];
    assert_eq!(checkpoint.body.current_work, "Help me plan the garden. Soy alérgico al polen.");
    assert!(checkpoint.body.critical_info.iter().any(|c| c.contains("alérgico al polen")));
}

#[tokio::test]
async fn update_plan_is_stored_shown_and_in_every_later_call_of_the_turn() {
    let plan = r#"{"items": [{"text": "Find flights", "status": "done"}, {"text": "Compare hotels", "status": "in_progress"}, {"text": "Book", "status": "pending"}]}"#;
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("p1", "update_plan", plan)])),
        stream(tool_call_events(&[("t1", "get_current_time", "{}")])),
        stream(reply_events(&["Working on hotels."])),
        stream(tool_call_events(&[("p2", "update_plan", r#"{"items": [{"text": "A", "status": "in_progress"}, {"text": "B", "status": "in_progress"}]}"#)])),
        stream(reply_events(&["ok"])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    core.send("Plan my trip").await.unwrap();
    let requests = server.requests.lock().unwrap().clone();
    let system = |n: usize| requests[n]["messages"][0]["content"].as_str().unwrap().to_string();
    // The plan goes late, on the newest user message; the system prompt does not move.
    let late = |n: usize| {
        let messages = requests[n]["messages"].as_array().unwrap();
        let newest = messages.iter().rev().find(|m| m["role"] == "user").unwrap()["content"].as_str().unwrap();
        sidecar_llm::per_turn::split(newest).1.unwrap_or_default().to_string()
    };
    assert!(!late(0).contains("<plan>"));
    for n in [1, 2] {
        // The turn's later calls send what the first sent (the server's cache holds);
        // the plan they work on is in update_plan's result.
        assert_eq!(late(n), late(0), "call {n}");
        let result = requests[n]["messages"].as_array().unwrap().iter().find(|m| m["tool_call_id"] == "p1").unwrap()["content"].as_str().unwrap().to_string();
        assert!(result.contains("[x] Find flights\n[>] Compare hotels\n[ ] Book"), "call {n}: {result}");
        assert_eq!(system(n), system(0), "the system prompt is byte-identical across the turn's calls");
    }
    let items = core.context().plan().await.unwrap();
    assert_eq!(items.len(), 3);
    let mut saw_event = false;
    while let Ok(event) = events.try_recv() {
        if let CoreEvent::Chat(ChatEvent::PlanUpdated { items, .. }) = event {
            saw_event = items.len() == 3;
        }
    }
    assert!(saw_event);
    // A bad plan goes back to the model as a tool error and changes nothing.
    core.send("change it").await.unwrap();
    let last = server.last_request();
    let result = last["messages"].as_array().unwrap().iter().find(|m| m["tool_call_id"] == "p2").unwrap();
    assert!(result["content"].as_str().unwrap().contains("only one step can be in progress"));
    assert_eq!(core.context().plan().await.unwrap().len(), 3);
}

#[tokio::test]
async fn edits_in_another_editor_are_picked_up_and_bad_lines_reported() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["ok"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    let watcher = tokio::spawn(core.watch_knowledge(Duration::from_millis(50)));
    let path = dir.path().join("knowledge/learnings.md");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("- [weight:3] Toca el violín | learned:2026-01-01 | confirmed:2026-11-01\n- [weight:x] roto\n");
    // Like an editor: write a new file and rename it over the old one.
    std::fs::write(dir.path().join("knowledge/.edit"), &text).unwrap();
    std::fs::rename(dir.path().join("knowledge/.edit"), &path).unwrap();
    let problems = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            if let Ok(CoreEvent::Memory(MemoryEvent::KnowledgeChanged { problems, .. })) = events.recv().await {
                return problems;
            }
        }
    })
    .await
    .expect("the edit is noticed");
    watcher.abort();
    assert_eq!(problems.len(), 1);
    assert!(problems[0].text.contains("roto"));
    assert!(core.knowledge().facts().iter().any(|f| f.fact.text == "Toca el violín"));
}

/// A loaded machine starts the loops seconds after the window shows the facts: an edit
/// made in between, before the watch first looks, is picked up too (it went unnoticed,
/// seen in the end-to-end run of issue 68's stop).
#[tokio::test]
async fn an_edit_made_before_the_watch_starts_is_picked_up() {
    let server = ScriptedServer::start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    let path = dir.path().join("knowledge/learnings.md");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("- [weight:2] Plays the cello | learned:2026-11-01 | confirmed:2026-11-20\n");
    std::fs::write(dir.path().join("knowledge/.edit"), &text).unwrap();
    std::fs::rename(dir.path().join("knowledge/.edit"), &path).unwrap();
    let watcher = tokio::spawn(core.watch_knowledge(Duration::from_millis(50)));
    tokio::time::timeout(Duration::from_secs(5), async {
        while !matches!(events.recv().await, Ok(CoreEvent::Memory(MemoryEvent::KnowledgeChanged { .. }))) {}
    })
    .await
    .expect("the edit is noticed");
    watcher.abort();
    assert!(core.knowledge().facts().iter().any(|f| f.fact.text == "Plays the cello"));
}

#[tokio::test]
async fn profile_files_are_edited_with_a_stale_check() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["ok"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let (text, version) = core.knowledge().profile(ProfileFile::User).unwrap();
    assert!(text.contains("Profile") || text.contains("Perfil"));
    let new_version = core.knowledge().save_profile(ProfileFile::User, "# Profile\n\n- Name: Ana\n", &version).unwrap();
    assert_ne!(new_version, version);
    let error = core.knowledge().save_profile(ProfileFile::User, "# lost\n", &version).unwrap_err();
    assert!(error.to_string().contains("changed on disk"), "{error}");
    core.send("hi").await.unwrap();
    let system = server.last_request()["messages"][0]["content"].as_str().unwrap().to_string();
    assert!(system.contains("- Name: Ana"), "{system}");
}

/// A tool whose answer is a long page of prose.
struct LongPage;

impl sidecar_tools::Tool for LongPage {
    fn name(&self) -> &'static str {
        "read_page"
    }
    fn description(&self) -> &'static str {
        "Reads a page."
    }
    fn parameters(&self) -> serde_json::Value {
        serde_json::json!({"type": "object", "properties": {}})
    }
    fn run(&self, _: serde_json::Value) -> sidecar_tools::ToolFuture<'_> {
        Box::pin(async { Ok(format!("PAGE START {} PAGE END", "Lisbon has many hills and trams. ".repeat(900))) })
    }
}

#[tokio::test]
async fn a_long_text_result_is_summarised_by_the_model_and_stored_whole() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("page", "read_page", "{}")])),
        stream(reply_events(&["Lisbon: hills, tram 28, Alfama; see https://example.com/lisbon."])),
        stream(reply_events(&["Lisbon is hilly; take tram 28."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let mut tools = (*core.tools()).clone();
    tools.register(LongPage);
    core.set_tools(tools);
    core.send("What does the Lisbon page say?").await.unwrap();
    let requests = server.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 3);
    let summary_request = requests[1]["messages"][0]["content"].as_str().unwrap();
    assert!(summary_request.contains("Summarise this output of the tool read_page"), "{summary_request}");
    let answer_request = requests[2]["messages"].as_array().unwrap();
    let result = answer_request.iter().find(|m| m["role"] == "tool").unwrap()["content"].as_str().unwrap();
    assert_eq!(result, "Lisbon: hills, tram 28, Alfama; see https://example.com/lisbon.");
    let stored = core.conversation().history(10).await.unwrap();
    let stored_result = stored.iter().find(|m| m.role == sidecar_llm::Role::Tool).unwrap();
    assert!(stored_result.content.starts_with("PAGE START") && stored_result.content.ends_with("PAGE END"));
    let usage = core.usage_totals(None).await.unwrap();
    assert_eq!(usage.calls, 3, "the summary call is counted");
}

#[tokio::test]
async fn sidecars_own_writes_raise_no_change_event() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["ok"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let mut events = core.events().subscribe();
    let watcher = tokio::spawn(core.watch_knowledge(Duration::from_millis(20)));
    core.remember("Toca el violín", sidecar_memory::Category::General).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    watcher.abort();
    while let Ok(event) = events.try_recv() {
        assert!(!matches!(event, CoreEvent::Memory(MemoryEvent::KnowledgeChanged { .. })), "own write reported as an outside edit");
    }
}

/// "Continue from checkpoint" in either language, or a pasted "Checkpoint ID:", brings
/// the checkpoint into the conversation; without an id, the open one with the most
/// pressing status is picked, not merely the newest.
#[tokio::test]
async fn continue_from_checkpoint_picks_by_status_and_the_model_picks_the_work_up() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Picking it up: the hotel is next."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let store = core.store().context();
    let body = |title: &str| sidecar_agent::CheckpointBody { title: title.into(), pending: vec![format!("{title}: next step")], ..Default::default() };
    let mut elsewhere = Vec::new();
    for _ in 0..3 {
        elsewhere.push(core.store().conversations().new_conversation().await.unwrap());
    }
    core.store().conversations().new_conversation().await.unwrap();
    let in_progress = store.add_checkpoint(elsewhere[0], "auto", &body("Trip to Lisbon")).await.unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    let paused = store.add_checkpoint(elsewhere[1], "manual", &body("Garden plan")).await.unwrap();
    store.set_checkpoint_status(paused.id, CheckpointStatus::Paused).await.unwrap();
    let completed = store.add_checkpoint(elsewhere[2], "manual", &body("Tax return")).await.unwrap();
    store.set_checkpoint_status(completed.id, CheckpointStatus::Completed).await.unwrap();

    let outcome = core.send("continuá desde el checkpoint").await.unwrap();
    assert_eq!(outcome.reply, "Picking it up: the hotel is next.");
    let said = core.conversation().history(10).await.unwrap().into_iter().find(|m| m.meta.as_ref().is_some_and(|m| m.0.intent)).unwrap();
    assert_eq!(said.content, format!("Continuing from checkpoint #{}, Trip to Lisbon. Pending: Trip to Lisbon: next step.", in_progress.id));
    let request = server.last_request();
    let late = crate::support::late_block(&request);
    assert!(late.contains("<resumed_checkpoint>") && late.contains("# Trip to Lisbon"), "{late}");
    assert!(request.to_string().contains(&format!("continue from checkpoint #{}", in_progress.id)), "the model is told to pick it up");
    assert_eq!(store.checkpoint(in_progress.id).await.unwrap().unwrap().status, CheckpointStatus::Resumed);

    // A pasted continuation summary names its checkpoint.
    core.send(&format!("📋 CONTINUATION SUMMARY\nCheckpoint ID: {}\nTRABAJANDO EN: el jardín", paused.id)).await.unwrap();
    assert!(crate::support::late_block(&server.last_request()).contains("# Garden plan"));
    assert_eq!(store.checkpoint(paused.id).await.unwrap().unwrap().status, CheckpointStatus::Resumed);

    // Nothing open: said plainly, no model call.
    for id in [in_progress.id, paused.id] {
        store.set_checkpoint_status(id, CheckpointStatus::Completed).await.unwrap();
    }
    let before = server.request_count();
    let outcome = core.send("continue from checkpoint").await.unwrap();
    assert!(outcome.reply.starts_with("There is no open checkpoint to continue."), "{}", outcome.reply);
    assert_eq!(server.request_count(), before);
}

/// After forty messages without one, a checkpoint is written on its own (without a
/// model call, so the reply does not wait), with its metadata, and the reply says so
/// with its id; its observations can be edited afterwards, and Sidecar's metadata stays.
#[tokio::test]
async fn a_checkpoint_every_forty_messages_is_announced_and_editable() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["ok"]))).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    for n in 0..20 {
        let outcome = core.send(&format!("idea {n} for the garden")).await.unwrap();
        assert_eq!(outcome.meta.checkpoint, None, "turn {n}");
    }
    // A plan is open: its steps go into the checkpoint.
    let conversation = core.store().conversations().current_conversation().await.unwrap();
    let mut plants = sidecar_agent::PlanItem::new("Pick plants", sidecar_agent::ItemStatus::Done);
    plants.result = Some("roses and lavender".into());
    let soil = sidecar_agent::PlanItem::new("Buy soil", sidecar_agent::ItemStatus::Pending);
    core.store().context().set_plan(conversation, &[plants, soil]).await.unwrap();
    let before = server.request_count();
    let outcome = core.send("one more idea").await.unwrap();
    assert_eq!(server.request_count(), before + 1, "no model call but the reply's");
    let id = outcome.meta.checkpoint.expect("the 41st message comes with a checkpoint");
    let checkpoint = core.store().context().checkpoint(id).await.unwrap().unwrap();
    assert_eq!(checkpoint.trigger, "auto");
    assert!(checkpoint.body.current_work.contains("idea"), "{:?}", checkpoint.body);
    assert!(checkpoint.body.completed.contains(&"Pick plants: roses and lavender".to_string()), "{:?}", checkpoint.body);
    assert!(checkpoint.body.pending.contains(&"Buy soil".to_string()), "{:?}", checkpoint.body);
    assert_eq!(checkpoint.body.metadata.model.as_deref(), Some("m"));
    // The stored reply keeps the announcement for the chat.
    let stored = core.conversation().history(2).await.unwrap();
    assert_eq!(stored.last().unwrap().meta.as_ref().unwrap().0.checkpoint, Some(id));
    // The next turns do not write another one.
    assert_eq!(core.send("and another").await.unwrap().meta.checkpoint, None);

    let mut edited = checkpoint.body.clone();
    edited.pending = vec!["Buy soil and seeds".into()];
    edited.blockers = vec!["Waiting for the nursery's prices".into()];
    edited.metadata = Default::default();
    let saved = core.context().edit_checkpoint(id, edited).await.unwrap();
    assert_eq!(saved.body.pending, ["Buy soil and seeds"]);
    assert_eq!(saved.body.blockers, ["Waiting for the nursery's prices"]);
    assert_eq!(saved.body.metadata.model.as_deref(), Some("m"), "Sidecar's metadata is kept");
}

/// The plans' recovery rules and export: "continue from checkpoint" passes over open
/// work older than seven days (it names it, and continues it when asked by number);
/// `/memory-export` and `sidecar export --checkpoints` write every checkpoint as one
/// Markdown document, with the approaches that worked beside those that failed.
#[tokio::test]
async fn a_week_old_checkpoint_is_named_not_resumed_and_all_export_as_one_markdown() {
    use std::sync::atomic::{AtomicI64, Ordering};
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Picking it up."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let days = Arc::new(AtomicI64::new(0));
    let start = chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 11, 2, 10, 0, 0).unwrap();
    let clock = sidecar_domain::Clock::new(
        Arc::new({
            let days = days.clone();
            move || start + chrono::Duration::days(days.load(Ordering::SeqCst))
        }),
        chrono_tz::Europe::Madrid,
    );
    let core = crate::support::core().answered_by(&server).clock(clock).open_in(dir.path()).await;
    let store = core.store().context();
    let worked = sidecar_agent::CheckpointBody {
        title: "Garden plan".into(),
        successful_approaches: vec!["Drip irrigation on a timer".into()],
        failed_approaches: vec!["Watering by hand: too slow".into()],
        ..Default::default()
    };
    let garden = store.add_checkpoint(core.store().conversations().new_conversation().await.unwrap(), "manual", &worked).await.unwrap();
    let closed = store
        .add_checkpoint(garden.conversation_id, "auto", &sidecar_agent::CheckpointBody { title: "Tax return".into(), ..Default::default() })
        .await
        .unwrap();
    store.set_checkpoint_status(closed.id, CheckpointStatus::Completed).await.unwrap();

    days.store(8, Ordering::SeqCst);
    core.context().new_conversation().await.unwrap();
    let before = server.request_count();
    let outcome = core.send("continue from checkpoint").await.unwrap();
    assert_eq!(
        outcome.reply,
        format!("There is no open checkpoint from the last week. The newest is #{0} (Garden plan), from 2026-11-02: say \"continue from checkpoint {0}\" to pick it up.", garden.id)
    );
    assert_eq!(server.request_count(), before, "nothing was continued, no model call");
    assert_eq!(store.checkpoint(garden.id).await.unwrap().unwrap().status, CheckpointStatus::Paused, "paused by the new conversation, not resumed");
    core.send(&format!("continue from checkpoint {}", garden.id)).await.unwrap();
    assert_eq!(store.checkpoint(garden.id).await.unwrap().unwrap().status, CheckpointStatus::Resumed, "named, it is picked up");

    let outcome = core.send("/memory-export").await.unwrap();
    assert!(outcome.meta.command);
    let path = outcome.reply.strip_prefix("Exported all 2 checkpoints to ").and_then(|p| p.strip_suffix('.')).unwrap_or_else(|| panic!("{}", outcome.reply));
    let markdown = std::fs::read_to_string(path).unwrap();
    assert!(markdown.starts_with("# Checkpoints\n\n2 checkpoints, exported 2026-11-10"), "{markdown}");
    assert!(markdown.find("## Tax return").unwrap() < markdown.find("## Garden plan").unwrap(), "newest first: {markdown}");
    assert!(
        markdown.contains("### Approaches that worked\n- Drip irrigation on a timer\n\n### Approaches that failed\n- Watering by hand: too slow"),
        "{markdown}"
    );
    core.shutdown().await;
    drop(core);

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sidecar"))
        .env("SIDECAR_DATA_DIR", dir.path())
        .env("SIDECAR_CONFIG", dir.path().join("absent-settings.toml"))
        .env("SIDECAR_RUNTIME", "off")
        .args(["export", "--checkpoints"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(printed.starts_with("# Checkpoints\n\n2 checkpoints, exported ") && printed.contains("- Drip irrigation on a timer"), "{printed}");
}

/// Each decision in a checkpoint keeps its reason, when it was taken and how sure the
/// model was (anti-compaction 5), and a decision carried into a later checkpoint keeps
/// the time it was first taken; the export says all three.
#[tokio::test]
async fn a_checkpoints_decisions_keep_why_when_and_how_sure() {
    let first = r#"{"summary": "Lisbon", "checkpoint": {"title": "Trip to Lisbon", "decisions": [{"what": "Stay in Alfama", "why": "quiet streets near the river", "confidence": 0.8}]}, "facts": []}"#;
    let second = r#"{"summary": "Lisbon", "checkpoint": {"title": "Trip to Lisbon", "decisions": [{"what": "Stay in Alfama", "why": "quiet streets near the river", "confidence": 0.8}, {"what": "Fly back on Sunday", "why": "cheaper", "confidence": "high"}]}, "facts": []}"#;
    let server = ScriptedServer::start(vec![
        stream(reply_events(&["Alfama it is."])),
        stream(reply_events(&[first])),
        stream(reply_events(&["Sunday then."])),
        stream(reply_events(&[second])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let hands = crate::support::test_clock::TestClock::at(chrono::DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z").unwrap().to_utc());
    let core = crate::support::core()
        .provider("p", &server.base_url)
        .settings("[user]\ntimezone = \"Europe/Madrid\"\n")
        .clock(hands.clock())
        .open_in(dir.path())
        .await;
    core.send("Let's stay in Alfama").await.unwrap();
    core.send("/checkpoint").await.unwrap();
    hands.set(chrono::DateTime::parse_from_rfc3339("2026-12-03T18:30:00Z").unwrap().to_utc());
    core.send("Fly back on Sunday").await.unwrap();
    core.send("/checkpoint").await.unwrap();

    let newest = core.context().checkpoints().await.unwrap().remove(0);
    let decisions = &newest.body.decisions;
    assert_eq!(decisions.len(), 2, "{decisions:?}");
    assert_eq!((decisions[0].why.as_deref(), decisions[0].confidence), (Some("quiet streets near the river"), Some(0.8)));
    assert!(decisions[0].when.as_deref().unwrap().starts_with("2026-12-01T10:00"), "first taken on the 1st: {:?}", decisions[0].when);
    assert!(decisions[1].when.as_deref().unwrap().starts_with("2026-12-03T18:30"), "{:?}", decisions[1].when);
    assert_eq!(decisions[1].confidence, Some(0.9));
    let exported = std::fs::read_to_string(core.context().export_checkpoint(newest.id).await.unwrap()).unwrap();
    assert!(exported.contains("- Stay in Alfama (because quiet streets near the river) [2026-12-01 10:00, 80% sure]"), "{exported}");

    // The user removes a reason in the editor: it stays removed, and the decision keeps
    // when it was taken; one the user adds is taken now.
    let mut body = newest.body.clone();
    body.decisions[0] = sidecar_agent::Decision { what: "Stay in Alfama".into(), ..Default::default() };
    body.decisions.push(sidecar_agent::Decision { what: "Take the tram".into(), ..Default::default() });
    let edited = core.context().edit_checkpoint(newest.id, body).await.unwrap();
    assert_eq!((edited.body.decisions[0].confidence, edited.body.decisions[0].why.as_deref()), (None, None));
    assert!(edited.body.decisions[0].when.as_deref().unwrap().starts_with("2026-12-01T10:00"));
    assert!(edited.body.decisions[2].when.as_deref().unwrap().starts_with("2026-12-03T18:30"));
    core.shutdown().await;
}
