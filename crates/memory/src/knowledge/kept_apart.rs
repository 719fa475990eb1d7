//! Why a new fact was saved beside the nearest one instead of merged into it (the seed's
//! Bug 11, the plans' O6): said in the log at `info` with the numbers that decided it,
//! never the facts' words (they are the user's).

use super::facts::{HEALTH_OVERLAP, OVERLAP};
use super::learnings::{Category, Learnings};
use super::meaning::{self, Nearness, SameFact};
use super::words::{differing, overlap, significant};

/// Below this share of shared significant words, and with no cosine measured as near,
/// the nearest fact is not a near-duplicate: nothing is said.
const NEAR_OVERLAP: f64 = 0.4;

/// Why the nearest fact was kept apart from `text`, just saved as new under `category`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct KeptApart {
    /// The nearest fact's line in learnings.md.
    pub line: usize,
    pub overlap: f64,
    pub threshold: f64,
    pub differing: usize,
    pub cosine: Option<f32>,
    pub reason: &'static str,
}

/// The nearest current fact to `text` (by shared words, then by meaning) and why it was
/// not the same fact; `None` when nothing was near.
pub(crate) fn why(doc: &Learnings, text: &str, category: Category, nearness: &Nearness) -> Option<KeptApart> {
    // As it was written (the new fact itself is not its own nearest).
    let text = super::facts::clean(text);
    let text = text.as_str();
    let new = significant(text);
    let nearest = doc
        .facts()
        .filter(|(_, _, fact)| fact.superseded.is_none() && fact.text != text)
        .map(|(line, c, fact)| (line, c, fact, overlap(&significant(&fact.text), &new), nearness.of(&fact.text)))
        .filter(|(_, _, _, shared, cosine)| *shared >= NEAR_OVERLAP || cosine.is_some_and(|c| c >= nearness.thresholds.borderline))
        .max_by(|a, b| (a.3, a.4.unwrap_or(0.0)).partial_cmp(&(b.3, b.4.unwrap_or(0.0))).unwrap_or(std::cmp::Ordering::Equal))?;
    let (line, existing_category, fact, shared, cosine) = nearest;
    let old = significant(&fact.text);
    let threshold = if existing_category == Category::Health || category == Category::Health { HEALTH_OVERLAP } else { OVERLAP };
    let differ = differing(&old, &new);
    let reason = if meaning::negated(&fact.text) != meaning::negated(text) {
        "one says what the other denies"
    } else if shared >= threshold && differ >= 2 {
        "two or more significant words differ (Bug 11)"
    } else if nearness.verdict(&fact.text) == Some(SameFact::Different) {
        "a model read them as two facts"
    } else if shared < threshold && cosine.is_some() {
        "near in meaning, not near enough to be the same fact"
    } else {
        "too few words in common"
    };
    Some(KeptApart { line, overlap: shared, threshold, differing: differ, cosine, reason })
}

/// Says it in the log.
pub(crate) fn log(kept: &KeptApart) {
    tracing::info!(
        // As an editor numbers learnings.md's lines (from 1).
        learnings_line = kept.line + 1,
        overlap = format!("{:.2}", kept.overlap),
        threshold = kept.threshold,
        differing = kept.differing,
        cosine = kept.cosine.map(|c| format!("{c:.3}")),
        reason = kept.reason,
        "a new fact was kept beside a near one, not merged"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::facts::remember;
    use chrono::NaiveDate;

    #[test]
    fn a_near_fact_kept_apart_says_which_rule_kept_it() {
        let today = NaiveDate::from_ymd_opt(2026, 12, 7).unwrap();
        let mut doc = Learnings::default();
        remember(&mut doc, "Toca la guitarra con su hermano Pablo y su amiga Lucía los jueves en el garaje", Category::General, today);
        remember(&mut doc, "Likes green tea", Category::Preferences, today);
        let text = "Toca la guitarra con su hermano Pablo y su amiga Lucía los viernes en el garaje";
        assert!(matches!(remember(&mut doc, text, Category::General, today), crate::SaveOutcome::New { .. }));
        let kept = why(&doc, text, Category::General, &Nearness::none()).unwrap();
        assert_eq!(kept.reason, "two or more significant words differ (Bug 11)", "{kept:?}");
        assert!(kept.overlap >= kept.threshold && kept.differing >= 2, "{kept:?}");
        let line = doc.facts().find(|(_, _, f)| f.text.contains("jueves")).unwrap().0;
        assert_eq!(kept.line, line);
        // Nothing near: nothing to say.
        assert_eq!(why(&doc, "Has a cat called Miso", Category::General, &Nearness::none()), None);
    }
}
