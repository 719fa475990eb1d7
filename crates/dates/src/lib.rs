//! Dates as people say them, in Spanish and English: deterministic code, no model (the
//! seed's G1 and P10).
//!
//! The principal functions are [`parse`], which reads a "when" on its own ("mañana a las
//! 9", "in 1.5 hours", "el primer lunes de cada mes") into a [`Reading`] (an instant, its
//! zone, an RRULE), and [`extract`], which finds the date inside a sentence and returns a
//! [`Split`]: the rest as what to remember ("call mum tomorrow at 9" → "call mum"). Both
//! take [`Options`] (the language, the default hour). Where a time is truly unclear ("a
//! las 3" with no day, "en un rato", two dates) they answer a [`DateError`] whose
//! [`DateErrorKind`] says what is missing and whether to ask back, echoing the user's
//! words and suggesting a phrasing in their language.
//!
//! Around them: RRULE series and their occurrences ([`upcoming`], [`next_after`],
//! [`too_frequent`], with the `rrule` crate), how far ahead a series reaches
//! ([`reach`]), the words that say a moment, a day, a rule and a zone back
//! ([`moment_words`], [`zone_words`]), the language a message is written in
//! ([`written_in`]), and the lexicon's pieces other readers share ([`number_word`],
//! [`Unit`]).
//!
//! Inside, private: `lexicon` (the words), `grammar` with `hours`, `weekdays`, `written`
//! and `repeat_words` (the components a date is made of), `scan` (components chained),
//! `resolve` (components to an instant at "now" in the user's zone), `leftover` (a piece
//! left unread, asked about), `recurrence`, `reach`, `words`, `user_language`.
//!
//! Over 400 lines: the face holds the crate's entry points, `parse`, `read_or_find` and
//! `extract`, with the reading, the language guess and the errors' words they share; each
//! step they chain is its own module.

mod grammar;
mod hours;
mod leftover;
mod lexicon;
pub(crate) mod parts;
mod reach;
mod recurrence;
mod repeat_words;
mod resolve;
mod scan;
mod user_language;
mod weekdays;
mod words;
mod written;

// The face: what the crates above name, besides `parse`, `extract` and their types below.
pub use lexicon::{month, number_word, ordinal_day, tokens, unit, Unit, TIMERS};
pub use reach::{reach, Reach};
pub use recurrence::{between, next_after, too_frequent, too_frequent_by_its_frequency, upcoming};
pub use resolve::instant;
pub use user_language::written_in;
pub use words::{day_words, moment_words, rule_words, zone_words, DateErrorKind, MIN_REPEAT_MINUTES};

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Timelike, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use grammar::Grammar;
use lexicon::{Tok, Tongue};
use parts::{Component, Span};
use resolve::{Context, Parts};
use sidecar_domain::Lang;

/// A time read from words.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reading {
    /// The first (or only) occurrence.
    pub at: DateTime<Utc>,
    #[serde(serialize_with = "zone_name")]
    pub zone: Tz,
    /// RFC 5545 RRULE (no DTSTART: the series starts at `at`).
    pub rrule: Option<String>,
    /// A date with no hour: all day, reminded at the default hour.
    pub all_day: bool,
    /// How the time was read, when that needs saying (DST, rolled to tomorrow…).
    pub note: Option<String>,
}

fn zone_name<S: serde::Serializer>(zone: &Tz, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(zone.name())
}

impl Reading {
    pub fn local(&self) -> DateTime<Tz> {
        self.at.with_timezone(&self.zone)
    }

    /// The repeat rule in words, if any.
    pub fn rule_words(&self, lang: Lang) -> Option<String> {
        self.rrule.as_deref().map(|r| words::rule_words(r, self.local(), lang))
    }

    /// The next `n` occurrences (the first included).
    pub fn occurrences(&self, n: u16) -> Vec<DateTime<Utc>> {
        match &self.rrule {
            Some(rule) => recurrence::upcoming(rule, self.at, self.zone, self.at - chrono::Duration::seconds(1), n),
            None => vec![self.at],
        }
    }
}

/// Words that could not be read as a time: what is wrong and how to say it instead,
/// in the language of the words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{error} {suggestion}")]
pub struct DateError {
    pub kind: DateErrorKind,
    pub error: String,
    pub suggestion: String,
    pub lang: Lang,
}

