//! One question to the user, as the window's card and the phone show it: in a file of
//! its own, so the events can carry it without reaching the askers.

use serde::Serialize;
use serde_json::Value;

use sidecar_domain::Channel;

/// One question to the user: may this tool run with these arguments?
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Question {
    pub id: u64,
    /// What the card, the phone and the notification say first ("Sidecar wants to run
    /// write_file from files", "Sidecar wants to schedule a task"), in the user's
    /// language; set by the asker that shows it ([`crate::permissions::words::title`]).
    pub title: String,
    /// How Sidecar's own tool says what it does, for the title.
    #[serde(skip)]
    pub asking: Option<sidecar_tools::Asking>,
    pub server: String,
    pub tool: String,
    /// The model-facing name (`mcp__server__tool`), which the chat's chip shows.
    pub called_as: String,
    pub description: String,
    /// The full arguments, as the tool would receive them.
    pub arguments: Value,
    /// What changed since the user last approved this tool; empty for a first ask.
    pub changed: Vec<String>,
    pub conversation_id: Option<i64>,
    /// Where the turn that wants the tool came from: a phone channel is asked there too.
    pub channel: Option<Channel>,
    /// The turn read a mail first: asked whatever was allowed before, for this call only
    /// (the title says why).
    pub after_strangers: bool,
    /// The answers that mean something for this question, Deny last: after a mail, only
    /// "once" (the gate keeps nothing else).
    pub choices: Vec<crate::permissions::grant::Choice>,
}
