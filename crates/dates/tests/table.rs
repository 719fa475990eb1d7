//! The date table (`tests/data/dates.tsv`): every phrase read at its fixed "now" and
//! zone, compared with the expected local result or error kind. Prints the pass rate
//! per language and lists every miss.

use std::collections::BTreeMap;

use chrono::{NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use sidecar_dates::parse;
use sidecar_dates::Options;
use sidecar_domain::Lang;

struct Row {
    pub line: usize,
    pub lang: Lang,
    pub phrase: String,
    pub expected: String,
    pub now: chrono::DateTime<Utc>,
    pub zone: Tz,
}

/// Rows of a table file: "@ <local now> <zone>" sets the context for the rows below.
fn rows(text: &str) -> Vec<Row> {
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
    let table = rows(include_str!("../../../tests/data/dates.tsv"));
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
    use sidecar_dates::extract;
    let table = rows(include_str!("../../../tests/data/extract.tsv"));
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

/// A repeat rule reads in words in both languages, with its next three dates.
#[test]
fn repeats_read_in_words_with_their_next_dates() {
    use chrono::TimeZone;
    let zone = chrono_tz::Europe::Madrid;
    let now = zone.with_ymd_and_hms(2026, 11, 18, 10, 0, 0).unwrap().with_timezone(&Utc);
    let read = |text: &str, lang| parse(text, now, zone, Options::new(lang)).unwrap();
    let r = read("el primer lunes de cada mes a las 9", Lang::Es);
    assert_eq!(r.rule_words(Lang::Es).unwrap(), "el primer lunes de cada mes a las 09:00");
    assert_eq!(r.rule_words(Lang::En).unwrap(), "on the first Monday of every month at 09:00");
    let next: Vec<String> = r.occurrences(3).iter().map(|t| t.with_timezone(&zone).format("%Y-%m-%d %H:%M").to_string()).collect();
    assert_eq!(next, ["2026-12-07 09:00", "2027-01-04 09:00", "2027-02-01 09:00"]);
    assert_eq!(read("every weekday at 8am", Lang::En).rule_words(Lang::En).unwrap(), "every weekday at 08:00");
    assert_eq!(read("los lunes y jueves a las 10", Lang::Es).rule_words(Lang::Es).unwrap(), "los lunes y jueves a las 10:00");
    assert_eq!(read("cada 3 de marzo", Lang::Es).rule_words(Lang::Es).unwrap(), "cada año el 3 de marzo a las 09:00");
    assert_eq!(read("every day at 8, 5 times", Lang::En).rule_words(Lang::En).unwrap(), "every day at 08:00, 5 times");
    assert_eq!(read("every 2 hours", Lang::En).rule_words(Lang::En).unwrap(), "every 2 hours");
    assert_eq!(read("el último día de cada mes", Lang::Es).rule_words(Lang::Es).unwrap(), "el último día de cada mes a las 09:00");
    // A series with an end stops: five times means five dates.
    assert_eq!(read("todos los días a las 8, 5 veces", Lang::Es).occurrences(10).len(), 5);
    // Across the DST change the wall-clock hour holds.
    let r = read("todos los domingos a las 9", Lang::Es);
    // Said back in the plural, as a Spanish habit is (the first hour's m4: not "los domingo").
    assert_eq!(r.rule_words(Lang::Es).unwrap(), "los domingos a las 09:00");
    assert_eq!(read("los lunes y sábados a las 8", Lang::Es).rule_words(Lang::Es).unwrap(), "los lunes y sábados a las 08:00");
    let hours: Vec<String> = r.occurrences(30).iter().map(|t| t.with_timezone(&zone).format("%H:%M").to_string()).collect();
    assert!(hours.iter().all(|h| h == "09:00"), "{hours:?}");
}

/// The plans: "at midnight on 12th August" is the night between the 12th and the
/// 13th, and the reading says so, in the words' language.
#[test]
fn midnight_on_a_date_is_the_night_that_ends_it_said_as_such() {
    use chrono::TimeZone;
    let zone = chrono_tz::Europe::Madrid;
    let now = zone.with_ymd_and_hms(2026, 7, 1, 10, 0, 0).unwrap().with_timezone(&Utc);
    for (text, lang, note) in [
        ("at midnight on 12th August", Lang::En, "midnight is the night between Wednesday 12 August and Thursday 13 August"),
        ("a medianoche del 12 de agosto", Lang::Es, "la medianoche es la noche entre el miércoles 12 de agosto y el jueves 13 de agosto"),
    ] {
        let r = parse(text, now, zone, Options::new(lang)).unwrap();
        assert_eq!(r.local().format("%Y-%m-%d %H:%M").to_string(), "2026-08-13 00:00", "{text}");
        assert_eq!(r.note.as_deref(), Some(note), "{text}");
    }
    let at_nine = parse("on 12 August at 9pm", now, zone, Options::new(Lang::En)).unwrap();
    assert_eq!(at_nine.note, None, "only midnight needs saying");
}

/// Errors name what is missing, echo the user's words exactly, and suggest in the
/// language they were written in.
#[test]
fn errors_say_what_is_missing_in_the_users_words_and_language() {
    use chrono::TimeZone;
    use sidecar_dates::DateErrorKind;
    let zone = chrono_tz::Europe::Madrid;
    let now = zone.with_ymd_and_hms(2026, 11, 18, 10, 0, 0).unwrap().with_timezone(&Utc);
    // The app's language is English, but the words are Spanish.
    let e = parse("Mañana a las 25", now, zone, Options::new(Lang::En)).unwrap_err();
    assert_eq!(e.kind, DateErrorKind::NotUnderstood);
    assert_eq!(e.lang, Lang::Es);
    let e = parse("a las 3", now, zone, Options::new(Lang::En)).unwrap_err();
    assert_eq!(e.error, "\"a las 3\" no dice el día, y la hora puede ser de la mañana o de la tarde.");
    assert!(e.suggestion.contains("hoy a las 15"));
    // An English user is answered in English; "at 3pm" and "23:00" are not "unclear".
    let e = parse("at 3", now, zone, Options::new(Lang::Es)).unwrap_err();
    assert!(e.error.starts_with("\"at 3\" has no day") && e.suggestion.contains("today at 3pm"), "{e:?}");
    assert!(parse("at 3pm", now, zone, Options::new(Lang::En)).is_ok());
    assert!(parse("23:00", now, zone, Options::new(Lang::En)).is_ok());
    // The user's own words, accents and case kept.
    let e = parse("El Mes Que Viene", now, zone, Options::new(Lang::Es)).unwrap_err();
    assert_eq!(e.error, "\"El Mes Que Viene\" no dice qué día.");
    let e = parse("mañana y pasado mañana", now, zone, Options::new(Lang::Es)).unwrap_err();
    assert!(e.error.contains("\"mañana y pasado mañana\""), "{}", e.error);
    // The suggestion is valid when it is given: at 23:00 both readings are tomorrow's.
    let late = zone.with_ymd_and_hms(2026, 11, 18, 23, 0, 0).unwrap().with_timezone(&Utc);
    let e = parse("a las 3", late, zone, Options::new(Lang::Es)).unwrap_err();
    assert_eq!(e.suggestion, "Di el día y cuál: \"mañana a las 3 de la mañana\" o \"mañana a las 15\".");
    let afternoon = zone.with_ymd_and_hms(2026, 11, 18, 16, 0, 0).unwrap().with_timezone(&Utc);
    let e = parse("at 5:30", afternoon, zone, Options::new(Lang::En)).unwrap_err();
    assert_eq!(e.suggestion, "Say the day and which one: \"today at 5:30pm\" or \"tomorrow at 5:30am\".");
    for (text, at) in [("a las 3", late), ("at 5:30", afternoon), ("a las 11", now)] {
        let e = parse(text, at, zone, Options::new(Lang::En)).unwrap_err();
        for suggested in e.suggestion.split('"').skip(1).step_by(2) {
            assert!(parse(suggested, at, zone, Options::new(Lang::En)).is_ok_and(|r| r.at > at), "{suggested:?} must be readable and ahead");
        }
    }
    // A passed time alone rolls to tomorrow, and the reading says so.
    let r = parse("at 9am", now, zone, Options::new(Lang::En)).unwrap();
    assert_eq!(r.note.as_deref(), Some("09:00 has passed today: tomorrow at 09:00"));
}

use proptest::strategy::Strategy;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 400, .. Default::default() })]
    /// Any input up to 10 kB: no panic, an answer either way (huge numbers, unicode,
    /// repeated words, date words in any order).
    #[test]
    fn the_parser_never_panics(
        words in proptest::collection::vec(proptest::prop_oneof![
            proptest::string::string_regex("[0-9]{1,25}").unwrap(),
            proptest::string::string_regex("[0-9]{1,4}[:/.,-][0-9]{1,4}([:/.,-][0-9]{1,6})?").unwrap(),
            proptest::sample::select(vec![
                "en", "in", "a", "las", "at", "de", "every", "cada", "el", "the", "y", "and", "mañana", "tomorrow", "hoy", "lunes", "friday",
                "marzo", "may", "pm", "am", "p.m.", "noche", "morning", "media", "half", "hora", "hours", "días", "weeks", "mes", "años",
                "primer", "last", "último", "hasta", "until", "times", "veces", "mediodía", "midnight", "next", "que", "viene", "º", "1st",
                "31", "29", "febrero", "9999", "0", "-1", "1e9", "½", "🕐", "ñ", "\u{200b}", "", " ",
            ]).prop_map(String::from),
            proptest::string::string_regex("\\PC{0,40}").unwrap(),
        ], 0..400),
        now_secs in 0i64..4_000_000_000,
    ) {
        use chrono::TimeZone;
        let text = words.join(" ");
        let text = &text[..text.len().min(10_240)];
        let now = Utc.timestamp_opt(now_secs, 0).unwrap();
        for zone in [chrono_tz::Europe::Madrid, chrono_tz::America::New_York, chrono_tz::Pacific::Chatham] {
            let _ = parse(text, now, zone, Options::new(Lang::Es));
            let _ = sidecar_dates::extract(text, now, zone, Options::new(Lang::En));
        }
    }
}

