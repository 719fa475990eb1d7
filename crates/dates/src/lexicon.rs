//! The words dates are made of, in Spanish and English: tokens with their place in the
//! user's text (so a reminder keeps the user's own words), numbers said in words,
//! units, weekdays, months and parts of the day. Everything is matched lower-cased
//! and accent-folded ("miércoles" → "miercoles", "año" → "ano").

use chrono::Weekday;

use sidecar_domain::word_overlap::fold;

/// The longest input read. Longer text is cut here (dates are short; this bounds the
/// work on hostile input).
pub(crate) const MAX_INPUT_BYTES: usize = 10_240;

/// A word of the user's text: folded for matching, with its byte range in the original.
#[derive(Debug, Clone)]
pub struct Tok {
    pub text: String,
    pub start: usize,
    pub end: usize,
}

/// Splits on spaces and on punctuation that never belongs to a date token; keeps
/// `9:30`, `31/05/2024`, `1.5`, `p.m.` and ISO forms whole.
pub fn tokens(original: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut start = None;
    let separator = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | '!' | '?' | '¿' | '¡' | '(' | ')' | '"' | '“' | '”' | '«' | '»');
    let mut push = |from: usize, to: usize| {
        let raw = &original[from..to];
        let mut text = fold(&raw.to_lowercase());
        let mut end = to;
        // A sentence's full stop or a trailing colon is not part of the word; "p.m." keeps
        // its dot, "9 pm." ends a sentence.
        while (text.ends_with('.') || text.ends_with(':')) && !text.ends_with(".m.") {
            text.pop();
            end -= 1;
        }
        if text.is_empty() {
            return;
        }
        // An ISO date-time inside a sentence ("2016-12-16T12:23:59", "T12:34:20") is
        // its day and its hour, read as if a space stood for the "T".
        if let Some(t) = iso_time_at(&text) {
            if t > 0 {
                out.push(Tok { text: text[..t].to_string(), start: from, end: from + t });
            }
            out.push(Tok { text: text[t + 1..].to_string(), start: from + t + 1, end });
        } else {
            out.push(Tok { text, start: from, end });
        }
    };
    let bytes = original.as_bytes();
    for (i, c) in original.char_indices() {
        // "1,5 horas": a decimal comma stays inside its number.
        let decimal_comma = c == ',' && i > 0 && bytes[i - 1].is_ascii_digit() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if separator(c) && !decimal_comma {
            if let Some(s) = start.take() {
                push(s, i);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        push(s, original.len());
    }
    out
}

/// Where the "t" of an ISO date-time stands in a lowercased word: after a day
/// ("2016-12-16t12:23") or alone before the hour ("t12:34:20"). A zone after the time
/// ("z", "+01:00") is left to the whole-text reader, which knows what it means.
fn iso_time_at(word: &str) -> Option<usize> {
    let t = word.find('t')?;
    let (day, time) = (&word[..t], &word[t + 1..]);
    let day_ok = day.is_empty() || day.len() == 10 && day.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() });
    let time_ok =
        time.len() >= 4 && time.as_bytes()[0].is_ascii_digit() && time.contains(':') && time.bytes().all(|b| b.is_ascii_digit() || b == b':' || b == b'.');
    (day_ok && time_ok).then_some(t)
}

/// Which language a word is evidence of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tongue {
    Es,
    En,
}

