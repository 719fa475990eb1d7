//! The plan of a multi-step request: a checklist the model keeps with `update_plan`,
//! stored per conversation, shown in the chat, and put back into the prompt before
//! every model call so a long tool loop does not lose its thread.

use crate::context::rows::ContextStore;
use std::sync::Mutex;

use crate::events::ChatEvent;
use sidecar_domain::Emitter;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// More steps than this is a sign the model is planning instead of doing.
pub(crate) const MAX_ITEMS: usize = 20;
const MAX_ITEM_CHARS: usize = 200;

pub use super::plan_item::{is_open, progress, ItemStatus, PlanItem};

/// Why a new plan is refused; the message tells the model how to fix its call (the model
/// reads it, so it is said in English only).
#[derive(Debug, thiserror::Error)]
pub(crate) enum PlanRefusal {
    #[error("a plan has at most {} steps; merge some", MAX_ITEMS)]
    TooManySteps,
    #[error("every step needs a text")]
    EmptyStep,
    #[error("keep each step under {} characters", MAX_ITEM_CHARS)]
    LongStep,
    #[error("only one step can be in progress at a time")]
    TwoInProgress,
    #[error("keep each result under {} characters", MAX_ITEM_CHARS)]
    LongResult,
    #[error("the first step waits for none, not for step {before}")]
    FirstWaits { before: usize },
    #[error("step {number} can only wait for steps 1 to {last}, not for step {before}")]
    WaitsAhead { number: usize, last: usize, before: usize },
    #[error("step {number} (\"{text}\") waits for step {before}, which failed: mark step {number} failed too, or change the plan")]
    WaitsForFailed { number: usize, text: String, before: usize },
    #[error("step {number} (\"{text}\") waits for step {before} (\"{waited}\"), which is not done yet: finish step {before} first")]
    WaitsForOpen { number: usize, text: String, before: usize, waited: String },
    #[error("there is no conversation to plan for")]
    NoConversation,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Checks a new plan.
pub(crate) fn validate(items: &[PlanItem]) -> Result<(), PlanRefusal> {
    if items.len() > MAX_ITEMS {
        return Err(PlanRefusal::TooManySteps);
    }
    if items.iter().any(|i| i.text.trim().is_empty()) {
        return Err(PlanRefusal::EmptyStep);
    }
    if items.iter().any(|i| i.text.chars().count() > MAX_ITEM_CHARS) {
        return Err(PlanRefusal::LongStep);
    }
    if items.iter().filter(|i| i.status == ItemStatus::InProgress).count() > 1 {
        return Err(PlanRefusal::TwoInProgress);
    }
    if items.iter().filter_map(|i| i.result.as_deref()).any(|r| r.chars().count() > MAX_ITEM_CHARS) {
        return Err(PlanRefusal::LongResult);
    }
    waits_kept(items)
}

/// A step waits only for earlier steps, and is not started before they are done.
fn waits_kept(items: &[PlanItem]) -> Result<(), PlanRefusal> {
    for (index, item) in items.iter().enumerate() {
        let number = index + 1;
        for &before in &item.after {
            if before == 0 || before >= number {
                return Err(if number == 1 { PlanRefusal::FirstWaits { before } } else { PlanRefusal::WaitsAhead { number, last: number - 1, before } });
            }
            let waited = &items[before - 1];
            // Waiting, or given up, a step needs nothing of the ones before it.
            if matches!(item.status, ItemStatus::Pending | ItemStatus::Failed) || waited.status == ItemStatus::Done {
                continue;
            }
            let text = item.text.trim().to_string();
            return Err(if waited.status == ItemStatus::Failed {
                PlanRefusal::WaitsForFailed { number, text, before }
            } else {
                PlanRefusal::WaitsForOpen { number, text, before, waited: waited.text.trim().to_string() }
            });
        }
    }
    Ok(())
}

/// The plan as the model reads it.
pub(crate) fn render(items: &[PlanItem]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut out = String::from("<plan>\nYour plan for the user's current request (update it with update_plan as you go):");
    for item in items {
        let mark = match item.status {
            ItemStatus::Done => "[x]",
            ItemStatus::InProgress => "[>]",
            ItemStatus::Pending => "[ ]",
            ItemStatus::Failed => "[!]",
        };
        out.push_str(&format!("\n{mark} {}", item.text.trim()));
        if !item.after.is_empty() {
            let after: Vec<String> = item.after.iter().map(usize::to_string).collect();
            out.push_str(&format!(" (after {})", after.join(", ")));
        }
        if let Some(result) = item.result.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            out.push_str(&format!(" → {result}"));
        }
    }
    out.push_str("\n</plan>");
    out
}

/// The plan of the conversation a turn is running in, and the model's scratchpad for
/// it. One turn runs at a time, so the board follows the conversation the companion last
/// pointed it at.
pub struct PlanBoard {
    store: Store,
    events: Emitter<ChatEvent>,
    current: Mutex<Option<Focus>>,
    /// The plan was made for the turn about to run (by the planning request): the turn
    /// carries it as its own.
    fresh: std::sync::atomic::AtomicBool,
}

/// The focused conversation's plan and notes.
struct Focus {
    conversation_id: i64,
    items: Vec<PlanItem>,
    scratchpad: String,
}

impl PlanBoard {
    pub fn new(store: Store, events: Emitter<ChatEvent>) -> Self {
        Self { store, events, current: Mutex::new(None), fresh: std::sync::atomic::AtomicBool::new(false) }
    }

