//! What Sidecar says about dates, in the language the user wrote in: why a time could
//! not be read (echoing the user's own words), how to say it instead, notes about how
//! it was read, and a repeat rule in words.
//!
//! Over 400 lines: every sentence about dates in both languages, side by side, so neither
//! language falls behind.

use chrono::{DateTime, Datelike, NaiveDate, NaiveTime, Weekday};
use chrono_tz::Tz;
use serde::Serialize;

use sidecar_domain::Lang;

/// Why a date could not be read. The kind is stable (tests, the tools); the text is
/// for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum DateErrorKind {
    Empty,
    /// No date in the words at all.
    NoDate,
    /// A word that is not part of any date Sidecar knows.
    NotUnderstood,
    /// An hour from 1 to 11 with no day and no am/pm ("a las 3").
    AmbiguousHour,
    /// "later", "en un rato": no amount of time.
    Vague,
    /// "next week": a week but no day.
    MissingDay,
    /// A day whose default hour has passed ("today").
    MissingTime,
    /// "31 de febrero".
    InvalidDate,
    Past,
    /// Two different dates in one sentence.
    TwoDates,
    /// Before 1970 or more than 100 years ahead.
    OutOfRange,
    /// A repeat more often than a reminder may come (`MIN_REPEAT_MINUTES`).
    TooFrequent,
    /// "next Friday" said early in the week: this week's or next week's.
    AmbiguousDay,
    /// "viernes 15 de junio" where the 15th is a Saturday.
    WrongWeekday,
    /// "al final del día", "end of day": a moment meant, no hour said.
    VagueHour,
    /// A piece of a date beside the time read from a sentence that was not read with it
    /// ("8pm on the 15", "16 days from 01/02/2018").
    PartlyRead,
}

impl DateErrorKind {
    /// A question back to the user (which hour, which day, which week), not a failure
    /// to read the words.
    pub fn asks_back(self) -> bool {
        use DateErrorKind::*;
        matches!(self, AmbiguousHour | MissingDay | MissingTime | AmbiguousDay | WrongWeekday | VagueHour | PartlyRead)
    }
}

/// The shortest interval between a repeating reminder's occurrences: more often would
/// flood the chat and the notifications.
pub const MIN_REPEAT_MINUTES: u32 = 15;

