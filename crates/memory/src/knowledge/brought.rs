//! Bringing memory from another assistant (issue 74): what ChatGPT or Claude says it
//! knows about the user (their memory list, or their answer to "what do you know about
//! me?"), pasted, becomes facts to review before anything is saved. Each bullet, line
//! or sentence is one fact, with a category read from its words; headings and the
//! assistant's own preamble ("Here is what I know:") are left out. The review says
//! which Sidecar already knows and which would replace a fact it has; saving goes
//! through the facts engine like any other fact.

use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::facts::{self, SaveOutcome};
use super::learnings::{Category, MAX_FACT_CHARS};
use super::store::{KnowledgeError, KnowledgeStore};
use super::suggest::category_of;

/// A fact read from the pasted text, as the review shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct BroughtFact {
    pub text: String,
    pub category: Category,
    /// The saved fact it says again, when Sidecar knows it already.
    pub already: Option<String>,
    /// The saved fact it would replace (about the same thing, saying otherwise).
    pub replaces: Option<String>,
}

/// A fact the user kept in the review, maybe with another category.
#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct KeptFact {
    pub text: String,
    pub category: Category,
}

/// What saving the reviewed facts did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct BroughtSaved {
    pub new: usize,
    /// Already known: confirmed again.
    pub known: usize,
    /// Saved, replacing or (Health, important) awaiting the user beside an older fact.
    pub changed: usize,
    /// Left out: empty, too long, or over what one save takes.
    pub skipped: usize,
}

/// The most facts one paste becomes: a memory list is dozens, not thousands.
pub const MOST_BROUGHT: usize = 300;

static BULLET: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*(?:[-*•·–]|\d{1,3}[.)])\s+").expect("valid regex"));
static SENTENCE_END: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"([.!?;])\s+").expect("valid regex"));

/// The facts a pasted memory list says, in order, each once.
pub fn read_brought(text: &str) -> Vec<(String, Category)> {
    let mut out: Vec<(String, Category)> = Vec::new();
    for line in text.lines() {
        let bulleted = BULLET.is_match(line);
        let line = BULLET.replace(line, "");
        let line = line.replace("**", "").replace("__", "").replace('`', "");
        let line = line.trim().trim_start_matches('#').trim();
        if line.is_empty() || is_heading(line, bulleted) {
            continue;
        }
        for sentence in sentences(line) {
            let fact = sentence.trim().trim_end_matches(['.', ';']).trim().to_string();
            let words = fact.split_whitespace().count();
            if words < 2 || fact.chars().count() > MAX_FACT_CHARS || fact.ends_with(':') {
                continue;
            }
            let fact = fact.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "/");
            if !out.iter().any(|(f, _)| f.to_lowercase() == fact.to_lowercase()) && out.len() < MOST_BROUGHT {
                out.push((fact.clone(), category_of(&fact)));
            }
        }
    }
    out
}

/// A heading or a preamble, not a fact: `Work context`, `Here is what I know about you:`.
fn is_heading(line: &str, bulleted: bool) -> bool {
    line.ends_with(':') || (!bulleted && line.split_whitespace().count() <= 3 && !line.ends_with('.'))
}

/// A line split where a sentence ends and the next begins with a capital letter (so
/// "Dr. Ruiz" and "3.5 km" stay whole).
fn sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for caps in SENTENCE_END.captures_iter(line) {
        let whole = caps.get(0).expect("a match");
        let next = line[whole.end()..].chars().next();
        let before = line[start..whole.start()].split_whitespace().last().unwrap_or("");
        let abbreviation = before.len() <= 3 && before.chars().next().is_some_and(char::is_uppercase);
        if next.is_some_and(|c| c.is_uppercase() || c == '¿' || c == '¡') && !abbreviation {
            out.push(&line[start..whole.start() + 1]);
            start = whole.end();
        }
    }
    out.push(&line[start..]);
    out
}

impl KnowledgeStore {
    /// The facts of a pasted memory list, each with what Sidecar knows of it; nothing
    /// is saved.
    pub fn preview_brought(&self, text: &str, today: NaiveDate) -> Vec<BroughtFact> {
        self.read(|doc| {
            read_brought(text)
                .into_iter()
                .map(|(text, category)| {
                    let (already, replaces) = match facts::remember(&mut doc.clone(), &text, category, today) {
                        SaveOutcome::Reinforced { .. } | SaveOutcome::Moved { .. } | SaveOutcome::KeptInHealth { .. } | SaveOutcome::KeptImportant { .. } => {
                            // The saved words it repeats, else its own (said the same way).
                            let saved = doc.facts().find(|(_, c, f)| f.superseded.is_none() && facts::same_fact(&f.text, *c, &text, category));
                            (Some(saved.map_or_else(|| text.clone(), |(_, _, f)| f.text.clone())), None)
                        }
                        SaveOutcome::Superseded { old, .. } | SaveOutcome::NeedsConfirmation { old, .. } => (None, Some(old)),
                        _ => (None, None),
                    };
                    BroughtFact { text, category, already, replaces }
                })
                .collect()
        })
    }