/// A number said in words or digits: "media" 0.5, "un par de" 2, "1.5", "veinte".
pub fn number_word(word: &str) -> Option<(f64, Option<Tongue>)> {
    use Tongue::*;
    let (n, t) = match word {
        "a" | "an" | "one" => (1.0, En),
        "un" | "una" | "uno" => (1.0, Es),
        // "a las cero horas", "a las cero treinta": midnight on the 24-hour clock.
        "cero" => (0.0, Es),
        "half" => (0.5, En),
        "media" | "medio" => (0.5, Es),
        "two" => (2.0, En),
        "dos" => (2.0, Es),
        "three" => (3.0, En),
        "tres" => (3.0, Es),
        "four" => (4.0, En),
        "cuatro" => (4.0, Es),
        "five" => (5.0, En),
        "cinco" => (5.0, Es),
        "six" => (6.0, En),
        "seis" => (6.0, Es),
        "seven" => (7.0, En),
        "siete" => (7.0, Es),
        "eight" => (8.0, En),
        "ocho" => (8.0, Es),
        "nine" => (9.0, En),
        "nueve" => (9.0, Es),
        "ten" => (10.0, En),
        "diez" => (10.0, Es),
        "eleven" => (11.0, En),
        "once" => (11.0, Es),
        "twelve" => (12.0, En),
        "doce" => (12.0, Es),
        "thirteen" => (13.0, En),
        "trece" => (13.0, Es),
        "fourteen" => (14.0, En),
        "catorce" => (14.0, Es),
        "fifteen" => (15.0, En),
        "quince" => (15.0, Es),
        "sixteen" => (16.0, En),
        "dieciseis" => (16.0, Es),
        "seventeen" => (17.0, En),
        "diecisiete" => (17.0, Es),
        "eighteen" => (18.0, En),
        "dieciocho" => (18.0, Es),
        "nineteen" => (19.0, En),
        "diecinueve" => (19.0, Es),
        "twenty" => (20.0, En),
        "veinte" => (20.0, Es),
        "thirty" => (30.0, En),
        "veintiuno" | "veintiun" | "veintiuna" => (21.0, Es),
        "veintidos" => (22.0, Es),
        "veintitres" => (23.0, Es),
        "veinticuatro" => (24.0, Es),
        "veinticinco" => (25.0, Es),
        "veintiseis" => (26.0, Es),
        "veintisiete" => (27.0, Es),
        "veintiocho" => (28.0, Es),
        "veintinueve" => (29.0, Es),
        "treinta" => (30.0, Es),
        "forty" | "fourty" => (40.0, En),
        "cuarenta" => (40.0, Es),
        "fifty" => (50.0, En),
        "cincuenta" => (50.0, Es),
        _ => return digits(word).map(|n| (n, None)),
    };
    Some((n, Some(t)))
}