/// The error text and the suggestion, in `lang`. `words` are the user's own.
pub(crate) fn date_error(kind: DateErrorKind, words: &str, lang: Lang) -> (String, String) {
    let es = lang == Lang::Es;
    use DateErrorKind::*;
    let (error, suggestion) = match (kind, es) {
        (Empty, false) => ("The time is empty.".to_string(), "Say when, e.g. \"in 30 minutes\" or \"tomorrow at 9\"."),
        (Empty, true) => ("Falta decir cuándo.".to_string(), "Por ejemplo: \"en 30 minutos\" o \"mañana a las 9\"."),
        (NoDate, false) => (format!("I found no time in \"{words}\"."), "Add when, e.g. \"tomorrow at 9\" or \"in 2 hours\"."),
        (NoDate, true) => (format!("No encontré cuándo en \"{words}\"."), "Añade cuándo, por ejemplo \"mañana a las 9\" o \"en 2 horas\"."),
        (NotUnderstood, false) => {
            (format!("I don't understand \"{words}\" as part of a time."), "Say it like \"tomorrow at 9\", \"Friday at 3pm\" or \"in 2 hours\".")
        }
        (NotUnderstood, true) => {
            (format!("No entiendo \"{words}\" como parte de una fecha."), "Dilo como \"mañana a las 9\", \"el viernes a las 15\" o \"en 2 horas\".")
        }
        (AmbiguousHour, false) => (
            format!("\"{words}\" has no day, and the hour could be morning or afternoon."),
            "Say the day and which one: \"today at 3pm\" or \"tomorrow at 3am\".",
        ),
        (AmbiguousHour, true) => (
            format!("\"{words}\" no dice el día, y la hora puede ser de la mañana o de la tarde."),
            "Di el día y cuál: \"hoy a las 15\" o \"mañana a las 3 de la mañana\".",
        ),
        (Vague, false) => (format!("\"{words}\" is too vague for a reminder."), "Say how long: \"in 30 minutes\" or \"in 1 hour\"."),
        (Vague, true) => (format!("\"{words}\" es demasiado vago para un recordatorio."), "Di cuánto: \"en 30 minutos\" o \"en 1 hora\"."),
        (MissingDay, false) => (format!("\"{words}\" has no day."), "Say the day: \"Monday at 10\" or \"next Friday at 9\"."),
        (MissingDay, true) => (format!("\"{words}\" no dice qué día."), "Di el día: \"el lunes a las 10\" o \"el viernes que viene a las 9\"."),
        (MissingTime, false) => (format!("\"{words}\" has no hour, and the usual one has passed."), "Say the hour too, e.g. \"today at 6pm\"."),
        (MissingTime, true) => (format!("\"{words}\" no dice la hora, y la habitual ya pasó."), "Di también la hora, por ejemplo \"hoy a las 18\"."),
        (InvalidDate, false) => (format!("\"{words}\" is not a date on the calendar."), "Check the day and the month, e.g. \"February 28\"."),
        (InvalidDate, true) => (format!("\"{words}\" no existe en el calendario."), "Revisa el día y el mes, por ejemplo \"28 de febrero\"."),
        (Past, false) => (format!("\"{words}\" has already passed."), "Say a later time, e.g. \"tomorrow at 9\"."),
        (Past, true) => (format!("\"{words}\" ya pasó."), "Di un momento futuro, por ejemplo \"mañana a las 9\"."),
        (TwoDates, false) => (format!("\"{words}\" names two different times."), "Say just one, e.g. \"tomorrow at 9\"."),
        (TwoDates, true) => (format!("\"{words}\" nombra dos momentos distintos."), "Di solo uno, por ejemplo \"mañana a las 9\"."),
        (OutOfRange, false) => (format!("\"{words}\" is too far away for a reminder."), "Use a date from now to 100 years ahead."),
        (OutOfRange, true) => (format!("\"{words}\" queda demasiado lejos para un recordatorio."), "Usa una fecha de aquí a 100 años."),
        (AmbiguousDay, false) => (format!("\"{words}\" could be this week's day or next week's."), "Say the date, e.g. \"Friday the 20th\"."),
        (AmbiguousDay, true) => (format!("\"{words}\" puede ser el de esta semana o el de la siguiente."), "Di la fecha, por ejemplo \"el viernes 20\"."),
        (WrongWeekday, false) => {
            (format!("In \"{words}\" the weekday and the date do not match."), "Say the date alone, e.g. \"June 15\", or check the weekday.")
        }
        (WrongWeekday, true) => {
            (format!("En \"{words}\" el día de la semana y la fecha no coinciden."), "Di solo la fecha, por ejemplo \"15 de junio\", o revisa el día.")
        }
        (VagueHour, false) => (format!("\"{words}\" does not say at what time."), "Say the hour, e.g. \"Sunday at 10pm\"."),
        (VagueHour, true) => (format!("\"{words}\" no dice a qué hora."), "Di la hora, por ejemplo \"el domingo a las 22\"."),
        (PartlyRead, false) => (format!("I can't tell how \"{words}\" goes with the time beside it."), "Say the whole date, e.g. \"Friday the 15th at 8pm\"."),
        (PartlyRead, true) => {
            (format!("No sé cómo encaja \"{words}\" con la fecha de al lado."), "Di la fecha entera, por ejemplo \"el viernes 15 a las 20:00\".")
        }
        (TooFrequent, false) => (format!("\"{words}\" repeats too often: a reminder can repeat at most every {MIN_REPEAT_MINUTES} minutes."), ""),
        (TooFrequent, true) => (format!("\"{words}\" se repite demasiado: un recordatorio puede repetirse como mucho cada {MIN_REPEAT_MINUTES} minutos."), ""),
    };
    let suggestion = match (kind, es) {
        (TooFrequent, false) => format!("Say \"every {MIN_REPEAT_MINUTES} minutes\" or more, e.g. \"every 30 minutes\"."),
        (TooFrequent, true) => format!("Di \"cada {MIN_REPEAT_MINUTES} minutos\" o más, por ejemplo \"cada 30 minutos\"."),
        _ => suggestion.to_string(),
    };
    (error, suggestion)
}

