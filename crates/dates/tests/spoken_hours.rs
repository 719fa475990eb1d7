//! Every way a Spanish hour is said with a part of the day, as speech to text writes it
//! (the "siete y media de la mañana", "ocho menos cuarto de la tarde"): the hour
//! in words or digits, its minutes ("en punto", "y cuarto", "y media", "menos cuarto",
//! "y veinte", "menos cinco", "cuarto para las ocho"), a part of the day, said today or
//! tomorrow. Each reminder
//! must be set at the hour meant, not near it: built from the words, not from a table.

use chrono::{Duration, NaiveDate, NaiveTime, TimeZone};
use sidecar_dates::extract;
use sidecar_dates::Options;
use sidecar_domain::Lang;

const HOURS: [&str; 12] = ["una", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"];
/// Minutes said after the hour, and what they add (negative: before the hour).
const MINUTES: &[(&str, i64)] = &[
    ("", 0),
    ("en punto", 0),
    ("y cuarto", 15),
    ("y media", 30),
    ("menos cuarto", -15),
    ("y diez", 10),
    ("y veinte", 20),
    ("y veinticinco", 25),
    ("menos cinco", -5),
    ("menos veinte", -20),
];

/// Minutes said before the hour they count from, as Latin America says them ("cuarto
/// para las ocho" is 7:45), and what they add.
const MINUTES_BEFORE_THE_HOUR: &[(&str, i64)] = &[
    ("cuarto para", -15),
    ("un cuarto para", -15),
    ("veinte para", -20),
    ("diez para", -10),
    ("cinco minutos para", -5),
    ("cuarto pasadas", 15),
    ("diez pasadas", 10),
];

/// A part of the day, and the hour on the 24-hour clock it makes of `h` (1 to 12), where
/// it is said of that hour.
fn with_part(part: &str, h: u32) -> Option<u32> {
    match part {
        "de la mañana" => (1..=11).contains(&h).then_some(h),
        "de la madrugada" => (1..=5).contains(&h).then_some(h),
        "del mediodía" => (h == 12 || h <= 2).then_some(if h == 12 { 12 } else { h + 12 }),
        "de la tarde" => (h == 12 || h <= 8).then_some(if h == 12 { 12 } else { h + 12 }),
        // "las doce de la noche" is the midnight that ends the day.
        "de la noche" => (8..=12).contains(&h).then_some(h + 12),
        _ => None,
    }
}

/// The same part of the day said before the hour, apart from it ("a mediodía" is an
/// hour of its own: "a mediodía a la una" asks which).
fn part_before(part: &str) -> Option<&str> {
    match part {
        "de la mañana" => Some("por la mañana"),
        "de la madrugada" => Some("de madrugada"),
        "de la tarde" => Some("por la tarde"),
        "de la noche" => Some("por la noche"),
        _ => None,
    }
}

#[test]
fn spanish_hours_with_a_part_of_the_day_are_read_exactly() {
    let zone = chrono_tz::Europe::Madrid;
    // Monday 2 March 2026, 00:10: every hour of the day is still ahead.
    let today = NaiveDate::from_ymd_opt(2026, 3, 2).unwrap();
    let now = zone.from_local_datetime(&today.and_hms_opt(0, 10, 0).unwrap()).unwrap().with_timezone(&chrono::Utc);
    let mut wrong = Vec::new();
    let mut tried = 0;
    for (n, word) in HOURS.iter().enumerate() {
        let h = n as u32 + 1;
        for part in ["de la mañana", "de la madrugada", "del mediodía", "de la tarde", "de la noche"] {
            let Some(h24) = with_part(part, h) else { continue };
            let after = MINUTES.iter().map(|&(m, add)| (m, add, true));
            let before_the_hour = MINUTES_BEFORE_THE_HOUR.iter().map(|&(m, add)| (m, add, false));
            for (minutes, add, minutes_after) in after.chain(before_the_hour) {
                for (day, days, before) in [("", 0, false), ("mañana ", 1, false), ("mañana ", 1, true), ("el martes ", 1, true)] {
                    if before && part_before(part).is_none() {
                        continue;
                    }
                    for said in [word.to_string(), h.to_string()] {
                        let article = if h == 1 { "la" } else { "las" };
                        let (lead, hour) = if minutes_after {
                            (format!("a {article}"), [said.as_str(), minutes].iter().filter(|w| !w.is_empty()).copied().collect::<Vec<_>>().join(" "))
                        } else {
                            ("a".to_string(), format!("{minutes} {article} {said}"))
                        };
                        let sentence = if before {
                            format!("Recuérdame llamar a Ana {day}{} {lead} {hour}", part_before(part).unwrap_or_default())
                        } else {
                            format!("Recuérdame llamar a Ana {day}{lead} {hour} {part}")
                        };
                        let at = today.and_time(NaiveTime::MIN) + Duration::hours(i64::from(h24)) + Duration::days(days) + Duration::minutes(add);
                        let expected = at.format("%Y-%m-%d %H:%M").to_string();
                        tried += 1;
                        let got = match extract(&sentence, now, zone, Options::new(Lang::Es)) {
                            Ok(split) => split.when.local().format("%Y-%m-%d %H:%M").to_string(),
                            Err(e) => format!("!{:?}", e.kind),
                        };
                        if got != expected {
                            wrong.push(format!("{sentence:?}: expected {expected}, got {got}"));
                        }
                    }
                }
            }
        }
    }
    println!("{} of {tried} misread:\n{}", wrong.len(), wrong.join("\n"));
    assert!(wrong.is_empty(), "{} of {tried} Spanish hours misread, first: {}", wrong.len(), wrong[0]);
}