/// "15", "1.5", "1,5"; at most 9 digits before the point, so no overflow downstream.
pub(crate) fn digits(word: &str) -> Option<f64> {
    let word = word.replace(',', ".");
    let (whole, frac) = word.split_once('.').unwrap_or((&word, ""));
    if whole.is_empty() || whole.len() > 9 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// A whole number from 0 to `max`, in digits or words.
pub(crate) fn whole(word: &str, max: u32) -> Option<u32> {
    let (n, _) = number_word(word)?;
    (n.fract() == 0.0 && n >= 0.0 && n <= f64::from(max)).then_some(n as u32)
}

/// A unit of time, in seconds, days or months.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

pub fn unit(word: &str) -> Option<(Unit, Option<Tongue>)> {
    use Tongue::*;
    use Unit::*;
    Some(match word {
        "second" | "seconds" | "sec" | "secs" => (Second, Some(En)),
        "segundo" | "segundos" | "seg" | "s" => (Second, Some(Es)),
        "minute" | "minutes" => (Minute, Some(En)),
        "minuto" | "minutos" => (Minute, Some(Es)),
        "min" | "mins" | "m" => (Minute, None),
        "hour" | "hours" | "hr" | "hrs" => (Hour, Some(En)),
        "hora" | "horas" => (Hour, Some(Es)),
        "h" => (Hour, None),
        "day" | "days" => (Day, Some(En)),
        "dia" | "dias" => (Day, Some(Es)),
        "d" => (Day, None),
        "week" | "weeks" | "wk" | "wks" | "w" => (Week, Some(En)),
        "semana" | "semanas" => (Week, Some(Es)),
        "month" | "months" => (Month, Some(En)),
        "mes" | "meses" => (Month, Some(Es)),
        "year" | "years" | "yr" | "yrs" => (Year, Some(En)),
        "ano" | "anos" => (Year, Some(Es)),
        _ => return None,
    })
}

pub(crate) fn weekday(word: &str) -> Option<(Weekday, Option<Tongue>)> {
    use Tongue::*;
    use Weekday::*;
    Some(match word {
        "lunes" => (Mon, Some(Es)),
        "martes" => (Tue, Some(Es)),
        "miercoles" => (Wed, Some(Es)),
        "jueves" => (Thu, Some(Es)),
        "viernes" => (Fri, Some(Es)),
        "sabado" | "sabados" => (Sat, Some(Es)),
        "domingo" | "domingos" => (Sun, Some(Es)),
        "monday" | "mondays" => (Mon, Some(En)),
        "tuesday" | "tuesdays" | "tues" | "tue" => (Tue, Some(En)),
        "wednesday" | "wednesdays" | "weds" => (Wed, Some(En)),
        "thursday" | "thursdays" | "thurs" | "thur" | "thu" => (Thu, Some(En)),
        "friday" | "fridays" | "fri" => (Fri, Some(En)),
        // Abbreviations that are no ordinary word ("sat", "sun", "wed", "mar" are).
        "mon" => (Mon, Some(En)),
        "mie" => (Wed, Some(Es)),
        "jue" => (Thu, Some(Es)),
        "saturday" | "saturdays" => (Sat, Some(En)),
        "sunday" | "sundays" => (Sun, Some(En)),
        _ => return None,
    })
}

/// A weekday said in the plural ("mondays", "los sábados"): a habit, not one day.
pub(crate) fn plural_weekday(word: &str) -> bool {
    word.ends_with("days") || matches!(word, "sabados" | "domingos")
}

/// A month's number; abbreviations only where they cannot be ordinary words.
pub fn month(word: &str) -> Option<(u32, Option<Tongue>)> {
    use Tongue::*;
    Some(match word {
        "enero" | "ene" => (1, Some(Es)),
        "febrero" => (2, Some(Es)),
        "marzo" => (3, Some(Es)),
        "abril" => (4, Some(Es)),
        "mayo" => (5, Some(Es)),
        "junio" => (6, Some(Es)),
        "julio" => (7, Some(Es)),
        "agosto" | "ago" => (8, Some(Es)),
        "septiembre" | "setiembre" => (9, Some(Es)),
        "octubre" => (10, Some(Es)),
        "noviembre" => (11, Some(Es)),
        "diciembre" | "dic" => (12, Some(Es)),
        "january" | "jan" => (1, Some(En)),
        "february" | "feb" => (2, Some(En)),
        "march" | "mar" => (3, None),
        "april" | "apr" => (4, Some(En)),
        "may" => (5, Some(En)),
        "june" | "jun" => (6, Some(En)),
        "july" | "jul" => (7, Some(En)),
        "august" | "aug" => (8, Some(En)),
        "september" | "sep" | "sept" => (9, Some(En)),
        "october" | "oct" => (10, Some(En)),
        "november" | "nov" => (11, None),
        "december" | "dec" => (12, Some(En)),
        _ => return None,
    })
}

/// "12th", "1st", "1º", "1.º", "1er", "1ro", "3"; a day of the month.
pub fn ordinal_day(word: &str) -> Option<u32> {
    let digits_end = word.find(|c: char| !c.is_ascii_digit()).unwrap_or(word.len());
    let (n, suffix) = word.split_at(digits_end);
    if n.is_empty()
        || n.len() > 2
        || !matches!(suffix, "" | "st" | "nd" | "rd" | "th" | "º" | ".º" | "°" | "o" | ".o" | "ro" | "ero" | "er" | ".er" | "a" | "ª" | ".ª")
    {
        return None;
    }
    let day: u32 = n.parse().ok()?;
    (1..=31).contains(&day).then_some(day)
}

/// A day of the month in words: "first", "primero", "fifteenth".
pub(crate) fn ordinal_word(word: &str) -> Option<u32> {
    Some(match word {
        "first" | "primero" | "primer" => 1,
        "second" | "segundo" => 2,
        "third" | "tercero" | "tercer" => 3,
        "fourth" | "cuarto" => 4,
        "fifth" | "quinto" => 5,
        "sixth" => 6,
        "seventh" => 7,
        "eighth" => 8,
        "ninth" => 9,
        "tenth" => 10,
        "eleventh" => 11,
        "twelfth" => 12,
        "thirteenth" => 13,
        "fourteenth" => 14,
        "fifteenth" => 15,
        "sixteenth" => 16,
        "seventeenth" => 17,
        "eighteenth" => 18,
        "nineteenth" => 19,
        "twentieth" => 20,
        "thirtieth" => 30,
        _ => return None,
    })
}

/// Which of a month's weekdays: "primer" 1, "second" 2, "último" -1, "penúltimo" -2.
pub(crate) fn position(word: &str) -> Option<i32> {
    Some(match word {
        "first" | "primer" | "primero" | "1st" | "1º" | "1er" => 1,
        "second" | "segundo" | "2nd" | "2º" => 2,
        "third" | "tercer" | "tercero" | "3rd" | "3º" => 3,
        "fourth" | "cuarto" | "4th" | "4º" => 4,
        "last" | "ultimo" | "ultima" => -1,
        "penultimo" | "penultima" => -2,
        _ => return None,
    })
}

/// A part of the day, which settles am/pm and gives an hour when none is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DayPart {
    EarlyMorning,
    Morning,
    Afternoon,
    Evening,
    Night,
}

