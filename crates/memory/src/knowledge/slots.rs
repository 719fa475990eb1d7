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
        pattern("job", r"\b(?:i work|works|is working|trabajo|trabaja|curro|curra)\s+(?:as an?|as|at|for|como|para)\s+(.+)"),
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

/// The slot `text` states, if any.
pub fn slot_of(text: &str) -> Option<Slot> {
    let folded = fold(&text.to_lowercase());
    PATTERNS.iter().find_map(|p| {
        let caps = p.regex.captures(&folded)?;
        let value = caps.get(caps.len() - 1)?.as_str();
        let value = value.split([',', ';', '.', '(']).next().unwrap_or(value).trim().to_string();
        let name = match caps.get(1).filter(|_| caps.len() > 2) {
            Some(thing) => p.name.replace("{1}", thing.as_str()),
            None => p.name.to_string(),
        };
        (!value.is_empty()).then_some(Slot { name, value })
    })
}

/// Whether `new` replaces `old`: the same slot with another value.
pub(crate) fn supersedes(new: &str, old: &str) -> bool {
    match (slot_of(new), slot_of(old)) {
        (Some(a), Some(b)) => a.name == b.name && a.value != b.value,
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
    }
}
