//! The runner on real SQLite, with the features above it played by a script
//! ([`Scripted`]: a turn's reply or failure, quiet or not, the notes it was handed, the
//! day): a due task runs once and its result is notified cut; quiet holds results back
//! and the end of quiet sends them together; the third failure in a row pauses the task
//! and says why in Tasks; the brief on the demo model is Sidecar's own list of today.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use chrono::{DateTime, TimeZone, Utc};
use futures_util::future::BoxFuture;
use sidecar_domain::{ChatMessage, Clock, Emitter, Lang};
use sidecar_store::{NewMessage, Store};
use sidecar_tasks::{CatchUp, Day, DayEvent, Runner, ServiceError, TaskNote, TaskRequest, TaskServices, TaskTurn, Tasks, TurnFailed, TurnReply};
use tokio_util::sync::CancellationToken;

/// The features above the tasks, scripted. A turn's reply is stored in the Tasks
/// conversation, as the agent's task turn stores it.
#[derive(Default)]
struct Scripted {
    store: OnceLock<Store>,
    /// The next turns' outcomes, first first; an empty script fails the turn.
    replies: Mutex<Vec<Result<String, String>>>,
    quiet: AtomicBool,
    demo: bool,
    notes: Mutex<Vec<TaskNote>>,
    prompts: Mutex<Vec<String>>,
    day: Day,
}

impl TaskServices for Scripted {
    fn lang(&self) -> Lang {
        Lang::En
    }

    fn run_turn<'a>(&'a self, turn: TaskTurn<'a>, _cancel: CancellationToken) -> BoxFuture<'a, Result<TurnReply, TurnFailed>> {
        self.prompts.lock().unwrap().push(turn.prompt.to_string());
        let next = self.replies.lock().unwrap().pop().unwrap_or_else(|| Err("no reply scripted".into()));
        Box::pin(async move {
            let text = next.map_err(TurnFailed)?;
            let reply = ChatMessage::assistant(text.as_str());
            let store = self.store.get().expect("the store");
            let message_id = store.conversations().add_message(NewMessage::plain(turn.conversation_id, &reply)).await.unwrap();
            Ok(TurnReply { message_id, text, tokens: (120, 30) })
        })
    }

    fn only_demo(&self) -> bool {
        self.demo
    }

    fn quiet(&self) -> BoxFuture<'_, Result<bool, ServiceError>> {
        Box::pin(async move { Ok(self.quiet.load(Ordering::SeqCst)) })
    }

    fn notify(&self, note: TaskNote) -> BoxFuture<'_, Result<(), ServiceError>> {
        self.notes.lock().unwrap().push(note);
        Box::pin(async { Ok(()) })
    }

    fn day(&self, _from: DateTime<Utc>, _to: DateTime<Utc>) -> BoxFuture<'_, Day> {
        Box::pin(async move { self.day.clone() })
    }
}

/// A store, the tasks and a runner at `now` (Madrid), with `services` above them.
struct Setup {
    _dir: tempfile::TempDir,
    store: Store,
    tasks: Arc<Tasks>,
    runner: Runner,
    services: Arc<Scripted>,
    now: Arc<Mutex<DateTime<Utc>>>,
}

async fn setup(services: Scripted, now: DateTime<Utc>) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let now = Arc::new(Mutex::new(now));
    let read = now.clone();
    let clock = Clock::new(Arc::new(move || *read.lock().unwrap()), chrono_tz::Europe::Madrid);
    // The rows are stamped with the same clock, as the companion's are.
    let store = Store::open(dir.path()).await.unwrap().with_clock(clock.clone());
    let tasks = Arc::new(Tasks::new(store.clone(), Emitter::new(|_| {})));
    services.store.set(store.clone()).unwrap();
    let services = Arc::new(services);
    let runner = Runner::new(tasks.clone(), clock, services.clone());
    Setup { _dir: dir, store, tasks, runner, services, now }
}

impl Setup {
    async fn add(&self, prompt: &str, when: &str, always_deliver: bool) -> sidecar_tasks::Task {
        let request = TaskRequest { title: None, prompt: prompt.into(), when: when.into(), tools: vec![], catch_up: CatchUp::RunNow, always_deliver };
        let now = *self.now.lock().unwrap();
        self.tasks.add(&request, &[], now, chrono_tz::Europe::Madrid, Lang::En).await.unwrap()
    }

    fn at(&self, when: DateTime<Utc>) {
        *self.now.lock().unwrap() = when;
    }

    async fn tasks_chat(&self) -> Vec<String> {
        let id = self.runner.conversation().await.unwrap();
        self.store.conversations().recent_messages(id, 50).await.unwrap().into_iter().map(|m| m.content).collect()
    }
}

fn madrid(day: u32, hour: u32, minute: u32) -> DateTime<Utc> {
    chrono_tz::Europe::Madrid.with_ymd_and_hms(2026, 12, day, hour, minute, 0).unwrap().with_timezone(&Utc)
}

