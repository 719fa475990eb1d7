//! The plan of a multi-step request: a checklist the model keeps with `update_plan`,
//! stored per conversation, shown in the chat, and put back into the prompt before
//! every model call so a long tool loop does not lose its thread.

use crate::context::rows::ContextStore;
use std::sync::Mutex;

use crate::events::ChatEvent;
use sidecar_domain::emitter::Emitter;
use sidecar_store::{Store, StoreError};

/// More steps than this is a sign the model is planning instead of doing.
pub(crate) const MAX_ITEMS: usize = 20;
const MAX_ITEM_CHARS: usize = 200;

pub use super::plan_item::{is_open, progress, ItemStatus, PlanItem};

/// Checks a new plan; the message tells the model how to fix its call.
pub(crate) fn validate(items: &[PlanItem]) -> Result<(), String> {
    if items.len() > MAX_ITEMS {
        return Err(format!("a plan has at most {MAX_ITEMS} steps; merge some"));
    }
    if items.iter().any(|i| i.text.trim().is_empty()) {
        return Err("every step needs a text".into());
    }
    if items.iter().any(|i| i.text.chars().count() > MAX_ITEM_CHARS) {
        return Err(format!("keep each step under {MAX_ITEM_CHARS} characters"));
    }
    if items.iter().filter(|i| i.status == ItemStatus::InProgress).count() > 1 {
        return Err("only one step can be in progress at a time".into());
    }
    if items.iter().filter_map(|i| i.result.as_deref()).any(|r| r.chars().count() > MAX_ITEM_CHARS) {
        return Err(format!("keep each result under {MAX_ITEM_CHARS} characters"));
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
        if let Some(result) = item.result.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
            out.push_str(&format!(" → {result}"));
        }
    }
    out.push_str("\n</plan>");
    out
}

/// The plan of the conversation a turn is running in. One turn runs at a time, so
/// the board follows the conversation the companion last pointed it at.
pub struct PlanBoard {
    store: Store,
    events: Emitter<ChatEvent>,
    current: Mutex<Option<(i64, Vec<PlanItem>)>>,
}

impl PlanBoard {
    pub fn new(store: Store, events: Emitter<ChatEvent>) -> Self {
        Self { store, events, current: Mutex::new(None) }
    }

    /// Loads `conversation_id`'s plan and makes it the one `update_plan` changes.
    pub(crate) async fn focus(&self, conversation_id: i64) -> Result<Vec<PlanItem>, StoreError> {
        let items = self.store.context().plan(conversation_id).await?;
        *self.current.lock().expect("plan lock") = Some((conversation_id, items.clone()));
        Ok(items)
    }

    /// The focused plan's steps.
    pub(crate) fn items(&self) -> Vec<PlanItem> {
        self.current.lock().expect("plan lock").as_ref().map(|(_, items)| items.clone()).unwrap_or_default()
    }

    /// The focused plan, rendered for the prompt (empty when there is none).
    pub(crate) fn rendered(&self) -> String {
        self.current.lock().expect("plan lock").as_ref().map(|(_, items)| render(items)).unwrap_or_default()
    }

    /// Replaces the focused conversation's plan.
    pub(crate) async fn replace(&self, items: Vec<PlanItem>) -> Result<i64, String> {
        validate(&items)?;
        let conversation_id = self.current.lock().expect("plan lock").as_ref().map(|(id, _)| *id).ok_or("there is no conversation to plan for")?;
        self.store.context().set_plan(conversation_id, &items).await.map_err(|e| e.to_string())?;
        *self.current.lock().expect("plan lock") = Some((conversation_id, items.clone()));
        self.events.publish(ChatEvent::PlanUpdated { conversation_id, items });
        Ok(conversation_id)
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
}
