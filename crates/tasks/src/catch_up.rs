//! What is due when Sidecar looks (its tick, the start after a restart, the computer back
//! from sleep): the latest occurrence that fell due since the last one handled, with those
//! before it folded in, and what to do with it. On time, it runs; late (missed while
//! asleep or closed), the task's [`CatchUp`] decides. An occurrence is handled once: the
//! next look starts after it.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::schedule::Schedule;

/// Later than this after its time, an occurrence was missed (the tick's own delay is not).
pub(crate) const GRACE: Duration = Duration::minutes(2);
/// Missed occurrences counted at most (a task every minute through a month away).
const FOLD_LIMIT: usize = 10_000;

/// What a task missed while the computer slept or Sidecar was closed becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CatchUp {
    /// Run once now, however late.
    RunNow,
    /// Ask the user whether to run it now.
    Ask,
    /// Run it when at most `minutes` late; older, skip it (a morning brief at noon is noise).
    SkipOlderThan { minutes: u32 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Run,
    Ask,
    Skip,
}

/// The occurrence to handle now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    /// Its time: the key of its run (one record per occurrence).
    pub occurrence: DateTime<Utc>,
    pub action: Action,
    /// Later than [`GRACE`].
    pub late: bool,
    /// Earlier occurrences passed over for this one (handled by this one run).
    pub folded: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub due: Option<Due>,
    /// When to look again: the next occurrence after now (`None`: the schedule ended).
    pub next: Option<DateTime<Utc>>,
}

/// What to do at `now` for a task whose last handled occurrence is `handled` (its
/// creation time when none was).
pub fn plan(schedule: &Schedule, policy: CatchUp, handled: DateTime<Utc>, now: DateTime<Utc>) -> Plan {
    let next = schedule.next_after(now);
    let fallen = schedule.between(handled, now, FOLD_LIMIT);
    let Some(&occurrence) = fallen.last() else { return Plan { due: None, next } };
    let waited = now - occurrence;
    let late = waited > GRACE;
    let action = match (late, policy) {
        (false, _) | (true, CatchUp::RunNow) => Action::Run,
        (true, CatchUp::Ask) => Action::Ask,
        (true, CatchUp::SkipOlderThan { minutes }) if waited <= Duration::minutes(i64::from(minutes)) => Action::Run,
        (true, CatchUp::SkipOlderThan { .. }) => Action::Skip,
    };
    Plan { due: Some(Due { occurrence, action, late, folded: fallen.len() - 1 }), next }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn hourly() -> Schedule {
        Schedule::Repeat { rule: "FREQ=HOURLY".into(), start: Utc.with_ymd_and_hms(2026, 11, 29, 8, 0, 0).unwrap(), zone: chrono_tz::Europe::Madrid }
    }

    fn at(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 29, h, m, 0).unwrap()
    }

    #[test]
    fn on_time_it_runs_and_nothing_is_due_twice() {
        let first = plan(&hourly(), CatchUp::Ask, at(7, 0), at(8, 0));
        assert_eq!(first.due, Some(Due { occurrence: at(8, 0), action: Action::Run, late: false, folded: 0 }));
        assert_eq!(first.next, Some(at(9, 0)));
        assert_eq!(plan(&hourly(), CatchUp::Ask, at(8, 0), at(8, 1)).due, None, "handled: not again");
    }

    #[test]
    fn a_night_asleep_is_one_run_by_the_policy_with_the_missed_ones_folded() {
        // Handled at 8:00, the computer slept until 17:20: nine occurrences fell due.
        let woke = at(17, 20);
        let run = plan(&hourly(), CatchUp::RunNow, at(8, 0), woke).due.unwrap();
        assert_eq!((run.occurrence, run.action, run.late, run.folded), (at(17, 0), Action::Run, true, 8));
        assert_eq!(plan(&hourly(), CatchUp::Ask, at(8, 0), woke).due.unwrap().action, Action::Ask);
        assert_eq!(plan(&hourly(), CatchUp::SkipOlderThan { minutes: 30 }, at(8, 0), woke).due.unwrap().action, Action::Run, "20 minutes late");
        assert_eq!(plan(&hourly(), CatchUp::SkipOlderThan { minutes: 15 }, at(8, 0), woke).due.unwrap().action, Action::Skip);
    }

    #[test]
    fn a_task_set_once_is_done_after_its_run() {
        let once = Schedule::Once { at: at(9, 0) };
        assert_eq!(plan(&once, CatchUp::RunNow, at(8, 0), at(8, 30)), Plan { due: None, next: Some(at(9, 0)) });
        assert_eq!(plan(&once, CatchUp::RunNow, at(8, 0), at(9, 0)).due.unwrap().occurrence, at(9, 0));
        assert_eq!(plan(&once, CatchUp::RunNow, at(9, 0), at(12, 0)), Plan { due: None, next: None });
    }
}
