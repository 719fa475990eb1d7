//! What code can decide before the model (the seed's P10): a user message that asks
//! for a reminder ("remind me to…", "recuérdame…", "avísame…", "don't let me forget…"),
//! to cancel, snooze or list reminders, or to remember a fact ("remember that…",
//! "acordate de que…"); and questions Sidecar's own data answers (the time, "where do
//! I live?"), which only the demo model leaves to Sidecar. `detect` is pure; `act` carries it out through the services,
//! so it works with any model, the offline one included, and on every channel.
//!
//! Over 400 lines: `detect`'s phrases in both languages and the matching that reads them,
//! kept where a phrase added in one language is seen beside the other.

pub(crate) mod act;
mod agenda;
mod work;

/// A request found in the user's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    /// The sentence after "remind me": what and when, still to split.
    Set {
        sentence: String,
    },
    /// "set a timer for 5 minutes": a reminder in that long; the sentence keeps the
    /// timer words (the date reader reads them as "in").
    Timer {
        sentence: String,
    },
    /// Words from the reminder to cancel.
    Cancel {
        query: String,
    },
    /// Move a reminder (the named one, or the last shown) to later.
    Snooze {
        query: String,
        minutes: u32,
    },
    List,
    /// A fact to keep.
    Remember {
        fact: String,
    },
    /// "what time is it", "qué día es hoy": the clock answers.
    Now,
    /// "where do I live", "qué sabes de mí": the saved facts answer; `slot` narrows
    /// them to one thing that changes (`home`, `job`, `partner`), `None` is all.
    AboutMe {
        slot: Option<&'static str>,
    },
    /// Work asked on a repeat ("every weekday at 8, check the weather"): a scheduled
    /// task, which only a model with tools can run.
    ScheduleWork,
    /// "what's on my calendar tomorrow?", "¿qué tengo hoy?": the calendar answers;
    /// `days` from today (0 or 1).
    Agenda {
        days: u32,
    },
}

/// Openers that ask nothing by themselves ("please", "oye", "can you").
const POLITE: &[&str] = &[
    "please",
    "pls",
    "hey sidecar",
    "hey",
    "ok",
    "okay",
    "sidecar",
    "can you",
    "could you",
    "would you",
    "will you",
    "por favor",
    "oye",
    "porfa",
    "che",
    "sidecar,",
    "puedes",
    "podrias",
    "podes",
    "me puedes",
    "me podrias",
    "hola",
];

/// Whole questions the clock answers (folded, no punctuation).
const NOW: &[&str] = &[
    "what time is it",
    "what time is it now",
    "whats the time",
    "what is the time",
    "what's the time",
    "do you know what time it is",
    "what day is it",
    "what day is it today",
    "what day is today",
    "whats the date",
    "what is the date",
    "what's the date",
    "what's today's date",
    "whats todays date",
    "what is today's date",
    "what is the date today",
    "what's the date today",
    "que hora es",
    "que hora es ahora",
    "sabes que hora es",
    "que dia es hoy",
    "que dia es",
    "a que dia estamos",
    "en que dia estamos",
    "que fecha es hoy",
    "que fecha es",
    "cual es la fecha de hoy",
    "que dia es hoy y que hora es",
];

/// Whole questions the saved facts answer, and the slot each asks about.
const ABOUT_ME: &[(&str, Option<&str>)] = &[
    ("where do i live", Some("home")),
    ("where do i live now", Some("home")),
    ("where am i living", Some("home")),
    ("what city do i live in", Some("home")),
    ("donde vivo", Some("home")),
    ("donde vivo ahora", Some("home")),
    ("en que ciudad vivo", Some("home")),
    ("sabes donde vivo", Some("home")),
    ("where do i work", Some("job")),
    ("what is my job", Some("job")),
    ("what's my job", Some("job")),
    ("whats my job", Some("job")),
    ("what do i do for a living", Some("job")),
    ("what do i do for work", Some("job")),
    ("donde trabajo", Some("job")),
    ("de que trabajo", Some("job")),
    ("en que trabajo", Some("job")),
    ("cual es mi trabajo", Some("job")),
    ("who is my partner", Some("partner")),
    ("quien es mi pareja", Some("partner")),
    ("what do you know about me", None),
    ("what do you remember about me", None),
    ("what have you learned about me", None),
    ("tell me what you know about me", None),
    ("what do you know of me", None),
    ("que sabes de mi", None),
    ("que recuerdas de mi", None),
    ("que sabes sobre mi", None),
    ("dime que sabes de mi", None),
    ("que has aprendido de mi", None),
];

