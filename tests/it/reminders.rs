//! The reminder scheduler: on time under paused tokio time (with an in-memory list, so
//! no database thread lets the paused clock run ahead), re-armed by inserts and
//! cancels; against the real store, a crash between attempting and delivered and a
//! reminder that fell due while closed are delivered once, marked late.

use sidecar_reminders::RemindersStore;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use futures_util::future::BoxFuture;
use sidecar_dates as dates;
use sidecar_reminders::utc;
use sidecar_reminders::Deliver;
use sidecar_reminders::NewReminder;
use sidecar_reminders::Reminder;
use sidecar_reminders::Reminders;
use sidecar_reminders::Scheduler;
use sidecar_reminders::SchedulerLock;
use sidecar_reminders::StoreReminders;
use sidecar_store::Store;
use sidecar_store::StoreError;
use tokio_util::sync::CancellationToken;

/// Records what was shown, and when (on the scheduler's clock).
#[derive(Default)]
struct Shown(Mutex<Vec<(i64, bool, DateTime<Utc>)>>, Option<sidecar_domain::Clock>);

impl Deliver for Shown {
    fn deliver<'a>(&'a self, reminder: &'a Reminder, late: bool, _repeated: bool) -> BoxFuture<'a, Result<(), sidecar_reminders::NotShown>> {
        let at = self.1.as_ref().map(|c| c.now()).unwrap_or_else(Utc::now);
        self.0.lock().unwrap().push((reminder.id, late, at));
        Box::pin(async { Ok(()) })
    }
}

pub(crate) fn reminder(id: i64, due: DateTime<Utc>) -> Reminder {
    Reminder {
        id,
        message: format!("reminder {id}"),
        due_at: due,
        zone: sidecar_reminders::ReminderZone(chrono_tz::Europe::Madrid),
        rrule: None,
        series_start: None,
        all_day: false,
        state: sidecar_reminders::ReminderState::Pending,
        attempt_started_at: None,
        delivered_at: None,
        late: false,
        created_at: due,
        shown_attempts: 0,
        description: None,
        from_incognito: false,
    }
}

/// The store's semantics over a Vec, for paused-time tests.
#[derive(Default)]
struct InMemory(Mutex<Vec<Reminder>>);

impl InMemory {
    fn add(&self, r: Reminder) {
        self.0.lock().unwrap().push(r);
    }
    fn cancel(&self, id: i64) {
        self.0.lock().unwrap().iter_mut().filter(|r| r.id == id).for_each(|r| r.state = sidecar_reminders::ReminderState::Cancelled);
    }
}

impl Reminders for InMemory {
    fn next_due(&self) -> BoxFuture<'_, Result<Option<DateTime<Utc>>, StoreError>> {
        let next = self.0.lock().unwrap().iter().filter(|r| r.state == sidecar_reminders::ReminderState::Pending).map(|r| r.due_at).min();
        Box::pin(async move { Ok(next) })
    }
    fn claim_due(&self, at: DateTime<Utc>) -> BoxFuture<'_, Result<Vec<Reminder>, StoreError>> {
        let mut list = self.0.lock().unwrap();
        for r in list.iter_mut().filter(|r| r.state == sidecar_reminders::ReminderState::Pending && r.due_at <= at) {
            r.state = sidecar_reminders::ReminderState::Attempting;
        }
        let claimed: Vec<Reminder> = list.iter().filter(|r| r.state == sidecar_reminders::ReminderState::Attempting).cloned().collect();
        Box::pin(async move { Ok(claimed) })
    }
    fn was_delivered<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(async { Ok(false) })
    }
    fn finish<'a>(&'a self, r: &'a Reminder, _: DateTime<Utc>, _: bool, next: Option<DateTime<Utc>>) -> BoxFuture<'a, Result<(), StoreError>> {
        let mut list = self.0.lock().unwrap();
        if let Some(stored) = list.iter_mut().find(|s| s.id == r.id) {
            match next {
                Some(next) => {
                    stored.state = sidecar_reminders::ReminderState::Pending;
                    stored.due_at = next;
                }
                None => stored.state = sidecar_reminders::ReminderState::Delivered,
            }
        }
        Box::pin(async { Ok(()) })
    }
    fn release(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        self.0.lock().unwrap().iter_mut().filter(|r| r.id == id).for_each(|r| r.state = sidecar_reminders::ReminderState::Pending);
        Box::pin(async { Ok(()) })
    }
    fn begin_showing(&self, _: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Box::pin(async { Ok(()) })
    }
    fn fail(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        self.0.lock().unwrap().iter_mut().filter(|r| r.id == id).for_each(|r| r.state = sidecar_reminders::ReminderState::Failed);
        Box::pin(async { Ok(()) })
    }
}