/// Midnight said on a date: the night that ends it ("at midnight on 12 August").
pub(crate) fn midnight_between(date: NaiveDate, lang: Lang) -> String {
    let next = date.succ_opt().unwrap_or(date);
    match lang {
        Lang::En => format!("midnight is the night between {} and {}", day_words(date, lang), day_words(next, lang)),
        Lang::Es => format!("la medianoche es la noche entre el {} y el {}", day_words(date, lang), day_words(next, lang)),
    }
}

/// A time that had passed today, moved to tomorrow.
pub(crate) fn rolled(time: NaiveTime, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{} has passed today: tomorrow at {}", time.format("%H:%M"), time.format("%H:%M")),
        Lang::Es => format!("Las {} de hoy ya pasaron: mañana a las {}", time.format("%H:%M"), time.format("%H:%M")),
    }
}

/// A local time that does not exist (clocks go forward), moved by the gap.
pub(crate) fn skipped(naive: chrono::NaiveDateTime, zone: Tz, moved: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{naive} does not exist in {zone} (clocks go forward); moved to {moved}"),
        Lang::Es => format!("{naive} no existe en {zone} (se adelantan los relojes); pasa a las {moved}"),
    }
}

/// A local time that happens twice (clocks go back): the first is used.
pub(crate) fn doubled(naive: chrono::NaiveDateTime, zone: Tz, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{naive} happens twice in {zone} (clocks go back); the first one is used"),
        Lang::Es => format!("{naive} ocurre dos veces en {zone} (se atrasan los relojes); se usa la primera"),
    }
}

/// A date alone: an all-day reminder at the default hour.
pub(crate) fn all_day(time: NaiveTime, lang: Lang) -> String {
    match lang {
        Lang::En => format!("No hour was said: all day, reminded at {}", time.format("%H:%M")),
        Lang::Es => format!("Sin hora: todo el día, con aviso a las {}", time.format("%H:%M")),
    }
}

const EN_DAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const ES_DAYS: [&str; 7] = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"];
const EN_MONTHS: [&str; 12] = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const ES_MONTHS: [&str; 12] = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];

pub(crate) fn weekday_name(day: Weekday, lang: Lang) -> &'static str {
    let i = day.num_days_from_monday() as usize;
    if lang == Lang::Es {
        ES_DAYS[i]
    } else {
        EN_DAYS[i]
    }
}

/// A weekday in the plural, as a Spanish repeat says it ("los sábados").
fn weekdays_es(day: Weekday) -> String {
    let name = weekday_name(day, Lang::Es);
    if name.ends_with('s') {
        name.to_string()
    } else {
        format!("{name}s")
    }
}

fn month_name(month: u32, lang: Lang) -> &'static str {
    let i = (month.clamp(1, 12) - 1) as usize;
    if lang == Lang::Es {
        ES_MONTHS[i]
    } else {
        EN_MONTHS[i]
    }
}

/// "March 3" / "3 de marzo", with the year when given.
pub(crate) fn date_words(date: NaiveDate, with_year: bool, lang: Lang) -> String {
    let month = month_name(date.month(), lang);
    match (lang, with_year) {
        (Lang::En, false) => format!("{month} {}", date.day()),
        (Lang::En, true) => format!("{month} {}, {}", date.day(), date.year()),
        (Lang::Es, false) => format!("{} de {month}", date.day()),
        (Lang::Es, true) => format!("{} de {month} de {}", date.day(), date.year()),
    }
}

/// "Tuesday 1 December" / "martes 1 de diciembre": a day, no hour.
pub fn day_words(date: NaiveDate, lang: Lang) -> String {
    let day = weekday_name(date.weekday(), lang);
    match lang {
        Lang::En => format!("{day} {} {}", date.day(), month_name(date.month(), lang)),
        Lang::Es => format!("{day} {}", date_words(date, false, lang)),
    }
}

