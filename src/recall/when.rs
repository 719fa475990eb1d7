//! Questions about when: the stretch of time a query names ("last week", "en marzo",
//! "hace tres días"), so recall can rank what was said then above the rest.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;

use crate::dates::lexicon::{month, number_word};
use crate::knowledge::words::fold;

/// A stretch of time, start inclusive, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl Span {
    pub fn contains(&self, at: DateTime<Utc>) -> bool {
        self.start <= at && at < self.end
    }
}

/// Words that ask for a time ("when did I…", "¿cuándo…?"): the answer is a date, so
/// every result shows its own.
pub fn asks_when(query: &str) -> bool {
    let folded = fold(&query.to_lowercase());
    ["when ", "what day", "what date", "which day", "how long ago", "cuando", "que dia", "que fecha", "en que mes", "hace cuanto"]
        .iter()
        .any(|w| folded.contains(w))
}

/// The stretch of time `query` names, read in the user's zone at `now`.
pub fn span_in(query: &str, now: DateTime<Utc>, zone: Tz) -> Option<Span> {
    let text = fold(&query.to_lowercase());
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let today = now.with_timezone(&zone).date_naive();
    let days = |from: NaiveDate, to: NaiveDate| Some(local_span(from, to, zone));
    let has = |phrase: &str| text.contains(phrase);
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
    // "in March", "en marzo": the latest March that has begun.
    for pair in words.windows(2) {
        if matches!(pair[0], "in" | "en" | "de" | "during" | "durante") {
            if let Some((number, _)) = month(pair[1]) {
                let year = if number <= today.month() { today.year() } else { today.year() - 1 };
                let start = NaiveDate::from_ymd_opt(year, number, 1)?;
                let end = if number == 12 { NaiveDate::from_ymd_opt(year + 1, 1, 1)? } else { NaiveDate::from_ymd_opt(year, number + 1, 1)? };
                return days(start, end);
            }
        }
    }
    None
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
