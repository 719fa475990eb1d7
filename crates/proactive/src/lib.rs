//! Speaking first, safely: the spontaneous loop and the MessageRouter.
//!
//! - `config`: what the user chose (level, quiet hours, sinks) and the fixed limits;
//! - `state`: what the loop remembers between ticks, persisted;
//! - `quiet`: whether Sidecar is quiet now, and until when;
//! - `rules`: the checks before and after the model is asked (P1–P16), pure;
//! - `decision`: the compact context, the prompt and the answer's parsing;
//! - `router`: where proactive messages go (sources, sinks, the routing policy);
//! - `sinks`: the sinks the core itself provides (the chat, the terminal, OS
//!   notifications).
//!
//! One tick: read config and state fresh → roll the counters → the rules → try the
//! brain lock (skip if a reply is being written) → ask the model → validate → read
//! the user's last message again → mark the state → send through the router.

pub mod config;
pub mod decision;
pub mod do_not_disturb;
pub mod error;
pub mod events;
pub(crate) mod greeting;
pub mod learning;
pub mod notifier;
pub mod quiet;
pub mod rows;
pub mod rules;
pub mod service;
pub mod sinks;
pub mod state;
pub mod whereabouts;
pub mod words;

use chrono::{DateTime, Utc};
use serde::Serialize;

use config::ProactiveConfig;
use rules::{Approved, Block, Skip};
use sidecar_outbox::Routed;
use state::{Channel, ProactiveState};

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
