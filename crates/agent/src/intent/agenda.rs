//! "What's on my calendar tomorrow?", "¿qué tengo hoy?": a day's events, which the
//! calendar answers without a model (the first hour's m17: the demo model gave 18 s of
//! gibberish). Whole questions only, folded as `detect` folds them.

/// The questions, without their day.
const ASKED: &[&str] = &[
    "what's on my calendar",
    "whats on my calendar",
    "what is on my calendar",
    "what's in my calendar",
    "what is in my calendar",
    "what's on my agenda",
    "whats on my agenda",
    "what's on my schedule",
    "whats on my schedule",
    "what is on my schedule",
    "what do i have",
    "what have i got",
    "what's on",
    "whats on",
    "my calendar",
    "my agenda",
    "do i have anything",
    "que tengo",
    "que tengo en el calendario",
    "que tengo en mi calendario",
    "que tengo en la agenda",
    "que tengo en mi agenda",
    "que hay en mi calendario",
    "que hay en el calendario",
    "que hay en mi agenda",
    "mi agenda",
    "mi calendario",
    "tengo algo",
];

/// The day said last, as days from today.
const DAYS: &[(&str, u32)] = &[
    ("today", 0),
    ("for today", 0),
    ("tomorrow", 1),
    ("for tomorrow", 1),
    ("hoy", 0),
    ("para hoy", 0),
    ("de hoy", 0),
    ("manana", 1),
    ("para manana", 1),
    ("de manana", 1),
];

/// Days from today the question `asked` (folded, whole) is about, if it is one.
pub(super) fn asks(asked: &str) -> Option<u32> {
    DAYS.iter()
        .filter_map(|(day, days)| Some((asked.strip_suffix(day)?.trim_end(), *days)))
        .find_map(|(question, days)| ASKED.contains(&question).then_some(days))
}

#[cfg(test)]
mod tests {
    use super::super::{detect, Intent};

    #[test]
    fn a_days_events_asked_in_both_languages() {
        assert_eq!(detect("What's on my calendar tomorrow?"), Some(Intent::Agenda { days: 1 }));
        assert_eq!(detect("what do I have today"), Some(Intent::Agenda { days: 0 }));
        assert_eq!(detect("¿Qué tengo mañana?"), Some(Intent::Agenda { days: 1 }));
        assert_eq!(detect("qué hay en mi calendario hoy"), Some(Intent::Agenda { days: 0 }));
        assert_eq!(detect("what do I have to do to renew my passport"), None);
        assert_eq!(detect("qué tengo que hacer mañana para el examen"), None);
    }
}