impl DateError {
    fn new(kind: DateErrorKind, words: &str, lang: Lang) -> Self {
        let (error, suggestion) = words::date_error(kind, words, lang);
        Self { kind, error, suggestion, lang }
    }
}

/// What a reader needs besides the words.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Used when the words do not show their language ("23:00").
    pub lang: Lang,
    /// The hour of an all-day reminder.
    pub all_day: NaiveTime,
    /// What a bare hour that could be morning or afternoon ("el jueves a las 6") is.
    pub bare_hour: BareHour,
}

/// What a bare hour from one to six with a day ("el jueves a las 6", "at 3") is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BareHour {
    /// Asked back ([`DateErrorKind::AmbiguousHour`]): a reminder set at the wrong one is
    /// missed, so the user says which.
    #[default]
    Ask,
    /// The afternoon's, as people meeting mean it: for reading what someone else wrote
    /// (a mail's "¿el jueves a las 6?"), where nobody can be asked.
    Afternoon,
}

/// When a date said with no hour is reminded, unless the user set another hour.
pub const DEFAULT_ALL_DAY: NaiveTime = match NaiveTime::from_hms_opt(9, 0, 0) {
    Some(t) => t,
    None => panic!("09:00 is a time"),
};

impl Options {
    pub fn new(lang: Lang) -> Self {
        Self { lang, all_day: DEFAULT_ALL_DAY, bare_hour: BareHour::Ask }
    }
}

/// A sentence split into what to remember and when.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Split {
    pub what: String,
    /// The user's words for the time, exactly as written.
    pub when_text: String,
    pub when: Reading,
}

/// How far into a sentence `extract` looks for its date.
const MAX_SCAN_TOKENS: usize = 300;

const VAGUE: &[&str] = &[
    "en un rato",
    "un rato",
    "dentro de un rato",
    "luego",
    "mas tarde",
    "despues",
    "pronto",
    "en un momento",
    "algun dia",
    "un dia de estos",
    "cuando puedas",
    "later",
    "soon",
    "in a while",
    "in a bit",
    "sometime",
    "some time",
    "at some point",
    "one day",
    "someday",
    "later on",
    "whenever",
];
const NO_DAY: &[&str] = &[
    "la semana que viene",
    "la proxima semana",
    "la semana proxima",
    "la semana siguiente",
    "next week",
    "el mes que viene",
    "el proximo mes",
    "el mes proximo",
    "el siguiente mes",
    "del mes que viene",
    "del proximo mes",
    "del mes proximo",
    "del siguiente mes",
    "next month",
    "el ano que viene",
    "el ano proximo",
    "el proximo ano",
    "del ano que viene",
    "del ano proximo",
    "del proximo ano",
    "next year",
];

