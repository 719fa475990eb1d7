//! The date table (`tests/data/dates.tsv`): every phrase read at its fixed "now" and
//! zone, compared with the expected local result or error kind. Prints the pass rate
//! per language and lists every miss.

use std::collections::BTreeMap;

use chrono::{NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use sidecar::dates::{parse, Options};
use sidecar::locale::Lang;

pub struct Row {
    pub line: usize,
    pub lang: Lang,
    pub phrase: String,
    pub expected: String,
    pub now: chrono::DateTime<Utc>,
    pub zone: Tz,
}

/// Rows of a table file: "@ <local now> <zone>" sets the context for the rows below.
pub fn rows(text: &str) -> Vec<Row> {
    let mut now = None;
    let mut zone: Option<Tz> = None;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(context) = line.strip_prefix("@ ") {
            let (moment, name) = context.rsplit_once(' ').expect("@ <date> <time> <zone>");
            let z: Tz = name.parse().expect("an IANA zone");
            let naive = NaiveDateTime::parse_from_str(moment, "%Y-%m-%d %H:%M").expect("YYYY-MM-DD HH:MM");
            now = Some(z.from_local_datetime(&naive).single().expect("an unambiguous now").with_timezone(&Utc));
            zone = Some(z);
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert!(cols.len() >= 3, "line {}: three tab-separated columns", n + 1);
        let lang = if cols[0] == "es" { Lang::Es } else { Lang::En };
        rows.push(Row {
            line: n + 1,
            lang,
            phrase: cols[1].to_string(),
            expected: cols[2..].join("\t"),
            now: now.expect("an @ line first"),
            zone: zone.expect("an @ line first"),
        });
    }
    rows
}

/// What the parser answers, in the table's notation.
fn answer(row: &Row, expected: &str) -> String {
    match parse(&row.phrase, row.now, row.zone, Options::new(row.lang)) {
        Ok(reading) => {
            let with_offset = expected.split(" | ").next().is_some_and(|e| e.split(' ').count() == 3);
            let format = if with_offset { "%Y-%m-%d %H:%M %z" } else { "%Y-%m-%d %H:%M" };
            let mut out = reading.local().format(format).to_string();
            if let Some(rule) = reading.rrule {
                out += &format!(" | {rule}");
            }
            out
        }
        Err(e) => format!("!{:?}", e.kind),
    }
}

#[test]
fn the_date_table() {
    let table = rows(include_str!("../data/dates.tsv"));
    assert!(table.len() >= 400, "at least 400 phrases");
    let mut tally: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for row in &table {
        let got = answer(row, &row.expected);
        let lang = if row.lang == Lang::Es { "es" } else { "en" };
        let entry = tally.entry(lang).or_default();
        entry.1 += 1;
        if got == row.expected {
            entry.0 += 1;
        } else {
            misses.push(format!("line {}: {lang} \"{}\": expected {}, got {got}", row.line, row.phrase, row.expected));
        }
    }
    for (lang, (pass, total)) in &tally {
        println!("{lang}: {pass}/{total} ({:.1}%)", 100.0 * *pass as f64 / *total as f64);
    }
    assert!(misses.is_empty(), "{} of {} phrases misread:\n{}", misses.len(), table.len(), misses.join("\n"));
}

#[test]
fn dates_inside_sentences() {
    use sidecar::dates::extract;
    let table = rows(include_str!("../data/extract.tsv"));
    assert!(table.len() >= 100, "at least 100 sentences");
    let mut misses = Vec::new();
    for row in &table {
        let cols: Vec<&str> = row.expected.split('\t').collect();
        let got = match extract(&row.phrase, row.now, row.zone, Options::new(row.lang)) {
            Ok(split) => {
                let mut when = split.when.local().format("%Y-%m-%d %H:%M").to_string();
                if let Some(rule) = &split.when.rrule {
                    when += &format!(" | {rule}");
                }
                format!("{}\t{}\t{when}", split.what, split.when_text)
            }
            Err(e) => format!("!{:?}", e.kind),
        };
        if got != cols.join("\t") {
            misses.push(format!("line {}: \"{}\": expected {:?}, got {got:?}", row.line, row.phrase, cols.join(" / ")));
        }
    }
    println!("sentences: {}/{}", table.len() - misses.len(), table.len());
    assert!(misses.is_empty(), "{} of {} sentences split wrong:\n{}", misses.len(), table.len(), misses.join("\n"));
}
