use super::*;
use chrono::TimeZone;
use chrono_tz::Europe::Madrid;

/// Wednesday 2026-11-18 10:00 in Madrid.
fn now() -> DateTime<Utc> {
    Madrid.with_ymd_and_hms(2026, 11, 18, 10, 0, 0).unwrap().with_timezone(&Utc)
}

fn local(text: &str) -> String {
    match parse(text, now(), Madrid, Options::new(Lang::En)) {
        Ok(r) => r.local().format("%Y-%m-%d %H:%M").to_string(),
        Err(e) => format!("!{:?}", e.kind),
    }
}

#[test]
fn ordinary_phrasings() {
    assert_eq!(local("en media hora"), "2026-11-18 10:30");
    assert_eq!(local("tomorrow at noon"), "2026-11-19 12:00");
    assert_eq!(local("a las 6 de la tarde"), "2026-11-18 18:00");
    assert_eq!(local("a las 3"), "!AmbiguousHour");
}

#[test]
fn sentence_split() {
    let s = extract("call mum tomorrow at 9", now(), Madrid, Options::new(Lang::En)).unwrap();
    assert_eq!(s.what, "call mum");
    assert_eq!(s.when_text, "tomorrow at 9");
}