/// Cuts hostile input at a char boundary.
fn bounded_text(text: &str) -> &str {
    if text.len() <= lexicon::MAX_INPUT_BYTES {
        return text;
    }
    let mut end = lexicon::MAX_INPUT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The language the words are in, when they show it.
pub(crate) fn tongue(toks: &[Tok]) -> Option<Lang> {
    const ES: &[&str] = &[
        "en",
        "las",
        "la",
        "el",
        "los",
        "de",
        "del",
        "hoy",
        "manana",
        "cada",
        "todos",
        "dentro",
        "por",
        "que",
        "viene",
        "esta",
        "este",
        "hasta",
        "veces",
        "proximo",
        "mediodia",
        "medianoche",
        "recuerdame",
        "avisame",
        "y",
        "a",
        "al",
        "con",
        "para",
        "mi",
        "semana",
    ];
    const EN: &[&str] = &[
        "in", "at", "on", "the", "today", "tomorrow", "tonight", "every", "each", "next", "this", "of", "and", "until", "times", "later", "from", "now",
        "noon", "midnight", "remind", "me", "to", "my", "week", "weekday", "weekdays",
    ];
    let (mut es, mut en) = (0, 0);
    for t in toks.iter().take(200) {
        let w = t.text.as_str();
        // Function words first: "a" is Spanish "a las", not English "a week".
        let vote = ES.contains(&w).then_some(Tongue::Es).or_else(|| EN.contains(&w).then_some(Tongue::En)).or_else(|| {
            lexicon::weekday(w)
                .map(|x| x.1)
                .or_else(|| lexicon::month(w).map(|x| x.1))
                .or_else(|| lexicon::unit(w).map(|x| x.1))
                .or_else(|| lexicon::number_word(w).map(|x| x.1))
                .flatten()
        });
        match vote {
            Some(Tongue::Es) => es += 1,
            Some(Tongue::En) => en += 1,
            None => {}
        }
    }
    match es.cmp(&en) {
        std::cmp::Ordering::Greater => Some(Lang::Es),
        std::cmp::Ordering::Less => Some(Lang::En),
        std::cmp::Ordering::Equal => None,
    }
}

fn as_tongue(lang: Lang) -> Tongue {
    if lang == Lang::Es {
        Tongue::Es
    } else {
        Tongue::En
    }
}

/// Reads `text` as a time said at `now` by someone in `zone`.
pub fn parse(text: &str, now: DateTime<Utc>, zone: Tz, options: Options) -> Result<Reading, DateError> {
    let raw = bounded_text(text).trim();
    let toks = lexicon::tokens(raw);
    let lang = tongue(&toks).unwrap_or(options.lang);
    let fail = |kind, words: &str| DateError::new(kind, words, lang);
    if toks.is_empty() {
        return Err(fail(DateErrorKind::Empty, raw));
    }
    if let Some(reading) = iso(raw, zone, lang) {
        let reading = reading.map_err(|kind| fail(kind, raw))?;
        let cx = Context { now, zone, lang, all_day: options.all_day, bare_hour: options.bare_hour };
        if reading.at <= now {
            return Err(fail(DateErrorKind::Past, raw));
        }
        return resolve::bounded(reading, &cx).map_err(|kind| fail(kind, raw));
    }
    let folded: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
    let whole = folded.join(" ");
    if VAGUE.contains(&whole.as_str()) {
        return Err(fail(DateErrorKind::Vague, raw));
    }
    if NO_DAY.contains(&whole.as_str()) {
        return Err(fail(DateErrorKind::MissingDay, raw));
    }
    let grammar = Grammar::new(&toks, as_tongue(lang));
    let mut components = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match grammar.span(i) {
            Some(span) => {
                components.extend(span.components);
                i = span.to;
            }
            None => {
                // Say the first word that is no part of a date, as the user wrote it.
                let word = &raw[toks[i].start..toks[i].end];
                return Err(fail(DateErrorKind::NotUnderstood, word));
            }
        }
    }
    let cx = Context { now, zone, lang, all_day: options.all_day, bare_hour: options.bare_hour };
    let parts = Parts::gather(&components).map_err(|kind| fail(kind, raw))?;
    read(&parts, &cx).map_err(|kind| explain(kind, raw, &parts, &cx))
}

/// The error for `kind`. An hour that could be morning or afternoon suggests both
/// readings that are still to come now: "hoy a las 15" only while 15:00 is ahead; a
/// "next Friday" that could be either week, both Fridays.
fn explain(kind: DateErrorKind, said: &str, parts: &Parts, cx: &Context) -> DateError {
    let mut error = DateError::new(kind, said, cx.lang);
    if let (DateErrorKind::AmbiguousHour, Some(hour)) = (kind, parts.hour) {
        let now = cx.now.with_timezone(&cx.zone).time();
        let h = hour.hour % 12;
        let times = [h, h + 12].into_iter().filter_map(|h| NaiveTime::from_hms_opt(h, hour.minute, 0));
        let choices: Vec<(words::HourDay, NaiveTime)> = match said_day(parts, cx).filter(|d| *d != cx.today()) {
            // "el jueves a las 3": both hours of that day.
            Some(day) => {
                let day = if day == cx.today().succ_opt().unwrap_or(day) { words::HourDay::Tomorrow } else { words::HourDay::On(day) };
                times.map(|t| (day, t)).collect()
            }
            None => {
                let mut choices: Vec<_> = times.map(|t| (if t > now { words::HourDay::Today } else { words::HourDay::Tomorrow }, t)).collect();
                // Soonest first: today's before tomorrow's, then by the clock.
                choices.sort_by_key(|(day, t)| (*day != words::HourDay::Today, *t));
                choices
            }
        };
        error.suggestion = words::which_hour(&choices, cx.lang);
    }
    let said_next = [parts.day, parts.until].into_iter().flatten().find_map(|d| match d {
        parts::Day::Weekday { weekday, said_next: true, .. } => resolve::next_readings(cx.today(), weekday),
        _ => None,
    });
    if let (DateErrorKind::AmbiguousDay, Some(choices)) = (kind, said_next) {
        error.suggestion = words::which_day(&choices, cx.lang);
    }
    error
}

