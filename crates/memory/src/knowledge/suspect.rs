//! What of the knowledge files enters the prompt: every line but those that read as
//! instructions from somewhere else ([`super::screen`]), which are held out until the
//! user has looked at them and kept them ("it is mine") or removed them. What the user
//! kept is remembered by a hash of its words in `knowledge/.kept-as-written.json`, so an
//! edit that changes the line asks again.

use std::collections::BTreeSet;
use std::path::PathBuf;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::facts::{self, PromptFacts};
use super::screen::{reads_as_instructions, Injection};
use super::store::{KnowledgeError, KnowledgeStore, ProfileFile};

const KEPT_FILE: &str = ".kept-as-written.json";

/// One of the three knowledge files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum KnowledgeFile {
    Soul,
    User,
    Learnings,
}

impl KnowledgeFile {
    pub fn name(self) -> &'static str {
        match self {
            KnowledgeFile::Soul => super::store::SOUL_FILE,
            KnowledgeFile::User => super::store::USER_FILE,
            KnowledgeFile::Learnings => super::store::LEARNINGS_FILE,
        }
    }

    fn profile(self) -> Option<ProfileFile> {
        match self {
            KnowledgeFile::Soul => Some(ProfileFile::Soul),
            KnowledgeFile::User => Some(ProfileFile::User),
            KnowledgeFile::Learnings => None,
        }
    }
}

/// A line held out of the prompt until the user looks at it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct SuspectLine {
    pub file: KnowledgeFile,
    /// 1-based, as an editor numbers it.
    pub line: usize,
    /// The line as written (for a fact, its words).
    pub text: String,
    pub reason: Injection,
}

impl KnowledgeStore {
    /// The lines held out of the prompt now, file by file.
    pub fn suspect_lines(&self) -> Vec<SuspectLine> {
        let kept = self.kept_as_written();
        let mut held = Vec::new();
        for file in [KnowledgeFile::Soul, KnowledgeFile::User] {
            held.extend(suspects_in(file, &self.profile_text(file), &kept));
        }
        held.extend(self.read(|doc| suspect_facts(doc, &kept)));
        held
    }

    /// The user read `text` and it is theirs: it enters the prompt as written.
    pub fn keep_as_written(&self, text: &str) -> Result<(), KnowledgeError> {
        let mut kept = self.kept_as_written();
        kept.insert(super::sources::key(text));
        let path = self.kept_path();
        let json = serde_json::to_vec_pretty(&kept).expect("a set of strings serialises");
        sidecar_domain::write_atomically(&path, &json).map_err(|source| KnowledgeError::Write { path: path.display().to_string(), source })
    }

    /// Removes a held line from its file, if it still reads `expected` there.
    pub async fn remove_suspect(&self, file: KnowledgeFile, line: usize, expected: &str) -> Result<(), KnowledgeError> {
        let Some(profile) = file.profile() else {
            return self.delete(line, expected).await;
        };
        let (text, version) = self.profile(profile)?;
        let mut lines: Vec<&str> = text.split('\n').collect();
        if line == 0 || lines.get(line - 1).map(|l| l.trim()) != Some(expected.trim()) {
            return Err(KnowledgeError::ProfileStale { file: file.name() });
        }
        lines.remove(line - 1);
        self.save_profile(profile, &lines.join("\n"), &version).map(|_| ())
    }

    /// The persona (SOUL.md) and the knowledge block for the system prompt, without
    /// the held lines.
    pub fn prompt_parts(&self, today: NaiveDate, fact_budget: usize, tokens: impl Fn(&str) -> usize) -> (String, String, PromptFacts) {
        let kept = self.kept_as_written();
        let mut held = 0;
        let mut clean = |file: KnowledgeFile| {
            let text = self.profile_text(file);
            let out = suspects_in(file, &text, &kept);
            held += out.len();
            without(&text, &out)
        };
        let soul = clean(KnowledgeFile::Soul);
        let user = clean(KnowledgeFile::User);
        let chosen = self.read(|doc| {
            // As `suspect_lines` numbers them, from 1; the file's own indexes from 0.
            let left_out: Vec<usize> = suspect_facts(doc, &kept).iter().map(|held| held.line - 1).collect();
            held += left_out.len();
            facts::for_prompt_without(doc, today, fact_budget, tokens, &left_out)
        });
        if held > 0 {
            tracing::warn!(held, "lines of the knowledge files read as instructions from elsewhere; held out of the prompt until the user looks (Bug 6)");
        }
        if chosen.hidden > 0 {
            // As an editor numbers learnings.md's lines (from 1).
            let lines: Vec<usize> = chosen.hidden_lines.iter().map(|line| line + 1).collect();
            tracing::info!(shown = chosen.shown, hidden = chosen.hidden, learnings_lines = ?lines, budget = fact_budget, "the prompt left facts out for its budget (Bug 7)");
        }
        let block = facts::knowledge_block(&user, &chosen);
        (soul, block, chosen)
    }

    /// SOUL.md or user.md as it is on disk (empty when it cannot be read).
    fn profile_text(&self, file: KnowledgeFile) -> String {
        file.profile().and_then(|profile| self.profile(profile).ok()).map(|(text, _)| text).unwrap_or_default()
    }

    fn kept_path(&self) -> PathBuf {
        self.dir().join(KEPT_FILE)
    }

    /// A missing or unreadable list keeps nothing: the lines are held again, never let in.
    fn kept_as_written(&self) -> BTreeSet<String> {
        std::fs::read(self.kept_path()).ok().and_then(|bytes| serde_json::from_slice(&bytes).ok()).unwrap_or_default()
    }
}

/// The lines of SOUL.md or user.md that read as instructions and were not kept.
fn suspects_in(file: KnowledgeFile, text: &str, kept: &BTreeSet<String>) -> Vec<SuspectLine> {
    text.split('\n')
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .filter_map(|(index, line)| {
            let reason = reads_as_instructions(line)?;
            (!kept.contains(&super::sources::key(line.trim()))).then(|| SuspectLine { file, line: index + 1, text: line.trim().to_string(), reason })
        })
        .collect()
}

/// The facts of learnings.md that read as instructions and were not kept.
fn suspect_facts(doc: &super::learnings::Learnings, kept: &BTreeSet<String>) -> Vec<SuspectLine> {
    doc.facts()
        .filter_map(|(index, _, fact)| {
            let reason = reads_as_instructions(&fact.text)?;
            (!kept.contains(&super::sources::key(&fact.text))).then(|| SuspectLine {
                file: KnowledgeFile::Learnings,
                line: index + 1,
                text: fact.text.clone(),
                reason,
            })
        })
        .collect()
}

/// `text` without the `held` lines.
fn without(text: &str, held: &[SuspectLine]) -> String {
    text.split('\n').enumerate().filter(|(index, _)| !held.iter().any(|h| h.line == index + 1)).map(|(_, line)| line).collect::<Vec<_>>().join("\n")
}
