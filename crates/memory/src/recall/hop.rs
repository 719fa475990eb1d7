//! The second hop of recall: when the first pass is weak, the names in its best results
//! are searched too, so a question that needs two places in the history finds both
//! ("what does the person who gave me the guitar do?": the guitar names Tomás, and
//! Tomás's job is said elsewhere).
//!
//! What the hop's matches by meaning and by exchange weigh is the embedder's
//! ([`crate::knowledge::meaning::Thresholds::hop_meaning`]): with EmbeddingGemma nothing,
//! and the names are searched by words alone without a second embedding (LoCoMo's
//! development part at 2k: 0.6 with exchanges 90.8%, 0.15 without 91.9%, words alone
//! 92.0%, multi-hop 73.8%, inference 72.3%; the embedding is about 50 ms of the p95
//! recall at 100,000 messages); with e5-small as much as its words, because e5-small
//! ranks "a new washer" above the Spanish line about the sister's new job for "my
//! sibling's new job" and only the name's own embedding ("Laura") lifts that line back
//! (two core tests and the Memory view's end-to-end test).
//!
//! Tried and left out: a second round by meaning for the question moved towards the
//! vectors of the three best messages (pseudo-relevance feedback, votes at half weight).
//! On LoCoMo at 2k it gained on the development part (EmbeddingGemma 90.0% → 90.5%,
//! multi-hop 71.0% → 72.5%; e5-small 85.5% → 85.8%) and not on the test part
//! (EmbeddingGemma 87.0% → 87.4%, multi-hop 68.0% → 68.3%, inference 60.3% → 58.9%;
//! e5-small 83.2% → 83.0%), and in the Memory view it put the kitten's Spanish twin
//! ahead of the kitten.

use std::collections::BTreeSet;

use crate::knowledge::words::{fold, significant};

/// Fewer matches by words than this is weak too.
const FEW_WORD_MATCHES: usize = 3;
/// Names taken into the second query.
pub(crate) const MAX_NAMES: usize = 4;

/// Whether the first pass needs a second hop: few matches by words, or a best match by
/// meaning (its cosine) below the embedder's `confident` one
/// ([`crate::knowledge::meaning::Thresholds`]).
pub(crate) fn is_weak(word_matches: usize, best_meaning: Option<f64>, confident: f32) -> bool {
    word_matches < FEW_WORD_MATCHES || best_meaning.is_none_or(|cosine| cosine < f64::from(confident))
}

/// A name said in more than this share of all messages, and in more than
/// [`COMMON_AT_LEAST`] of them, is everywhere (the user's partner, the other person of a
/// long chat) and leads the second hop nowhere in particular. On LoCoMo's development
/// part the two speakers' names came back on almost every weak question and the hop
/// cost 1.2 points of evidence at 2k; with them left out it costs nothing (77.8% with
/// or without the hop) and still finds "Tomás" for the guitar.
const COMMON_SHARE: f64 = 0.02;
/// In a short history every name is said often; none is common by its share alone.
const COMMON_AT_LEAST: u64 = 20;

/// Whether a name said in `saying` of `all` messages is too common to search for.
pub(crate) fn is_common(saying: u64, all: u64) -> bool {
    saying > COMMON_AT_LEAST && saying as f64 > COMMON_SHARE * all as f64
}

/// The names (capitalised words not at a sentence's start, and numbers) in `texts`
/// that the query does not already say, in order.
pub(crate) fn names(texts: &[&str], query: &str) -> Vec<String> {
    let asked = significant(query);
    let mut names: BTreeSet<String> = BTreeSet::new();
    for text in texts {
        let mut sentence_start = true;
        for raw in text.split_whitespace() {
            let word = raw.trim_matches(|c: char| !c.is_alphanumeric());
            let capitalised = word.chars().next().is_some_and(char::is_uppercase) && word.chars().count() > 2;
            let folded = fold(&word.to_lowercase());
            if capitalised && !sentence_start && !asked.contains(&folded) && !significant(word).is_empty() {
                names.insert(word.to_string());
            }
            sentence_start = raw.ends_with(['.', '!', '?', ':']);
        }
    }
    names.into_iter().collect()
}

/// The second hop's query: the first [`MAX_NAMES`] of `names`, when there are any.
pub(crate) fn query(names: &[String]) -> Option<String> {
    (!names.is_empty()).then(|| names.iter().take(MAX_NAMES).cloned().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_skip_sentence_starts_and_what_the_query_says() {
        let texts = ["My uncle Tomás gave me a guitar. It was in Sevilla.", "Laura says hi"];
        assert_eq!(names(&texts, "who gave me the guitar in Sevilla?"), vec!["Tomás"]);
        assert!(names(&["nothing capitalised here"], "q").is_empty());
        assert_eq!(query(&[]), None);
    }

    #[test]
    fn a_name_is_common_when_said_often_in_a_long_history() {
        assert!(is_common(150, 600));
        assert!(!is_common(5, 600));
        assert!(!is_common(3, 10), "a short history has no common names");
        assert!(!is_common(25, 100_000));
    }
}