/// The day `parts` name, read as if their hour were the morning's; none when they name
/// no day.
fn said_day(parts: &Parts, cx: &Context) -> Option<NaiveDate> {
    if parts.day.is_none() && parts.offset.is_none() {
        return None;
    }
    let mut morning = parts.clone();
    if let Some(hour) = morning.hour.as_mut() {
        hour.pm = Some(false);
    }
    resolve::read(&morning, cx).ok().map(|r| r.at.with_timezone(&cx.zone).date_naive())
}

/// A time read from a whole text, or found inside a sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Found {
    pub when: Reading,
    /// The sentence split, when the time was found inside one (the whole text was not a time).
    pub split: Option<Split>,
}

/// Reads `text` as a time; when it is a sentence with a time inside ("The deadline is
/// today 5PM"), finds the time and keeps the rest. The error is the whole reading's
/// when nothing is found either.
pub fn read_or_find(text: &str, now: DateTime<Utc>, zone: Tz, options: Options) -> Result<Found, DateError> {
    match parse(text, now, zone, options) {
        Ok(when) => Ok(Found { when, split: None }),
        Err(whole) if matches!(whole.kind, DateErrorKind::NotUnderstood) => match extract(text, now, zone, options) {
            Ok(split) => Ok(Found { when: split.when.clone(), split: Some(split) }),
            Err(found) if !matches!(found.kind, DateErrorKind::NoDate | DateErrorKind::Empty) => Err(found),
            Err(_) => Err(whole),
        },
        Err(whole) => Err(whole),
    }
}

/// A repeat from its first occurrence, anything else as one moment; an hour said as a
/// bound ("after 4pm") is read as the hour, and the reading says so.
fn read(parts: &Parts, cx: &Context) -> Result<Reading, DateErrorKind> {
    let mut reading = if parts.repeat.is_some() { recurrence::first(parts, cx)? } else { resolve::read(parts, cx)? };
    if let Some(bound) = parts.hour.and_then(|h| h.bound) {
        let said = words::bound(bound, reading.local().time(), cx.lang);
        reading.note = Some(match reading.note.take() {
            Some(note) => format!("{said}; {note}"),
            None => said,
        });
    }
    Ok(reading)
}

/// An ISO 8601 / RFC 3339 date-time as a whole text.
fn iso(raw: &str, zone: Tz, lang: Lang) -> Option<Result<Reading, DateErrorKind>> {
    let lower = raw.to_ascii_lowercase();
    let b = lower.as_bytes();
    let looks = b.len() >= 16
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[7] == b'-'
        && (b[10] == b't' || b[10] == b' ')
        && b[11..13].iter().all(u8::is_ascii_digit)
        && b[13] == b':';
    if !looks {
        return None;
    }
    let reading = |at, note| Reading { at, zone, rrule: None, all_day: false, note };
    if let Ok(at) = DateTime::parse_from_rfc3339(raw) {
        return Some(Ok(reading(at.with_timezone(&Utc), None)));
    }
    for format in ["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M"] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(raw, format) {
            let (at, note) = resolve::instant(naive.date(), naive.time(), zone, lang);
            return Some(Ok(reading(at, note)));
        }
    }
    Some(Err(DateErrorKind::InvalidDate))
}

/// A span that is surely a date inside a sentence ("5 minutes" alone is not: "I walked
/// 5 minutes"; "in 5 minutes" is).
fn strong(span: &Span) -> bool {
    span.components.iter().any(|c| match c {
        Component::Offset(o) => o.marked,
        Component::Until(_) | Component::Count(_) => false,
        _ => true,
    })
}

/// Connectors left at the edges of what remains once the date is taken out, by the
/// sentence's language: "a" is a Spanish connector ("llamar a") but English "take pill
/// A" keeps it.
const EDGE_WORDS_EN: &[&str] = &["to", "at", "on", "for", "by", "and", "in", "the", "about"];
const EDGE_WORDS_ES: &[&str] = &["para", "a", "de", "del", "que", "el", "y", "en", "por", "sobre"];

