//! Work asked on a schedule ("every weekday at 8, check the weather and tell me what to
//! expect", "todos los días laborables a las 8, mira el tiempo y dime qué esperar"): a
//! scheduled task, not a reminder. A model with tools proposes it; the demo model cannot
//! run one, so Sidecar says so at once rather than leave it to a reply that would not
//! (the first hour's M1).

/// Words that make a time a repeat.
const REPEAT: &[&str] = &["every", "each", "daily", "weekly", "cada", "diario", "diariamente", "semanalmente", "todos los", "todas las", "a diario"];

/// Verbs of work, opening a clause (folded: no accents).
const WORK: &[&str] = &[
    "check",
    "look up",
    "look for",
    "search",
    "find",
    "summarize",
    "summarise",
    "tell me",
    "give me",
    "fetch",
    "mira",
    "busca",
    "buscame",
    "comprueba",
    "revisa",
    "dime",
    "resume",
    "resumeme",
    "dame",
    "consulta",
    "averigua",
];

/// Whether `words` (the message's folded words, each with where it starts in `text`)
/// ask for work on a repeat: a repeat word anywhere, and a verb of work opening the
/// message or a clause after a comma, with what to work on after it; not a question.
pub(super) fn asks_for_work(text: &str, words: &[(String, usize)], from: usize) -> bool {
    let repeats = (from..words.len()).any(|at| super::opener(words, at, REPEAT).is_some());
    let clause_opens = |at: usize| at == from || text[..words[at].1].trim_end().ends_with(',');
    // The verb has its object ("check the weather"); a question asks, it orders nothing.
    let orders = |at: usize| super::opener(words, at, WORK).is_some_and(|end| end < words.len());
    repeats && !text.trim_end().ends_with('?') && (from..words.len()).any(|at| clause_opens(at) && orders(at))
}

#[cfg(test)]
mod tests {
    use super::super::{detect, Intent};

    #[test]
    fn work_on_a_repeat_in_both_languages_and_not_a_reminder() {
        let work = |text: &str| matches!(detect(text), Some(Intent::ScheduleWork));
        assert!(work("every weekday at 8, check the weather and tell me what to expect"));
        assert!(work("todos los días laborables a las 8, mira el tiempo y dime qué esperar"));
        assert!(work("Check the top tech headlines every day at 6pm"));
        assert!(work("cada lunes, resúmeme las noticias"));
        // A reminder stays a reminder; a question about the weather is the model's.
        assert!(matches!(detect("remind me every weekday at 8 to check the weather"), Some(Intent::Set { .. })));
        assert!(!work("what is the weather every day in Madrid like?"));
        assert!(!work("check the weather"));
        assert!(!work("I go running every morning, check"));
    }
}
