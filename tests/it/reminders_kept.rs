//! Every reminder asked for is kept. The one merge left is tied to a chat message:
//! Sidecar's own reading of it and the model's tool call answering it are one request.
//! Reminders set from the CLI, the Reminders page or other messages minutes apart, in
//! alike words, are all stored; an identical one is kept and said. A reminder stored by
//! another process (another connection to the file) re-arms the running scheduler.

use sidecar_reminders::RemindersStore;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use futures_util::future::BoxFuture;
use sidecar_reminders::Deliver;
use sidecar_reminders::Reminder;
use sidecar_reminders::Reminders;
use sidecar_reminders::Scheduler;
use sidecar_store::StoreError;
use tokio_util::sync::CancellationToken;

use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};

fn settings(extra: &str) -> String {
    format!("[user]\ntimezone = \"Europe/Madrid\"\n{extra}")
}

async fn open(dir: &std::path::Path, settings: String) -> Arc<sidecar::Companion> {
    crate::support::core().settings(&settings).at(Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap()).open_in(dir).await
}

async fn pending_messages(core: &sidecar::Companion) -> Vec<String> {
    core.reminders().pending().await.unwrap().into_iter().map(|r| r.message).collect()
}

#[tokio::test]
async fn reminders_set_one_after_another_are_all_kept() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings("")).await;
    let reminders = core.reminders();
    let a = reminders.set("take pill A", "in 5 minutes").await.unwrap();
    let b = reminders.set("take pill B", "in 5 minutes").await.unwrap();
    assert_ne!(a.reminder.id, b.reminder.id, "pill B is its own reminder");
    assert_eq!(b.reminder.message, "take pill B");
    assert!(a.twin.is_none() && b.twin.is_none() && !b.already_set);
    for i in 0..8 {
        let set = reminders.set_from_sentence(&format!("RPROBE-0{i} stretch in 10 minutes")).await.unwrap();
        assert_eq!(set.reminder.message, format!("RPROBE-0{i} stretch"));
    }
    assert_eq!(pending_messages(&core).await.len(), 10);
    // The same words at the same time, asked twice: both kept, the second says so.
    let first = reminders.set("call mum", "tomorrow at 9").await.unwrap();
    let second = reminders.set("Call mum", "tomorrow at 9").await.unwrap();
    assert_ne!(first.reminder.id, second.reminder.id);
    assert_eq!(second.twin.map(|t| t.id), Some(first.reminder.id));
    assert_eq!(pending_messages(&core).await.len(), 12);
}

#[tokio::test]
async fn in_the_chat_each_message_sets_its_own_reminder_word_for_word() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings("")).await;
    let a = core.send("remind me to take pill A in 20 minutes").await.unwrap().reply;
    let b = core.send("remind me to take pill B in 20 minutes").await.unwrap().reply;
    assert!(a.contains("\"take pill A\"") && b.contains("\"take pill B\""), "{a} / {b}");
    assert_eq!(pending_messages(&core).await, ["take pill A", "take pill B"]);
    // Asked again in the same words: kept, and the answer says there are two.
    let again = core.send("remind me to take pill A in 20 minutes").await.unwrap().reply;
    assert!(again.contains("both are kept"), "{again}");
    assert_eq!(pending_messages(&core).await.len(), 3);
    let es = core.send("recuérdame tomar la pastilla A en 20 minutos").await.unwrap().reply;
    assert!(es.contains("\"tomar la pastilla A\""), "{es}");
    // A timer is a reminder in that long.
    let timer = core.send("set a timer for 5 minutes").await.unwrap().reply;
    assert!(timer.starts_with("Done: I'll remind you to \"Time's up (timer)\" on Wednesday 18 November 2026, 10:05"), "{timer}");
    let es = core.send("pon un temporizador de media hora").await.unwrap().reply;
    assert!(es.contains("10:30"), "{es}");
}

