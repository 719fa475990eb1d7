//! What the registry asks before a tool that acts runs. The permission gate implements
//! it (`permissions::gate`); the tools know nothing of how the user is asked.

use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;

use super::CallScope;
use crate::action::Action;

/// Why a tool that acts did not run, in words for the model (which tells the user).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotAllowed(pub String);

pub trait Guard: Send + Sync {
    /// Whether `action` may run with `arguments`.
    fn check<'a>(&'a self, action: &'a Action, arguments: &'a Value, scope: CallScope) -> BoxFuture<'a, Result<(), NotAllowed>>;
    /// Whether `action` may run in a turn that read a stranger's words
    /// ([`CallScope::after_strangers`]): the user is asked every time, whatever they
    /// allowed before, and the answer is kept for this call only.
    fn confirm<'a>(&'a self, action: &'a Action, arguments: &'a Value, scope: CallScope) -> BoxFuture<'a, Result<(), NotAllowed>>;
    /// How long the user has been asked, in all: that time is not the tool's.
    fn asking_time(&self) -> Duration;
}

/// Why a tool that acts did not run where there is no guard, hence no one to ask.
pub fn no_one_to_ask(tool: &str) -> NotAllowed {
    NotAllowed(format!(
        "permission to run {tool} was not given: there was no one to ask here; it waited for permission, which the user can give in the app, in `sidecar chat`, or with `sidecar mcp allow`"
    ))
}
