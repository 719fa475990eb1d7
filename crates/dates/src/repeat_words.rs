//! How people say a repeat: "every day", "cada 15 días", "entre semana", "los lunes y
//! jueves", "el 1 de cada mes", "every 15th", "el primer lunes de cada mes", "the last
//! Friday of the month", "cada 3 de marzo", "every year on March 3".

use chrono::Weekday;

use super::grammar::Grammar;
use super::lexicon::{self as lex, Unit};
use super::parts::{Day, Repeat};

type Found<T> = Option<(T, usize)>;

const EVERY: &[&str] = &["every", "each", "cada", "todos los", "todas las", "once a", "once every"];
const MONTHLY: &[&str] =
    &["de cada mes", "of every month", "of each month", "of the month", "del mes", "de todos los meses", "every month", "each month", "cada mes", "de mes"];
const YEARLY: &[&str] = &["de cada ano", "cada ano", "every year", "each year", "todos los anos", "de todos los anos", "annually", "yearly"];
const WORKDAYS: &[Weekday] = &[Weekday::Mon, Weekday::Tue, Weekday::Wed, Weekday::Thu, Weekday::Fri];

pub(super) fn read(g: &Grammar<'_>, i: usize) -> Found<Repeat> {
    let every = g.any_of(i, EVERY);
    if let Some(found) = fixed(g, i) {
        return Some(found);
    }
    if let Some(found) = position(g, i, every.is_some()) {
        return Some(found);
    }
    if let Some(found) = yearly(g, i, every) {
        return Some(found);
    }
    if let Some(found) = month_day(g, i, every) {
        return Some(found);
    }
    if let Some(found) = weekdays(g, i, every) {
        return Some(found);
    }
    let at = every?;
    if let Some(end) = g.any_of(at, &["other", "otro", "por medio"]) {
        let (unit, _) = lex::unit(g.w(end)?)?;
        return by_unit(2, unit, end + 1);
    }
    // "every 2 weeks", "cada 15 días", "cada hora", "every morning" (a part follows).
    let (n, at) = match g.w(at).and_then(|w| lex::whole(w, 1000)) {
        Some(n) if g.w(at).and_then(lex::unit).is_none() => (n.max(1), at + 1),
        _ => (1, at),
    };
    if let Some(word) = g.w(at) {
        if lex::day_part(word).is_some() && n == 1 {
            // The part of the day is read next, as the hour.
            return Some((Repeat::Days(1), at));
        }
    }
    let (unit, _) = lex::unit(g.w(at)?)?;
    if unit == Unit::Second {
        // "every second", "cada 30 segundos": read, to be refused as too often with the
        // floor said ("every second Tuesday" is no such repeat).
        return (g.w(at + 1).and_then(lex::weekday).is_none()).then_some((Repeat::Minutes(0), at + 1));
    }
    let (repeat, end) = by_unit(n, unit, at + 1)?;
    // "every 2 weeks on monday", "cada mes el día 15".
    match repeat {
        Repeat::Weeks { interval, .. } => {
            if let Some((Repeat::Weeks { days, .. }, e)) = g.any_of(end, &["on", "el", "los", "on the"]).and_then(|a| weekdays(g, a, Some(a))) {
                return Some((Repeat::Weeks { interval, days }, e));
            }
        }
        Repeat::MonthDay { interval, .. } => {
            if let Some((day, e)) = g.any_of(end, &["on the", "el dia", "el", "on"]).and_then(|a| ordinal_at(g, a)) {
                return Some((Repeat::MonthDay { interval, day }, e));
            }
        }
        Repeat::Yearly { interval, .. } => {
            if let Some((Day::Calendar { day, month, year: None }, e)) = g.any_of(end, &["on", "el"]).and_then(|a| g.day_at(a)) {
                return Some((Repeat::Yearly { interval, month, day }, e));
            }
        }
        _ => {}
    }
    Some((repeat, end))
}

