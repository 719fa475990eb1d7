//! The knowledge files in the data directory (`knowledge/SOUL.md`, `user.md`,
//! `learnings.md`): created from templates on first run in the user's language,
//! read into memory, and written atomically on every change. One lock guards the
//! document, so a prompt is never built from a half-applied save (Bug 4).
//!
//! Over 400 lines: every read and write of the knowledge files passes the one lock here
//! (Bug 4); a second file would be a second way in.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use chrono::NaiveDate;
use serde::Serialize;

use super::facts::{self, SaveOutcome, TurnSaves};
use super::learnings::{Category, Fact, Learnings, Malformed};
use super::meaning::{FactJudge, FactNearness, Nearness};
use super::profile_form::ProfileFields;
use super::templates::templates;
use sidecar_domain::Lang;

pub(crate) const SOUL_FILE: &str = "SOUL.md";
pub(crate) const USER_FILE: &str = "user.md";
pub(crate) const LEARNINGS_FILE: &str = "learnings.md";

#[derive(Debug, thiserror::Error)]
pub enum KnowledgeError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("cannot save {path}: {source}; the change was not applied")]
    Write { path: String, source: std::io::Error },
    #[error("learnings.md changed since it was shown (line {line} is no longer \"{expected}\"); reload and try again")]
    Stale { line: usize, expected: String },
    #[error("{file} changed on disk since it was opened; reload it and make the change again")]
    ProfileStale { file: &'static str },
    #[error("{0}")]
    Invalid(String),
    #[error("that proposal no longer applies: the memory changed since it was shown; look at the list again")]
    ProposalGone,
}

/// A fact as the UI and CLI list it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct ListedFact {
    /// 1-based line in learnings.md, to address the fact in edits.
    pub line: usize,
    pub category: Category,
    #[serde(flatten)]
    pub fact: Fact,
    /// What it is about when that changes (`home`, `job`, `favourite:band`…), so the
    /// Memory view can show a fact's history.
    pub slot: Option<String>,
}

/// The message a fact was learned from, for the Memory page to open it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct FactOrigin {
    /// The fact's line, as in [`ListedFact::line`].
    pub line: usize,
    pub message_id: i64,
}

/// A newer Health fact that may contradict an older one: only the user decides.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct FactConflict {
    pub older: ListedFact,
    pub newer: ListedFact,
}

pub struct KnowledgeStore {
    dir: PathBuf,
    learnings: Mutex<Learnings>,
    turn: Mutex<TurnSaves>,
    /// Bumped on every change, so indexes know when to refresh.
    version: AtomicU64,
    /// An edit made on disk that one of Sidecar's writes took in before the watcher saw
    /// it: the lines it could not read, for the watcher to report.
    outside_edit: Mutex<Option<Vec<Malformed>>>,
    /// Finds current facts close in meaning to a new one, once the assembly gives it.
    nearness: OnceLock<Arc<dyn FactNearness>>,
    /// A model for the pairs the words do not settle, when one is routed for `extract`.
    judge: OnceLock<Arc<dyn FactJudge>>,
    /// Where new facts were learned, once the assembly gives the database.
    sources: OnceLock<super::sources::FactSources>,
    /// The settings that say whether the tidy applies the safe kinds alone.
    tidy: OnceLock<Arc<sidecar_settings::SettingsOwner>>,
}

impl KnowledgeStore {
    /// Opens `data_dir/knowledge`, creating the files that are missing.
    pub fn open(data_dir: &Path, lang: Lang) -> Result<Self, KnowledgeError> {
        let dir = data_dir.join("knowledge");
        let (soul, user) = templates(lang);
        let learnings_template = Learnings::template(lang == Lang::Es).render();
        for (name, template) in [(SOUL_FILE, soul), (USER_FILE, user), (LEARNINGS_FILE, learnings_template.as_str())] {
            let path = dir.join(name);
            if !path.exists() {
                sidecar_domain::write_atomically(&path, template.as_bytes())
                    .map_err(|source| KnowledgeError::Write { path: path.display().to_string(), source })?;
            }
        }
        sidecar_domain::remove_leftover_temp_files(&dir);
        let learnings = Learnings::from_bytes(&read_bytes(&dir.join(LEARNINGS_FILE))?);
        let malformed = learnings.malformed();
        tracing::info!(facts = learnings.facts().count(), unparsed = malformed.len(), "loaded learnings");
        for bad in &malformed {
            tracing::warn!(line = bad.line, reason = %bad.reason, "learnings.md line not understood; kept as it is");
        }
        Ok(Self {
            dir,
            learnings: Mutex::new(learnings),
            turn: Mutex::new(TurnSaves::default()),
            version: AtomicU64::new(1),
            outside_edit: Mutex::new(None),
            nearness: OnceLock::new(),
            judge: OnceLock::new(),
            sources: OnceLock::new(),
            tidy: OnceLock::new(),
        })
    }

