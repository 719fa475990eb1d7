//! Reminder and proactivity figures. Prints; asserts nothing.
//!
//! - firing delay: from each reminder's due instant to the delivery call (where the
//!   D-Bus `Notify` is made), over many reminders due a few hundred ms apart, on the
//!   real store;
//! - the same for reminders set by another process: the real `sidecar remind` CLI
//!   beside a running scheduler, which only the database file tells;
//! - idle cost with 10,000 pending reminders (none due): CPU time used and scheduler
//!   wake-ups over an idle minute;
//! - tokens per spontaneous decision (the whole request: system and user message).
//!
//! Run: `cargo bench --bench proactive`

use sidecar_reminders::RemindersStore;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures_util::future::BoxFuture;
use sidecar_reminders::Deliver;
use sidecar_reminders::NewReminder;
use sidecar_reminders::Reminder;
use sidecar_reminders::Reminders;
use sidecar_reminders::Scheduler;
use sidecar_reminders::StoreReminders;
use sidecar_store::Store;
use sidecar_store::StoreError;
use tokio_util::sync::CancellationToken;

const FIRED: usize = 200;
const IDLE_PENDING: usize = 10_000;
const IDLE_SECONDS: u64 = 60;

struct Stopwatch(Mutex<Vec<f64>>);

impl Deliver for Stopwatch {
    fn deliver<'a>(&'a self, reminder: &'a Reminder, _late: bool, _repeated: bool) -> BoxFuture<'a, Result<(), sidecar_reminders::NotShown>> {
        let delay = (Utc::now() - reminder.due_at).num_microseconds().unwrap_or(0) as f64 / 1000.0;
        self.0.lock().unwrap().push(delay);
        Box::pin(async { Ok(()) })
    }
}

/// The store, counting how often the scheduler looks for the next due reminder (one
/// look per wake-up).
struct Counting(StoreReminders, Arc<AtomicUsize>);

impl Reminders for Counting {
    fn next_due(&self) -> BoxFuture<'_, Result<Option<DateTime<Utc>>, StoreError>> {
        self.1.fetch_add(1, Ordering::SeqCst);
        Reminders::next_due(&self.0)
    }
    fn claim_due(&self, at: DateTime<Utc>) -> BoxFuture<'_, Result<Vec<Reminder>, StoreError>> {
        Reminders::claim_due(&self.0, at)
    }
    fn was_delivered<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<bool, StoreError>> {
        Reminders::was_delivered(&self.0, key)
    }
    fn finish<'a>(&'a self, r: &'a Reminder, at: DateTime<Utc>, late: bool, next: Option<DateTime<Utc>>) -> BoxFuture<'a, Result<(), StoreError>> {
        Reminders::finish(&self.0, r, at, late, next)
    }
    fn release(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Reminders::release(&self.0, id)
    }
    fn begin_showing(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Reminders::begin_showing(&self.0, id)
    }
    fn fail(&self, id: i64) -> BoxFuture<'_, Result<(), StoreError>> {
        Reminders::fail(&self.0, id)
    }
    fn changed_elsewhere(&self) -> BoxFuture<'_, Result<bool, StoreError>> {
        Reminders::changed_elsewhere(&self.0)
    }
}