/// A wall clock that moves with tokio's (paused) clock.
fn tokio_clock() -> (sidecar_domain::Clock, DateTime<Utc>) {
    let base = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
    let start = tokio::time::Instant::now();
    (sidecar_domain::Clock::new(Arc::new(move || base + chrono::Duration::from_std(start.elapsed()).unwrap()), chrono_tz::UTC), base)
}

#[tokio::test(start_paused = true)]
async fn fires_at_the_due_instant_and_rearms_on_insert_and_cancel() {
    let (clock, base) = tokio_clock();
    let list = Arc::new(InMemory::default());
    // Due after several MAX_SLEEP periods: the scheduler wakes on the second exactly.
    list.add(reminder(1, base + chrono::Duration::seconds(95)));
    list.add(reminder(2, base + chrono::Duration::seconds(40)));
    let shown = Arc::new(Shown(Mutex::default(), Some(clock.clone())));
    let wake = Arc::new(tokio::sync::Notify::new());
    let scheduler = Scheduler::new(list.clone(), shown.clone(), clock.clone(), wake.clone());
    let cancel = CancellationToken::new();
    let running = tokio::spawn(scheduler.run(cancel.clone()));

    tokio::time::sleep(Duration::from_secs(10)).await;
    // Inserted while the scheduler sleeps toward reminder 2: re-armed, fires at 15 s.
    list.add(reminder(3, base + chrono::Duration::seconds(15)));
    wake.notify_one();
    tokio::time::sleep(Duration::from_secs(20)).await;
    // Cancelled before its time: never shown.
    list.cancel(2);
    wake.notify_one();
    tokio::time::sleep(Duration::from_secs(100)).await;
    cancel.cancel();
    running.await.unwrap();

    let shown = shown.0.lock().unwrap().clone();
    let fired: Vec<(i64, i64)> = shown.iter().map(|(id, _, at)| (*id, (*at - base).num_milliseconds())).collect();
    assert_eq!(fired, [(3, 15_000), (1, 95_000)], "each at its instant, the cancelled one never");
    assert!(shown.iter().all(|(_, late, _)| !late));
}

async fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    (dir, store)
}

fn scheduler_at(store: &Store, shown: Arc<Shown>, now: DateTime<Utc>) -> Scheduler {
    Scheduler::new(Arc::new(StoreReminders::new(store.clone())), shown, sidecar_domain::fixed_clock(now), Default::default())
}

#[tokio::test]
async fn a_crash_between_attempting_and_delivered_delivers_once_marked_late() {
    let (_dir, store) = store().await;
    let due = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
    let added = store.reminder_table().add_reminder(NewReminder::at("llamar a mamá", due, "Europe/Madrid")).await.unwrap();
    // The previous process marked it attempting and died before showing it.
    assert_eq!(store.reminder_table().claim_due(due).await.unwrap().len(), 1);
    // Restarted five minutes later.
    let shown = Arc::new(Shown::default());
    let scheduler = scheduler_at(&store, shown.clone(), due + chrono::Duration::minutes(5));
    assert_eq!(scheduler.deliver_due().await.unwrap(), (1, 0));
    assert_eq!(scheduler.deliver_due().await.unwrap(), (0, 0), "never twice");
    let shown = shown.0.lock().unwrap().clone();
    assert_eq!(shown.len(), 1);
    assert!(shown[0].1, "marked late");
    let stored = store.reminder_table().reminder(added.id).await.unwrap().unwrap();
    assert_eq!(stored.state, sidecar_reminders::ReminderState::Delivered);
    assert!(stored.late);
}

#[tokio::test]
async fn a_reminder_due_while_closed_is_delivered_once_late_and_one_on_time_is_not_late() {
    let (_dir, store) = store().await;
    let now = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap();
    let new = |message, due_at| NewReminder::at(message, due_at, "Europe/Madrid");
    let missed = store.reminder_table().add_reminder(new("while closed", now - chrono::Duration::hours(3))).await.unwrap();
    let on_time = store.reminder_table().add_reminder(new("just now", now - chrono::Duration::seconds(2))).await.unwrap();
    let future = store.reminder_table().add_reminder(new("later", now + chrono::Duration::hours(1))).await.unwrap();
    let shown = Arc::new(Shown::default());
    let scheduler = scheduler_at(&store, shown.clone(), now);
    assert_eq!(scheduler.deliver_due().await.unwrap(), (2, 0));
    let shown = shown.0.lock().unwrap().clone();
    assert_eq!(shown.iter().map(|(id, late, _)| (*id, *late)).collect::<Vec<_>>(), [(missed.id, true), (on_time.id, false)]);
    assert_eq!(store.reminder_table().reminder(future.id).await.unwrap().unwrap().state, sidecar_reminders::ReminderState::Pending);
    assert_eq!(store.reminder_table().next_due().await.unwrap(), Some(now + chrono::Duration::hours(1)));
}