impl DayPart {
    /// The hour a reminder takes when only the part of the day is said.
    pub(crate) fn default_hour(self) -> u32 {
        match self {
            DayPart::EarlyMorning => 6,
            DayPart::Morning => 9,
            DayPart::Afternoon => 15,
            DayPart::Evening => 19,
            DayPart::Night => 21,
        }
    }
}

/// "morning", "tarde", "noches": a part of the day (singular or plural).
pub(crate) fn day_part(word: &str) -> Option<DayPart> {
    Some(match word {
        "morning" | "mornings" | "manana" | "mananas" => DayPart::Morning,
        "afternoon" | "afternoons" | "tarde" | "tardes" => DayPart::Afternoon,
        "evening" | "evenings" => DayPart::Evening,
        "night" | "nights" | "noche" | "noches" => DayPart::Night,
        "madrugada" | "madrugadas" => DayPart::EarlyMorning,
        _ => return None,
    })
}

/// "12h15", "9h30": the French and Spanish way of writing an hour and its minutes.
pub(crate) fn french_hour(word: &str) -> bool {
    let Some((h, m)) = word.split_once('h') else { return false };
    (1..=2).contains(&h.len()) && m.len() == 2 && h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit())
}

/// Words that make a timer: a reminder in the length that follows.
pub const TIMERS: &[&str] = &[
    "set a timer for",
    "set a timer of",
    "set timer for",
    "start a timer for",
    "a timer for",
    "timer for",
    "timer of",
    "establecer un temporizador de",
    "establece un temporizador de",
    "pon un temporizador de",
    "ponme un temporizador de",
    "un temporizador de",
    "temporizador de",
    "temporizador para",
    "pon un temporizador para",
];

/// "after 4pm", "después de las 4": the hour is a lower bound.
pub(crate) const AFTER: &[&str] =
    &["after", "not before", "any time after", "anytime after", "later than", "despues de", "a partir de", "no antes de", "pasadas"];
/// "before 9", "antes de las 9": the hour is an upper bound.
pub(crate) const BEFORE: &[&str] = &["before", "no later than", "not later than", "antes de", "no mas tarde de"];
