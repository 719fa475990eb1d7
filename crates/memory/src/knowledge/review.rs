//! Tidying that asks (issue 74). The tidy finds three kinds of change and, unless the
//! user lets it apply the safe kinds alone (`[memory] tidy_alone`), only proposes them
//! in Memory:
//! - two current facts that are one, by meaning and words: merged when approved (safe);
//! - a line of `learnings.md` not in the format that surely means a fact: repaired when
//!   approved (safe; the seed's "a format mistake is repaired and said");
//! - a newer fact that replaced an older one outside Health as it was saved (the seed's
//!   Bug 1 rule): said here, for 30 days, with Undo (the older one current again, the
//!   newer forgotten), never replaced silently.
//!
//! An answer that keeps things as they are is remembered (`tidy_answers`, by a hash of
//! the proposal's kind and words), so the same proposal is not made again.

use chrono::NaiveDate;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::learnings::{Category, Fact};
use super::store::{KnowledgeError, KnowledgeStore, ListedFact};

/// How long a replacement made at save time stays in the review, to be undone.
pub const REPLACED_SHOWN_DAYS: i64 = 30;

/// One change the tidy proposes.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Proposal {
    /// `a` and `b` are one fact: merged, they keep the wording that says more.
    Merge { key: String, a: ListedFact, b: ListedFact },
    /// Line `line` reads `raw`; in the format it would be `fixed`.
    Repair { key: String, line: usize, raw: String, fixed: String },
    /// `new` replaced `old` when it was saved; Undo puts `old` back.
    Replaced { key: String, old: ListedFact, new: ListedFact },
}

impl Proposal {
    /// `merge`, `repair` or `replaced`, as the window names them.
    pub fn kind(&self) -> &'static str {
        match self {
            Proposal::Merge { .. } => "merge",
            Proposal::Repair { .. } => "repair",
            Proposal::Replaced { .. } => "replaced",
        }
    }

    pub fn key(&self) -> &str {
        match self {
            Proposal::Merge { key, .. } | Proposal::Repair { key, .. } | Proposal::Replaced { key, .. } => key,
        }
    }
}

/// The tidy's proposals, and what it did alone.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct Review {
    pub proposals: Vec<Proposal>,
    /// Lines it repaired alone just now, as they were and as they are.
    pub repaired: Vec<(String, String)>,
    /// Whether the user lets it apply the safe kinds alone.
    pub alone: bool,
}

fn key_of(kind: &str, parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    hash.update(kind.as_bytes());
    for part in parts {
        hash.update([0]);
        hash.update(part.as_bytes());
    }
    hex::encode(hash.finalize())
}

impl KnowledgeStore {
    /// The tidy's proposals not answered yet; with `tidy_alone` on, the lines it can
    /// repair are repaired first and listed as done.
    pub async fn review(&self, today: NaiveDate) -> Result<Review, KnowledgeError> {
        let alone = self.tidies_alone();
        let repaired = if alone { self.repair_all(today)? } else { Vec::new() };
        let answered = self.answered().await;
        let facts = self.facts();
        let find = |text: &str| facts.iter().find(|f| f.fact.superseded.is_none() && f.fact.text == text).cloned();
        let mut proposals = Vec::new();
        for (a, b) in self.repeats() {
            let mut texts = [a.as_str(), b.as_str()];
            texts.sort_unstable();
            if let (Some(a), Some(b)) = (find(&a), find(&b)) {
                proposals.push(Proposal::Merge { key: key_of("merge", &texts), a, b });
            }
        }
        for (line, raw, category, fact) in self.repairable(today) {
            let fixed = fact.to_string();
            proposals.push(Proposal::Repair { key: key_of("repair", &[&raw, category.name()]), line, raw, fixed });
        }
        for old in facts.iter().filter(|f| f.category != Category::Health && !f.fact.critical) {
            let Some(since) = old.fact.superseded.filter(|d| (today - *d).num_days() <= REPLACED_SHOWN_DAYS) else { continue };
            if let Some(new) = facts.iter().find(|f| f.fact.superseded.is_none() && replaced_by(old, f, since)) {
                let key = key_of("replaced", &[&old.fact.text, &new.fact.text]);
                proposals.push(Proposal::Replaced { key, old: old.clone(), new: new.clone() });
            }
        }
        proposals.retain(|p| !answered.contains(&p.key().to_string()));
        Ok(Review { proposals, repaired, alone })
    }

