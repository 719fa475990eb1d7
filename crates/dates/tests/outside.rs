//! Sentences from another project's public tests (`tests/data/outside/recognizers.tsv`:
//! Microsoft Recognizers-Text's date-time specs, Spanish and English), each read whole
//! as a reminder's words are, at its test's moment. Every sentence ends one of four
//! ways: read right, asked back (an hour that could be either half of the day, a day
//! or an hour missing), not understood (said so), or silently wrong, the worst: a
//! reminder set at a time the user did not say. Prints the shares per language and
//! part and every miss of the development part; the floors keep what was reached, and
//! the silently wrong share on the test part stays at 1% or less.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use sidecar_dates::{extract, DateErrorKind, Options};
use sidecar_domain::locale::Lang;

struct Row {
    line: usize,
    lang: Lang,
    sentence: String,
    expected: String,
    dev: bool,
    /// An hour is said ("hour"), or a day alone ("day").
    hour: bool,
    now: DateTime<Utc>,
    zone: Tz,
}

fn rows(text: &str) -> Vec<Row> {
    let mut context = None;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty()) {
        if let Some(at) = line.strip_prefix("@ ") {
            let (moment, zone) = at.rsplit_once(' ').expect("@ <date> <time> <zone>");
            let zone: Tz = zone.parse().expect("an IANA zone");
            let naive = NaiveDateTime::parse_from_str(moment, "%Y-%m-%d %H:%M").expect("YYYY-MM-DD HH:MM");
            context = Some((zone.from_local_datetime(&naive).single().expect("one moment").with_timezone(&Utc), zone));
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "line {}: language, sentence, expected, part, kind", n + 1);
        let (now, zone) = context.expect("an @ line first");
        let lang = if cols[0] == "es" { Lang::Es } else { Lang::En };
        rows.push(Row { line: n + 1, lang, sentence: cols[1].into(), expected: cols[2].into(), dev: cols[3] == "dev", hour: cols[4] == "hour", now, zone });
    }
    rows
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Right,
    Asked,
    NotUnderstood,
    SilentlyWrong,
}

/// How the reader ended on `row`, and what it answered.
fn outcome(row: &Row) -> (Outcome, String) {
    let expected = row.expected.strip_prefix('?').unwrap_or(&row.expected);
    let asking_is_right = row.expected.starts_with('?');
    match extract(&row.sentence, row.now, row.zone, Options::new(row.lang)) {
        Ok(split) => {
            let got = split.when.local().format("%Y-%m-%d %H:%M").to_string();
            let right = expected != "!*" && expected.split(" or ").any(|e| e == got);
            (if right { Outcome::Right } else { Outcome::SilentlyWrong }, got)
        }
        Err(_) if expected == "!*" => (Outcome::Right, "refused".into()),
        Err(e) if matches!(e.kind, DateErrorKind::AmbiguousHour | DateErrorKind::MissingDay | DateErrorKind::MissingTime) => {
            (if asking_is_right { Outcome::Right } else { Outcome::Asked }, format!("!{:?}", e.kind))
        }
        Err(e) => (Outcome::NotUnderstood, format!("!{:?}", e.kind)),
    }
}

/// For each kind, language and part: the least share read right and the most set
/// silently wrong (%), what was reached, so the one only rises and the other only falls.
/// Before issue 68, Spanish hours read 78.1% (dev) and 75.0% (test) right, and set
/// 12.4% and 15.2% silently wrong. Most of what is wrong now is Recognizers' own
/// conventions ("el próximo domingo" said on a Monday is the one after the coming one),
/// sentences in the past ("I went back Friday the 15th") and two-digit years.
const LIMITS: &[(&str, &str, &str, f64, f64)] = &[
    ("hours", "en", "dev", 63.0, 14.0),
    ("hours", "en", "test", 63.0, 15.5),
    ("hours", "es", "dev", 84.5, 7.7),
    ("hours", "es", "test", 80.0, 12.0),
    ("days", "en", "dev", 50.5, 22.5),
    ("days", "en", "test", 43.5, 32.0),
    ("days", "es", "dev", 61.0, 26.0),
    ("days", "es", "test", 58.0, 19.0),
];

#[test]
fn sentences_from_another_projects_tests() {
    let table = rows(include_str!("../../../tests/data/outside/recognizers.tsv"));
    let mut tally: BTreeMap<(&str, &str, &str), [usize; 4]> = BTreeMap::new();
    let mut misses = Vec::new();
    for row in &table {
        let (lang, part) = (if row.lang == Lang::Es { "es" } else { "en" }, if row.dev { "dev" } else { "test" });
        let (outcome, got) = outcome(row);
        let kind = if row.hour { "hours" } else { "days" };
        tally.entry((kind, lang, part)).or_default()[outcome as usize] += 1;
        if row.dev && matches!(outcome, Outcome::SilentlyWrong | Outcome::NotUnderstood) {
            misses.push(format!("line {}: {lang} {:?}: expected {}, got {got} ({outcome:?})", row.line, row.sentence, row.expected));
        }
    }
    println!("dev misses:\n{}", misses.join("\n"));
    let share = |counts: &[usize; 4], which: Outcome| 100.0 * counts[which as usize] as f64 / counts.iter().sum::<usize>() as f64;
    for ((kind, lang, part), counts) in &tally {
        println!(
            "recognizers, {kind} ({lang}, {part}): right {:.1}%, asked back {:.1}%, not understood {:.1}%, silently wrong {:.1}% of {}",
            share(counts, Outcome::Right),
            share(counts, Outcome::Asked),
            share(counts, Outcome::NotUnderstood),
            share(counts, Outcome::SilentlyWrong),
            counts.iter().sum::<usize>()
        );
    }
    for ((kind, lang, part), counts) in &tally {
        let &(.., floor, most) = LIMITS.iter().find(|(k, l, p, ..)| k == kind && l == lang && p == part).expect("limits per kind, language and part");
        assert!(share(counts, Outcome::Right) >= floor, "{kind} {lang} {part}: right {:.1}% < {floor}%", share(counts, Outcome::Right));
        assert!(share(counts, Outcome::SilentlyWrong) <= most, "{kind} {lang} {part}: silently wrong {:.1}% > {most}%", share(counts, Outcome::SilentlyWrong));
    }
}