/// "Tuesday 24 November 2026, 09:00" / "martes 24 de noviembre de 2026, 09:00".
pub fn moment_words(local: DateTime<Tz>, lang: Lang) -> String {
    let date = local.date_naive();
    let day = weekday_name(date.weekday(), lang);
    match lang {
        Lang::En => format!("{day} {} {} {}, {}", date.day(), month_name(date.month(), lang), date.year(), local.format("%H:%M")),
        Lang::Es => format!("{day} {}, {}", date_words(date, true, lang), local.format("%H:%M")),
    }
}

/// A time zone as people say it: "Madrid time" / "hora de Madrid", "UTC", "UTC−3";
/// never the database's "Etc/UTC" or "America/Argentina/Buenos_Aires" (the first-hour
/// m16).
pub fn zone_words(zone: Tz, lang: Lang) -> String {
    let name = zone.name();
    if matches!(
        name,
        "UTC"
            | "Etc/UTC"
            | "Etc/UCT"
            | "Etc/Universal"
            | "Etc/Zulu"
            | "UCT"
            | "Universal"
            | "Zulu"
            | "GMT"
            | "Etc/GMT"
            | "Etc/GMT0"
            | "Etc/GMT+0"
            | "Etc/GMT-0"
            | "Etc/Greenwich"
            | "GMT0"
            | "GMT+0"
            | "GMT-0"
            | "Greenwich"
    ) {
        return "UTC".into();
    }
    // The Etc zones' signs are POSIX's, the reverse of how offsets are written.
    if let Some(offset) = name.strip_prefix("Etc/GMT") {
        return match offset.split_at(1) {
            ("+", hours) => format!("UTC\u{2212}{hours}"),
            (_, hours) => format!("UTC+{hours}"),
        };
    }
    let place = name.rsplit('/').next().unwrap_or(name).replace('_', " ");
    match lang {
        Lang::En => format!("{place} time"),
        Lang::Es => format!("hora de {place}"),
    }
}

fn list(items: &[String], lang: Lang) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {} {last}", rest.join(", "), if lang == Lang::Es { "y" } else { "and" }),
    }
}

fn ordinal(n: i32, lang: Lang) -> String {
    match (lang, n) {
        (Lang::Es, -1) => "último".into(),
        (Lang::Es, -2) => "penúltimo".into(),
        (Lang::Es, 1) => "primer".into(),
        (Lang::Es, 2) => "segundo".into(),
        (Lang::Es, 3) => "tercer".into(),
        (Lang::Es, n) => format!("{n}º"),
        (Lang::En, -1) => "last".into(),
        (Lang::En, -2) => "second-to-last".into(),
        (Lang::En, 1) => "first".into(),
        (Lang::En, 2) => "second".into(),
        (Lang::En, 3) => "third".into(),
        (Lang::En, n) => format!("{n}th"),
    }
}

