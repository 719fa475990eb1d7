//! The answer to "at what time?": after a reminder said with a date and no hour was
//! met with the question, a reply that is only an hour ("a las 10", "at 6pm", "18:30",
//! "por la tarde") completes that request instead of starting another.

use std::sync::LazyLock;

use regex::Regex;

static HOUR_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^
        (?:(?:a|sobre|hacia|tipo)\s+las?\s+|at\s+|around\s+|@\s*)?
        (?:
            \d{1,2}(?:[:.h]\d{2})?\s*(?:h|hs|am|pm|a\.\s?m\.|p\.\s?m\.)?
            (?:\s+(?:de\s+la|in\s+the|at)\s+(?:mañana|manana|tarde|noche|morning|afternoon|evening|night))?
          | (?:por\s+la|de\s+la|in\s+the)\s+(?:mañana|manana|tarde|noche|morning|afternoon|evening)
          | (?:al\s+)?mediod[ií]a | noon | midday
        )
        [.!]?$",
    )
    .expect("a valid pattern")
});

/// The request `pending` said again with the hour in `reply`, when `reply` is only an
/// hour; `None` otherwise (the reply is read on its own).
pub(crate) fn complete(pending: &str, reply: &str, spanish: bool) -> Option<String> {
    let reply = reply.trim();
    if !HOUR_ONLY.is_match(reply) {
        return None;
    }
    // A bare "10" or "18:30" after a date would be read as a day of the month.
    let hour = if reply.starts_with(|c: char| c.is_ascii_digit()) { format!("{} {reply}", if spanish { "a las" } else { "at" }) } else { reply.to_string() };
    Some(format!("{} {hour}", pending.trim().trim_end_matches(['.', '!'])))
}

#[cfg(test)]
mod tests {
    use super::complete;

    #[test]
    fn only_an_hour_completes_the_request() {
        assert_eq!(complete("llamar a Ana el martes", "a las 10", true).as_deref(), Some("llamar a Ana el martes a las 10"));
        assert_eq!(complete("call Ana in two weeks", "at 6pm", false).as_deref(), Some("call Ana in two weeks at 6pm"));
        assert_eq!(complete("llamar a Ana el martes", "18:30", true).as_deref(), Some("llamar a Ana el martes a las 18:30"));
        assert_eq!(complete("call Ana on Tuesday", "9", false).as_deref(), Some("call Ana on Tuesday at 9"));
        assert_eq!(complete("regar las plantas pasado mañana", "por la tarde", true).as_deref(), Some("regar las plantas pasado mañana por la tarde"));
        assert_eq!(complete("pagar la luz el viernes", "a las 9 de la mañana", true).as_deref(), Some("pagar la luz el viernes a las 9 de la mañana"));
        for other in ["gracias", "mejor el jueves", "what's the weather?", "10 euros", "recuérdame comprar pan mañana a las 9"] {
            assert_eq!(complete("llamar a Ana el martes", other, true), None, "{other}");
        }
    }
}