/// Finds the date in `text` and returns it with the rest ("what").
pub fn extract(text: &str, now: DateTime<Utc>, zone: Tz, options: Options) -> Result<Split, DateError> {
    let raw = bounded_text(text).trim();
    let toks = lexicon::tokens(raw);
    let lang = tongue(&toks).unwrap_or(options.lang);
    let fail = |kind, words: &str| DateError::new(kind, words, lang);
    let grammar = Grammar::new(&toks, as_tongue(lang));
    let mut spans = Vec::new();
    let mut i = 0;
    // A reminder's date is in its first few hundred words; this bounds the work on
    // hostile input (the rest stays in the text).
    while i < toks.len().min(MAX_SCAN_TOKENS) {
        match grammar.span(i).filter(strong) {
            Some(span) => {
                i = span.to;
                spans.push(span);
            }
            None => i += 1,
        }
    }
    if spans.len() > 1 {
        // "weekly review every Sunday": a lone "weekly"/"daily" beside another date is
        // part of the words, not a second date.
        let lone_repeat = |s: &Span| s.to - s.from == 1 && matches!(s.components.as_slice(), [Component::Repeat(_)]);
        if spans.iter().any(|s| !lone_repeat(s)) {
            spans.retain(|s| !lone_repeat(s));
        }
    }
    if spans.is_empty() {
        let folded: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        let joined = format!(" {} ", folded.join(" "));
        if let Some(vague) = VAGUE.iter().chain(NO_DAY).find(|v| joined.contains(&format!(" {v} "))) {
            let kind = if NO_DAY.contains(vague) { DateErrorKind::MissingDay } else { DateErrorKind::Vague };
            return Err(fail(kind, raw));
        }
        return Err(fail(if toks.is_empty() { DateErrorKind::Empty } else { DateErrorKind::NoDate }, raw));
    }
    let unread = leftover::unread_beside(raw, &toks, &spans);
    let said: Vec<&str> = spans.iter().map(|s| &raw[toks[s.from].start..toks[s.to - 1].end]).collect();
    let when_text = said.join(" ");
    let components: Vec<Component> = spans.iter().flat_map(|s| s.components.clone()).collect();
    let cx = Context { now, zone, lang, all_day: options.all_day, bare_hour: options.bare_hour };
    let parts = Parts::gather(&components).map_err(|kind| fail(kind, &when_text))?;
    let when = read(&parts, &cx).map_err(|kind| explain(kind, &when_text, &parts, &cx))?;
    if let Some((from, to)) = unread.filter(|&(from, to)| !leftover::restates(&toks[from..to], when.local().hour())) {
        return Err(fail(DateErrorKind::PartlyRead, &raw[toks[from].start..toks[to - 1].end]));
    }
    Ok(Split { what: remainder(raw, &toks, &spans, lang), when_text, when })
}

/// `raw` without the spans, tidied: no doubled spaces, no connector or punctuation
/// left dangling at either end. The user's words are otherwise kept as written: a
/// connector is only a lowercase word of the sentence's language ("pill A" keeps "A").
fn remainder(raw: &str, toks: &[Tok], spans: &[Span], lang: Lang) -> String {
    let mut kept = String::new();
    let mut from = 0;
    for span in spans {
        kept.push_str(&raw[from..toks[span.from].start]);
        kept.push(' ');
        from = toks[span.to - 1].end;
    }
    kept.push_str(&raw[from..]);
    let mut words: Vec<&str> = kept.split_whitespace().collect();
    let tidy = |w: &str| w.trim_matches(|c: char| c.is_ascii_punctuation() || c == '¿' || c == '¡').to_string();
    let connectors = if lang == Lang::Es { EDGE_WORDS_ES } else { EDGE_WORDS_EN };
    let edge = |w: &str| {
        let t = tidy(w);
        t.is_empty() || (t == t.to_lowercase() && connectors.contains(&sidecar_domain::word_overlap::fold(&t).as_str()))
    };
    while words.first().is_some_and(|w| edge(w)) {
        words.remove(0);
    }
    while words.last().is_some_and(|w| edge(w)) {
        words.pop();
    }
    let text = words.join(" ");
    text.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '.' | '-' | '—')).trim().to_string()
}

#[cfg(test)]
mod tests;
