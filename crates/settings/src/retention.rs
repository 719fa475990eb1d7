//! `[retention]`: what is kept and for how long, and how often Sidecar tidies (the seeds'
//! purge, agent mode 3.2, as choices the user sees in Settings → Your data). Nothing the
//! user wrote is removed unless they chose a limit; facts and pinned chats never are.

use std::ops::RangeInclusive;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::OutOfRange;

/// The `keep_days` accepted: from a week to a hundred years.
pub const KEEP_DAYS: RangeInclusive<u32> = 7..=36_500;
/// The `max_size_mb` accepted: from 10 MB (a few thousand messages) to 100 GB.
pub const MAX_SIZE_MB: RangeInclusive<u32> = 10..=100_000;
/// The `close_idle_hours` accepted: from an hour to a month.
pub const CLOSE_IDLE_HOURS: RangeInclusive<u32> = 1..=720;

/// What Settings → Your data offers for each limit (besides "no limit"), most kept first.
const OFFERED_KEEP_DAYS: [u32; 5] = [730, 365, 180, 90, 30];
const OFFERED_MAX_SIZE_MB: [u32; 5] = [1_000, 500, 250, 100, 50];
const OFFERED_CLOSE_IDLE_HOURS: [u32; 4] = [24, 8, 4, 2];

/// `[retention]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(default)]
pub struct RetentionSettings {
    /// Conversations with nothing said for this many days are deleted (pinned ones and
    /// the current one never); unset: everything is kept.
    pub keep_days: Option<u32>,
    /// The database is kept under this many megabytes: past it, the oldest chats go
    /// (never a pinned one, the current one, or a fact: facts live in the memory files).
    /// Unset (the default): no limit. The seeds' 50 MB is offered first.
    pub max_size_mb: Option<u32>,
    /// The current chat, untouched for this many hours, is closed: a checkpoint sums it
    /// up and the next message starts a new chat that offers to continue it. Unset (the
    /// default): a chat stays open until the user starts another.
    pub close_idle_hours: Option<u32>,
    /// Tidy every 30 minutes while Sidecar runs (the default); off: once a day.
    pub tidy_often: bool,
}

impl Default for RetentionSettings {
    fn default() -> Self {
        Self { keep_days: None, max_size_mb: None, close_idle_hours: None, tidy_often: true }
    }
}

/// Settings → Your data → Keeping: the user's `[retention]` and the choices offered for
/// each limit (a value set by hand in the file is offered too, so it shows as it is).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct RetentionView {
    pub settings: RetentionSettings,
    pub keep_days: Vec<u32>,
    pub max_size_mb: Vec<u32>,
    pub close_idle_hours: Vec<u32>,
}

impl RetentionSettings {
    /// The settings with the choices Settings offers.
    pub fn view(&self) -> RetentionView {
        let offered = |choices: &[u32], set: Option<u32>| {
            let mut all = choices.to_vec();
            if let Some(set) = set.filter(|set| !all.contains(set)) {
                all.push(set);
                all.sort_by(|a, b| b.cmp(a));
            }
            all
        };
        RetentionView {
            settings: self.clone(),
            keep_days: offered(&OFFERED_KEEP_DAYS, self.keep_days),
            max_size_mb: offered(&OFFERED_MAX_SIZE_MB, self.max_size_mb),
            close_idle_hours: offered(&OFFERED_CLOSE_IDLE_HOURS, self.close_idle_hours),
        }
    }

    /// Each limit: its key in settings.toml, its value, and the values accepted. The one
    /// list the checks, the file and the view go by.
    pub(crate) fn limits(&self) -> [(&'static str, Option<u32>, RangeInclusive<u32>); 3] {
        [
            ("retention.keep_days", self.keep_days, KEEP_DAYS),
            ("retention.max_size_mb", self.max_size_mb, MAX_SIZE_MB),
            ("retention.close_idle_hours", self.close_idle_hours, CLOSE_IDLE_HOURS),
        ]
    }

    /// Refuses a limit outside what Sidecar offers, naming the key.
    pub fn check(&self) -> Result<(), OutOfRange> {
        match self.limits().into_iter().find(|(_, value, range)| value.is_some_and(|value| !range.contains(&value))) {
            Some((name, _, range)) => Err(OutOfRange { name, low: range.start().to_string(), high: range.end().to_string() }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_removed_by_default_and_the_tidy_runs_often() {
        let settings: RetentionSettings = toml::from_str("").unwrap();
        assert_eq!(settings, RetentionSettings::default());
        assert!(settings.tidy_often && settings.keep_days.is_none() && settings.max_size_mb.is_none() && settings.close_idle_hours.is_none());
    }

    #[test]
    fn a_limit_outside_what_is_offered_is_refused_by_name() {
        let small = RetentionSettings { max_size_mb: Some(5), ..Default::default() };
        assert_eq!(small.check().unwrap_err().name, "retention.max_size_mb");
        let zero = RetentionSettings { close_idle_hours: Some(0), ..Default::default() };
        assert_eq!(zero.check().unwrap_err().name, "retention.close_idle_hours");
        let seeds = RetentionSettings { max_size_mb: Some(50), close_idle_hours: Some(2), keep_days: Some(30), tidy_often: true };
        assert!(seeds.check().is_ok());
    }

    #[test]
    fn the_seeds_limits_are_offered_and_a_value_set_by_hand_shows_as_it_is() {
        let view = RetentionSettings::default().view();
        assert!(view.max_size_mb.contains(&50) && view.close_idle_hours.contains(&2));
        assert!([&view.keep_days, &view.max_size_mb, &view.close_idle_hours].iter().all(|offered| offered.iter().all(|&v| v > 0)));
        let by_hand = RetentionSettings { max_size_mb: Some(75), ..Default::default() }.view();
        assert_eq!(by_hand.max_size_mb, [1_000, 500, 250, 100, 75, 50]);
        for (offered, range) in [(&view.keep_days, KEEP_DAYS), (&view.max_size_mb, MAX_SIZE_MB), (&view.close_idle_hours, CLOSE_IDLE_HOURS)] {
            assert!(offered.iter().all(|v| range.contains(v)), "every choice offered is accepted");
        }
    }
}