    /// Changes so far (starts at 1).
    pub(crate) fn version(&self) -> u64 {
        self.version.load(Ordering::Relaxed)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Starts a new turn's count of saves.
    pub fn begin_turn(&self) {
        *self.turn.lock().expect("turn lock") = TurnSaves::default();
    }

    /// From now on, a new fact is also compared with the current ones by meaning.
    pub fn compare_by_meaning(&self, nearness: Arc<dyn FactNearness>) {
        let _ = self.nearness.set(nearness);
    }

    /// From now on, whether the tidy applies the safe kinds alone is read from `owner`
    /// (`[memory] tidy_alone`); until then it only proposes.
    pub fn tidy_with(&self, owner: Arc<sidecar_settings::SettingsOwner>) {
        let _ = self.tidy.set(owner);
    }

    /// Whether the tidy merges repeats and repairs lines alone, without asking.
    pub fn tidies_alone(&self) -> bool {
        self.tidy.get().is_some_and(|owner| owner.current().memory.tidy_alone)
    }

    /// Lets the tidy apply the safe kinds alone, or makes it ask.
    pub fn set_tidies_alone(&self, on: bool) -> Result<(), sidecar_settings::SettingsFileError> {
        match self.tidy.get() {
            Some(owner) => owner.change(sidecar_settings::Change::TidyAlone(on)).map(drop),
            None => Ok(()),
        }
    }

    /// Pairs of current facts that are one fact, by meaning (see [`FactNearness::repeats`]).
    pub(super) fn repeats(&self) -> Vec<(String, String)> {
        self.nearness.get().map(|n| n.repeats()).unwrap_or_default()
    }

    /// The database, once the assembly gives it.
    pub(super) fn db(&self) -> Option<&sidecar_store::Store> {
        self.sources.get().map(|s| s.store())
    }

    /// From now on, a new fact close in meaning to a current one that the words leave
    /// apart is put to `judge`.
    pub fn judge_with(&self, judge: Arc<dyn FactJudge>) {
        let _ = self.judge.set(judge);
    }

    /// From now on, a fact saved new from a message is noted with it in `store`
    /// ([`KnowledgeStore::learned_from`]).
    pub fn keep_sources_in(&self, store: sidecar_store::Store) {
        let _ = self.sources.set(super::sources::FactSources::new(store));
    }

    /// The current facts learned new from `messages` (being forgotten); their records go.
    pub async fn learned_from(&self, messages: &[i64]) -> Result<Vec<ListedFact>, sidecar_store::StoreError> {
        let Some(sources) = self.sources.get() else { return Ok(Vec::new()) };
        let keys = sources.take(messages).await?;
        Ok(self.current_with(&keys))
    }

    /// The current facts learned new from `messages`, their records kept (what
    /// forgetting them would also offer to forget).
    pub async fn learned_in(&self, messages: &[i64]) -> Result<Vec<ListedFact>, sidecar_store::StoreError> {
        let Some(sources) = self.sources.get() else { return Ok(Vec::new()) };
        let keys = sources.keys_of(messages).await?;
        Ok(self.current_with(&keys))
    }

    /// The current facts whose words have one of `keys`.
    fn current_with(&self, keys: &[String]) -> Vec<ListedFact> {
        self.facts().into_iter().filter(|f| f.fact.superseded.is_none() && keys.contains(&super::sources::key(&f.fact.text))).collect()
    }

    /// Every fact, current or history, that names `name` (as whole words, case and
    /// accents aside).
    pub fn mentioning(&self, name: &str) -> Vec<ListedFact> {
        self.facts().into_iter().filter(|f| sidecar_domain::word_overlap::mentions(&f.fact.text, name)).collect()
    }

    /// Where each current fact was learned, for those learned in a chat still kept since
    /// sources were noted (facts from before, or typed in Memory, have none).
    pub async fn origins(&self) -> Result<Vec<FactOrigin>, sidecar_store::StoreError> {
        let Some(sources) = self.sources.get() else { return Ok(Vec::new()) };
        let origins = sources.origins().await?;
        Ok(self.facts().into_iter().filter_map(|f| Some(FactOrigin { line: f.line, message_id: *origins.get(&super::sources::key(&f.fact.text))? })).collect())
    }

    /// Notes that `outcome`, the save of `text`, was learned from message `from`, when
    /// it made a new fact (one reinforced was learned before, elsewhere).
    async fn note_source(&self, text: &str, outcome: &SaveOutcome, from: Option<i64>) {
        let new = matches!(outcome, SaveOutcome::New { .. } | SaveOutcome::Superseded { .. } | SaveOutcome::NeedsConfirmation { .. });
        let (Some(sources), Some(message_id), true) = (self.sources.get(), from, new) else { return };
        if let Err(error) = sources.record(text, message_id).await {
            tracing::warn!(%error, message_id, "where a fact was learned could not be noted");
        }
    }

    /// How close `text` is to each current fact; empty without a way to tell.
    async fn nearness(&self, text: &str) -> Nearness {
        match self.nearness.get() {
            Some(source) => source.nearness(text).await,
            None => Nearness::none(),
        }
    }

    /// Saves a fact (at most three per turn), writing the file before reporting.
    /// The same taste said again in this turn's other words is not written (Bug 9).
    pub(crate) async fn remember(&self, text: &str, category: Category, today: NaiveDate, from: Option<i64>) -> Result<SaveOutcome, KnowledgeError> {
        {
            let mut turn = self.turn.lock().expect("turn lock");
            if let Some(earlier) = turn.restated(text, category) {
                tracing::info!(%earlier, "a fact said again in other words in one reply; not saved twice");
                return Ok(SaveOutcome::SaidThisTurn { fact: earlier.to_string() });
            }
            if !turn.try_take() {
                tracing::warn!("more than three facts saved in one turn; extra ignored");
                return Ok(SaveOutcome::RateLimited);
            }
        }
        let outcome = self.save(text, category, today).await?;
        if !matches!(outcome, SaveOutcome::Rejected { .. }) {
            self.turn.lock().expect("turn lock").said(text, category);
        }
        self.note_source(text, &outcome, from).await;
        Ok(outcome)
    }

    /// [`KnowledgeStore::save`] of a fact the user said in message `from` ("remember
    /// that…"), noted with it.
    pub async fn save_from(&self, text: &str, category: Category, today: NaiveDate, from: i64) -> Result<SaveOutcome, KnowledgeError> {
        let outcome = self.save(text, category, today).await?;
        self.note_source(text, &outcome, Some(from)).await;
        Ok(outcome)
    }

    /// Saves a fact without the per-turn limit (the memory flush before eviction, which
    /// is bounded on its own; a save by the user or a connected program, not the model).
    pub async fn save(&self, text: &str, category: Category, today: NaiveDate) -> Result<SaveOutcome, KnowledgeError> {
        let mut nearness = self.nearness(text).await;
        // Without a model to ask, no trial save looks for a pair to put to it.
        if let Some(judge) = self.judge.get().filter(|judge| judge.available()) {
            let undecided = facts::undecided(&self.learnings.lock().expect("learnings lock"), text, category, today, &nearness);
            if let Some(existing) = undecided {
                if let Some(verdict) = judge.judge(&existing, text).await {
                    tracing::info!(?verdict, "a model read a pair of facts the words did not settle");
                    nearness = nearness.judged(&existing, verdict);
                }
            }
        }
        self.save_near(text, category, today, &nearness)
    }

    /// [`KnowledgeStore::save`] with the closeness by meaning already measured.
    pub(crate) fn save_near(&self, text: &str, category: Category, today: NaiveDate, nearness: &Nearness) -> Result<SaveOutcome, KnowledgeError> {
        self.rewrite(|doc| {
            let outcome = facts::remember_near(doc, text, category, today, nearness);
            if matches!(outcome, SaveOutcome::New { .. }) {
                if let Some(kept) = super::kept_apart::why(doc, text, category, nearness) {
                    super::kept_apart::log(&kept);
                }
            }
            let written = !matches!(outcome, SaveOutcome::Rejected { .. });
            (outcome, written)
        })
    }

    /// Merges each pair of current facts (by their texts) into one, writing the file
    /// once; returns how many pairs were merged (a pair whose fact went since is skipped).
    pub(crate) fn merge_repeats(&self, pairs: &[(String, String)]) -> Result<usize, KnowledgeError> {
        self.rewrite(|doc| {
            let merged = pairs.iter().filter(|(a, b)| facts::merge(doc, a, b)).count();
            (merged, merged > 0)
        })
    }

    /// What `look` finds in the file as it is in memory.
    pub(super) fn read<R>(&self, look: impl FnOnce(&Learnings) -> R) -> R {
        look(&self.learnings.lock().expect("learnings lock"))
    }

    /// Applies `apply` to the file as it is now (an outside edit taken in first) and
    /// writes it when `apply` says it changed something; what `apply` returned.
    pub(super) fn rewrite<R>(&self, apply: impl FnOnce(&mut Learnings) -> (R, bool)) -> Result<R, KnowledgeError> {
        let mut doc = self.learnings.lock().expect("learnings lock");
        self.take_in_outside_edit(&mut doc)?;
        let mut changed = doc.clone();
        let (result, write) = apply(&mut changed);
        if write {
            let path = self.dir.join(LEARNINGS_FILE);
            sidecar_domain::write_atomically(&path, &changed.render_bytes())
                .map_err(|source| KnowledgeError::Write { path: path.display().to_string(), source })?;
            *doc = changed;
            self.version.fetch_add(1, Ordering::Relaxed);
        }
        Ok(result)
    }

    /// Edits the fact on `line` (1-based) if it still reads `expected`: new text,
    /// new category (a deliberate move by the user, so Health may be left too). Where
    /// it was learned follows it to its new words.
    pub async fn edit(&self, line: usize, expected: &str, text: &str, category: Category) -> Result<(), KnowledgeError> {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ").replace('|', "/");
        if text.is_empty() {
            return Err(KnowledgeError::Invalid("the fact is empty".into()));
        }
        let written = text.clone();
        self.change(line, expected, |doc, index, current_category, fact| {
            let edited = Fact { text, ..fact };
            if current_category == category {
                doc.update(index, edited);
            } else {
                doc.move_to(index, category, edited);
            }
        })?;
        if let Some(sources) = self.sources.get() {
            if let Err(error) = sources.rekey(expected, &written).await {
                tracing::warn!(%error, line, "where an edited fact was learned could not follow it");
            }
        }
        Ok(())
    }

    /// Deletes the fact on `line` if it still reads `expected`.
    /// Backups made before may still hold it: the database notes when it went.
    pub async fn delete(&self, line: usize, expected: &str) -> Result<(), KnowledgeError> {
        self.change(line, expected, |doc, index, _, _| doc.remove(index))?;
        if let Some(db) = self.db() {
            db.note_forgotten().await;
        }
        Ok(())
    }

    fn change(&self, line: usize, expected: &str, apply: impl FnOnce(&mut Learnings, usize, Category, Fact)) -> Result<(), KnowledgeError> {
        self.rewrite(|doc| {
            let found = doc.facts().find(|(index, _, _)| index + 1 == line).map(|(index, category, fact)| (index, category, fact.clone()));
            match found {
                Some((index, category, fact)) if fact.text == expected => {
                    apply(doc, index, category, fact);
                    (Ok(()), true)
                }
                _ => (Err(KnowledgeError::Stale { line, expected: expected.to_string() }), false),
            }
        })?
    }

    pub fn facts(&self) -> Vec<ListedFact> {
        let doc = self.learnings.lock().expect("learnings lock");
        doc.facts()
            .map(|(index, category, fact)| ListedFact {
                line: index + 1,
                category,
                fact: fact.clone(),
                slot: super::slots::slot_of(&fact.text).map(|s| s.name),
            })
            .collect()
    }

    /// Marks the fact on `line` (if it still reads `expected`) important, or not: kept
    /// like a Health fact (see [`super::facts::protected`]).
    pub fn mark_important(&self, line: usize, expected: &str, important: bool) -> Result<(), KnowledgeError> {
        self.change(line, expected, |doc, index, _, fact| doc.update(index, Fact { critical: important, ..fact }))
    }

    /// Current Health or important facts contradicted by a newer current fact, awaiting
    /// the user.
    pub fn conflicts(&self) -> Vec<FactConflict> {
        let facts: Vec<ListedFact> = self.facts().into_iter().filter(|f| f.fact.superseded.is_none()).collect();
        let mut conflicts = Vec::new();
        for older in &facts {
            for newer in &facts {
                let protected = super::facts::protected(older.category, &older.fact) || newer.category == Category::Health;
                let later = (newer.fact.learned, newer.line) > (older.fact.learned, older.line);
                if protected && later && super::slots::supersedes(&newer.fact.text, &older.fact.text) {
                    conflicts.push(FactConflict { older: older.clone(), newer: newer.clone() });
                }
            }
        }
        conflicts
    }

    /// Marks the fact on `line` (if it still reads `expected`) superseded on `today`:
    /// the user confirmed that a newer fact replaces it.
    pub fn supersede(&self, line: usize, expected: &str, today: NaiveDate) -> Result<(), KnowledgeError> {
        self.change(line, expected, |doc, index, _, fact| doc.update(index, Fact { superseded: Some(today), ..fact }))
    }

    pub fn malformed(&self) -> Vec<Malformed> {
        self.learnings.lock().expect("learnings lock").malformed()
    }

    /// Re-reads `learnings.md` if its text differs from what Sidecar holds (an edit
    /// outside Sidecar); `None` when it is Sidecar's own last write.
    pub fn reload_if_changed(&self) -> Result<Option<Vec<Malformed>>, KnowledgeError> {
        let bytes = read_bytes(&self.dir.join(LEARNINGS_FILE))?;
        let mut doc = self.learnings.lock().expect("learnings lock");
        Ok(self.take_in(&mut doc, &bytes).or_else(|| self.outside_edit.lock().expect("outside edit lock").take()))
    }

    /// Takes in an edit made on disk since the store last looked, for a reader that
    /// wants the file's facts now (the Memory view); the edit is left for the watcher to
    /// report, which it would not see once taken in here.
    pub fn catch_up(&self) -> Result<(), KnowledgeError> {
        let mut doc = self.learnings.lock().expect("learnings lock");
        self.take_in_outside_edit(&mut doc)
    }

    /// `bytes` as the document when they differ from what it holds: the lines they
    /// could not read, or `None` when nothing changed.
    fn take_in(&self, doc: &mut Learnings, bytes: &[u8]) -> Option<Vec<Malformed>> {
        if doc.render_bytes() == bytes {
            return None;
        }
        *doc = Learnings::from_bytes(bytes);
        self.version.fetch_add(1, Ordering::Relaxed);
        Some(doc.malformed())
    }

    /// Takes in an edit made to `learnings.md` on disk since the store last read or wrote
    /// it, before one of Sidecar's own writes: written from memory alone, the write would
    /// lose an edit the watcher (which looks once a second) had not seen yet. A file gone
    /// is no edit to keep: the write puts it back.
    fn take_in_outside_edit(&self, doc: &mut Learnings) -> Result<(), KnowledgeError> {
        let bytes = match read_bytes(&self.dir.join(LEARNINGS_FILE)) {
            Ok(bytes) => bytes,
            Err(KnowledgeError::Read { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e),
        };
        if let Some(malformed) = self.take_in(doc, &bytes) {
            *self.outside_edit.lock().expect("outside edit lock") = Some(malformed);
        }
        Ok(())
    }

    /// Re-reads `learnings.md` after an edit outside Sidecar: the lines it could not read.
    pub fn reload(&self) -> Result<Vec<Malformed>, KnowledgeError> {
        let bytes = read_bytes(&self.dir.join(LEARNINGS_FILE))?;
        let mut doc = self.learnings.lock().expect("learnings lock");
        Ok(self.take_in(&mut doc, &bytes).unwrap_or_else(|| doc.malformed()))
    }

    /// SOUL.md or user.md as it is on disk, with a version to detect edits made since.
    pub fn profile(&self, file: ProfileFile) -> Result<(String, String), KnowledgeError> {
        let text = read(&self.dir.join(file.name()))?;
        let version = content_version(&text);
        Ok((text, version))
    }

    /// Saves SOUL.md or user.md, unless it changed on disk since `expected_version`.
    pub fn save_profile(&self, file: ProfileFile, text: &str, expected_version: &str) -> Result<String, KnowledgeError> {
        let path = self.dir.join(file.name());
        let current = read(&path)?;
        if content_version(&current) != expected_version {
            return Err(stale(file));
        }
        sidecar_domain::write_atomically(&path, text.as_bytes()).map_err(|source| KnowledgeError::Write { path: path.display().to_string(), source })?;
        self.version.fetch_add(1, Ordering::Relaxed);
        Ok(content_version(text))
    }

    /// The profile's fields, read from user.md and SOUL.md, with each file's version.
    pub fn profile_fields(&self) -> Result<ProfileView, KnowledgeError> {
        let (user, user_version) = self.profile(ProfileFile::User)?;
        let (soul, soul_version) = self.profile(ProfileFile::Soul)?;
        Ok(ProfileView { fields: super::profile_form::read(&user, &soul), user_version, soul_version })
    }

    /// Writes the fields into user.md and SOUL.md, leaving the rest of each file as it
    /// is; refused, with nothing written, when either changed since it was read.
    pub fn save_profile_fields(&self, fields: &ProfileFields, user_version: &str, soul_version: &str, lang: Lang) -> Result<ProfileView, KnowledgeError> {
        let (user, soul_now) = (self.profile(ProfileFile::User)?, self.profile(ProfileFile::Soul)?);
        for (file, (_, version), expected) in [(ProfileFile::User, &user, user_version), (ProfileFile::Soul, &soul_now, soul_version)] {
            if version != expected {
                return Err(stale(file));
            }
        }
        let (user_text, soul_text) = super::profile_form::write(&user.0, &soul_now.0, fields, lang);
        for (file, text, (before, _)) in [(ProfileFile::Soul, &soul_text, &soul_now), (ProfileFile::User, &user_text, &user)] {
            if text != before {
                let path = self.dir.join(file.name());
                sidecar_domain::write_atomically(&path, text.as_bytes())
                    .map_err(|source| KnowledgeError::Write { path: path.display().to_string(), source })?;
            }
        }
        self.version.fetch_add(1, Ordering::Relaxed);
        // What was just written is what a read would give.
        Ok(ProfileView {
            fields: super::profile_form::read(&user_text, &soul_text),
            user_version: content_version(&user_text),
            soul_version: content_version(&soul_text),
        })
    }
}

fn stale(file: ProfileFile) -> KnowledgeError {
    KnowledgeError::ProfileStale { file: file.name() }
}

/// The profile form's fields with the versions of the files they were read from.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct ProfileView {
    pub fields: ProfileFields,
    pub user_version: String,
    pub soul_version: String,
}

/// The two free-text knowledge files the user edits directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum ProfileFile {
    /// SOUL.md: who Sidecar is.
    Soul,
    /// user.md: the user's profile.
    User,
}

