//! `remember_fact`: saves a fact about the user to learnings.md and says what it did
//! (new, reinforced, moved, kept in Health, rate-limited).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::knowledge::facts::SaveOutcome;
use crate::knowledge::learnings::Category;
use crate::knowledge::store::KnowledgeStore;
use sidecar_domain::Clock;
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::Tool;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

pub struct RememberFact {
    store: Arc<KnowledgeStore>,
    clock: Clock,
    /// One save at a time, in the order the model asked: a reply's calls run side by
    /// side, and "at most 3 per reply" must keep the first three, not the fastest.
    in_order: tokio::sync::Mutex<()>,
}

impl RememberFact {
    pub fn new(store: Arc<KnowledgeStore>, clock: Clock) -> Self {
        Self { store, clock, in_order: tokio::sync::Mutex::new(()) }
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// One short fact about the user, in their words, e.g. "Is allergic to peanuts".
    fact: String,
    /// One of: Health, Preferences, Work, Relationships, Schedule, Goals, General.
    category: String,
}

impl Tool for RememberFact {
    fn name(&self) -> &'static str {
        "remember_fact"
    }

    fn description(&self) -> &'static str {
        "Save a fact about the user (health, preferences, work, relationships, schedule, goals) so it is remembered in future conversations. At most 3 per reply."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Remember facts about you", "Recordar datos sobre ti").into()
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        self.run_in(arguments, sidecar_tools::CallScope::default())
    }

    /// Saved from the message the turn answers, noted with it (issue 74: deleting that
    /// message asks about what was learned from it).
    fn run_in(&self, arguments: Value, scope: sidecar_tools::CallScope) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            // An unknown category is not worth failing the save: it goes to General.
            let category = Category::parse(&args.category).unwrap_or(Category::General);
            let today = self.clock.local_today();
            // Tokio's mutex is fair: calls polled in order take it in order.
            let _turn = self.in_order.lock().await;
            let outcome = self.store.remember(&args.fact, category, today, scope.asked_in).await.map_err(|e| ToolError::Failed(e.to_string()))?;
            let summary = match &outcome {
                SaveOutcome::New { category } => format!("saved as a new fact under {}", category.name()),
                SaveOutcome::Reinforced { weight, .. } => format!("already known; reinforced (weight {weight})"),
                SaveOutcome::Moved { from, to, .. } => format!("already known under {}; moved to {}", from.name(), to.name()),
                SaveOutcome::KeptInHealth { .. } => "already known under Health; kept there".to_string(),
                SaveOutcome::KeptImportant { kept, .. } => format!("already known under {}, marked important by the user; kept there", kept.name()),
                SaveOutcome::Superseded { category, old } => {
                    format!("saved under {}; it replaces \"{old}\", which is kept as history and no longer current", category.name())
                }
                SaveOutcome::NeedsConfirmation { category, old } => format!(
                    "saved under {}; it may contradict \"{old}\" (Health, or marked important): both are kept until the user confirms in Memory which is current",
                    category.name()
                ),
                SaveOutcome::RateLimited => "not saved: at most 3 facts per reply".to_string(),
                SaveOutcome::SaidThisTurn { fact } => format!("not saved again: it says what \"{fact}\", saved in this reply, already says"),
                SaveOutcome::Rejected { reason } => return Err(ToolError::Failed(reason.clone())),
            };
            Ok(json!({ "result": summary, "outcome": outcome }).to_string())
        })
    }
}
