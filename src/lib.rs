//! Sidecar's agent core: storage, model clients, settings and the companion that ties
//! them together. No GUI dependency: the desktop shell and the CLI are thin adapters
//! over this crate, and everything here is testable headless.

pub mod agent;
pub mod api;
pub mod attachments;
pub mod backup;
pub mod budget;
pub mod channels;
pub mod character;
pub mod chat_exports;
pub mod chats;
pub mod clock;
pub mod companion;
pub mod connections;
pub mod context;
pub mod data_service;
pub mod dates;
pub mod conversation;
pub mod error;
pub mod events;
pub mod export;
pub mod fsutil;
pub mod history_import;
pub mod intent;
pub mod knowledge;
pub mod last_turn;
pub mod llm;
pub mod local_models;
pub mod locale;
pub mod meaning;
pub mod memo;
pub mod logging;
pub mod mcp;
pub mod notes;
pub mod permissions;
pub mod model;
pub mod offline;
pub mod paths;
pub mod preferences;
pub mod provider_admin;
pub mod recall;
pub mod redact;
pub mod proactive;
pub mod reminders;
pub mod secrets;
pub mod settings;
pub mod settings_file;
pub mod store;
pub mod tokens;
pub mod tools;
pub mod user_language;
pub mod welcome;
pub mod words;

pub use companion::{Companion, CompanionError, CompanionOptions};
pub use conversation::TurnOutcome;
pub use events::{CoreEvent, EventBus, ModelStatus};
