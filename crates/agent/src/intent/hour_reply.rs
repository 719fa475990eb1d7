//! The answer to "at what time?": after a reminder said with a date and no hour was
//! met with the question, a reply that is only an hour ("a las 10", "at 6pm", "18:30",
//! "por la tarde") completes that request instead of starting another. The same for
//! "which day?" after a "next Friday" that could be either week: a reply that is only a
//! day ("el viernes 27", "the 27th") is added to the request, where it settles the week.

use std::sync::LazyLock;

use regex::Regex;
use sidecar_domain::Lang;

/// A reminder request waiting for the next message to complete it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Awaiting {
    /// Asked at what time.
    Hour { sentence: String },
    /// Asked which week's day a "next Friday" is.
    Day { sentence: String },
}

impl Awaiting {
    /// The request completed by `reply`, when `reply` answers the question; `None`
    /// otherwise (the reply is read on its own). `fallback`: the app's language, for a
    /// request whose words do not show theirs.
    pub(crate) fn complete(&self, reply: &str, fallback: Lang) -> Option<String> {
        match self {
            Awaiting::Hour { sentence } => {
                let spanish = sidecar_dates::written_in(sentence, fallback) == Lang::Es;
                complete(sentence, reply, spanish)
            }
            Awaiting::Day { sentence } => complete_day(sentence, reply),
        }
    }
}

static DAY_ONLY: LazyLock<Regex> = LazyLock::new(|| {
    const WEEKDAY: &str = r"lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo|monday|tuesday|wednesday|thursday|friday|saturday|sunday";
    const MONTH: &str = r"enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|january|february|march|april|may|june|july|august|september|october|november|december";
    Regex::new(&format!(
        r"(?ix)^
        (?:el\s+|the\s+|on\s+(?:the\s+)?)?
        (?:(?:{WEEKDAY}),?\s+(?:el\s+|the\s+)?)?
        (?:
            \d{{1,2}}(?:st|nd|rd|th|º)?(?:\s+(?:de\s+|of\s+)?(?:{MONTH}))?
          | (?:{MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?
        )
        [.!]?$"
    ))
    .expect("a valid pattern")
});

/// The request `pending` said again with the day in `reply` after it ("… el próximo
/// viernes a las 10 el viernes 27": the dates read the day as settling the week), when
/// `reply` is only a day.
pub(crate) fn complete_day(pending: &str, reply: &str) -> Option<String> {
    let reply = reply.trim().trim_end_matches(['.', '!']);
    DAY_ONLY.is_match(reply).then(|| format!("{} {reply}", pending.trim().trim_end_matches(['.', '!'])))
}

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
    use super::{complete, complete_day};

    #[test]
    fn only_a_day_answers_which_day() {
        let pending = "Recuérdame llamar a Ana el próximo viernes a las 10";
        assert_eq!(complete_day(pending, "el viernes 27").as_deref(), Some("Recuérdame llamar a Ana el próximo viernes a las 10 el viernes 27"));
        assert_eq!(
            complete_day(pending, "viernes 27 de noviembre").as_deref(),
            Some("Recuérdame llamar a Ana el próximo viernes a las 10 viernes 27 de noviembre")
        );
        assert_eq!(complete_day("call Ana next friday.", "Friday the 20th.").as_deref(), Some("call Ana next friday Friday the 20th"));
        assert_eq!(complete_day("call Ana next friday", "November 27").as_deref(), Some("call Ana next friday November 27"));
        assert_eq!(complete_day("call Ana next friday", "the 27th").as_deref(), Some("call Ana next friday the 27th"));
        for other in ["gracias", "mejor el jueves que viene", "a las 10", "27 euros", "recuérdame comprar pan mañana"] {
            assert_eq!(complete_day(pending, other), None, "{other}");
        }
    }

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