const SET: &[&str] = &[
    "remind me to",
    "remind me that",
    "remind me about",
    "remind me of",
    "remind me",
    "set a reminder to",
    "set a reminder for",
    "set a reminder",
    "set reminder",
    "create a reminder to",
    "create a reminder",
    "add a reminder to",
    "add a reminder for",
    "add a reminder",
    "don't let me forget to",
    "dont let me forget to",
    "don't let me forget",
    "dont let me forget",
    "reminder:",
    "ping me to",
    "ping me",
    "nudge me to",
    "alert me to",
    "make sure i remember to",
    "i need a reminder to",
    "i need a reminder",
    "recuerdame que",
    "recuerdame",
    "recordame que",
    "recordame",
    "avisame que",
    "avisame para",
    "avisame de",
    "avisame",
    "no me dejes olvidar que",
    "no me dejes olvidar",
    "que no se me olvide",
    "pon un recordatorio para",
    "pon un recordatorio",
    "ponme un recordatorio para",
    "ponme un recordatorio",
    "crea un recordatorio para",
    "crea un recordatorio",
    "agenda un recordatorio para",
    "agenda un recordatorio",
    "hazme acordar de",
    "haceme acordar de",
    "hazme acordar",
    "haceme acordar",
    "recordatorio:",
    "necesito un recordatorio para",
    "anota un recordatorio para",
    "recordarme que",
    "recordarme",
    "recordar",
    "me recuerdas que",
    "me recuerdas",
];

const CANCEL: &[&str] = &[
    "cancel the reminder about",
    "cancel the reminder to",
    "cancel the reminder for",
    "cancel my reminder about",
    "cancel my reminder to",
    "cancel the reminder",
    "cancel my reminder",
    "cancel reminder",
    "delete the reminder about",
    "delete the reminder to",
    "delete the reminder",
    "delete my reminder",
    "remove the reminder about",
    "remove the reminder to",
    "remove the reminder",
    "forget the reminder about",
    "forget the reminder",
    "stop reminding me to",
    "stop reminding me about",
    "stop reminding me",
    "no need to remind me to",
    "cancela el recordatorio del",
    "borra el recordatorio del",
    "elimina el recordatorio del",
    "quita el recordatorio del",
    "cancela el recordatorio de",
    "cancela el recordatorio para",
    "cancela el recordatorio",
    "cancelá el recordatorio de",
    "borra el recordatorio de",
    "borra el recordatorio para",
    "borra el recordatorio",
    "elimina el recordatorio de",
    "elimina el recordatorio",
    "quita el recordatorio de",
    "quita el recordatorio",
    "anula el recordatorio de",
    "anula el recordatorio",
    "olvida el recordatorio de",
    "olvida el recordatorio",
    "ya no me recuerdes",
    "deja de recordarme",
    "no hace falta que me recuerdes",
];

const SNOOZE: &[&str] = &[
    "snooze the reminder about",
    "snooze the reminder to",
    "snooze the reminder",
    "snooze it",
    "snooze",
    "remind me again in",
    "remind me again",
    "pospon el recordatorio de",
    "pospon el recordatorio",
    "posponlo",
    "pospon",
    "posponer",
    "aplaza el recordatorio de",
    "aplaza el recordatorio",
    "aplazalo",
    "aplaza",
    "recuerdamelo de nuevo en",
    "recuerdamelo otra vez en",
    "recuerdamelo en",
    "vuelve a recordarmelo en",
    "vuelve a avisarme en",
    "avisame de nuevo en",
    "avisame otra vez en",
    "remind me again about",
];

const LIST: &[&str] = &[
    "what are my reminders",
    "show my reminders",
    "show me my reminders",
    "list my reminders",
    "list reminders",
    "show reminders",
    "what reminders do i have",
    "which reminders do i have",
    "do i have any reminders",
    "any reminders",
    "my reminders",
    "what do i have pending",
    "what reminders are set",
    "reminders list",
    "what have i asked you to remind me",
    "que recordatorios tengo",
    "mis recordatorios",
    "muestrame mis recordatorios",
    "muestrame los recordatorios",
    "lista mis recordatorios",
    "lista de recordatorios",
    "que tengo pendiente",
    "cuales son mis recordatorios",
    "tengo recordatorios",
    "ensename los recordatorios",
    "ensename mis recordatorios",
    "dime mis recordatorios",
    "que me tienes que recordar",
    "que recordatorios hay",
    "ver recordatorios",
    "recordatorios pendientes",
];

const REMEMBER: &[&str] = &[
    "remember that",
    "remember:",
    "please remember that",
    "note that",
    "keep in mind that",
    "don't forget that",
    "dont forget that",
    "for the record",
    "save this:",
    "recuerda que",
    "acordate de que",
    "acordate que",
    "acuerdate de que",
    "acuerdate que",
    "ten en cuenta que",
    "tene en cuenta que",
    "no olvides que",
    "apunta que",
    "anota que",
    "guarda que",
    "recorda que",
];

/// The words of `text` folded for matching (the date reader's tokens), each with where
/// it starts in `text`.
fn words(text: &str) -> Vec<(String, usize)> {
    sidecar_dates::tokens(text).into_iter().map(|t| (t.text, t.start)).collect()
}