/// Waits for `count` deliveries, stops the scheduler, and returns the delays sorted.
async fn sorted_delays(watch: &Stopwatch, count: usize, cancel: CancellationToken, task: tokio::task::JoinHandle<()>) -> Vec<f64> {
    while watch.0.lock().unwrap().len() < count {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    cancel.cancel();
    task.await.unwrap();
    let mut delays = watch.0.lock().unwrap().clone();
    delays.sort_by(f64::total_cmp);
    delays
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// User + system CPU time of this process, from /proc (Linux).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks: u64 = fields.get(11).and_then(|u| u.parse().ok()).unwrap_or(0) + fields.get(12).and_then(|s| s.parse().ok()).unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

async fn firing_delay() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let start = Utc::now() + chrono::Duration::seconds(2);
    for i in 0..FIRED {
        let due = start + chrono::Duration::milliseconds(150 * i as i64);
        store.reminder_table().add_reminder(NewReminder::at("bench", due, "UTC")).await.unwrap();
    }
    let watch = Arc::new(Stopwatch(Mutex::new(Vec::new())));
    let scheduler =
        Scheduler::new(Arc::new(StoreReminders::new(store.clone())), watch.clone(), sidecar_domain::system_clock(), Arc::new(tokio::sync::Notify::new()));
    let cancel = CancellationToken::new();
    let task = tokio::spawn(scheduler.run(cancel.clone()));
    let delays = sorted_delays(&watch, FIRED, cancel, task).await;
    println!(
        "firing delay (due instant → delivery call), {FIRED} reminders 150 ms apart: median {:.1} ms, p95 {:.1} ms, max {:.1} ms, min {:.1} ms",
        percentile(&delays, 0.5),
        percentile(&delays, 0.95),
        delays.last().unwrap(),
        delays[0]
    );
}

async fn idle_cost() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let far = Utc::now() + chrono::Duration::days(30);
    let mut tx = store.pool().begin().await.unwrap();
    for i in 0..IDLE_PENDING {
        let due = sidecar_store::utc(far + chrono::Duration::minutes(i as i64));
        sqlx::query("INSERT INTO reminders (message, due_at, zone, created_at) VALUES ('idle', ?, 'UTC', ?)")
            .bind(&due)
            .bind(&due)
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let looks = Arc::new(AtomicUsize::new(0));
    let watch = Arc::new(Stopwatch(Mutex::new(Vec::new())));
    let scheduler = Scheduler::new(
        Arc::new(Counting(StoreReminders::new(store.clone()), looks.clone())),
        watch,
        sidecar_domain::system_clock(),
        Arc::new(tokio::sync::Notify::new()),
    );
    let query = Instant::now();
    for _ in 0..100 {
        store.reminder_table().next_due().await.unwrap();
    }
    let per_query = query.elapsed() / 100;
    let cancel = CancellationToken::new();
    let cpu_before = cpu_time();
    let wall = Instant::now();
    let task = tokio::spawn(scheduler.run(cancel.clone()));
    tokio::time::sleep(Duration::from_secs(IDLE_SECONDS)).await;
    cancel.cancel();
    task.await.unwrap();
    let cpu = cpu_time().saturating_sub(cpu_before);
    println!(
        "idle with {IDLE_PENDING} pending reminders over {:.0} s: {} scheduler wake-ups, CPU {} ms ({:.3} %); next-due query {:.2} ms",
        wall.elapsed().as_secs_f64(),
        looks.load(Ordering::SeqCst),
        cpu.as_millis(),
        cpu.as_secs_f64() / wall.elapsed().as_secs_f64() * 100.0,
        per_query.as_secs_f64() * 1000.0
    );
}

fn decision_tokens() {
    use sidecar_domain::Lang;
    use sidecar_proactive::ProactiveConfig;
    use sidecar_proactive::ProactiveState;
    use sidecar_proactive::{decision_prompt, spontaneous_context, Inputs};
    let (config, state) = (ProactiveConfig::default(), ProactiveState::default());
    let now = Utc::now();
    let facts: Vec<String> = [
        "Allergic to peanuts",
        "Works as a nurse on night shifts on weekends",
        "Has a job interview at Globant on Thursday",
        "Sister Eva lives in Rosario",
        "Prefers short answers in the morning",
    ]
    .map(String::from)
    .to_vec();
    for (label, reminders, facts, lang) in [
        ("no reminders, no facts (en)", 0, Vec::new(), Lang::En),
        ("3 reminders, 5 facts (en)", 3, facts.clone(), Lang::En),
        ("5+ reminders, 5 facts (es)", 9, facts.clone(), Lang::Es),
    ] {
        let reminders = (0..reminders).map(|i| (format!("Mon 23 Nov 0{}:00", i % 10), format!("call the dentist about the appointment {i}"))).collect();
        let c = spontaneous_context(Inputs {
            now,
            zone: chrono_tz::Europe::Madrid,
            config: &config,
            state: &state,
            last_user: Some((now - chrono::Duration::hours(3), "Can you help me plan the week? I have three deadlines and a dentist appointment.".into())),
            reminders,
            facts,
            welcome: ["greeting", "checkin", "contextual"].map(String::from).to_vec(),
            lang,
        });
        let tokens: usize = decision_prompt(&c, lang).iter().map(|m| sidecar_llm::tokens::count(&m.content)).sum();
        println!("tokens per spontaneous decision, {label}: {tokens} prompt tokens (+ at most 200 for the answer)");
    }
}

#[tokio::main]
async fn main() {
    decision_tokens();
    firing_delay().await;
    cross_process_delay().await;
    ics_import().await;
    idle_cost().await;
}

/// A calendar of 10,000 events imported as reminders (parse, read, one transaction).
async fn ics_import() {
    const EVENTS: usize = 10_000;
    let dir = tempfile::tempdir().unwrap();
    let mut options = sidecar::CompanionOptions::new(dir.path().to_path_buf(), Default::default());
    options.clock = sidecar_domain::fixed_clock(chrono::TimeZone::with_ymd_and_hms(&Utc, 2026, 11, 18, 9, 0, 0).unwrap());
    let core = sidecar::Companion::open(options).await.unwrap();
    let mut text = String::from("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n");
    for i in 0..EVENTS {
        text += &format!("BEGIN:VEVENT\r\nUID:{i}\r\nSUMMARY:event {i}\r\nDTSTART:2027{:02}{:02}T{:02}0000Z\r\nEND:VEVENT\r\n", 1 + i % 12, 1 + i % 28, i % 24);
    }
    text += "END:VCALENDAR\r\n";
    let start = Instant::now();
    let report = core.reminders().import_ics(&text).await.unwrap();
    let first = start.elapsed();
    let start = Instant::now();
    let again = core.reminders().import_ics(&text).await.unwrap();
    println!(
        "calendar import, {EVENTS} events ({} kB): {:.2} s ({} added, in one transaction); again: {:.2} s ({} added)",
        text.len() / 1024,
        first.as_secs_f64(),
        report.added,
        start.elapsed().as_secs_f64(),
        again.added
    );
}

const CROSS_PROCESS: usize = 20;

/// `sidecar remind "in 2 seconds" …` run as its own process while this one's scheduler
/// sleeps: the delay from each reminder's due instant to the delivery call.
async fn cross_process_delay() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).await.unwrap();
    let watch = Arc::new(Stopwatch(Mutex::new(Vec::new())));
    let scheduler =
        Scheduler::new(Arc::new(StoreReminders::new(store.clone())), watch.clone(), sidecar_domain::system_clock(), Arc::new(tokio::sync::Notify::new()));
    let cancel = CancellationToken::new();
    let task = tokio::spawn(scheduler.run(cancel.clone()));
    for i in 0..CROSS_PROCESS {
        let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_sidecar"))
            .env("SIDECAR_DATA_DIR", dir.path())
            .env("SIDECAR_CONFIG", dir.path().join("absent.toml"))
            .args(["remind", "in 2 seconds", &format!("cross-process {i}")])
            .output()
            .await
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        // Spread over the scheduler's one-second looks.
        tokio::time::sleep(Duration::from_millis(370)).await;
    }
    let delays = sorted_delays(&watch, CROSS_PROCESS, cancel, task).await;
    println!(
        "firing delay for reminders set by another process (sidecar remind), {CROSS_PROCESS}: median {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        percentile(&delays, 0.5),
        percentile(&delays, 0.99),
        delays.last().unwrap()
    );
}
