//! The Memory view's relevance cut: which of everything recall ranked a person should
//! see. Fusing ranks always yields the top few hundred by meaning, related or not
//! (every question "finds" 30–60 messages that way), so the cut looks at the evidence
//! itself: a match by words must hold enough of what was asked, and a match by meaning
//! must come close to the best one (e5's cosines crowd into a narrow band, so a fixed
//! floor would keep everything for one query and nothing for the next). How close is
//! the embedder's own margin (`Thresholds::view_margin`).

use crate::meaning::vectors::Key;

/// A match by words counts when it holds more than a third of the question's subject
/// words (one of two, two of three: "pets" of "do I have any pets?", "sister job" of
/// "what about my sister's job?").
///
/// Chosen on LoCoMo's development part (`benches/memory_search.rs`) with e5-small's
/// margin: a median of 9 matches shown instead of 85, and evidence on the first page
/// for 40% of its questions instead of 29%. Looser, the list grows fast (a third:
/// median 31); tighter, evidence goes (two thirds: 21% on the first page).
const WORDS: f64 = 0.34;

/// What speaks for one ranked item.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Evidence {
    /// The share of the question's subject words the text holds.
    pub coverage: f64,
    /// Its relevance by meaning (cosine less crowding), when meaning was searched.
    pub relevance: Option<f64>,
}

/// `ranked` (best first) without what fails the cut, in the same order: a match by
/// meaning counts when its relevance is within `margin` of the best match's.
pub(crate) fn relevant(ranked: &[(Key, f64, Evidence)], margin: f64) -> Vec<(Key, f64)> {
    let best = ranked.iter().filter_map(|(_, _, e)| e.relevance).fold(f64::NEG_INFINITY, f64::max);
    ranked.iter().filter(|(_, _, e)| e.coverage >= WORDS || e.relevance.is_some_and(|r| r >= best - margin)).map(|(key, score, _)| (*key, *score)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: i64, coverage: f64, relevance: Option<f64>) -> (Key, f64, Evidence) {
        (Key::message(id), 1.0 / id as f64, Evidence { coverage, relevance })
    }

    #[test]
    fn near_the_best_meaning_or_enough_words_stays_and_the_rest_goes() {
        let ranked = [item(1, 0.0, Some(0.86)), item(2, 0.5, Some(0.70)), item(3, 0.0, Some(0.845)), item(4, 0.3, Some(0.83))];
        assert_eq!(relevant(&ranked, 0.02).iter().map(|(k, _)| k.id).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert_eq!(
            relevant(&ranked, 0.05).iter().map(|(k, _)| k.id).collect::<Vec<_>>(),
            vec![1, 2, 3, 4],
            "a wider margin, a model's that spreads its cosines"
        );
        assert_eq!(relevant(&ranked, 0.0).iter().map(|(k, _)| k.id).collect::<Vec<_>>(), vec![1, 2], "no margin: the best and the words");
    }

    #[test]
    fn with_words_only_the_words_decide() {
        let kept = relevant(&[item(1, 1.0, None), item(2, 0.25, None)], 0.02);
        assert_eq!(kept.len(), 1);
    }
}