/// The longest of `phrases` at word `at`; the index of the word after it.
fn opener(words: &[(String, usize)], at: usize, phrases: &[&str]) -> Option<usize> {
    phrases
        .iter()
        .filter_map(|p| {
            let parts: Vec<&str> = p.split(' ').map(|w| w.trim_end_matches(':')).collect();
            let fits = parts.iter().enumerate().all(|(k, w)| words.get(at + k).is_some_and(|(word, _)| word.replace('’', "'") == *w));
            fits.then_some(at + parts.len())
        })
        .max()
}

/// The original text from word `at` on.
fn rest(text: &str, words: &[(String, usize)], at: usize) -> String {
    words
        .get(at)
        .map(|(_, start)| text[*start..].trim().trim_start_matches([':', ',', '-']).trim_end_matches(['?', '!']).trim().to_string())
        .unwrap_or_default()
}

/// The request in `text`, if it opens with one.
pub fn detect(text: &str) -> Option<Intent> {
    let text = text.trim();
    if text.is_empty() || text.len() > 2000 {
        return None;
    }
    let words = words(text);
    let mut at = 0;
    while let Some(next) = opener(&words, at, POLITE).filter(|&n| n < words.len()) {
        at = next;
    }
    let mut whole: Vec<&str> = words[at..].iter().map(|(w, _)| w.as_str()).collect();
    while whole.last().is_some_and(|w| matches!(*w, "please" | "thanks" | "gracias")) || whole.ends_with(&["por", "favor"]) {
        let drop = if whole.ends_with(&["por", "favor"]) { 2 } else { 1 };
        whole.truncate(whole.len() - drop);
    }
    let asked = whole.join(" ");
    if LIST.contains(&asked.as_str()) {
        return Some(Intent::List);
    }
    if NOW.contains(&asked.as_str()) {
        return Some(Intent::Now);
    }
    if let Some((_, slot)) = ABOUT_ME.iter().find(|(q, _)| *q == asked) {
        return Some(Intent::AboutMe { slot: *slot });
    }
    if let Some(days) = agenda::asks(&asked) {
        return Some(Intent::Agenda { days });
    }
    if let Some(end) = opener(&words, at, SNOOZE) {
        return snooze(text, &words, end);
    }
    if let Some(end) = opener(&words, at, CANCEL) {
        let query = rest(text, &words, end);
        return Some(Intent::Cancel { query });
    }
    if let Some(end) = opener(&words, at, REMEMBER) {
        // "Remember that time we went to Lisbon?" asks; it states no fact.
        let fact = rest(text, &words, end);
        return (!fact.is_empty() && !text.ends_with('?')).then_some(Intent::Remember { fact });
    }
    // The date reader's own timer words, so what opens a timer is read as its lead.
    if opener(&words, at, sidecar_dates::TIMERS).is_some() {
        return Some(Intent::Timer { sentence: rest(text, &words, at) });
    }
    if let Some(end) = opener(&words, at, SET) {
        return Some(Intent::Set { sentence: rest(text, &words, end) });
    }
    work::asks_for_work(text, &words, at).then_some(Intent::ScheduleWork)
}

/// "snooze it 10 minutes", "posponlo 15 minutos", "remind me again in an hour",
/// "snooze the reminder about stretching for 5 minutes".
fn snooze(text: &str, words: &[(String, usize)], end: usize) -> Option<Intent> {
    // The amount is the last number-and-unit in the sentence.
    let folded: Vec<&str> = words.iter().map(|(w, _)| w.as_str()).collect();
    let unit_at = (end..folded.len()).rev().find(|&k| sidecar_dates::unit(folded[k]).is_some())?;
    let (unit, _) = sidecar_dates::unit(folded[unit_at])?;
    let n = if unit_at > end { sidecar_dates::number_word(folded[unit_at - 1]).map(|(n, _)| n) } else { None };
    let minutes = n.unwrap_or(1.0)
        * match unit {
            sidecar_dates::Unit::Minute => 1.0,
            sidecar_dates::Unit::Hour => 60.0,
            sidecar_dates::Unit::Day => 1440.0,
            _ => return None,
        };
    if !(1.0..=10_080.0).contains(&minutes) {
        return None;
    }
    let amount_from = if n.is_some() { unit_at - 1 } else { unit_at };
    // The words between the opener and the amount name the reminder ("the one about…").
    let lead = ["for", "by", "durante", "por", "en", "in", "otros", "another", "unos", "some"];
    let mut query_end = amount_from;
    while query_end > end && lead.contains(&folded[query_end - 1]) {
        query_end -= 1;
    }
    let query = if query_end > end {
        let from = words[end].1;
        let to = words[query_end].1;
        text[from..to].trim().to_string()
    } else {
        String::new()
    };
    Some(Intent::Snooze { query, minutes: minutes as u32 })
}

pub(crate) mod hour_reply;

#[cfg(test)]
mod tests;
