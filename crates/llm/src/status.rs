//! How ready the chat model is to answer, and the event that says it changed.

use serde::Serialize;

/// How ready the chat model is to answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ModelStatus {
    /// Nothing has been tried yet; the model is resolved on first need.
    Idle,
    /// The offline model is being started.
    Starting,
    /// A model is reachable at this endpoint. `demo`: it is the tiny built-in model,
    /// which cannot use tools and may make things up (the window says so plainly).
    Ready {
        provider: String,
        model: String,
        #[serde(default)]
        demo: bool,
    },
    /// The provider that should answer (`down`) is not answering (`reason`); the
    /// offline `model` answers meanwhile (`demo`: the tiny built-in one).
    StandingIn { down: String, reason: String, model: String, demo: bool },
    /// No model can be used; `message` says what to do about it.
    Unavailable { message: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ModelEvent {
    ModelStatus(ModelStatus),
}