    /// Answers proposal `key`: `apply` merges, repairs, or undoes the replacement; not
    /// applying keeps things as they are, and the proposal is not made again. A
    /// proposal no longer in the review (the file changed) is refused as stale.
    pub async fn answer(&self, key: &str, apply: bool, today: NaiveDate) -> Result<(), KnowledgeError> {
        let review = self.review(today).await?;
        let proposal = review.proposals.into_iter().find(|p| p.key() == key).ok_or(KnowledgeError::ProposalGone)?;
        if apply {
            match &proposal {
                Proposal::Merge { a, b, .. } => {
                    self.merge_repeats(&[(a.fact.text.clone(), b.fact.text.clone())])?;
                }
                Proposal::Repair { line, .. } => {
                    self.rewrite(|doc| match doc.repaired(line - 1, today) {
                        Some((category, fact)) => {
                            doc.repair(line - 1, category, fact);
                            ((), true)
                        }
                        None => ((), false),
                    })?;
                }
                Proposal::Replaced { old, new, .. } => {
                    self.rewrite(|doc| {
                        let at = |doc: &super::learnings::Learnings, text: &str| doc.facts().find(|(_, _, f)| f.text == text).map(|(i, _, f)| (i, f.clone()));
                        if let Some((index, fact)) = at(doc, &old.fact.text) {
                            doc.update(index, Fact { superseded: None, ..fact });
                        }
                        if let Some((index, _)) = at(doc, &new.fact.text) {
                            doc.remove(index);
                        }
                        ((), true)
                    })?;
                }
            }
        }
        // Answered either way: a merge or repair done is not found again; one kept stays kept.
        self.note_answer(key).await;
        tracing::info!(kind = proposal.kind(), apply, "a proposal of the tidy was answered");
        Ok(())
    }

    /// Malformed lines that surely mean a fact: (1-based line, as written, category, fact).
    fn repairable(&self, today: NaiveDate) -> Vec<(usize, String, Category, Fact)> {
        let problems = self.malformed();
        self.read(|doc| problems.iter().filter_map(|p| doc.repaired(p.line - 1, today).map(|(c, f)| (p.line, p.text.clone(), c, f))).collect())
    }

    /// Repairs every line it surely can, writing once: (as it was, as it is).
    fn repair_all(&self, today: NaiveDate) -> Result<Vec<(String, String)>, KnowledgeError> {
        let found = self.repairable(today);
        if found.is_empty() {
            return Ok(Vec::new());
        }
        self.rewrite(|doc| {
            for (line, _, category, fact) in &found {
                doc.repair(line - 1, *category, fact.clone());
            }
            (found.iter().map(|(line, raw, _, fact)| (format!("{line}: {raw}"), fact.to_string())).collect(), true)
        })
    }

    async fn answered(&self) -> Vec<String> {
        let Some(db) = self.db() else { return Vec::new() };
        sqlx::query_scalar("SELECT key FROM tidy_answers").fetch_all(db.pool()).await.unwrap_or_else(|error| {
            tracing::warn!(%error, "the tidy's answers could not be read");
            Vec::new()
        })
    }

    async fn note_answer(&self, key: &str) {
        let Some(db) = self.db() else { return };
        if let Err(error) = sqlx::query("INSERT OR IGNORE INTO tidy_answers (key, answered_at) VALUES (?, ?)").bind(key).bind(db.now()).execute(db.pool()).await
        {
            tracing::warn!(%error, "the tidy's answer could not be kept; it may ask again");
        }
    }
}

/// Whether current fact `new` is the one that replaced `old` on day `since`: about the
/// same thing (the same slot), or, where no slot is known, saved that day in the same
/// category.
fn replaced_by(old: &ListedFact, new: &ListedFact, since: NaiveDate) -> bool {
    match (&old.slot, &new.slot) {
        (Some(a), Some(b)) => a == b && new.fact.learned >= since,
        _ => new.fact.learned == since && new.category == old.category,
    }
}