#[tokio::test]
async fn a_due_task_runs_once_and_its_result_is_notified_cut() {
    let long = format!("Sunny, 14 °C. {}", "Light wind from the west. ".repeat(20));
    let services = Scripted { replies: Mutex::new(vec![Ok(long.clone())]), ..Scripted::default() };
    let s = setup(services, madrid(3, 7, 0)).await;
    let task = s.add("Check the weather in Madrid", "every day at 8", false).await;
    let cancel = CancellationToken::new();
    assert_eq!(s.runner.run_due(&cancel).await, Some(madrid(3, 8, 0)), "nothing due before 8");
    assert!(s.services.prompts.lock().unwrap().is_empty());

    s.at(madrid(3, 8, 1));
    assert_eq!(s.runner.run_due(&cancel).await, Some(madrid(4, 8, 0)));
    // A second look at the same minute: the occurrence has its run.
    s.runner.run_due(&cancel).await;
    assert_eq!(*s.services.prompts.lock().unwrap(), ["Check the weather in Madrid"]);
    let notes = s.services.notes.lock().unwrap().clone();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!((notes[0].title.as_str(), notes[0].task_id, notes[0].text.as_str()), (task.title.as_str(), task.id, long.as_str()));
    let cut = notes[0].body.strip_suffix('…').expect("cut, and says so");
    assert!(cut.chars().count() <= 240 && long.starts_with(cut), "{}", notes[0].body);
    assert_eq!(s.tasks.tokens_since(None).await.unwrap(), (120, 30, 1));
    assert_eq!(s.tasks.notified_since(madrid(3, 0, 0)).await.unwrap(), 1);
}

#[tokio::test]
async fn results_held_back_while_quiet_come_together_when_it_ends() {
    let services = Scripted { replies: Mutex::new(vec![Ok("Two new issues.".into()), Ok("Rain at 17:00.".into())]), ..Scripted::default() };
    services.quiet.store(true, Ordering::SeqCst);
    let s = setup(services, madrid(3, 7, 0)).await;
    s.add("Check the weather", "every day at 8", false).await;
    s.add("Look at my repository's issues", "every day at 8:30", false).await;
    let urgent = s.add("Say the pill", "every day at 9", true).await;
    s.services.replies.lock().unwrap().insert(0, Ok("Take the pill.".into()));
    let cancel = CancellationToken::new();
    s.at(madrid(3, 9, 1));
    s.runner.run_due(&cancel).await;
    let notes = s.services.notes.lock().unwrap().clone();
    assert_eq!(notes.iter().map(|n| n.task_id).collect::<Vec<_>>(), [urgent.id], "only the one to deliver always: {notes:?}");
    assert!(s.tasks.any_held().await.unwrap(), "the others wait to be notified");
    assert_eq!(s.tasks_chat().await.len(), 3, "every result is in Tasks either way");

    s.services.quiet.store(false, Ordering::SeqCst);
    s.runner.run_due(&cancel).await;
    let notes = s.services.notes.lock().unwrap().clone();
    assert_eq!(notes.len(), 2, "{notes:?}");
    let together = &notes[1];
    assert_eq!((together.title.as_str(), together.task_id), ("2 task results waited for you", 0));
    assert!(together.text.contains("Rain at 17:00.") && together.text.contains("Two new issues."), "{}", together.text);
    s.runner.run_due(&cancel).await;
    assert_eq!(s.services.notes.lock().unwrap().len(), 2, "held results are sent once");
}

#[tokio::test]
async fn the_third_failure_in_a_row_pauses_the_task_and_says_why() {
    let s = setup(Scripted::default(), madrid(3, 7, 0)).await;
    let task = s.add("Check the trains", "every day at 8", true).await;
    let cancel = CancellationToken::new();
    for day in 3..=5 {
        s.at(madrid(day, 8, 1));
        s.runner.run_due(&cancel).await;
    }
    let said = s.tasks_chat().await;
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(said.iter().all(|line| line.contains("no reply scripted")), "{said:?}");
    assert!(said[2].contains("Paused after three failed runs in a row"), "{}", said[2]);
    let paused = s.tasks.list(madrid(5, 9, 0), Lang::En).await.unwrap().into_iter().find(|t| t.id == task.id).unwrap();
    assert!(paused.paused.is_some(), "{paused:?}");
    s.at(madrid(6, 8, 1));
    s.runner.run_due(&cancel).await;
    assert_eq!(s.tasks_chat().await.len(), 3, "a paused task does not run");
}

#[tokio::test]
async fn the_brief_on_the_demo_model_is_sidecars_own_list_of_today() {
    let day = Day {
        events: vec![DayEvent { start: madrid(3, 9, 0), end: madrid(3, 10, 0), all_day: false, summary: "Dentist".into() }],
        reminders: vec![(madrid(3, 18, 0), "Call Ana".into()), (madrid(4, 9, 0), "Tomorrow's pill".into())],
        open_work: vec!["Tax return".into()],
        place: Some("Madrid".into()),
        mail: vec!["Ana Ruiz: El piso".into()],
        other_mail: 2,
    };
    let s = setup(Scripted { demo: true, day, ..Scripted::default() }, madrid(3, 7, 0)).await;
    let brief = s
        .tasks
        .set_brief(Some(chrono::NaiveTime::from_hms_opt(7, 30, 0).unwrap()), &[], madrid(3, 7, 0), chrono_tz::Europe::Madrid, Lang::En)
        .await
        .unwrap()
        .unwrap();
    s.at(madrid(3, 7, 31));
    s.runner.run_due(&CancellationToken::new()).await;
    assert!(s.services.prompts.lock().unwrap().is_empty(), "the demo model is not asked");
    let said = s.tasks_chat().await;
    let list = said.last().unwrap();
    assert!(list.starts_with("Today, Thursday 3 December:"), "{list}");
    for line in [
        "- 09:00–10:00 Dentist",
        "- 18:00 Call Ana",
        "- Tax return",
        "1 email from people who matter\n- Ana Ruiz: El piso",
        "2 more emails from others, not read.",
    ] {
        assert!(list.contains(line), "{line} missing: {list}");
    }
    assert!(!list.contains("Tomorrow's pill"), "only today's reminders: {list}");
    assert_eq!(s.services.notes.lock().unwrap()[0].task_id, brief.id);
}