#[tokio::test]
async fn an_occurrence_already_recorded_is_not_shown_again() {
    let (_dir, store) = store().await;
    let due = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
    let added = store.reminder_table().add_reminder(NewReminder::at("x", due, "UTC")).await.unwrap();
    let claimed = store.reminder_table().claim_due(due).await.unwrap();
    sqlx::query("INSERT INTO reminder_deliveries (idempotency_key, reminder_id, due_at, delivered_at, late) VALUES (?, ?, ?, ?, 0)")
        .bind(claimed[0].idempotency_key())
        .bind(added.id)
        .bind(claimed[0].due_at)
        .bind(utc(due))
        .execute(store.pool())
        .await
        .unwrap();
    let shown = Arc::new(Shown::default());
    assert_eq!(scheduler_at(&store, shown.clone(), due).deliver_due().await.unwrap(), (0, 0));
    assert!(shown.0.lock().unwrap().is_empty());
    assert_eq!(store.reminder_table().reminder(added.id).await.unwrap().unwrap().state, sidecar_reminders::ReminderState::Delivered);
}

#[tokio::test]
async fn a_repeating_reminder_moves_to_its_next_local_time_after_delivery() {
    let (_dir, store) = store().await;
    let zone = chrono_tz::Europe::Madrid;
    let now = zone.with_ymd_and_hms(2026, 11, 22, 7, 0, 0).unwrap().with_timezone(&Utc);
    let parsed = dates::parse("todos los días a las 8", now, zone, dates::Options::new(sidecar_domain::Lang::Es)).unwrap();
    let rrule = parsed.rrule.clone().unwrap();
    let added =
        store.reminder_table().add_reminder(NewReminder { rrule: Some(&rrule), ..NewReminder::at("pastilla", parsed.at, "Europe/Madrid") }).await.unwrap();
    let shown = Arc::new(Shown::default());
    let at_eight = parsed.at + chrono::Duration::seconds(1);
    assert_eq!(scheduler_at(&store, shown.clone(), at_eight).deliver_due().await.unwrap(), (1, 0));
    let stored = store.reminder_table().reminder(added.id).await.unwrap().unwrap();
    assert_eq!(stored.state, sidecar_reminders::ReminderState::Pending);
    assert_eq!(stored.due_at.with_timezone(&zone).format("%Y-%m-%d %H:%M").to_string(), "2026-11-23 08:00");
}

#[tokio::test]
async fn a_failed_delivery_stays_due_and_is_retried() {
    struct Down;
    impl Deliver for Down {
        fn deliver<'a>(&'a self, _: &'a Reminder, _: bool, _: bool) -> BoxFuture<'a, Result<(), sidecar_reminders::NotShown>> {
            Box::pin(async { Err(sidecar_outbox::SinkError::failed("no notification daemon").into()) })
        }
    }
    let (_dir, store) = store().await;
    let due = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
    let added = store.reminder_table().add_reminder(NewReminder::at("x", due, "UTC")).await.unwrap();
    let scheduler = Scheduler::new(Arc::new(StoreReminders::new(store.clone())), Arc::new(Down), sidecar_domain::fixed_clock(due), Default::default());
    assert_eq!(scheduler.deliver_due().await.unwrap(), (0, 1));
    assert_eq!(store.reminder_table().reminder(added.id).await.unwrap().unwrap().state, sidecar_reminders::ReminderState::Pending, "not lost");
    let shown = Arc::new(Shown::default());
    assert_eq!(scheduler_at(&store, shown, due).deliver_due().await.unwrap(), (1, 0));
}

#[test]
fn one_process_owns_the_scheduler() {
    let dir = tempfile::tempdir().unwrap();
    let first = SchedulerLock::try_acquire(dir.path()).unwrap();
    assert!(first.is_some());
    assert!(SchedulerLock::try_acquire(dir.path()).unwrap().is_none());
    drop(first);
    assert!(SchedulerLock::try_acquire(dir.path()).unwrap().is_some());
}