fn day_ordinal(n: i32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

pub(crate) fn weekday_code(code: &str) -> Option<Weekday> {
    Some(match code {
        "MO" => Weekday::Mon,
        "TU" => Weekday::Tue,
        "WE" => Weekday::Wed,
        "TH" => Weekday::Thu,
        "FR" => Weekday::Fri,
        "SA" => Weekday::Sat,
        "SU" => Weekday::Sun,
        _ => return None,
    })
}

/// An RFC 5545 rule in words: "every weekday at 09:00", "el primer lunes de cada mes a
/// las 09:00". `start` gives the hour (and the day, where the rule does not say it).
pub fn rule_words(rrule: &str, start: DateTime<Tz>, lang: Lang) -> String {
    let es = lang == Lang::Es;
    let field = |key: &str| rrule.split(';').find_map(|kv| kv.strip_prefix(key).and_then(|v| v.strip_prefix('=')));
    let interval: u32 = field("INTERVAL").and_then(|v| v.parse().ok()).unwrap_or(1);
    let at = if es { format!(" a las {}", start.format("%H:%M")) } else { format!(" at {}", start.format("%H:%M")) };
    let byday: Vec<(i32, Weekday)> = field("BYDAY")
        .map(|v| {
            v.split(',')
                .filter_map(|d| {
                    // An imported rule may hold anything: only ASCII is split.
                    let (n, code) = if d.is_ascii() { d.split_at(d.len().saturating_sub(2)) } else { ("", "") };
                    weekday_code(code).map(|w| (n.parse().unwrap_or(0), w))
                })
                .collect()
        })
        .unwrap_or_default();
    let every_n = |one_en: &str, many_en: &str, one_es: &str, many_es: &str| match (es, interval) {
        (false, 1) => one_en.to_string(),
        (false, n) => format!("every {n} {many_en}"),
        (true, 1) => one_es.to_string(),
        (true, n) => format!("cada {n} {many_es}"),
    };
    let mut text = match field("FREQ").unwrap_or("") {
        "MINUTELY" => every_n("every minute", "minutes", "cada minuto", "minutos"),
        "HOURLY" => every_n("every hour", "hours", "cada hora", "horas"),
        "DAILY" => every_n("every day", "days", "todos los días", "días") + &at,
        "WEEKLY" => {
            let days: Vec<Weekday> = if byday.is_empty() { vec![start.weekday()] } else { byday.iter().map(|(_, w)| *w).collect() };
            let workdays = days == [Weekday::Mon, Weekday::Tue, Weekday::Wed, Weekday::Thu, Weekday::Fri];
            // "los domingos": a Spanish habit names its days in the plural.
            let names: Vec<String> = days.iter().map(|d| if es { weekdays_es(*d) } else { weekday_name(*d, lang).to_string() }).collect();
            let names = list(&names, lang);
            let head = match (es, interval, workdays) {
                (false, 1, true) => "every weekday".to_string(),
                (true, 1, true) => "de lunes a viernes".to_string(),
                (false, 1, false) => format!("every {names}"),
                (true, 1, false) => format!("los {names}"),
                (false, n, _) => format!("every {n} weeks on {names}"),
                (true, n, _) => format!("cada {n} semanas, los {names},"),
            };
            head + &at
        }
        "MONTHLY" => {
            let head = if let Some(&(n, w)) = byday.first() {
                if es {
                    format!("el {} {} de cada mes", ordinal(n, lang), weekday_name(w, lang))
                } else {
                    format!("on the {} {} of every month", ordinal(n, lang), weekday_name(w, lang))
                }
            } else {
                let day: i32 = field("BYMONTHDAY").and_then(|v| v.parse().ok()).unwrap_or(start.day() as i32);
                match (es, day) {
                    (false, -1) => "on the last day of every month".to_string(),
                    (true, -1) => "el último día de cada mes".to_string(),
                    (false, d) => format!("on the {} of every month", day_ordinal(d)),
                    (true, d) => format!("el día {d} de cada mes"),
                }
            };
            let head = match (es, interval) {
                (_, 1) => head,
                (false, n) => format!("{head} (every {n} months)"),
                (true, n) => format!("{head} (cada {n} meses)"),
            };
            head + &at
        }
        "YEARLY" => {
            let month: u32 = field("BYMONTH").and_then(|v| v.parse().ok()).unwrap_or(start.month());
            let day: u32 = field("BYMONTHDAY").and_then(|v| v.parse().ok()).unwrap_or(start.day());
            let date = NaiveDate::from_ymd_opt(2000, month, day).unwrap_or(start.date_naive());
            let on = date_words(date, false, lang);
            let head = match (es, interval) {
                (false, 1) => format!("every year on {on}"),
                (true, 1) => format!("cada año el {on}"),
                (false, n) => format!("every {n} years on {on}"),
                (true, n) => format!("cada {n} años el {on}"),
            };
            head + &at
        }
        other => other.to_string(),
    };
    if let Some(count) = field("COUNT") {
        text += &if es { format!(", {count} veces") } else { format!(", {count} times") };
    }
    if let Some(until) = field("UNTIL").and_then(|u| chrono::NaiveDateTime::parse_from_str(u, "%Y%m%dT%H%M%SZ").ok()) {
        let local = until.and_utc().with_timezone(&start.timezone()).date_naive();
        text += &if es { format!(", hasta el {}", date_words(local, true, lang)) } else { format!(", until {}", date_words(local, true, lang)) };
    }
    text
}

/// An hour said as a bound ("after 4pm"): the reminder comes at the hour itself.
pub(crate) fn bound(bound: crate::parts::Bound, time: NaiveTime, lang: Lang) -> String {
    use crate::parts::Bound::{After, Before};
    let t = time.format("%H:%M");
    match (bound, lang) {
        (After, Lang::En) => format!("said as after {t}: reminded at {t}"),
        (After, Lang::Es) => format!("dicho como después de las {t}: aviso a las {t}"),
        (Before, Lang::En) => format!("said as before {t}: reminded at {t}, the latest time given"),
        (Before, Lang::Es) => format!("dicho como antes de las {t}: aviso a las {t}, la hora límite dicha"),
    }
}

/// The suggestion for an hour that could be morning or afternoon: its two readings
/// still to come, soonest first (`today` says whether each is today or tomorrow).
/// The day an hour that could be either half's is offered on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HourDay {
    Today,
    Tomorrow,
    /// The day the user said ("el jueves a las 3").
    On(NaiveDate),
}