    /// Saves the facts the user kept in the review, each as a fact said today.
    pub async fn bring(&self, kept: &[KeptFact], today: NaiveDate) -> Result<BroughtSaved, KnowledgeError> {
        let mut saved = BroughtSaved::default();
        for fact in kept.iter().take(MOST_BROUGHT) {
            match self.save(&fact.text, fact.category, today).await? {
                SaveOutcome::New { .. } => saved.new += 1,
                SaveOutcome::Superseded { .. } | SaveOutcome::NeedsConfirmation { .. } => saved.changed += 1,
                SaveOutcome::Rejected { .. } | SaveOutcome::RateLimited | SaveOutcome::SaidThisTurn { .. } => saved.skipped += 1,
                _ => saved.known += 1,
            }
        }
        saved.skipped += kept.len().saturating_sub(MOST_BROUGHT);
        tracing::info!(new = saved.new, known = saved.known, changed = saved.changed, skipped = saved.skipped, "memory brought from another assistant");
        Ok(saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ChatGPT's Settings → Personalization → Manage memories, selected and copied.
    const CHATGPT: &str = "Is allergic to penicillin.\nWorks as a nurse at Hospital Clínic in Barcelona.\nHas a sister named Laura who lives in Lyon.\nPrefers concise answers with bullet points.\nIs training for the Valencia marathon in December.\nLikes jazz, especially Bill Evans.\n";

    /// Claude's answer to "What do you remember about me?", as it formats it.
    const CLAUDE: &str = "Here's what I remember about you:\n\n**Work context**\n\nYou work as a product designer at a fintech startup. You lead the design system and mentor two junior designers.\n\n**Personal context**\n\n- You have a dog called Pixel.\n- You're vegetarian.\n- Your partner, Dr. Ruiz, is a cardiologist.\n\n**Preferences**\n\n1. You prefer replies in Spanish on weekends.\n2. You like 3.5 km morning runs.\n";

    #[test]
    fn a_chatgpt_memory_list_is_one_fact_a_line_with_its_category() {
        let facts = read_brought(CHATGPT);
        let got: Vec<(&str, Category)> = facts.iter().map(|(t, c)| (t.as_str(), *c)).collect();
        assert_eq!(
            got,
            [
                ("Is allergic to penicillin", Category::Health),
                ("Works as a nurse at Hospital Clínic in Barcelona", Category::Work),
                ("Has a sister named Laura who lives in Lyon", Category::Relationships),
                ("Prefers concise answers with bullet points", Category::Preferences),
                ("Is training for the Valencia marathon in December", Category::General),
                ("Likes jazz, especially Bill Evans", Category::Preferences),
            ]
        );
    }

    #[test]
    fn claudes_summary_loses_its_headings_and_preamble_and_keeps_every_sentence() {
        let facts: Vec<String> = read_brought(CLAUDE).into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            facts,
            [
                "You work as a product designer at a fintech startup",
                "You lead the design system and mentor two junior designers",
                "You have a dog called Pixel",
                "You're vegetarian",
                "Your partner, Dr. Ruiz, is a cardiologist",
                "You prefer replies in Spanish on weekends",
                "You like 3.5 km morning runs",
            ]
        );
    }

    #[tokio::test]
    async fn the_review_says_what_is_known_and_what_would_be_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let store = KnowledgeStore::open(dir.path(), sidecar_domain::Lang::En).unwrap();
        let today = NaiveDate::from_ymd_opt(2026, 12, 7).unwrap();
        store.save("Is allergic to penicillin", Category::Health, today).await.unwrap();
        store.save("Works as a teacher in Madrid", Category::Work, today).await.unwrap();
        let review = store.preview_brought("- is allergic to penicillin\n- Works as a nurse in Barcelona\n- Has a cat called Miso\n", today);
        let seen: Vec<(&str, Option<&str>, Option<&str>)> = review.iter().map(|f| (f.text.as_str(), f.already.as_deref(), f.replaces.as_deref())).collect();
        assert_eq!(seen[0], ("is allergic to penicillin", Some("Is allergic to penicillin"), None));
        assert_eq!(seen[2], ("Has a cat called Miso", None, None));
        assert_eq!(store.facts().len(), 2, "the review saves nothing");
        let kept: Vec<KeptFact> = review.iter().map(|f| KeptFact { text: f.text.clone(), category: f.category }).collect();
        let saved = store.bring(&kept, today).await.unwrap();
        assert_eq!((saved.new + saved.changed, saved.known, saved.skipped), (2, 1, 0), "{saved:?}");
    }

    #[test]
    fn spanish_and_repeats_and_nothing_at_all() {
        let facts = read_brought("Esto es lo que sé de ti:\n- Eres alérgica al maní.\n- eres alérgica al maní\n• Tu hermano Pablo vive en Quito.\n");
        let got: Vec<(&str, Category)> = facts.iter().map(|(t, c)| (t.as_str(), *c)).collect();
        assert_eq!(got, [("Eres alérgica al maní", Category::Health), ("Tu hermano Pablo vive en Quito", Category::Relationships)]);
        assert!(read_brought("").is_empty() && read_brought("\n\n**Memory**\n").is_empty());
        let long = format!("- {}\n", "palabra ".repeat(80));
        assert!(read_brought(&long).is_empty(), "a paragraph too long for one fact is left out");
    }
}
