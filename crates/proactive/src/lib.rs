//! Speaking first, safely: the spontaneous loop, [`ProactiveService`].
//!
//! What the user chose (level, quiet hours, sinks) is a [`ProactiveConfig`]; what the
//! loop remembers between ticks, a [`ProactiveState`] kept by [`ProactiveStore`]. Each
//! tick's checks before and after the model is asked (P1–P16) are pure rules that end in
//! a [`Skip`] or a [`Block`]; [`spontaneous_context`] and [`decision_prompt`] are what the
//! model is shown. Whether Sidecar is quiet now is a [`QuietNow`]. Where a message goes
//! is the outbox's router (`sidecar_outbox`); the sinks the core provides itself (the
//! chat, the terminal, OS notifications) are here: [`ChatSink`], [`ConsoleSink`],
//! [`NotificationSink`].
//!
//! One tick: read config and state fresh → roll the counters → the rules → try the
//! brain lock (skip if a reply is being written) → ask the model → validate → read
//! the user's last message again → mark the state → send through the router.

mod config;
mod decision;
mod do_not_disturb;
mod error;
mod events;
pub(crate) mod greeting;
mod learning;
mod notifier;
mod quiet;
mod rows;
mod rules;
mod service;
mod sinks;
mod state;
mod whereabouts;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use config::{Level, ProactiveConfig, SinkId, SinkPreference, SinkPreferences, CIRCUIT_PAUSE};
pub use decision::{decision_prompt, spontaneous_context, Inputs};
pub use error::ProactiveError;
pub use events::ProactiveEvent;
pub use learning::Signal;
pub use notifier::{NotificationAction, Notifier, NotifyError};
pub use quiet::{QuietNow, QUIET_FOR_MINUTES};
pub use rows::ProactiveStore;
pub use rules::{greeting_window, Block, MessageType, Skip};
pub use service::{BrainLock, ProactiveService};
pub use sinks::{ChatSink, ConsoleSink, NotificationSink};
pub use state::{Channel, ProactiveState};
pub use whereabouts::StoredWhereabouts;
pub use words::proactive::describe_tick;

use chrono::{DateTime, Utc};
use serde::Serialize;

use rules::Approved;
use sidecar_outbox::Routed;

/// Whether a tick may send, or only shows what the model would decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TickMode {
    /// The loop's tick (and `/proactive tick`): every rule applies, a message may go out.
    Send,
    /// `/proactive decide`: asks the model and validates, never sends, ignores the
    /// rate limits (it sends nothing to limit).
    DecideOnly,
}

/// How a tick ended. Every tick is logged with its outcome, including silent ones.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum TickReport {
    /// A rule said no before the model was asked.
    Skipped { reason: Skip },
    /// The model chose not to speak.
    Silent { reason: String, prompt_tokens: usize },
    /// The model wanted to speak; a check said no.
    Blocked { block: Block, prompt_tokens: usize },
    /// `DecideOnly`: this would be sent.
    WouldSend { approved: Approved, prompt_tokens: usize },
    /// Sent.
    Sent { approved: Approved, routed: Routed, prompt_tokens: usize },
    /// The model could not be asked (no model, network, timeout).
    Failed { error: String },
}

impl TickReport {
    pub(crate) fn log(&self) {
        match self {
            TickReport::Skipped { reason } => tracing::debug!(reason = reason.as_str(), "spontaneous_skipped"),
            TickReport::Silent { reason, prompt_tokens } => tracing::info!(%reason, prompt_tokens, should_speak = false, "spontaneous_decision"),
            TickReport::Blocked { block, prompt_tokens } => tracing::warn!(reason = block.as_str(), ?block, prompt_tokens, "spontaneous_blocked"),
            TickReport::WouldSend { approved, prompt_tokens } => {
                tracing::info!(message_type = approved.message_type.as_str(), prompt_tokens, "spontaneous_decision (not sent)")
            }
            TickReport::Sent { approved, routed, prompt_tokens } => {
                tracing::info!(message_type = approved.message_type.as_str(), sinks = ?routed.delivered, prompt_tokens, "spontaneous_sent")
            }
            TickReport::Failed { error } => tracing::warn!(%error, "spontaneous decision failed"),
        }
    }
}

/// What `/proactive status` and the Proactivity settings show.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct ProactiveStatus {
    pub config: ProactiveConfig,
    pub state: ProactiveState,
    pub zone: String,
    pub sinks: Vec<(config::SinkId, Channel, bool)>,
    /// Spontaneous messages allowed today at this level.
    pub max_today: u32,
    /// Until when Sidecar is quiet (`/quiet`, "be quiet", the tray), if it is now.
    pub quiet_until: Option<DateTime<Utc>>,
    /// The fixed limits, for the settings to state (never restated by the UI).
    pub limits: Limits,
}

/// The limits the rules enforce, as numbers the settings can show.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Limits {
    pub max_per_hour: u32,
    pub cooldown_minutes: i64,
    pub user_active_minutes: i64,
    /// Spontaneous messages a day at each level.
    pub max_per_day: std::collections::BTreeMap<&'static str, u32>,
    /// What "Quiet for 1 hour" in the settings and the tray sets.
    pub quiet_minutes: i64,
}

impl Limits {
    pub(crate) fn current() -> Self {
        use config::Level;
        Self {
            max_per_hour: config::MAX_PER_HOUR,
            cooldown_minutes: config::COOLDOWN.num_minutes(),
            user_active_minutes: config::USER_ACTIVE.num_minutes(),
            max_per_day: [Level::Low, Level::Medium, Level::High].into_iter().map(|l| (l.as_str(), l.max_per_day())).collect(),
            quiet_minutes: quiet::QUIET_FOR_MINUTES,
        }
    }
}
