//! The words of a question that say what it is about. "What did I tell you about my
//! sister's job?" is about "sister job": the scaffolding ("what did I tell you about")
//! is in half of everything ever said and would drown the match by words.

use crate::knowledge::words::{fold, significant};

/// Question scaffolding in English and Spanish (folded, lower-case), beyond the
/// stopwords the facts engine already drops.
const SCAFFOLDING: &[&str] = &[
    // English
    "what", "whats", "when", "where", "which", "who", "whom", "whose", "why", "how", "did", "does", "do", "done", "tell",
    "told", "say", "said", "mention", "mentioned", "about", "any", "anything", "me", "remember", "recall", "know", "there",
    "can", "could", "would", "should", "will", "been", "were", "had", "get", "got", "last", "ago",
    // Spanish
    "que", "te", "cual", "cuales", "cuando", "donde", "quien", "quienes", "como", "por", "dije", "dijiste", "conte", "contaste",
    "hable", "hablamos", "comente", "sabes", "recuerdas", "acuerdas", "algun", "alguna", "alguno", "tengo", "tiene", "era",
    "fue", "hace", "pasado", "pasada",
];

/// The words `query` is about, for the search by words; the whole query when it is all
/// scaffolding.
pub fn subject(query: &str) -> String {
    let words: Vec<String> = fold(&query.to_lowercase())
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1 && !SCAFFOLDING.contains(w) && !significant(w).is_empty())
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        query.to_string()
    } else {
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scaffolding_goes_and_the_subject_stays() {
        assert_eq!(subject("What did I tell you about my sister's new job?"), "sister new job");
        assert_eq!(subject("¿Qué te conté del nuevo empleo de mi hermana?"), "nuevo empleo hermana");
        assert_eq!(subject("what did you say?"), "what did you say?");
    }
}