#[tokio::test]
async fn the_reminder_tools_set_list_find_snooze_and_cancel_stating_local_time_and_zone() {
    use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("a", "set_reminder", r#"{"message": "llamar a mamá", "when": "mañana a las 9"}"#)])),
        stream(tool_call_events(&[("b", "set_reminder", r#"{"message": "pastilla", "when": "todos los días a las 8"}"#)])),
        stream(tool_call_events(&[("c", "set_reminder", r#"{"message": "algo", "when": "a las 3"}"#)])),
        stream(tool_call_events(&[("d", "find_reminder", r#"{"query": "mamá"}"#)])),
        stream(tool_call_events(&[("e", "snooze_reminder", r#"{"id": 1, "minutes": 15}"#)])),
        stream(tool_call_events(&[("f", "cancel_reminder", r#"{"id": 2}"#)])),
        stream(tool_call_events(&[("g", "list_reminders", "{}")])),
        stream(reply_events(&["Listo."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core()
        .answered_by(&server)
        .settings("[user]\ntimezone = \"Europe/Madrid\"\n[llm]\nmax_iterations = 10\n")
        .at(Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap())
        .open_in(dir.path())
        .await;
    let changed = core.reminders().changed_signal();
    core.send("recordame llamar a mamá mañana a las 9 y la pastilla todos los días a las 8").await.unwrap();
    // Each result as the model read it in the call right after (older ones get cleared).
    let requests = server.requests.lock().unwrap().clone();
    let result = |id: &str| -> String {
        let n = "abcdefg".find(id).unwrap() + 1;
        requests[n]["messages"].as_array().unwrap().iter().find(|m| m["tool_call_id"] == id).unwrap()["content"].as_str().unwrap().to_string()
    };
    assert_eq!(result("a"), "Reminder set: [id:1] \"llamar a mamá\" — Sunday 22 November 2026, 09:00 (Europe/Madrid).");
    assert!(result("b").contains("Sunday 22 November 2026, 08:00 (Europe/Madrid), every day at 08:00"), "{}", result("b"));
    assert!(result("c").contains("mañana a las 3"), "the error says how to fix it: {}", result("c"));
    assert!(result("d").starts_with("Exactly one match: [id:1]"));
    // Snoozing one still to come never moves it earlier: an extra one-off comes at the
    // snooze time, and tomorrow's stays.
    assert_eq!(result("e"), "Snoozed: [id:3] \"llamar a mamá\" — Saturday 21 November 2026, 13:15 (Europe/Madrid) (the original stays at its own time).");
    assert!(result("f").starts_with("Cancelled: [id:2]"));
    assert_eq!(
        result("g"),
        "Pending reminders (2):\n1. [id:3] \"llamar a mamá\" — Saturday 21 November 2026, 13:15 (Europe/Madrid)\n2. [id:1] \"llamar a mamá\" — Sunday 22 November 2026, 09:00 (Europe/Madrid)"
    );
    // Every change woke the scheduler (a stored permit is left for it).
    tokio::time::timeout(Duration::from_millis(100), changed.notified()).await.expect("the scheduler is woken");
    assert_eq!(core.store().reminder_table().reminders().await.unwrap().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_set_in_a_turn_fires_while_the_conversation_goes_on() {
    use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};
    let when = utc(Utc::now() + chrono::Duration::milliseconds(1500));
    let args = format!(r#"{{"message": "stretch", "when": "{when}"}}"#);
    let server = ScriptedServer::start(vec![stream(tool_call_events(&[("r", "set_reminder", args.as_str())])), stream(reply_events(&["Done."]))]).await;
    let core = crate::support::core().answered_by(&server).open().await;
    let task = core.reminders().scheduler().unwrap().expect("the lock is free");
    let running = tokio::spawn(task);
    let mut events = core.events().subscribe();
    let outcome = core.send("remind me to stretch").await.unwrap();
    assert_eq!(outcome.reply, "Done.");
    // Waits for the delivery itself, not a fixed time.
    let first_line = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Ok(sidecar::CoreEvent::Reminders(sidecar_reminders::ReminderEvent::ReminderDelivered { first_line, .. })) = events.recv().await {
                return first_line;
            }
        }
    })
    .await
    .expect("delivered");
    let history = core.conversation().history(10).await.unwrap();
    assert_eq!(history.last().unwrap().content, "Reminder: stretch", "{history:#?}");
    assert_eq!(first_line, "Reminder: stretch", "what the character's bubble says");
    running.abort();
}

/// Records each showing with its `repeated` flag, and each give-up.
#[derive(Default)]
struct Watched {
    shows: Mutex<Vec<(i64, bool)>>,
    given_up: Mutex<Vec<i64>>,
}

impl Deliver for Watched {
    fn deliver<'a>(&'a self, reminder: &'a Reminder, _: bool, repeated: bool) -> BoxFuture<'a, Result<(), sidecar_reminders::NotShown>> {
        self.shows.lock().unwrap().push((reminder.id, repeated));
        Box::pin(async { Ok(()) })
    }
    fn gave_up<'a>(&'a self, reminder: &'a Reminder) -> BoxFuture<'a, ()> {
        self.given_up.lock().unwrap().push(reminder.id);
        Box::pin(async {})
    }
}

/// What a process killed while showing leaves behind: claimed, showing begun, nothing recorded.
async fn crash_while_showing(store: &Store, now: DateTime<Utc>, id: i64) {
    store.reminder_table().claim_due(now).await.unwrap();
    store.reminder_table().begin_showing(id).await.unwrap();
}

#[tokio::test]
async fn an_occurrence_cut_short_while_showing_is_shown_again_once_marked_as_repeated() {
    let (_dir, store) = store().await;
    let due = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
    let new = NewReminder::at("x", due, "UTC");
    let added = store.reminder_table().add_reminder(new).await.unwrap();
    crash_while_showing(&store, due, added.id).await;
    let watched = Arc::new(Watched::default());
    let scheduler = Scheduler::new(Arc::new(StoreReminders::new(store.clone())), watched.clone(), sidecar_domain::fixed_clock(due), Default::default());
    assert_eq!(scheduler.deliver_due().await.unwrap(), (1, 0));
    assert_eq!(*watched.shows.lock().unwrap(), [(added.id, true)]);
    let stored = store.reminder_table().reminder(added.id).await.unwrap().unwrap();
    assert_eq!((stored.state, stored.shown_attempts), (sidecar_reminders::ReminderState::Delivered, 0));
    // Recorded: a later pass shows nothing.
    assert_eq!(scheduler.deliver_due().await.unwrap(), (0, 0));
}

#[tokio::test]
async fn a_crash_loop_gives_up_after_three_starts_and_never_holds_back_the_others() {
    let (_dir, store) = store().await;
    let due = Utc.with_ymd_and_hms(2026, 11, 22, 9, 0, 0).unwrap();
    let new = |message, due_at| NewReminder::at(message, due_at, "UTC");
    let stuck = store.reminder_table().add_reminder(new("stuck", due)).await.unwrap();
    // Three starts, each killed right after showing it.
    for _ in 0..sidecar_reminders::MAX_SHOWS {
        crash_while_showing(&store, due, stuck.id).await;
    }
    // Another falls due behind it.
    let other = store.reminder_table().add_reminder(new("other", due + chrono::Duration::seconds(1))).await.unwrap();
    let watched = Arc::new(Watched::default());
    let now = due + chrono::Duration::seconds(2);
    let scheduler = Scheduler::new(Arc::new(StoreReminders::new(store.clone())), watched.clone(), sidecar_domain::fixed_clock(now), Default::default());
    assert_eq!(scheduler.deliver_due().await.unwrap(), (1, 0));
    assert_eq!(*watched.shows.lock().unwrap(), [(other.id, false)], "the fresh one goes first; the stuck one is not shown a fourth time");
    assert_eq!(*watched.given_up.lock().unwrap(), [stuck.id], "the user is told");
    let stored = store.reminder_table().reminder(stuck.id).await.unwrap().unwrap();
    assert_eq!(stored.state, sidecar_reminders::ReminderState::Failed);
    assert_eq!(scheduler.deliver_due().await.unwrap(), (0, 0), "and it never loops");
}

#[tokio::test]
async fn a_reminder_line_is_posted_to_the_chat_once_per_occurrence() {
    use sidecar_llm::ChatMessage;
    use sidecar_store::NewMessage;
    let (_dir, store) = store().await;
    let conversation = store.conversations().current_conversation().await.unwrap();
    let line = ChatMessage::assistant("Reminder: stretch");
    let post = |key| NewMessage { once_per: Some(key), ..NewMessage::plain(conversation, &line) };
    let first = store.conversations().add_message(post("7@2026-11-22T09:00:00Z")).await.unwrap();
    let again = store.conversations().add_message(post("7@2026-11-22T09:00:00Z")).await.unwrap();
    let next = store.conversations().add_message(post("7@2026-11-23T09:00:00Z")).await.unwrap();
    assert_eq!(first, again);
    assert_ne!(first, next);
    let stored = store.conversations().recent_messages(conversation, 10).await.unwrap();
    assert_eq!(stored.len(), 2);
}
