//! Tasks and their runs on real SQLite (the app's migrations): stored and read back as
//! created, one run per occurrence however often it is recorded, a run ended once, a
//! crash's attempt found at start, three failures pausing, a task removed with its runs.

use chrono::{TimeZone, Utc};
use sidecar_store::Store;
use sidecar_tasks::pauses;
use sidecar_tasks::CatchUp;
use sidecar_tasks::NewTask;
use sidecar_tasks::RunState;
use sidecar_tasks::Schedule;
use sidecar_tasks::TasksStore;

#[tokio::test]
async fn a_task_is_kept_as_made_and_each_occurrence_has_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let table = store.task_table();
    let start = Utc.with_ymd_and_hms(2026, 12, 1, 7, 0, 0).unwrap();
    let schedule = Schedule::Repeat { rule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR".into(), start, zone: chrono_tz::Europe::Madrid };
    let tools = vec!["web_search".to_string(), "weather".to_string()];
    let task = table
        .add(NewTask {
            kind: sidecar_tasks::TaskKind::Prompt,
            title: "Weather in Madrid",
            prompt: "Check the weather in Madrid and tell me what to expect",
            schedule: &schedule,
            catch_up: CatchUp::SkipOlderThan { minutes: 90 },
            tools: &tools,
            always_deliver: false,
            zone: chrono_tz::Europe::Madrid,
        })
        .await
        .unwrap();
    assert_eq!(table.all().await.unwrap(), std::slice::from_ref(&task));
    assert_eq!(
        (task.schedule.clone(), task.catch_up, task.tools.clone(), task.paused.clone()),
        (schedule, CatchUp::SkipOlderThan { minutes: 90 }, tools, None)
    );
    assert_eq!(table.handled(&task).await.unwrap(), task.created_at);

    // The same occurrence recorded twice (a second look, a second process): one run.
    let run = table.record(task.id, start, RunState::Attempting).await.unwrap().expect("the first takes it");
    assert_eq!(table.record(task.id, start, RunState::Attempting).await.unwrap(), None);
    assert_eq!(table.handled(&task).await.unwrap(), start);
    // A crash (its process gone): found attempting at start, ended once.
    assert!(table.interrupted().await.unwrap().is_empty(), "its process still runs");
    sqlx::query("UPDATE task_runs SET pid = NULL WHERE id = ?").bind(run).execute(store.pool()).await.unwrap();
    assert_eq!(table.interrupted().await.unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), [run]);
    assert!(table.end(run, RunState::Done, "Sunny, 14 °C; nothing on your calendar before 10.").await.unwrap());
    assert!(!table.end(run, RunState::Failed, "again").await.unwrap(), "a run ends once");
    assert!(table.interrupted().await.unwrap().is_empty());

    // Three failures in a row: the task pauses, and says why.
    for day in 2..5 {
        let at = Utc.with_ymd_and_hms(2026, 12, day, 7, 0, 0).unwrap();
        let id = table.record(task.id, at, RunState::Attempting).await.unwrap().unwrap();
        table.end(id, RunState::Failed, "the weather service did not answer").await.unwrap();
    }
    let runs = table.runs(task.id, 10).await.unwrap();
    assert_eq!(runs.len(), 4);
    assert!(pauses(runs.iter().map(|r| r.state)));
    assert!(table.set_paused(task.id, Some("Paused after three failures: the weather service did not answer")).await.unwrap());
    assert!(table.all().await.unwrap()[0].paused.as_deref().unwrap().starts_with("Paused after three failures"));

    assert!(table.remove(task.id).await.unwrap());
    assert!(table.all().await.unwrap().is_empty() && table.runs(task.id, 10).await.unwrap().is_empty());
    assert!(!table.remove(task.id).await.unwrap());
}

#[tokio::test]
async fn a_look_records_before_it_hands_out_and_a_crash_is_finished_once() {
    use sidecar_tasks::Tasks;
    use sidecar_tasks::Work;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let first = Utc::now() - chrono::Duration::hours(5) - chrono::Duration::minutes(10);
    let hourly = Schedule::Repeat { rule: "FREQ=HOURLY".into(), start: first, zone: chrono_tz::UTC };
    let task = store
        .task_table()
        .add(NewTask {
            kind: sidecar_tasks::TaskKind::Prompt,
            title: "Train strike",
            prompt: "Is the train strike still on?",
            schedule: &hourly,
            catch_up: CatchUp::RunNow,
            tools: &[],
            always_deliver: true,
            zone: chrono_tz::UTC,
        })
        .await
        .unwrap();
    let tasks = Tasks::new(store.clone(), sidecar_domain::Emitter::new(|_| {}));
    let now = Utc::now();
    // Created after its first occurrences: those before its creation are not due.
    let look = tasks.look(now).await.unwrap();
    assert!(look.work.is_empty(), "{:?}", look.work);
    assert_eq!(look.next, hourly.next_after(now));

    // An hour on: one run, recorded as attempting before it is handed out; a second look
    // (or a second process) at the same time gets nothing.
    let later = look.next.unwrap() + chrono::Duration::seconds(5);
    let [Work::Run { run_id, occurrence, late: false, .. }] = tasks.look(later).await.unwrap().work[..] else { panic!("one run") };
    assert_eq!(occurrence, look.next.unwrap());
    assert!(tasks.look(later).await.unwrap().work.is_empty());
    // Another process starting meanwhile (a daemon beside `sidecar tasks run`) leaves the
    // attempt to the process that runs it.
    let starting = Tasks::new(store.clone(), sidecar_domain::Emitter::new(|_| {}));
    assert!(starting.recover().await.unwrap().is_empty(), "still under way in this process");
    // The same pid given to a later process (pids wrap, the computer restarted): not the
    // process that runs it, so the attempt is handed out again.
    let shift = |by: i64| sqlx::query("UPDATE task_runs SET pid_started = pid_started + ? WHERE id = ?").bind(by).bind(run_id).execute(store.pool());
    shift(1).await.unwrap();
    assert!(matches!(starting.recover().await.unwrap()[..], [Work::Run { run_id: again, .. }] if again == run_id), "a reused pid");
    shift(-1).await.unwrap();
    // The process dies mid-run: at start the attempt is handed out again, under its record.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    sqlx::query("UPDATE task_runs SET pid = ? WHERE id = ?").bind(i64::from(gone.id())).bind(run_id).execute(store.pool()).await.unwrap();
    let recovered = starting.recover().await.unwrap();
    assert!(matches!(recovered[..], [Work::Run { run_id: again, .. }] if again == run_id));
    assert_eq!(tasks.finish(task.id, run_id, Ok("Still on until Friday."), sidecar_domain::Lang::En).await.unwrap(), None);
    assert!(tasks.recover().await.unwrap().is_empty());

    // Three failures in a row pause it, said in the user's language.
    let mut at = later;
    let mut said = None;
    for _ in 0..3 {
        at += chrono::Duration::hours(1);
        let Work::Run { run_id, .. } = tasks.look(at).await.unwrap().work.remove(0) else { panic!("a run") };
        said = tasks.finish(task.id, run_id, Err("sin red"), sidecar_domain::Lang::Es).await.unwrap();
    }
    assert_eq!(said.as_deref(), Some("En pausa tras tres ejecuciones fallidas seguidas (la última: sin red). Arregla lo que necesita y reanúdala."));
    assert!(tasks.look(at + chrono::Duration::hours(1)).await.unwrap().work.is_empty(), "a paused task does not run");
}