    /// Loads `conversation_id`'s plan and notes and makes them the ones the tools change.
    pub(crate) async fn focus(&self, conversation_id: i64) -> Result<Vec<PlanItem>, StoreError> {
        let items = self.store.context().plan(conversation_id).await?;
        let scratchpad = self.store.context().scratchpad(conversation_id).await?;
        *self.current.lock().expect("plan lock") = Some(Focus { conversation_id, items: items.clone(), scratchpad });
        Ok(items)
    }

    /// The plan now focused was made for the turn about to run.
    pub(crate) fn made_this_turn(&self) {
        self.fresh.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether the plan was made for this turn (asked once, as the turn starts).
    pub(crate) fn take_fresh(&self) -> bool {
        self.fresh.swap(false, std::sync::atomic::Ordering::Relaxed)
    }

    /// The focused plan's steps.
    pub(crate) fn items(&self) -> Vec<PlanItem> {
        self.current.lock().expect("plan lock").as_ref().map(|f| f.items.clone()).unwrap_or_default()
    }

    /// The focused conversation's notes.
    pub(crate) fn scratchpad(&self) -> String {
        self.current.lock().expect("plan lock").as_ref().map(|f| f.scratchpad.clone()).unwrap_or_default()
    }

    /// The focused plan and notes, rendered for the prompt (empty when there are none).
    pub(crate) fn rendered(&self) -> String {
        let current = self.current.lock().expect("plan lock");
        let Some(focus) = current.as_ref() else { return String::new() };
        [render(&focus.items), super::scratchpad::render(&focus.scratchpad)].into_iter().filter(|part| !part.is_empty()).collect::<Vec<_>>().join("\n")
    }

    fn conversation(&self) -> Result<i64, PlanRefusal> {
        self.current.lock().expect("plan lock").as_ref().map(|f| f.conversation_id).ok_or(PlanRefusal::NoConversation)
    }

    /// Replaces the focused conversation's plan; a plan cleared takes its notes with it.
    pub(crate) async fn replace(&self, items: Vec<PlanItem>) -> Result<i64, PlanRefusal> {
        validate(&items)?;
        let conversation_id = self.conversation()?;
        self.store.context().set_plan(conversation_id, &items).await?;
        if let Some(focus) = self.current.lock().expect("plan lock").as_mut() {
            focus.items = items.clone();
        }
        self.events.publish(ChatEvent::PlanUpdated { conversation_id, items: items.clone() });
        if items.is_empty() {
            self.write_scratchpad(String::new()).await?;
        }
        Ok(conversation_id)
    }

    /// Sets the focused conversation's notes (checked by the tool that writes them).
    pub(crate) async fn write_scratchpad(&self, text: String) -> Result<(), PlanRefusal> {
        let conversation_id = self.conversation()?;
        if self.scratchpad() == text {
            return Ok(());
        }
        self.store.context().set_scratchpad(conversation_id, &text).await?;
        if let Some(focus) = self.current.lock().expect("plan lock").as_mut() {
            focus.scratchpad = text.clone();
        }
        self.events.publish(ChatEvent::ScratchpadUpdated { conversation_id, text });
        Ok(())
    }

    /// A turn ended: notes kept for the turn alone, or for a plan that is now done, go.
    pub(crate) async fn turn_ended(&self) {
        if is_open(&self.items()) || self.scratchpad().is_empty() {
            return;
        }
        if let Err(error) = self.write_scratchpad(String::new()).await {
            tracing::warn!(%error, "the scratchpad of a finished request could not be cleared");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str, status: ItemStatus) -> PlanItem {
        PlanItem::new(text, status)
    }

    #[test]
    fn renders_a_checklist_and_rejects_bad_plans() {
        let plan = vec![item("Find flights", ItemStatus::Done), item("Compare hotels", ItemStatus::InProgress), item("Book", ItemStatus::Pending)];
        assert!(validate(&plan).is_ok());
        let text = render(&plan);
        assert!(text.contains("[x] Find flights\n[>] Compare hotels\n[ ] Book"), "{text}");
        assert_eq!(render(&[]), "");
        assert!(validate(&[item(" ", ItemStatus::Pending)]).is_err());
        assert!(validate(&[item("a", ItemStatus::InProgress), item("b", ItemStatus::InProgress)]).is_err());
        assert!(validate(&vec![item("a", ItemStatus::Pending); 21]).is_err());
    }

    #[test]
    fn a_step_waits_for_the_earlier_steps_it_names() {
        let waiting = |status| PlanItem { after: vec![1], ..item("Book the cheapest", status) };
        let search = |status| item("Search flights", status);
        assert!(validate(&[search(ItemStatus::InProgress), waiting(ItemStatus::Pending)]).is_ok());
        let early = validate(&[search(ItemStatus::InProgress), waiting(ItemStatus::Done)]).unwrap_err().to_string();
        assert!(early.contains("waits for step 1 (\"Search flights\"), which is not done yet"), "{early}");
        assert!(validate(&[search(ItemStatus::Done), waiting(ItemStatus::InProgress)]).is_ok());
        let failed = validate(&[search(ItemStatus::Failed), waiting(ItemStatus::InProgress)]).unwrap_err().to_string();
        assert!(failed.contains("which failed"), "{failed}");
        assert!(validate(&[search(ItemStatus::Failed), waiting(ItemStatus::Failed)]).is_ok());
        let forward = PlanItem { after: vec![2], ..item("First", ItemStatus::Pending) };
        assert!(validate(&[forward, search(ItemStatus::Pending)]).unwrap_err().to_string().contains("the first step waits for none, not for step 2"));
        assert!(render(&[search(ItemStatus::Done), waiting(ItemStatus::Pending)]).contains("[ ] Book the cheapest (after 1)"));
    }
}