/// How a phrase from another parser's tests fared: read as expected, answered with a
/// question back (an hour that could be morning or afternoon, a day missing), or misread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Read,
    Asked,
    Missed,
}

fn outside_outcome(row: &Row, expected: &str) -> (Outcome, String) {
    match parse(&row.phrase, row.now, row.zone, Options::new(row.lang)) {
        Ok(reading) if expected != "!*" => {
            let got = reading.local().format("%Y-%m-%d %H:%M").to_string();
            (if got == expected { Outcome::Read } else { Outcome::Missed }, got)
        }
        Ok(reading) => (Outcome::Missed, reading.local().format("%Y-%m-%d %H:%M").to_string()),
        Err(_) if expected == "!*" => (Outcome::Read, "refused".into()),
        Err(e) if e.kind.asks_back() => (Outcome::Asked, format!("!{:?}", e.kind)),
        Err(e) => (Outcome::Missed, format!("!{:?}", e.kind)),
    }
}

/// Phrasings from Duckling's public corpora (`tests/data/outside/`), never tuned on
/// their "test" part: the share read right per language and part, the share answered
/// with a question, and every miss of the "dev" part. The floors keep what was reached.
#[test]
fn phrasings_from_other_parsers_tests() {
    let table = rows(include_str!("../../../tests/data/outside/duckling.tsv"));
    let mut tally: BTreeMap<(&str, &str), [usize; 3]> = BTreeMap::new();
    let mut misses = Vec::new();
    for row in &table {
        let (expected, part) = row.expected.split_once('\t').expect("expected, then part");
        let lang = if row.lang == Lang::Es { "es" } else { "en" };
        let (outcome, got) = outside_outcome(row, expected);
        tally.entry((lang, part)).or_default()[outcome as usize] += 1;
        if outcome == Outcome::Missed && part == "dev" {
            misses.push(format!("line {}: {lang} \"{}\": expected {expected}, got {got}", row.line, row.phrase));
        }
    }
    let rate = |counts: &[usize; 3], which: Outcome| 100.0 * counts[which as usize] as f64 / counts.iter().sum::<usize>() as f64;
    for ((lang, part), counts) in &tally {
        println!(
            "outside ({lang}, {part}): read {:.1}%, asked back {:.1}%, misread {:.1}% of {}",
            rate(counts, Outcome::Read),
            rate(counts, Outcome::Asked),
            rate(counts, Outcome::Missed),
            counts.iter().sum::<usize>()
        );
    }
    println!("dev misses:\n{}", misses.join("\n"));
    for ((lang, part), counts) in &tally {
        let floor = OUTSIDE_FLOORS.iter().find(|(l, p, _)| l == lang && p == part).map(|f| f.2).expect("a floor per language and part");
        assert!(rate(counts, Outcome::Read) >= floor, "{lang} {part}: read {:.1}% < {floor}%", rate(counts, Outcome::Read));
    }
}

/// The share of outside phrasings read right that must hold (language, part, %).
/// Spanish went from 64.8% (dev) and 69.3% (test) to 74.6% and 75.0% with hours said
/// with their unit, days in words and fixed holidays; English test from 58.0% to 61.9%
/// with "nine forty five".
const OUTSIDE_FLOORS: &[(&str, &str, f64)] = &[("en", "dev", 67.0), ("en", "test", 61.5), ("es", "dev", 74.5), ("es", "test", 74.5)];
