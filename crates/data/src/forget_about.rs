//! "Forget everything about Ana" (issue 74). [`about`] finds, deleting nothing, what
//! names someone: the facts (current or history), the messages of every chat kept
//! (imported ones too), the running summaries and checkpoints, and the facts learned in
//! those messages even when they do not name her ("her sister lives in Lyon"). The
//! window shows that list; the user unticks what should stay; [`forget`] then removes
//! what is left of it for good: each message with its exchange (the question with its
//! reply, a reply whole), the notes, the facts, the vectors of all of it.
//!
//! Mail is not touched: it is the user's mailbox, read from their server.

use serde::{Deserialize, Serialize};

use sidecar_memory::{KnowledgeError, KnowledgeStore, ListedFact, MeaningIndex};
use sidecar_store::{MessageMention, NoteMention, Store, MENTIONS_LISTED};

use crate::error::DataError;

/// What names someone, found before anything is deleted.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct AboutSomeone {
    pub name: String,
    /// Facts that name them, then facts learned in the messages below.
    pub facts: Vec<ListedFact>,
    pub messages: Vec<MessageMention>,
    pub notes: Vec<NoteMention>,
    /// More messages name them than one list holds: forgetting these, then searching
    /// again, finds the rest.
    pub more: bool,
}

/// A fact chosen to forget, as the list showed it.
#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct ChosenFact {
    pub line: usize,
    pub text: String,
}

/// What the user kept ticked in the list.
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS)]
pub struct ForgetChosen {
    pub facts: Vec<ChosenFact>,
    pub messages: Vec<i64>,
    pub notes: Vec<NoteMention>,
}

/// What went.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ForgottenAbout {
    pub facts: usize,
    /// Messages removed: those chosen, with the rest of their exchanges.
    pub messages: usize,
    /// Summaries and checkpoints removed, those quoting a message removed included.
    pub notes: u64,
    /// Facts that changed since the list was shown, left as they are now.
    pub changed: usize,
}

/// What names `name`; nothing is deleted.
pub(crate) async fn about(store: &Store, knowledge: &KnowledgeStore, name: &str) -> Result<AboutSomeone, DataError> {
    let messages = store.mentions().messages(name).await?;
    let notes = store.mentions().notes(name).await?;
    let mut facts = knowledge.mentioning(name);
    let ids: Vec<i64> = messages.iter().map(|m| m.message_id).collect();
    for fact in knowledge.learned_in(&ids).await? {
        if !facts.iter().any(|f| f.line == fact.line) {
            facts.push(fact);
        }
    }
    let more = messages.len() as i64 >= MENTIONS_LISTED;
    Ok(AboutSomeone { name: name.trim().to_string(), facts, messages, notes, more })
}

/// Forgets for good what `chosen` lists (see the module's doc).
pub(crate) async fn forget(store: &Store, knowledge: &KnowledgeStore, meaning: &MeaningIndex, chosen: &ForgetChosen) -> Result<ForgottenAbout, DataError> {
    let mut gone = ForgottenAbout::default();
    let mut removed = Vec::new();
    for &id in &chosen.messages {
        // A message already gone went with an earlier one's exchange.
        if let Some(forgotten) = store.exchanges().forget(id).await? {
            gone.notes += forgotten.checkpoints + forgotten.summaries;
            removed.extend(forgotten.messages);
        }
    }
    gone.messages = removed.len();
    // Where facts were learned in them is no longer known; the facts stay unless chosen.
    knowledge.learned_from(&removed).await?;
    gone.notes += store.mentions().forget_notes(&chosen.notes).await?;
    // From the bottom of the file up, so each line still points where the list saw it.
    let mut facts: Vec<&ChosenFact> = chosen.facts.iter().collect();
    facts.sort_by_key(|f| std::cmp::Reverse(f.line));
    for fact in facts {
        match knowledge.delete(fact.line, &fact.text).await {
            Ok(()) => gone.facts += 1,
            Err(KnowledgeError::Stale { .. }) => gone.changed += 1,
            Err(error) => return Err(error.into()),
        }
    }
    meaning.forget_orphans().await?;
    tracing::info!(facts = gone.facts, messages = gone.messages, notes = gone.notes, changed = gone.changed, "forgot what named someone");
    Ok(gone)
}
