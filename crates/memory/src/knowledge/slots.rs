//! What a fact is about, when it is one of the things that change: where the user
//! lives, their job, their partner, a favourite, a personal detail (blood type, doctor).
//! Two facts about the same slot with different values contradict each other: the newer
//! one supersedes the older (the seed's deferred "contradiction handling"). Read from
//! the words, deterministically, in Spanish and English, first or third person.

use std::sync::LazyLock;

use regex::Regex;

use super::words::fold;

/// A changeable thing a fact states, and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// `home`, `job`, `partner`, `favourite:THING` or `detail:THING`.
    pub name: String,
    /// The value, folded and trimmed, for comparing.
    pub value: String,
    /// Whose it is: empty for the user's own; else who the fact names before the verb
    /// ("mi hermana", "laura"), folded. The sister's new job replaces no job of the user's.
    pub who: String,
}

struct Pattern {
    regex: Regex,
    /// The slot's name; `{1}` is replaced by the first capture (the value is the last).
    name: &'static str,
}

fn pattern(name: &'static str, regex: &str) -> Pattern {
    Pattern { regex: Regex::new(regex).expect("valid slot pattern"), name }
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    vec![
        pattern(
            "home",
            r"\b(?:i live|i'm living|i am living|lives|is living|now lives|moved|has moved|vivo|vive|vivimos|viven|me mude|se mudo|nos mudamos|reside|resides)\s+(?:in|to|en|a)\s+(.+)",
        ),
        pattern("job", r"\b(?:i work|works|is working|trabajo|trabaja|curro|curra)\s+(?:as an?|as|for|como|para)\s+(.+)"),
        pattern("job", r"\b(?:my job is|his job is|her job is|mi trabajo es|su trabajo es)\s+(.+)"),
        pattern(
            "partner",
            r"\b(?:my|his|her|mi|su)\s+(?:partner|boyfriend|girlfriend|wife|husband|pareja|novio|novia|esposa|esposo|marido|mujer)\s+(?:is|es|se llama|is called)\s+(.+)",
        ),
        pattern("partner", r"\b(?:dating|is dating|am dating|sale con|salgo con|esta saliendo con|estoy saliendo con)\s+(.+)"),
        pattern("favourite:{1}", r"\b(?:my|his|her)\s+fav(?:ou)?rite\s+(\w+)\s+is\s+(.+)"),
        pattern("favourite:{1}", r"\b(?:mi|su)\s+(\w+)\s+favorit[oa]\s+es\s+(.+)"),
        pattern("detail:{1}", r"\b(?:my|his|her)\s+(blood type|doctor|gp|dentist|address|phone number|email|birthday)\s+is\s+(.+)"),
        pattern("detail:{1}", r"\b(?:mi|su)\s+(grupo sanguineo|medico|medica|dentista|direccion|telefono|correo|cumpleanos)\s+es\s+(.+)"),
    ]
});

/// A job left and the new one named in the same breath: the seed's "Renuncié, ahora
/// estoy en startup", "I quit, now I'm at a startup". Folded text.
static JOB_CHANGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"\b(?:renuncie|renuncio|dimiti|dimitio|deje mi trabajo|deje el trabajo|dejo su trabajo|dejo el trabajo|cambie de trabajo|cambio de trabajo|me despidieron|lo despidieron|la despidieron|i quit|quit (?:my|his|her) job|quit|left (?:my|his|her) job|changed jobs|was laid off|got fired)\b[^.;]*?\b(?:ahora|now)\s+(?:estoy|esta|trabajo|trabaja|curro|curra|i'm|i am|he's|she's|he is|she is|works?|is)\s+(?:en|at|in|for|con|para)\s+(.+)",
    )
    .expect("valid job-change pattern")
});

/// "Trabaja en", "works at" name an employer when a proper noun follows ("en Google",
/// "at Acme") or an article and a kind of employer ("en una startup", "at a bank");
/// else they name a place, a shift or a field ("en la oficina los martes", "at home on
/// Fridays", "en el turno de noche", "en desarrollo backend"), which is no employer and
/// replaces none: the seed's "si hay duda, crear fact nuevo". Unfolded text: the capital
/// tells.
static JOB_AT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i:\b(?:i work|works|is working|trabajo|trabaja|trabajamos|trabajan|curro|curra)\s+(?:en|at))\s+(\S.*)").expect("valid employer pattern")
});