fn by_unit(n: u32, unit: Unit, end: usize) -> Found<Repeat> {
    let repeat = match unit {
        Unit::Second => return None,
        Unit::Minute => Repeat::Minutes(n),
        Unit::Hour => Repeat::Hours(n),
        Unit::Day => Repeat::Days(n),
        Unit::Week => Repeat::Weeks { interval: n, days: Vec::new() },
        Unit::Month => Repeat::MonthDay { interval: n, day: 0 },
        Unit::Year => Repeat::Yearly { interval: n, month: 0, day: 0 },
    };
    Some((repeat, end))
}

/// Single words and set phrases: "daily", "a diario", "entre semana", "hourly".
fn fixed(g: &Grammar<'_>, i: usize) -> Found<Repeat> {
    type Table<'a> = &'a [(&'a [&'a str], fn() -> Repeat)];
    let table: Table =
        &[
            (&["daily", "diariamente", "a diario", "everyday", "todos los dias", "every single day", "cada dia", "every day", "each day", "diario"], || {
                Repeat::Days(1)
            }),
            (&["hourly", "every hour", "cada hora", "each hour", "todas las horas"], || Repeat::Hours(1)),
            (&["weekly", "semanalmente", "every week", "cada semana", "todas las semanas", "each week"], || Repeat::Weeks { interval: 1, days: Vec::new() }),
            (&["monthly", "mensualmente", "every month", "cada mes", "todos los meses", "each month"], || Repeat::MonthDay { interval: 1, day: 0 }),
            (&["fortnightly", "every fortnight", "cada quincena", "quincenalmente"], || Repeat::Weeks { interval: 2, days: Vec::new() }),
            (
                &[
                    "every weekday",
                    "weekdays",
                    "on weekdays",
                    "entre semana",
                    "de lunes a viernes",
                    "los dias laborables",
                    "dias laborables",
                    "cada dia laborable",
                    "every workday",
                    "every working day",
                    "todos los dias de semana",
                    "los dias de semana",
                    "dias de semana",
                    "monday to friday",
                    "monday through friday",
                    "from monday to friday",
                    "mondays to fridays",
                    "monday-friday",
                    "lunes a viernes",
                    "todos los dias laborables",
                    "every business day",
                    "los dias habiles",
                    "dias habiles",
                    "on workdays",
                ],
                || Repeat::Weeks { interval: 1, days: WORKDAYS.to_vec() },
            ),
            (
                &[
                    "on weekends",
                    "every weekend",
                    "los fines de semana",
                    "cada fin de semana",
                    "todos los fines de semana",
                    "los findes",
                    "weekends",
                    "each weekend",
                ],
                || Repeat::Weeks { interval: 1, days: vec![Weekday::Sat, Weekday::Sun] },
            ),
            (&["yearly", "annually", "anualmente", "every year", "cada ano", "todos los anos", "each year", "once a year", "una vez al ano"], || {
                Repeat::Yearly { interval: 1, month: 0, day: 0 }
            }),
        ];
    let (end, make) = table.iter().filter_map(|(phrases, make)| g.any_of(i, phrases).map(|end| (end, make))).max_by_key(|(end, _)| *end)?;
    let repeat = make();
    // "cada día 15": a day of the month, not every day.
    if matches!(repeat, Repeat::Days(1)) && g.w(end).and_then(lex::ordinal_day).is_some() && g.w(end + 1).and_then(lex::unit).is_none() {
        return None;
    }
    // "every year on March 3", "cada mes el día 15", "weekly on mondays".
    match repeat {
        Repeat::Yearly { interval, .. } => {
            let at = g.any_of(end, &["on", "el", "on the"]).unwrap_or(end);
            if let Some((Day::Calendar { day, month, year: None }, e)) = g.day_at(at) {
                return Some((Repeat::Yearly { interval, month, day }, e));
            }
        }
        Repeat::MonthDay { interval, .. } => {
            if let Some((day, e)) = g.any_of(end, &["on the", "el dia", "el", "the", "on"]).and_then(|a| ordinal_at(g, a)) {
                return Some((Repeat::MonthDay { interval, day }, e));
            }
        }
        Repeat::Weeks { interval, ref days } if days.is_empty() => {
            if let Some((Repeat::Weeks { days, .. }, e)) = g.any_of(end, &["on", "los", "el"]).and_then(|a| weekdays(g, a, Some(a))) {
                return Some((Repeat::Weeks { interval, days }, e));
            }
        }
        _ => {}
    }
    Some((repeat, end))
}

