//! The computer's state at work (DT-3), through a fake computer: on a low battery the
//! background indexing of memory search waits for the charger, and input elsewhere on the
//! desktop counts as the user at the desk. (The tasks that wait: `tasks.rs`; the Linux
//! adapter against sysfs and a real X server: `crates/computer/tests`.)

use std::sync::Arc;
use std::time::Duration;

use sidecar_computer::{ComputerState, FakeComputer, Power};
use sidecar_proactive::ProactiveStore;

use crate::meaning::{lines, HISTORY};

fn battery(on_battery: bool, percent: u8) -> ComputerState {
    ComputerState { idle: None, power: Some(Power { on_battery, percent: Some(percent) }) }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_indexing_waits_on_a_low_battery_and_resumes_on_the_charger() {
    let dir = tempfile::tempdir().unwrap();
    let computer = Arc::new(FakeComputer::new(battery(true, 9)));
    let core = crate::support::core().settings("[user]\ntimezone = \"Europe/Madrid\"\n").offline().computer(computer.clone()).open_in(dir.path()).await;
    core.data().import_jsonl(&lines(HISTORY)).await.unwrap();
    let indexing = tokio::spawn(core.meaning().clone().run());
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(core.meaning().status().await.embedded, 0, "a local embedder waits on a low battery");
    // A question is the user waiting: it is answered by meaning all the same.
    assert!(core.recall_service().search_in("dentist", 300, sidecar_memory::RecallMode::Hybrid).await.is_ok());

    computer.set(battery(false, 10));
    core.meaning().wake();
    let until = tokio::time::Instant::now() + Duration::from_secs(60);
    while core.meaning().status().await.embedded < HISTORY.len() as u64 {
        assert!(tokio::time::Instant::now() < until, "indexing resumes on the charger");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    indexing.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn input_anywhere_on_the_desktop_is_the_user_at_the_desk() {
    let away = ComputerState { idle: Some(Duration::from_secs(2 * 3600)), power: None };
    let computer = Arc::new(FakeComputer::new(away));
    let test = crate::support::core().computer(computer.clone()).open().await;
    let core = test.core.clone();
    let desk_seen = || {
        let core = core.clone();
        async move { core.store().proactive().proactive_state().await.unwrap().last_desk_activity_at }
    };
    let watching = tokio::spawn(core.clone().watch_the_desk(Duration::from_millis(50)));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(desk_seen().await, None, "two hours without input is away");

    // Typing in another program: the desk is active though Sidecar's window never had focus.
    computer.set(ComputerState { idle: Some(Duration::from_millis(10)), power: None });
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    while desk_seen().await.is_none() {
        assert!(tokio::time::Instant::now() < until, "the desk is noted as active");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    watching.abort();
}
