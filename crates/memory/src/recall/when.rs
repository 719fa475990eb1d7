//! Questions about when: the stretch of time a query names ("last week", "en marzo",
//! "hace tres días", "on October 24, 2023"), so recall can rank what was said then
//! above the rest.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;

use crate::knowledge::words::fold;
use sidecar_dates::month;
use sidecar_dates::number_word;
use sidecar_dates::ordinal_day;

/// A stretch of time, start inclusive, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl Span {
    pub(crate) fn contains(&self, at: DateTime<Utc>) -> bool {
        self.start <= at && at < self.end
    }
}

/// The stretch of time `query` names, read in the user's zone at `now`.
pub(crate) fn span_in(query: &str, now: DateTime<Utc>, zone: Tz) -> Option<Span> {
    let text = fold(&query.to_lowercase());
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let today = now.with_timezone(&zone).date_naive();
    let days = |from: NaiveDate, to: NaiveDate| Some(local_span(from, to, zone));
    let has = |phrase: &str| text.contains(phrase);
    // Before "last week": "the last week of August 2023" names August 2023.
    if let Some(span) = dated(&words, today, zone) {
        return Some(span);
    }
    if words.contains(&"yesterday") || words.contains(&"ayer") {
        return days(today - Duration::days(1), today);
    }
    if words.contains(&"today") || words.contains(&"hoy") {
        return days(today, today + Duration::days(1));
    }
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    if has("last week") || has("semana pasada") {
        return days(monday - Duration::days(7), monday);
    }
    if has("this week") || has("esta semana") {
        return days(monday, today + Duration::days(1));
    }
    let first = today.with_day(1).expect("day 1 exists");
    if has("last month") || has("mes pasado") {
        let previous = (first - Duration::days(1)).with_day(1).expect("day 1 exists");
        return days(previous, first);
    }
    if has("this month") || has("este mes") {
        return days(first, today + Duration::days(1));
    }
    if has("last year") || has("ano pasado") {
        let year = today.year() - 1;
        return days(NaiveDate::from_ymd_opt(year, 1, 1)?, NaiveDate::from_ymd_opt(year + 1, 1, 1)?);
    }
    if let Some(span) = ago(&words, today, zone) {
        return Some(span);
    }
    None
}

/// A date or month said outright: "October 24, 2023", "24 de octubre de 2023", "on
/// March 16" (the latest that has come), "March 2023", "in March" (the latest March
/// that has begun), "in 2023". A month's name counts only beside a number or after one
/// of [`PREPOSITIONS`] (so "may" the verb is not a month), a year only after one.
fn dated(words: &[&str], today: NaiveDate, zone: Tz) -> Option<Span> {
    let days = |from: NaiveDate, to: NaiveDate| Some(local_span(from, to, zone));
    let year_in = |word: Option<&&str>| word.filter(|w| w.len() == 4).and_then(|w| w.parse::<i32>().ok()).filter(|y| (1900..=2200).contains(y));
    let day_in = |word: Option<&&str>| word.and_then(|w| ordinal_day(w)).filter(|d| (1..=31).contains(d));
    let after_preposition = |i: usize| i > 0 && PREPOSITIONS.contains(&words[i - 1]);
    for (i, word) in words.iter().enumerate() {
        // "mar" is the sea and "ago" is "ago" more often than they are months.
        let Some((number, _)) = month(word).filter(|_| !matches!(*word, "mar" | "ago")) else { continue };
        let year = (1..=3).find_map(|k| year_in(words.get(i + k)));
        let before = if i >= 2 && words[i - 1] == "de" { words.get(i - 2) } else { i.checked_sub(1).and_then(|j| words.get(j)) };
        let day = day_in(words.get(i + 1)).or_else(|| day_in(before));
        let in_year = |year: i32| NaiveDate::from_ymd_opt(year, number, 1);
        match (day, year) {
            (Some(day), Some(year)) => {
                let date = NaiveDate::from_ymd_opt(year, number, day)?;
                return days(date, date + Duration::days(1));
            }
            (Some(day), None) => {
                let this_year = NaiveDate::from_ymd_opt(today.year(), number, day)?;
                let date = if this_year <= today { this_year } else { NaiveDate::from_ymd_opt(today.year() - 1, number, day)? };
                return days(date, date + Duration::days(1));
            }
            (None, Some(year)) => {
                let start = in_year(year)?;
                return days(start, next_month(start)?);
            }
            (None, None) if after_preposition(i) => {
                let start = in_year(if number <= today.month() { today.year() } else { today.year() - 1 })?;
                return days(start, next_month(start)?);
            }
            (None, None) => {}
        }
    }
    for (i, word) in words.iter().enumerate() {
        if let Some(year) = year_in(Some(word)).filter(|_| after_preposition(i)) {
            return days(NaiveDate::from_ymd_opt(year, 1, 1)?, NaiveDate::from_ymd_opt(year + 1, 1, 1)?);
        }
    }
    None
}