/// Kinds of employer an article may introduce after "en" / "at", folded.
const EMPLOYER_KINDS: &[&str] = &[
    "startup",
    "empresa",
    "compania",
    "company",
    "multinacional",
    "corporation",
    "firm",
    "banco",
    "bank",
    "hospital",
    "clinica",
    "clinic",
    "escuela",
    "school",
    "colegio",
    "instituto",
    "universidad",
    "university",
    "consultora",
    "consultoria",
    "consultancy",
    "agencia",
    "agency",
    "tienda",
    "shop",
    "store",
    "restaurante",
    "restaurant",
    "fabrica",
    "factory",
    "bufete",
    "ayuntamiento",
    "ministerio",
    "supermercado",
    "supermarket",
    "hotel",
    "farmacia",
    "pharmacy",
    "laboratorio",
    "lab",
    "editorial",
    "publisher",
    "periodico",
    "newspaper",
    "ong",
    "nonprofit",
    "charity",
    "fundacion",
    "foundation",
    "aseguradora",
    "insurer",
    "constructora",
];

/// Words that make "works at/en X" a when or a where rather than a who: a day, a shift,
/// a part of the day. Folded.
static SCHEDULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:lunes|martes|miercoles|jueves|viernes|sabados?|domingos?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|fines? de semana|turno|shift|noche|night|mananas?|tardes?|mornings?|afternoons?|evenings?|remoto|remote|casa|home)\b").expect("valid schedule pattern")
});

/// The employer `value` (unfolded, after "en" / "at") names, if it names one.
fn employer(value: &str) -> Option<&str> {
    let clause = value.split([',', ';', '.', '(']).next().unwrap_or(value);
    let folded = fold(&clause.to_lowercase());
    if SCHEDULE.is_match(&folded) {
        return None;
    }
    let mut words = folded.split_whitespace();
    let first = words.next()?;
    let proper = clause.trim_start().chars().next().is_some_and(char::is_uppercase);
    let kind = ["un", "una", "el", "la", "a", "an", "the"].contains(&first)
        && words.take(2).any(|w| EMPLOYER_KINDS.contains(&w.trim_matches(|c: char| !c.is_alphanumeric())));
    (proper || kind).then_some(value)
}

/// Articles a value may start with ("una startup" and "startup" are one employer).
const ARTICLES: [&str; 7] = ["un ", "una ", "el ", "la ", "a ", "an ", "the "];

/// A value as compared: up to the first clause break, trimmed, without a leading article.
fn value_of(raw: &str) -> String {
    let value = raw.split([',', ';', '.', '(']).next().unwrap_or(raw).trim();
    let value = ARTICLES.iter().find_map(|a| value.strip_prefix(a)).unwrap_or(value);
    fold(&value.trim().to_lowercase())
}

/// Words that may open a fact about the user without naming anyone.
const NOT_SOMEONE: [&str; 14] =
    ["ahora", "now", "actualmente", "currently", "tambien", "also", "today", "hoy", "ya", "still", "todavia", "aun", "recently", "recientemente"];

/// Who a fact is about, from the words before its verb: a possessive and a noun ("mi
/// hermana", "my sister"), or a capitalised name right before the verb ("Laura
/// trabaja…"); else the user (empty). `words_before` is how many words precede the verb.
fn whose(text: &str, words_before: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().take(words_before).collect();
    let folded: Vec<String> = words.iter().map(|w| fold(&w.to_lowercase()).trim_matches(|c: char| !c.is_alphanumeric()).to_string()).collect();
    let possessive = ["mi", "my", "su", "his", "her", "tu", "your", "our", "nuestro", "nuestra"];
    if let Some(at) = folded.iter().rposition(|w| possessive.contains(&w.as_str())) {
        if at + 1 < folded.len() {
            return folded[at..].join(" ");
        }
    }
    match (words.last(), folded.last()) {
        (Some(word), Some(plain)) if word.chars().next().is_some_and(char::is_uppercase) && !NOT_SOMEONE.contains(&plain.as_str()) && plain.len() > 1 => {
            plain.clone()
        }
        _ => String::new(),
    }
}

/// How many words of `text` come before byte `at` of it.
fn words_before(text: &str, at: usize) -> usize {
    text.get(..at).map_or(0, |head| head.split_whitespace().count())
}

