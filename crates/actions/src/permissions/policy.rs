//! Decides a call from what the user already said, or says the user must be asked.
//! Pure: the gate feeds it the grants, the approved definitions and this chat's grants.

use super::grant::{Grant, Pinned};
use sidecar_tools::Action;

#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Allowed,
    /// A standing denial.
    Denied,
    /// Ask the user; `changed` names what changed since they last approved the tool.
    Ask {
        changed: Vec<&'static str>,
    },
}

/// What the policy is given besides the call.
pub(crate) struct Standing<'a> {
    pub grants: &'a [Grant],
    pub pins: &'a [Pinned],
    /// What was allowed "in this chat" for the chat the call is made in ([`Action::chat_key`]s).
    pub chat_keys: &'a [String],
    /// Settings' "allow read-only tools without asking" (off unless the user turned it on).
    pub auto_read_only: bool,
}

pub(crate) fn decide(action: &Action, standing: &Standing) -> Verdict {
    let tool = &action.definition.name;
    let pin = action.definition.pin();
    // A grant given for another command or URL is void: the server is not the one allowed.
    let applies = |g: &&Grant| g.server == action.server && g.identity == action.identity;
    let for_tool = standing.grants.iter().filter(applies).find(|g| g.tool.as_deref() == Some(tool.as_str()));
    if for_tool.is_some_and(|g| !g.allow) {
        return Verdict::Denied;
    }
    // A definition that changed since it was approved is asked about again, whatever
    // grant stands: a harmless tool may have become one that sends mail.
    let approved = standing.pins.iter().find(|p| p.tool == *tool && p.identity == action.identity);
    if let Some(approved) = approved.filter(|p| p.pin != pin) {
        return Verdict::Ask { changed: action.definition.changes_from(&approved.definition) };
    }
    let for_server = standing.grants.iter().filter(applies).find(|g| g.tool.is_none());
    if for_tool.is_some_and(|g| g.allow) || for_server.is_some_and(|g| g.allow) {
        return Verdict::Allowed;
    }
    if standing.chat_keys.contains(&action.chat_key()) || (standing.auto_read_only && action.definition.read_only) {
        return Verdict::Allowed;
    }
    Verdict::Ask { changed: Vec::new() }
}
