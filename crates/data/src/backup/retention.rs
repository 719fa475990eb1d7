//! Which automatic backups to keep: the newest of each of the last 7 days that have
//! one, and the newest of each of the 4 ISO weeks before those.

use std::collections::BTreeSet;

use chrono::{Datelike, NaiveDate};

pub(crate) const DAILY: usize = 7;
pub(crate) const WEEKLY: usize = 4;

/// The dates to keep among `dates` (one backup per date).
pub(crate) fn keep(dates: &[NaiveDate]) -> BTreeSet<NaiveDate> {
    let mut newest_first: Vec<NaiveDate> = dates.to_vec();
    newest_first.sort_unstable_by(|a, b| b.cmp(a));
    newest_first.dedup();
    let mut kept: BTreeSet<NaiveDate> = newest_first.iter().take(DAILY).copied().collect();
    let mut weeks = BTreeSet::new();
    for date in newest_first.iter().skip(DAILY) {
        if weeks.len() == WEEKLY {
            break;
        }
        let week = (date.iso_week().year(), date.iso_week().week());
        if weeks.insert(week) {
            kept.insert(*date);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_daily_backups_keep_seven_days_and_four_weeks() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        let dates: Vec<NaiveDate> = (0..60).map(|d| today - chrono::Duration::days(d)).collect();
        let kept = keep(&dates);
        assert_eq!(kept.len(), DAILY + WEEKLY);
        assert!((0..7).all(|d| kept.contains(&(today - chrono::Duration::days(d)))));
        // The weekly ones are the newest of their weeks, in four different weeks.
        let weekly: Vec<_> = kept.iter().filter(|d| **d < today - chrono::Duration::days(6)).collect();
        let weeks: BTreeSet<_> = weekly.iter().map(|d| d.iso_week()).collect();
        assert_eq!(weeks.len(), WEEKLY);
        assert_eq!(*weekly.last().unwrap(), &(today - chrono::Duration::days(7)));
    }
}