/// The model's tool call repeats what Sidecar set for the same message: nothing new. A
/// tool call answering a later message is a new request and stores a reminder.
#[tokio::test]
async fn the_model_repeating_sidecar_merges_only_within_its_message() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("a", "set_reminder", r#"{"message": "Call mum", "when": "tomorrow at 9"}"#)])),
        stream(reply_events(&["Done."])),
        stream(tool_call_events(&[("b", "set_reminder", r#"{"message": "call mum", "when": "tomorrow at 9"}"#)])),
        stream(reply_events(&["Set again."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\n", server.base_url))).await;
    core.send("Remind me to call mum tomorrow at 9").await.unwrap();
    assert_eq!(pending_messages(&core).await, ["call mum"], "one request, one reminder");
    let told = server.requests.lock().unwrap()[1].clone();
    assert!(told.to_string().contains("ALREADY SET"), "the model read that nothing new was stored");
    core.send("and please set it once more").await.unwrap();
    assert_eq!(pending_messages(&core).await, ["call mum", "call mum"], "a later message is a new request");
    let told = server.requests.lock().unwrap()[3].clone();
    assert!(told.to_string().contains("both are kept"), "the model read that an identical one exists");
}

/// Records what was shown, and when (on the scheduler's clock).
struct Shown(Mutex<Vec<(i64, DateTime<Utc>)>>, sidecar_domain::Clock);

impl Deliver for Shown {
    fn deliver<'a>(&'a self, reminder: &'a Reminder, _late: bool, _repeated: bool) -> BoxFuture<'a, Result<(), sidecar_reminders::NotShown>> {
        self.0.lock().unwrap().push((reminder.id, self.1.now()));
        Box::pin(async { Ok(()) })
    }
}

/// One reminder written "by another process": the scheduler is not notified, the file's
/// version moves.
#[derive(Default)]
struct Elsewhere {
    due: Mutex<Option<(DateTime<Utc>, bool)>>,
    changed: Mutex<bool>,
}

impl Reminders for Elsewhere {
    fn next_due(&self) -> BoxFuture<'_, Result<Option<DateTime<Utc>>, StoreError>> {
        let next = self.due.lock().unwrap().filter(|(_, shown)| !shown).map(|(at, _)| at);
        Box::pin(async move { Ok(next) })
    }
    fn claim_due(&self, at: DateTime<Utc>) -> BoxFuture<'_, Result<Vec<Reminder>, StoreError>> {
        let mut due = self.due.lock().unwrap();
        let claimed = match *due {
            Some((when, false)) if when <= at => {
                *due = Some((when, true));
                vec![crate::reminders::reminder(7, when)]
            }
            _ => Vec::new(),
        };
        Box::pin(async move { Ok(claimed) })
    }
    fn was_delivered<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async { Ok(false) })
    }
    fn finish<'a>(&'a self, _: &'a Reminder, _: DateTime<Utc>, _: bool, _: Option<DateTime<Utc>>) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }
    fn release(&self, _: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }
    fn begin_showing(&self, _: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }
    fn fail(&self, _: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }
    fn changed_elsewhere(&self) -> BoxFuture<'_, Result<bool, StoreError>> {
        let changed = std::mem::take(&mut *self.changed.lock().unwrap());
        Box::pin(async move { Ok(changed) })
    }
}

#[tokio::test(start_paused = true)]
async fn a_reminder_stored_by_another_process_fires_within_a_second_of_its_time() {
    let base = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
    let start = tokio::time::Instant::now();
    let clock = sidecar_domain::Clock::new(Arc::new(move || base + chrono::Duration::from_std(start.elapsed()).unwrap()), chrono_tz::UTC);
    let list = Arc::new(Elsewhere::default());
    let shown = Arc::new(Shown(Mutex::default(), clock.clone()));
    let scheduler = Scheduler::new(list.clone(), shown.clone(), clock, Default::default());
    let cancel = CancellationToken::new();
    let running = tokio::spawn(scheduler.run(cancel.clone()));
    // The scheduler sleeps its longest (nothing is due); 2 s in, another process stores
    // one due 4 s later, and says nothing to this one.
    tokio::time::sleep(Duration::from_secs(2)).await;
    *list.due.lock().unwrap() = Some((base + chrono::Duration::seconds(6), false));
    *list.changed.lock().unwrap() = true;
    tokio::time::sleep(Duration::from_secs(40)).await;
    cancel.cancel();
    running.await.unwrap();
    let shown = shown.0.lock().unwrap().clone();
    let late_ms: Vec<i64> = shown.iter().map(|(_, at)| (*at - base).num_milliseconds() - 6_000).collect();
    assert_eq!(late_ms.len(), 1, "shown once: {shown:?}");
    assert!((0..=1_000).contains(&late_ms[0]), "{} ms after its time (the longest sleep is 30 s)", late_ms[0]);
}

/// The file's version moves with a commit from another connection (what another
/// process does), and stays put when nothing was written.
#[tokio::test]
async fn the_store_sees_a_commit_from_another_connection() {
    let dir = tempfile::tempdir().unwrap();
    let here = sidecar_store::Store::open(dir.path()).await.unwrap();
    let mut watch = sidecar_store::DataVersion::open(&here).await.unwrap();
    assert!(!watch.changed().await.unwrap());
    here.reminder_table().claim_due(Utc::now()).await.unwrap();
    assert!(!watch.changed().await.unwrap(), "a claim that found nothing wrote nothing");
    let other = sidecar_store::Store::open(dir.path()).await.unwrap();
    let new = sidecar_reminders::NewReminder::at("x", Utc::now() + chrono::Duration::hours(1), "UTC");
    other.reminder_table().add_reminder(new).await.unwrap();
    assert!(watch.changed().await.unwrap());
    assert!(!watch.changed().await.unwrap(), "told once");
}

/// A reminder posted in the chat carries its reminder, so the chat's Snooze and Done
/// act on it; once answered, the message says so after a reload.
#[tokio::test]
async fn a_reminder_in_the_chat_is_snoozed_or_done_from_the_message() {
    use sidecar_outbox::{Kind, Outgoing, Sink};
    let core = crate::support::core().open().await;
    let set = core.reminders().set("take the pizza out", "in 1 minute").await.unwrap().reminder;
    let sink = sidecar_proactive::ChatSink {
        store: core.store().clone(),
        events: core.events().emitter(sidecar::CoreEvent::Proactive),
        reminders: core.events().emitter(sidecar::CoreEvent::Reminders),
        channel: sidecar_proactive::Channel::Desktop,
    };
    let post = |id: i64| Outgoing {
        kind: Kind::Reminder,
        title: "Sidecar".into(),
        body: "take the pizza out".into(),
        chat: "Reminder: take the pizza out".into(),
        message_type: None,
        reminder_id: Some(id),
        late: false,
        message_id: None,
        occurrence: None,
    };
    let posted = sink.send(&post(set.id)).await.unwrap().expect("the chat sink posts");
    let meta = |id: i64| {
        let core = core.clone();
        async move { core.store().conversations().message(id).await.unwrap().unwrap().meta.unwrap().0 }
    };
    assert_eq!(meta(posted).await.reminder_id, Some(set.id));
    assert!(!meta(posted).await.handled);
    let snoozed = core.reminders().answer_message(posted, Some(15)).await.unwrap().expect("snoozed");
    assert!(snoozed.reminder.due_at > set.due_at);
    assert!(meta(posted).await.handled, "the buttons stay closed after a reload");
    // Done on a second delivery: nothing is moved, the message is answered.
    let again = sink.send(&post(set.id)).await.unwrap().unwrap();
    let before = core.reminders().pending().await.unwrap();
    assert!(core.reminders().answer_message(again, None).await.unwrap().is_none());
    assert_eq!(core.reminders().pending().await.unwrap(), before);
    assert!(meta(again).await.handled);
    // A message that is not a reminder is refused with why.
    let said = core.conversation().history(10).await.unwrap();
    let error = core.reminders().answer_message(said[0].id - 100, None).await.unwrap_err().to_string();
    assert!(error.contains("is not a reminder"), "{error}");
}

/// A cancel undone (the Reminders page's Undo, the first hour's m12): the reminder is
/// pending again as it was; only a cancelled one can come back.
#[tokio::test]
async fn a_cancelled_reminder_comes_back_with_undo() {
    let core = crate::support::core().settings(&settings("")).open().await;
    let set = core.reminders().set("Team dinner", "tomorrow at 21:00").await.unwrap().reminder;
    core.reminders().cancel(set.id).await.unwrap();
    assert!(core.reminders().pending().await.unwrap().is_empty());
    let back = core.reminders().restore(set.id).await.unwrap();
    assert_eq!((back.message.as_str(), back.due_at), ("Team dinner", set.due_at));
    assert_eq!(core.reminders().pending().await.unwrap().len(), 1);
    assert!(core.reminders().restore(set.id).await.is_err(), "a pending one is not restored again");
    core.shutdown().await;
}

/// A reminder edited (the first hour's m12): new words keep its time; a new time stores
/// it anew and the old one goes; a time that cannot be read changes nothing.
#[tokio::test]
async fn a_reminder_is_edited_in_words_and_time_and_a_bad_time_changes_nothing() {
    let core = crate::support::core().settings(&settings("")).open().await;
    let set = core.reminders().set("Team diner", "tomorrow at 21:00").await.unwrap().reminder;
    let reworded = core.reminders().edit(set.id, "Team dinner", None).await.unwrap();
    assert_eq!((reworded.id, reworded.message.as_str(), reworded.due_at), (set.id, "Team dinner", set.due_at));
    assert!(core.reminders().edit(set.id, "Team dinner", Some("at half past nothing")).await.is_err());
    let pending = core.reminders().pending().await.unwrap();
    assert_eq!(pending.iter().map(|r| (r.id, r.due_at)).collect::<Vec<_>>(), [(set.id, set.due_at)], "nothing changed");
    let moved = core.reminders().edit(set.id, "Team dinner", Some("tomorrow at 20:30")).await.unwrap();
    assert_eq!(moved.due_at, set.due_at - chrono::Duration::minutes(30));
    let pending = core.reminders().pending().await.unwrap();
    assert_eq!(pending.iter().map(|r| (r.message.as_str(), r.due_at)).collect::<Vec<_>>(), [("Team dinner", moved.due_at)], "the old one went");
    assert!(core.reminders().edit(set.id, "x", None).await.is_err(), "the old one is no longer pending");
    core.shutdown().await;
}
