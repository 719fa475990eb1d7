//! Bug 12: what the user said about themselves that no saved fact covers. The context
//! logs it when old turns leave the prompt; the chat offers to save it.

use serde::Serialize;

use super::facts::potential_facts;
use super::words::significant;

/// A fact-like phrase from an evicted user message that no saved fact covers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnsavedFact {
    pub phrase: String,
    pub message: String,
}

/// Names and numbers: the words that make a fact this fact and not a similar one
/// ("my sister Ana" is not "my sister Eva").
fn distinctive(phrase: &str) -> std::collections::BTreeSet<String> {
    phrase
        .split(|c: char| !c.is_alphanumeric())
        // The first word is capitalised for being first ("Soy…", "My…"), not a name.
        .skip(1)
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) || w.chars().next().is_some_and(char::is_uppercase))
        .flat_map(significant)
        .collect()
}

/// Bug 12: phrases in `user_messages` that look like personal facts but match none of
/// `saved` (a saved fact covers a phrase when it has most of its words and all of its
/// names and numbers).
pub fn unsaved_facts<'a>(user_messages: impl IntoIterator<Item = &'a str>, saved: &[String]) -> Vec<UnsavedFact> {
    let saved: Vec<_> = saved.iter().map(|f| significant(f)).collect();
    let mut out = Vec::new();
    for message in user_messages {
        for phrase in potential_facts(message) {
            let words = significant(&phrase);
            let names = distinctive(&phrase);
            let covered = saved.iter().any(|fact| !words.is_empty() && words.intersection(fact).count() * 10 >= words.len() * 6 && names.is_subset(fact));
            if !covered {
                out.push(UnsavedFact { phrase, message: message.to_string() });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bug12_unsaved_fact_phrases_are_found_and_saved_ones_are_not() {
        let sisters = unsaved_facts(["my sister Ana lives in Rosario"], &["Has a sister, Eva, who lives in Rosario".to_string()]);
        assert_eq!(sisters.len(), 1, "a different name is a different fact");
        assert!(unsaved_facts(["my sister Ana lives in Rosario"], &["Sister Ana lives in Rosario".to_string()]).is_empty());
        let saved = vec!["Es diabético tipo 2".to_string()];
        let found = unsaved_facts(["soy diabético tipo 2", "soy alérgico al maní y me gusta el té"], &saved);
        let phrases: Vec<&str> = found.iter().map(|f| f.phrase.as_str()).collect();
        assert!(!phrases.iter().any(|p| p.contains("diabético")), "{phrases:?}");
        assert!(phrases.iter().any(|p| p.contains("alérgico al maní")), "{phrases:?}");
    }
}