/// Words before a month or year that make it a time ("in March", "durante 2023").
/// ("since" is not one: "since March" is more than March.)
const PREPOSITIONS: &[&str] = &["in", "en", "de", "during", "durante"];

fn next_month(first: NaiveDate) -> Option<NaiveDate> {
    if first.month() == 12 {
        NaiveDate::from_ymd_opt(first.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(first.year(), first.month() + 1, 1)
    }
}

/// "three days ago", "hace 2 semanas": that day, widened by the vagueness of the unit.
fn ago(words: &[&str], today: NaiveDate, zone: Tz) -> Option<Span> {
    for (i, word) in words.iter().enumerate() {
        let (count_at, unit_at) = match *word {
            "ago" if i >= 2 => (i - 2, i - 1),
            "hace" => (i + 1, i + 2),
            _ => continue,
        };
        let (Some(count), Some(unit)) = (words.get(count_at), words.get(unit_at)) else { continue };
        let count = count.parse::<f64>().ok().or_else(|| number_word(count).map(|(n, _)| n))?;
        let (length, slack) = match *unit {
            "day" | "days" | "dia" | "dias" => (1, 1),
            "week" | "weeks" | "semana" | "semanas" => (7, 3),
            "month" | "months" | "mes" | "meses" => (30, 10),
            "year" | "years" | "ano" | "anos" => (365, 60),
            _ => continue,
        };
        let centre = today - Duration::days((count * f64::from(length)).round() as i64);
        return Some(local_span(centre - Duration::days(slack), centre + Duration::days(slack + 1), zone));
    }
    None
}

fn local_span(from: NaiveDate, to: NaiveDate, zone: Tz) -> Span {
    let at = |d: NaiveDate| {
        zone.from_local_datetime(&d.and_hms_opt(0, 0, 0).expect("midnight exists"))
            .earliest()
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|| Utc.from_utc_datetime(&d.and_hms_opt(0, 0, 0).expect("midnight exists")))
    };
    Span { start: at(from), end: at(to) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    /// The span `query` names on 2026-11-25 in Madrid, as local dates.
    fn named(query: &str) -> Option<(NaiveDate, NaiveDate)> {
        let zone: Tz = "Europe/Madrid".parse().unwrap();
        let now = Utc.with_ymd_and_hms(2026, 11, 25, 10, 0, 0).unwrap();
        span_in(query, now, zone).map(|s| (s.start.with_timezone(&zone).date_naive(), s.end.with_timezone(&zone).date_naive()))
    }

    #[test]
    fn a_date_said_outright_is_that_day() {
        assert_eq!(named("What did I eat for dinner on October 24, 2023?"), Some((day(2023, 10, 24), day(2023, 10, 25))));
        assert_eq!(named("¿Qué cené el 24 de octubre de 2023?"), Some((day(2023, 10, 24), day(2023, 10, 25))));
        assert_eq!(named("How was I feeling on April 10th?"), Some((day(2026, 4, 10), day(2026, 4, 11))), "the latest that has come");
        assert_eq!(named("what did I do on December 4?"), Some((day(2025, 12, 4), day(2025, 12, 5))), "not one still to come");
    }

    #[test]
    fn a_month_with_its_year_is_that_month_even_inside_last_week() {
        assert_eq!(named("Where was I during the last week of August 2023?"), Some((day(2023, 8, 1), day(2023, 9, 1))));
        assert_eq!(named("¿Qué hice en marzo de 2024?"), Some((day(2024, 3, 1), day(2024, 4, 1))));
        assert_eq!(named("what did I say in March?"), Some((day(2026, 3, 1), day(2026, 4, 1))));
        assert_eq!(named("How many times did I go to the beach in 2023?"), Some((day(2023, 1, 1), day(2024, 1, 1))));
    }

    #[test]
    fn words_that_only_look_like_months_name_no_time() {
        assert_eq!(named("may I ask what my sister said?"), None);
        assert_eq!(named("what have I said since March?"), None, "more than March");
        assert_eq!(named("¿Cuándo fui al mar con Laura?"), None);
        assert_eq!(named("¿Cuándo fui al mar en 2023?"), Some((day(2023, 1, 1), day(2024, 1, 1))), "the sea, in 2023");
        assert_eq!(named("what did I say three days ago?"), Some((day(2026, 11, 21), day(2026, 11, 24))));
        assert_eq!(named("what did I say last week?"), Some((day(2026, 11, 16), day(2026, 11, 23))));
    }
}