impl ProfileFile {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ProfileFile::Soul => SOUL_FILE,
            ProfileFile::User => USER_FILE,
        }
    }
}

/// A short fingerprint of a file's text (not for security: to notice edits).
fn content_version(text: &str) -> String {
    let (hash, len) = sidecar_domain::content_key(text);
    format!("{hash:016x}-{len}")
}

fn read(path: &Path) -> Result<String, KnowledgeError> {
    read_bytes(path).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, KnowledgeError> {
    std::fs::read(path).map_err(|source| KnowledgeError::Read { path: path.display().to_string(), source })
}

impl sidecar_domain::Worded for KnowledgeError {
    fn spanish(&self) -> String {
        match self {
            KnowledgeError::Read { path, source } => format!("no se puede leer {path}: {source}"),
            KnowledgeError::Write { path, source } => format!("no se puede guardar {path}: {source}; el cambio no se aplicó"),
            KnowledgeError::Stale { line, expected } => {
                format!("learnings.md cambió desde que se mostró (la línea {line} ya no es «{expected}»); recarga y vuelve a intentarlo")
            }
            KnowledgeError::ProfileStale { file } => format!("{file} cambió en el disco desde que se abrió; vuelve a cargarlo y repite el cambio"),
            KnowledgeError::Invalid(why) => why.clone(),
            KnowledgeError::ProposalGone => "esa propuesta ya no vale: la memoria cambió desde que se mostró; mira la lista de nuevo".into(),
        }
    }
}
