//! The words of a question that say what it is about. "What did I tell you about my
//! sister's job?" is about "sister job": the scaffolding ("what did I tell you about")
//! is in half of everything ever said and would drown the match by words.

use crate::knowledge::words::{fold, significant};

/// Question scaffolding in English and Spanish (folded, lower-case), beyond the
/// stopwords the facts engine already drops.
const SCAFFOLDING: &[&str] = &[
    // English
    "what",
    "whats",
    "when",
    "where",
    "which",
    "who",
    "whom",
    "whose",
    "why",
    "how",
    "did",
    "does",
    "do",
    "done",
    "tell",
    "told",
    "say",
    "said",
    "mention",
    "mentioned",
    "about",
    "any",
    "anything",
    "me",
    "remember",
    "recall",
    "know",
    "there",
    "can",
    "could",
    "would",
    "should",
    "will",
    "been",
    "were",
    "had",
    "get",
    "got",
    "last",
    "ago",
    // Spanish
    "que",
    "te",
    "cual",
    "cuales",
    "cuando",
    "donde",
    "quien",
    "quienes",
    "como",
    "por",
    "dije",
    "dijiste",
    "conte",
    "contaste",
    "hable",
    "hablamos",
    "comente",
    "sabes",
    "recuerdas",
    "acuerdas",
    "algun",
    "alguna",
    "alguno",
    "tengo",
    "tiene",
    "era",
    "fue",
    "hace",
    "pasado",
    "pasada",
];

/// The words `query` is about, for the search by words; the whole query when it is all
/// scaffolding.
pub(crate) fn subject(query: &str) -> String {
    let words = subject_words(query);
    if words.is_empty() {
        query.to_string()
    } else {
        words.join(" ")
    }
}

fn subject_words(query: &str) -> Vec<String> {
    fold(&query.to_lowercase())
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1 && !SCAFFOLDING.contains(w) && !significant(w).is_empty())
        .map(str::to_string)
        .collect()
}

/// The names `query` says: capitalised words past its first, without a possessive
/// ("Caroline's" is "Caroline"), in order.
pub(crate) fn names(query: &str) -> Vec<String> {
    query
        .split_whitespace()
        // The first word is capitalised for starting the question, not for being a name.
        .skip(1)
        .map(bare)
        .filter(|word| word.chars().next().is_some_and(char::is_uppercase) && word.chars().count() > 2)
        .map(str::to_string)
        .collect()
}

/// `query` with `names` left out, to search with; `query` itself when nothing it is
/// about would be left ("Who is Laura?" stays as it is).
pub(crate) fn without(query: &str, names: &[String]) -> String {
    if names.is_empty() {
        return query.to_string();
    }
    let kept: Vec<&str> = query.split_whitespace().filter(|raw| !names.iter().any(|name| name == bare(raw))).collect();
    let rest = kept.join(" ");
    if subject_words(&rest).is_empty() {
        query.to_string()
    } else {
        rest
    }
}

/// A word without the punctuation around it or a possessive.
fn bare(raw: &str) -> &str {
    let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
    word.strip_suffix("'s").or_else(|| word.strip_suffix("’s")).unwrap_or(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_capitalised_words_past_the_first() {
        assert_eq!(names("What activities does Melanie partake in?"), vec!["Melanie"]);
        assert_eq!(names("What is Caroline's identity?"), vec!["Caroline"]);
        assert_eq!(names("¿Cuándo es el cumpleaños de Laura?"), vec!["Laura"]);
        assert!(names("What did I say?").is_empty(), "one letter is no name");
    }

    #[test]
    fn a_name_left_out_leaves_what_the_question_is_about() {
        let melanie = vec!["Melanie".to_string()];
        assert_eq!(without("Where has Melanie camped?", &melanie), "Where has camped?");
        assert_eq!(without("What is Melanie's favourite book?", &melanie), "What is favourite book?");
        assert_eq!(without("Who is Melanie?", &melanie), "Who is Melanie?", "nothing would be left to search for");
        assert_eq!(without("Where has Melanie camped?", &[]), "Where has Melanie camped?");
        assert_eq!(without("Melanie camping", &melanie), "camping", "a question of keywords alone loses the name too");
    }

    #[test]
    fn the_scaffolding_goes_and_the_subject_stays() {
        assert_eq!(subject("What did I tell you about my sister's new job?"), "sister new job");
        assert_eq!(subject("¿Qué te conté del nuevo empleo de mi hermana?"), "nuevo empleo hermana");
        assert_eq!(subject("what did you say?"), "what did you say?");
    }
}
