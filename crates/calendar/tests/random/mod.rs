//! Random calendars as a hostile server or feed could send them: nesting hundreds deep,
//! repeat rules of every frequency and part (valid, absurd and never occurring), times
//! from year 1 to 9999 in real, quoted and unknown zones, titles with line breaks,
//! escape sequences and bidi marks, and stray lines. Shared by the property test and
//! the bench that prints the time and memory of the worst case.

use proptest::prelude::*;

const ZONES: &[&str] = &["Europe/Madrid", "\"America/New_York\"", "/mozilla.org/20070129_1/Pacific/Fiji", "Mars/Olympus", "", "UTC", "Asia/Kolkata"];
const FREQS: &[&str] = &["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY", "FORTNIGHTLY", ""];
const DAYS: &[&str] = &["MO", "TU", "WE", "TH", "FR", "SA", "SU", "XX"];

fn stamp() -> BoxedStrategy<String> {
    (prop_oneof![Just(1970u32), Just(2026), 1u32..10_000], 0u32..14, 0u32..33, 0u32..25, 0u32..61, 0u32..62)
        .prop_map(|(y, mo, d, h, mi, s)| format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}"))
        .boxed()
}

fn start(name: &'static str) -> BoxedStrategy<String> {
    prop_oneof![
        stamp().prop_map(move |t| format!("{name}:{t}Z")),
        (stamp(), prop::sample::select(ZONES)).prop_map(move |(t, z)| format!("{name};TZID={z}:{t}")),
        stamp().prop_map(move |t| format!("{name};VALUE=DATE:{}", &t[..8])),
        stamp().prop_map(move |t| format!("{name}:{t}")),
        "[0-9TZ:;=A-Z]{0,20}".prop_map(move |junk| format!("{name}:{junk}")),
    ]
    .boxed()
}

fn part() -> BoxedStrategy<String> {
    prop_oneof![
        (0u64..200_000).prop_map(|n| format!("INTERVAL={n}")),
        (0u64..5_000_000_000).prop_map(|n| format!("COUNT={n}")),
        stamp().prop_map(|t| format!("UNTIL={t}Z")),
        (-2i32..15).prop_map(|n| format!("BYMONTH={n}")),
        prop::collection::vec(-40i32..41, 1..4).prop_map(|v| format!("BYMONTHDAY={}", join(&v))),
        prop::collection::vec((-60i32..61, prop::sample::select(DAYS)), 1..4)
            .prop_map(|v| format!("BYDAY={}", v.iter().map(|(n, d)| if *n == 0 { d.to_string() } else { format!("{n}{d}") }).collect::<Vec<_>>().join(","))),
        prop::collection::vec(0i32..30, 1..4).prop_map(|v| format!("BYHOUR={}", join(&v))),
        prop::collection::vec(0i32..70, 1..4).prop_map(|v| format!("BYMINUTE={}", join(&v))),
        prop::collection::vec(0i32..70, 1..4).prop_map(|v| format!("BYSECOND={}", join(&v))),
        prop::collection::vec(-400i32..400, 1..3).prop_map(|v| format!("BYSETPOS={}", join(&v))),
        prop::collection::vec(-370i32..370, 1..3).prop_map(|v| format!("BYYEARDAY={}", join(&v))),
        prop::collection::vec(-55i32..55, 1..3).prop_map(|v| format!("BYWEEKNO={}", join(&v))),
        prop::sample::select(DAYS).prop_map(|d| format!("WKST={d}")),
    ]
    .boxed()
}

fn join(values: &[i32]) -> String {
    values.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

fn rule() -> BoxedStrategy<Option<String>> {
    prop::option::weighted(
        0.7,
        (prop::sample::select(FREQS), prop::collection::vec(part(), 0..4)).prop_map(|(freq, parts)| {
            let mut all = vec![format!("FREQ={freq}")];
            all.extend(parts);
            format!("RRULE:{}", all.join(";"))
        }),
    )
    .boxed()
}

fn title() -> BoxedStrategy<String> {
    // Printable text, and what a title must not carry into a prompt or a terminal.
    "([a-zA-Zé ñ<>/]|\u{1b}\\[2J|\u{7}|\u{202e}|\u{2066}|\\\\n|IMPORTANT SYSTEM NOTICE){0,12}".boxed()
}

fn nesting() -> BoxedStrategy<(usize, bool)> {
    (prop_oneof![3 => 0usize..3, 1 => 250usize..600], prop::bool::ANY).boxed()
}

fn event(n: usize) -> BoxedStrategy<String> {
    (start("DTSTART"), prop::option::of(start("DTEND")), rule(), title(), nesting(), prop::option::of(start("EXDATE")), prop::option::of(start("RDATE")))
        .prop_map(move |(dtstart, dtend, rule, title, (depth, alarms), exdate, rdate)| {
            let component = if alarms { "VALARM" } else { "X-NESTED" };
            let mut lines =
                vec!["BEGIN:VEVENT".to_string(), format!("UID:e{n}@random"), "DTSTAMP:20261101T000000Z".into(), dtstart, format!("SUMMARY:{title}")];
            lines.extend(dtend);
            lines.extend(rule);
            lines.extend(exdate);
            lines.extend(rdate);
            lines.extend((0..depth).map(|_| format!("BEGIN:{component}\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M")));
            lines.extend((0..depth).map(|_| format!("END:{component}")));
            lines.push("END:VEVENT".into());
            lines.join("\r\n")
        })
        .boxed()
}

/// A calendar of one to three events, sometimes with a stray line or an unclosed end.
pub(crate) fn calendar() -> BoxedStrategy<String> {
    (event(0), prop::option::of(event(1)), prop::option::of(event(2)), prop::option::of("[A-Z:;=-]{0,30}"), prop::bool::weighted(0.9))
        .prop_map(|(first, second, third, stray, closed)| {
            let mut lines = vec!["BEGIN:VCALENDAR".to_string(), "VERSION:2.0".into(), "PRODID:-//random//EN".into(), first];
            lines.extend(second);
            lines.extend(third);
            lines.extend(stray);
            if closed {
                lines.push("END:VCALENDAR".into());
            }
            lines.join("\r\n") + "\r\n"
        })
        .boxed()
}
