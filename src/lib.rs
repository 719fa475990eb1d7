//! Sidecar's agent core: storage, model clients, settings and the companion that ties
//! them together. No GUI dependency: the desktop shell and the CLI are thin adapters
//! over this crate, and everything here is testable headless.

pub mod commands;
pub mod companion;
pub(crate) mod companion_options;
pub(crate) mod devices_error;
pub mod error;
pub mod events;
pub mod words;

// The bottom layer is its own crate (crates/domain); its modules keep their paths here.
pub use sidecar_domain::{address, clock, fsutil, locale, logging, memo, paths, redact, runtime_files, said, secrets, text};
// Dates as people say them (crates/dates).
pub use sidecar_dates as dates;
pub use sidecar_dates::user_language;
// The pool, the migrations and the message tables (crates/store).
pub use sidecar_store as store;
// settings.toml, its owner, the desktop's preferences, the first launch (crates/settings).
pub use sidecar_settings as settings;
pub use sidecar_settings::{preferences, welcome};
// Recordings to words, offline (crates/voice).
pub use sidecar_voice as voice;
// Models: the wire clients, routing, the offline server, local models, the budget (crates/llm).
pub use sidecar_llm as llm;
pub use sidecar_llm::{budget, local_models, model, offline, provider_admin, tokens};
// The Tool trait, its registry and guard, the tools that need nothing above them (crates/tools).
pub use sidecar_tools as tools;
// What Sidecar remembers: knowledge, facts, meaning, recall, attachments (crates/memory).
pub use sidecar_memory::{attachments, facts_judge, knowledge, meaning, recall};
// Reminders: reading, storing, firing, iCalendar, their tool and words (crates/reminders).
pub use sidecar_reminders as reminders;
// Scheduled tasks: when they are due, what a missed one becomes, their runs (crates/tasks).
pub use sidecar_tasks as tasks;
// The calendar: CalDAV accounts, their calendars synced, events by time (crates/calendar).
pub use sidecar_calendar as calendar;
// Speaking first: the spontaneous loop, its rules, learning and sinks (crates/proactive).
pub use sidecar_proactive as proactive;
// What Sidecar may do in the world: MCP servers it uses, permissions, notes (crates/actions).
pub use sidecar_actions::{notes, permissions};
// The turn, its context, intents and the conversation with its inbox (crates/agent).
pub use sidecar_agent as agent;
pub use sidecar_agent::{chats, context, conversation, intent, last_turn};
// Where messages come from and answers go: calls, Telegram, WhatsApp (crates/channels).
pub use sidecar_channels as channels;
// One Sidecar on every device: pairing, device tokens, the link (crates/link).
pub use sidecar_link as link;
// Backups, exports and imports (crates/data).
pub use sidecar_data::{backup, chat_exports, data_service, export, history_import};
// Sidecar as a server: the local API, connections and their tokens (crates/serve).
pub use sidecar_serve::{api, connections};
// The desktop's own features: the character's places, the update look (crates/desktop).
pub use sidecar_desktop_features::{character, updates};

/// MCP both ways, under the one path the faces use: tools from servers the user plugs in
/// (crates/actions) and Sidecar served to other programs (crates/serve: `server`,
/// `endpoint`, `listener`).
pub mod mcp {
    pub use sidecar_actions::mcp::*;
    pub use sidecar_serve::mcp::{endpoint, listener, server};
}

pub use companion::{Companion, CompanionError, CompanionOptions, Delivery, Face, Heard, Running, VoiceModel, VoiceView};
pub use conversation::TurnOutcome;
pub use events::{CoreEvent, EventBus, ModelStatus};