/// The slot `text` states, if any.
pub fn slot_of(text: &str) -> Option<Slot> {
    let folded = fold(&text.to_lowercase());
    let slot = |name: String, value: &str, verb_at: usize, of: &str| {
        let value = value_of(value);
        (!value.is_empty()).then(|| Slot { name, value, who: whose(text, words_before(of, verb_at)) })
    };
    if let Some(changed) = JOB_CHANGE.captures(&folded) {
        return slot("job".into(), changed.get(1)?.as_str(), changed.get(0)?.start(), &folded);
    }
    let listed = PATTERNS.iter().find_map(|p| {
        let caps = p.regex.captures(&folded)?;
        let name = match caps.get(1).filter(|_| caps.len() > 2) {
            Some(thing) => p.name.replace("{1}", thing.as_str()),
            None => p.name.to_string(),
        };
        slot(name, caps.get(caps.len() - 1)?.as_str(), caps.get(0)?.start(), &folded)
    });
    listed.or_else(|| {
        let at = JOB_AT.captures(text)?;
        slot("job".into(), employer(at.get(1)?.as_str())?, at.get(0)?.start(), text)
    })
}

/// Whether `new` replaces `old`: the same slot with another value.
pub(crate) fn supersedes(new: &str, old: &str) -> bool {
    match (slot_of(new), slot_of(old)) {
        (Some(a), Some(b)) => a.name == b.name && a.who == b.who && a.value != b.value,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_a_new_job_and_a_new_favourite_supersede_and_other_facts_do_not() {
        assert!(supersedes("I moved to Madrid", "I live in Barcelona"));
        assert!(supersedes("Se mudó a Valencia", "Vive en Rosario con su gato"));
        assert!(supersedes("Works as a nurse at La Fe", "Works as a teacher"));
        assert!(supersedes("Trabaja para Telefónica", "Trabaja para Indra"));
        assert!(supersedes("Mi grupo favorito es Vetusta Morla", "Mi grupo favorito es Izal"));
        assert!(supersedes("Her blood type is A positive", "Her blood type is O negative"));
        assert!(!supersedes("I live in Barcelona", "I live in Barcelona, near the beach"));
        assert!(!supersedes("My favourite band is Radiohead", "My favourite film is Alien"));
        assert!(!supersedes("Likes green tea", "I live in Barcelona"));
        // "Works in" names a field as often as an employer: people work in two.
        assert!(!supersedes("Trabaja en desarrollo backend", "Trabaja en desarrollo frontend"));
        // An employer after "en", and the seed's job change that names no old one.
        assert!(supersedes("Renuncié, ahora estoy en startup", "Trabajo en Google"));
        assert!(supersedes("I quit, now I'm at a startup", "I work at Google"));
        assert!(supersedes("Trabaja en una startup", "Trabajo en Google"));
        assert!(!supersedes("Trabaja en una startup", "Renuncié, ahora estoy en startup"), "the same employer, with or without an article");
        assert!(!supersedes("Estoy en Madrid esta semana", "Trabajo en Google"));
        assert_eq!(slot_of("Trabajo en Google").map(|s| s.value).as_deref(), Some("google"));
        // Someone else's move or job replaces none of the user's (Bug 3).
        for (other, own) in [
            ("Mi hermana vive en Madrid", "Vivo en Barcelona"),
            ("Mi hermana trabaja en Google", "Trabajo en Microsoft"),
            ("My sister works at Google", "I work at Microsoft"),
            ("Laura trabaja en Google", "Trabajo en Indra"),
        ] {
            assert!(!supersedes(other, own) && !supersedes(own, other), "{other} / {own}");
        }
        assert!(supersedes("Mi hermana se mudó a Valencia", "Mi hermana vive en Madrid"), "hers, by hers");
        assert!(supersedes("I work at Acme", "I work at Google"));
        assert!(supersedes("I work at a bank", "I work for Google"));
        assert!(supersedes("Ahora vive en Valencia", "Vive en Madrid"), "an adverb names no one");
    }

    /// Issue 68: a place, a shift or a day of work is no employer, and replaces none.
    #[test]
    fn a_place_or_a_shift_of_work_keeps_the_employer() {
        for employer in ["Trabajo en Google", "I work at Google", "I work for Google", "Trabaja en una startup"] {
            for place in [
                "Trabajo en la oficina los martes",
                "Trabajo en el turno de noche",
                "Trabajo en el centro",
                "Trabajo en casa los viernes",
                "Trabajo en Google los martes",
                "I work at home on Fridays",
                "I work at the front desk",
                "I work at night",
                "She works at the office on Mondays",
            ] {
                assert!(!supersedes(place, employer) && !supersedes(employer, place), "{place} / {employer}");
            }
        }
        assert_eq!(slot_of("Trabajo en la oficina los martes"), None);
        assert_eq!(slot_of("I work at home on Fridays"), None);
        assert_eq!(slot_of("I work at Google").map(|s| s.value).as_deref(), Some("google"));
    }
}