fn ordinal_at(g: &Grammar<'_>, i: usize) -> Found<i32> {
    let w = g.w(i)?;
    lex::ordinal_day(w).map(|d| (d as i32, i + 1))
}

/// "el primer lunes de cada mes", "the last Friday of the month", "every first Monday".
fn position(g: &Grammar<'_>, i: usize, every: bool) -> Found<Repeat> {
    let at = g.any_of(i, &["every", "each", "cada", "el", "the", "on the", "todos los", "todas las"]).unwrap_or(i);
    let position = lex::position(g.w(at)?)?;
    if g.w(at + 1) == Some("dia") || g.w(at + 1) == Some("day") {
        // "el último día de cada mes"
        let end = g.any_of(at + 2, MONTHLY)?;
        return (position == -1).then_some((Repeat::MonthDay { interval: 1, day: -1 }, end));
    }
    let (weekday, _) = lex::weekday(g.w(at + 1)?)?;
    let end = match g.any_of(at + 2, MONTHLY) {
        Some(end) => end,
        None if every => at + 2,
        None => return None,
    };
    Some((Repeat::MonthPosition { position, weekday }, end))
}

/// "cada 3 de marzo", "every March 3", "el 3 de marzo de cada año", "March 3 every year".
fn yearly(g: &Grammar<'_>, i: usize, every: Option<usize>) -> Found<Repeat> {
    let at = every.unwrap_or(i);
    let (day, end) = g.day_at(at)?;
    let Day::Calendar { day, month, year: None } = day else { return None };
    match every {
        Some(_) => Some((Repeat::Yearly { interval: 1, month, day }, g.any_of(end, YEARLY).unwrap_or(end))),
        None => g.any_of(end, YEARLY).map(|e| (Repeat::Yearly { interval: 1, month, day }, e)),
    }
}

/// "el 1 de cada mes", "every 15th", "the 15th of every month", "cada día 15".
fn month_day(g: &Grammar<'_>, i: usize, every: Option<usize>) -> Found<Repeat> {
    let lead = every.or_else(|| g.any_of(i, &["el", "the", "on the"]));
    let at = lead.map(|a| g.any_of(a, &["dia", "the"]).unwrap_or(a)).unwrap_or(i);
    let w = g.w(at)?;
    let day = lex::ordinal_day(w)? as i32;
    if g.w(at + 1).and_then(lex::unit).is_some() {
        return None; // "every 2 days"
    }
    if let Some(end) = g.any_of(at + 1, MONTHLY) {
        return Some((Repeat::MonthDay { interval: 1, day }, end));
    }
    // "every 15th" says it is a day with its suffix; "cada día 15" with "día".
    let said_day = !w.bytes().all(|b| b.is_ascii_digit()) || (at > 0 && g.w(at - 1) == Some("dia"));
    (every.is_some() && said_day).then_some((Repeat::MonthDay { interval: 1, day }, at + 1))
}

/// "los lunes y jueves", "every Monday and Thursday", "on Tuesdays", "mondays".
fn weekdays(g: &Grammar<'_>, i: usize, every: Option<usize>) -> Found<Repeat> {
    let lead = every.or_else(|| g.any_of(i, &["los", "on", "todos los"]));
    let at = lead.unwrap_or(i);
    let first = g.w(at)?;
    let (weekday, _) = lex::weekday(first)?;
    // Without "every"/"cada", only a plural says it is a habit ("los lunes", "on mondays").
    let plural = lex::plural_weekday(first) || g.w(i) == Some("los") || g.w(i) == Some("todos");
    if every.is_none() && !plural {
        return None;
    }
    let mut days = vec![weekday];
    let mut end = at + 1;
    loop {
        let next = g.any_of(end, &["and", "y", "e", "&"]).unwrap_or(end);
        let next = g.any_of(next, &["los", "on", "el"]).unwrap_or(next);
        match g.w(next).and_then(lex::weekday) {
            Some((wd, _)) => {
                if !days.contains(&wd) {
                    days.push(wd);
                }
                end = next + 1;
            }
            None => break,
        }
    }
    Some((Repeat::Weeks { interval: 1, days }, end))
}
