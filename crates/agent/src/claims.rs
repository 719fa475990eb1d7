//! Claim-versus-action validation: a reply that says it did something (set a
//! reminder, saved a fact) must come with the tool call that does it. Models,
//! especially small ones, often say "I'll remind you" and call nothing.

use std::sync::LazyLock;

use regex::Regex;

/// An action a reply can claim, and the tools that would have done it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claim {
    Reminder,
    Fact,
}

impl Claim {
    /// The name of the check, as recorded in self-correction notes.
    pub(crate) fn check_name(self) -> &'static str {
        match self {
            Claim::Reminder => "claimed_reminder_without_tool",
            Claim::Fact => "claimed_fact_saved_without_tool",
        }
    }

    /// Tools whose call backs the claim.
    pub(crate) fn backing_tools(self) -> &'static [&'static str] {
        match self {
            Claim::Reminder => &["set_reminder", "snooze_reminder"],
            Claim::Fact => &["remember_fact"],
        }
    }

    /// What the corrective retry tells the model.
    pub(crate) fn correction(self) -> &'static str {
        match self {
            Claim::Reminder => "Your last reply says a reminder was set, but you did not call set_reminder, so no reminder exists. Call set_reminder now if the user asked for one; otherwise answer again without claiming it.",
            Claim::Fact => "Your last reply says you saved or will remember something, but you did not call remember_fact, so nothing was saved. Call remember_fact now if there is a fact worth keeping; otherwise answer again without claiming it.",
        }
    }
}

static REMINDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(i'?ve|i have|i)\s+(set|created|scheduled|added)\s+(up\s+)?(a|the|your|that)\s+reminder",
        r"|\bi('ll| will)\s+remind\s+you",
        r"|\breminder\s+(is\s+|has\s+been\s+)?(set|created|scheduled)",
        r"|\bte\s+(lo\s+)?recordar[ée]",
        r"|\b(cre[ée]|program[ée]|configur[ée]|agend[ée]|puse)\s+(el|un|tu|ese)\s+recordatorio",
        r"|\brecordatorio\s+(creado|programado|configurado|listo|agendado)",
    ))
    .expect("valid regex")
});

static FACT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\bi'?ve\s+(saved|noted|stored|remembered)\b",
        r"|\bi\s+have\s+(saved|noted|stored)\b",
        r"|\bi('ll| will)\s+(remember|keep\s+that\s+in\s+mind|make\s+a\s+note)",
        r"|\b(saved|noted)\s+(that|it)\s+(to|in)\s+(my\s+)?memory",
        r"|\b(lo\s+)?(he\s+)?(guardado|anotado)\b",
        r"|\b(guard[ée]|anot[ée])\s+(eso|que|tu|el\s+dato|esa)",
        r"|\blo\s+voy\s+a\s+recordar|\bme\s+lo\s+anoto|\blo\s+recordar[ée]",
    ))
    .expect("valid regex")
});

static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(can't|cannot|can not|unable|won't|don't|didn't|not able|no puedo|no pude|no es posible|no he|no voy)\b").expect("valid regex")
});

/// The first action the reply claims without having called a tool that does it.
/// `called` are the tools run during this turn.
pub(crate) fn unbacked_claim(reply: &str, called: &[String]) -> Option<Claim> {
    let sentences = reply.split(['.', '!', '?', '\n']).filter(|s| !NEGATION.is_match(s));
    for sentence in sentences {
        for (claim, pattern) in [(Claim::Reminder, &*REMINDER), (Claim::Fact, &*FACT)] {
            let backed = claim.backing_tools().iter().any(|t| called.iter().any(|c| c == t));
            if !backed && pattern.is_match(sentence) {
                return Some(claim);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> Vec<String> {
        Vec::new()
    }

    #[test]
    fn english_and_spanish_claims_are_caught() {
        for text in [
            "Done! I've set a reminder for 9am tomorrow.",
            "Sure, I'll remind you at 5.",
            "Your reminder is set.",
            "Listo, te recordaré mañana a las 9.",
            "Ya creé el recordatorio.",
        ] {
            assert_eq!(unbacked_claim(text, &none()), Some(Claim::Reminder), "{text}");
        }
        for text in ["Got it, I'll remember that you like tea.", "Lo he guardado.", "Anoté eso, gracias.", "Lo voy a recordar."] {
            assert_eq!(unbacked_claim(text, &none()), Some(Claim::Fact), "{text}");
        }
    }

    #[test]
    fn a_matching_tool_call_backs_the_claim() {
        let called = vec!["set_reminder".to_string()];
        assert_eq!(unbacked_claim("I've set a reminder for 9.", &called), None);
        // A different tool does not.
        let other = vec!["get_current_time".to_string()];
        assert_eq!(unbacked_claim("I've set a reminder for 9.", &other), Some(Claim::Reminder));
    }

    #[test]
    fn negations_and_plain_talk_are_not_claims() {
        for text in [
            "I can't set reminders yet, sorry.",
            "No puedo crear recordatorios todavía.",
            "Do you want me to remind you tomorrow?",
            "The weather in Madrid is sunny.",
            "Remember to drink water!",
        ] {
            assert_eq!(unbacked_claim(text, &none()), None, "{text}");
        }
    }
}