pub(crate) fn which_hour(choices: &[(HourDay, NaiveTime)], lang: Lang) -> String {
    use chrono::Timelike;
    let say = |(day, t): &(HourDay, NaiveTime)| {
        let (h12, pm) = (if t.hour() % 12 == 0 { 12 } else { t.hour() % 12 }, t.hour() >= 12);
        let minutes = if t.minute() == 0 { String::new() } else { format!(":{:02}", t.minute()) };
        let day = match (day, lang) {
            (HourDay::Today, Lang::En) => "today".to_string(),
            (HourDay::Tomorrow, Lang::En) => "tomorrow".to_string(),
            (HourDay::Today, Lang::Es) => "hoy".to_string(),
            (HourDay::Tomorrow, Lang::Es) => "mañana".to_string(),
            (HourDay::On(date), _) => day_words(*date, lang),
        };
        match lang {
            Lang::En => format!("\"{day} at {h12}{minutes}{}\"", if pm { "pm" } else { "am" }),
            Lang::Es if pm => format!("\"{day} a las {}{minutes}\"", t.hour()),
            // "la una menos cinco" may be 00:55, which "12:55 de la mañana" would not say.
            Lang::Es if t.hour() == 0 => format!("\"{day} a las 0:{:02}\"", t.minute()),
            Lang::Es => format!("\"{day} a las {h12}{minutes} de la mañana\"",),
        }
    };
    let said: Vec<String> = choices.iter().map(say).collect();
    match lang {
        Lang::En => format!("Say the day and which one: {}.", said.join(" or ")),
        Lang::Es => format!("Di el día y cuál: {}.", said.join(" o ")),
    }
}

/// The two days "next Friday" may be, as a suggestion: "Say which: \"Friday 20
/// November\" or \"Friday 27 November\"."
pub(crate) fn which_day(choices: &[NaiveDate], lang: Lang) -> String {
    let said: Vec<String> = choices.iter().map(|d| format!("\"{}\"", day_words(*d, lang))).collect();
    match lang {
        Lang::En => format!("Say which: {}.", said.join(" or ")),
        Lang::Es => format!("Di cuál: {}.", said.join(" o ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_are_named_as_people_say_them() {
        let say = |name: &str, lang| zone_words(name.parse().unwrap(), lang);
        assert_eq!(say("Etc/UTC", Lang::En), "UTC");
        assert_eq!(say("UTC", Lang::Es), "UTC");
        assert_eq!(say("Europe/Madrid", Lang::En), "Madrid time");
        assert_eq!(say("Europe/Madrid", Lang::Es), "hora de Madrid");
        assert_eq!(say("America/Argentina/Buenos_Aires", Lang::Es), "hora de Buenos Aires");
        assert_eq!(say("Etc/GMT+3", Lang::En), "UTC\u{2212}3");
        assert_eq!(say("Etc/GMT-10", Lang::En), "UTC+10");
    }
}
