//! The time layer under faults, simulated: a month of a task due every hour (and one every
//! weekday at 8), looked at on a tick that drifts, through suspends of up to nine hours,
//! crashes in the middle of a run, the DST change and a move to another zone. Each look
//! plans with `catch_up::plan` against the runs recorded so far, as the app will at
//! start and on its tick. Checked: no occurrence has two runs; none is lost (after every
//! look, the latest one that fell due is handled: run, asked, skipped or folded into a
//! later run); a run a crash cut is finished under its own record.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, TimeZone, Utc};
use chrono_tz::Tz;
use proptest::prelude::*;
use sidecar_tasks::plan;
use sidecar_tasks::Action;
use sidecar_tasks::CatchUp;
use sidecar_tasks::RunState;
use sidecar_tasks::Schedule;

/// What happens between two looks.
#[derive(Debug, Clone)]
enum Gap {
    /// The tick: a few minutes, with its own delay.
    Tick(i64),
    /// The computer sleeps this many minutes (up to nine hours).
    Suspend(i64),
    /// Sidecar crashes in the middle of the run it starts at this look, and is started
    /// again this many minutes later.
    CrashDuringRun(i64),
    /// The user moves the task to another zone (travel): its wall-clock time stays.
    MoveZone(usize),
}

fn gaps() -> impl Strategy<Value = Vec<Gap>> {
    let gap = prop_oneof![
        8 => (1i64..16).prop_map(Gap::Tick),
        1 => (30i64..=540).prop_map(Gap::Suspend),
        1 => (1i64..30).prop_map(Gap::CrashDuringRun),
        1 => (0usize..ZONES.len()).prop_map(Gap::MoveZone),
    ];
    prop::collection::vec(gap, 400..900)
}

const ZONES: [&str; 3] = ["Europe/Madrid", "America/New_York", "Asia/Tokyo"];

/// The runs kept (the database's part that survives a crash): occurrence → state.
#[derive(Default)]
struct Ledger {
    runs: BTreeMap<DateTime<Utc>, RunState>,
    /// Occurrences passed over by a later run.
    folded: usize,
}

impl Ledger {
    fn handled(&self, created: DateTime<Utc>) -> DateTime<Utc> {
        self.runs.keys().next_back().copied().unwrap_or(created)
    }

    fn record(&mut self, occurrence: DateTime<Utc>, state: RunState) {
        assert!(self.runs.insert(occurrence, state).is_none(), "two runs for the occurrence at {occurrence}");
    }
}

fn simulate(schedule_of: impl Fn(Tz) -> Schedule, policy: CatchUp, gaps: &[Gap]) -> Ledger {
    // Sunday 1 March 2026 (Europe changes to summer time on the 29th; New York on the 8th).
    let created = Utc.with_ymd_and_hms(2026, 3, 1, 0, 30, 0).unwrap();
    let mut zone: Tz = ZONES[0].parse().unwrap();
    let mut now = created;
    let mut ledger = Ledger::default();
    for gap in gaps {
        // Start-up after a crash: a run left attempting is finished under its record.
        let interrupted: Vec<DateTime<Utc>> = ledger.runs.iter().filter(|(_, s)| s.interrupted()).map(|(k, _)| *k).collect();
        for occurrence in interrupted {
            let state = ledger.runs[&occurrence].end(RunState::Done).unwrap();
            ledger.runs.insert(occurrence, state);
        }
        let schedule = schedule_of(zone);
        let planned = plan(&schedule, policy, ledger.handled(created), now);
        let crash = matches!(gap, Gap::CrashDuringRun(_));
        if let Some(due) = planned.due {
            assert!(due.occurrence <= now && due.occurrence > ledger.handled(created));
            ledger.folded += due.folded;
            match due.action {
                Action::Run if crash => ledger.record(due.occurrence, RunState::Attempting),
                Action::Run => ledger.record(due.occurrence, RunState::Attempting.end(RunState::Done).unwrap()),
                Action::Ask => ledger.record(due.occurrence, RunState::Asked),
                Action::Skip => ledger.record(due.occurrence, RunState::Skipped),
            }
        }
        // Nothing that fell due by now is left unhandled: the next occurrence after the
        // last one handled is still to come.
        if let Some(unhandled) = schedule.next_after(ledger.handled(created)).filter(|n| *n <= now) {
            panic!("the occurrence at {unhandled} was lost (looked at {now})");
        }
        match gap {
            Gap::Tick(m) | Gap::Suspend(m) | Gap::CrashDuringRun(m) => now += Duration::minutes(*m),
            Gap::MoveZone(i) => {
                zone = ZONES[*i].parse().unwrap();
                now += Duration::minutes(1);
            }
        }
    }
    ledger
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn an_hourly_task_is_never_doubled_nor_lost(gaps in gaps()) {
        let created = Utc.with_ymd_and_hms(2026, 3, 1, 1, 0, 0).unwrap();
        let ledger = simulate(|zone| Schedule::Repeat { rule: "FREQ=HOURLY".into(), start: created, zone }, CatchUp::RunNow, &gaps);
        // Every run that started ended (the crashed ones at the next start, or still
        // attempting if the simulation stopped right after a crash).
        let unfinished = ledger.runs.values().filter(|s| s.interrupted()).count();
        prop_assert!(unfinished <= 1);
        prop_assert!(ledger.runs.values().all(|s| matches!(s, RunState::Done | RunState::Attempting)), "RunNow only runs");
    }

    #[test]
    fn a_weekday_task_at_eight_skips_what_is_stale_and_asks_for_nothing_twice(gaps in gaps(), skip in prop::bool::ANY) {
        let zone: Tz = ZONES[0].parse().unwrap();
        let start = zone.with_ymd_and_hms(2026, 3, 2, 8, 0, 0).unwrap().with_timezone(&Utc);
        let policy = if skip { CatchUp::SkipOlderThan { minutes: 60 } } else { CatchUp::Ask };
        let ledger = simulate(|zone| Schedule::Repeat { rule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR".into(), start, zone }, policy, &gaps);
        for state in ledger.runs.values() {
            if skip {
                prop_assert!(*state != RunState::Asked);
            } else {
                prop_assert!(*state != RunState::Skipped);
            }
        }
    }
}

#[test]
fn a_suspend_of_nine_hours_over_an_hourly_task_is_one_late_run() {
    let first = Utc.with_ymd_and_hms(2026, 3, 1, 1, 0, 0).unwrap();
    // Looked at 00:30 and 00:31, asleep until 09:31: 01:00 to 09:00 fell due meanwhile.
    let gaps = [Gap::Tick(1), Gap::Suspend(9 * 60), Gap::Tick(1)];
    let ledger = simulate(|zone| Schedule::Repeat { rule: "FREQ=HOURLY".into(), start: first, zone }, CatchUp::RunNow, &gaps);
    let nine = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    assert_eq!(ledger.runs.keys().copied().collect::<Vec<_>>(), [nine], "one run, for the latest");
    assert_eq!(ledger.folded, 8, "the eight before it folded into it");
}
