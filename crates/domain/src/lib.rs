//! The bottom of Sidecar's core: the words every other layer speaks and the few services
//! they all lean on. It imports nothing of Sidecar; everything imports it.
//!
//! The injected [`Clock`] gives now and the user's zone; [`Lang`] keys every word said.
//! What a conversation is made of: [`ChatMessage`]s with their [`Role`], [`ToolCall`]s
//! and [`Usage`], the [`Channel`] a message came from. An error says itself in the
//! user's language through [`Worded`]. An [`Emitter`] carries a crate's events to its
//! [`Subscriber`]s. Files are written whole or not at all ([`write_atomically`]); the
//! [`Redactor`] keeps secrets out of logs, and [`Secrets`] keeps them in the OS keyring
//! (the `secrets` feature). [`runtime_files`] names the models and programs shipped
//! beside Sidecar, [`process`] the running copies of it, [`word_overlap`] the plain
//! words two texts share.

mod address;
mod channel;
mod clock;
mod emitter;
mod fsutil;
mod locale;
mod logging;
mod memo;
mod message;
mod paths;
pub mod process;
mod redact;
pub mod runtime_files;
mod said;
#[cfg(feature = "secrets")]
mod secrets;
mod text;
pub mod word_overlap;

// The face: what the crates above, the faces and the tests name.
pub use address::{check_address, AddressProblem};
pub use channel::Channel;
pub use clock::{describe as describe_moment, fixed_clock, resolve_zone, system_clock, system_zone, zone_names, Clock};
pub use emitter::{Emitter, Subscriber};
pub use fsutil::{remove_leftover_temp_files, write_atomically};
pub use locale::Lang;
pub use logging::{init as init_logging, log_dir, LogGuard};
pub use memo::{content_key, Memo};
pub use message::{ChatMessage, ChatRequest, Completion, FinishReason, ImagePart, Role, ToolCall, ToolSpec, Usage};
pub use paths::{config_file, data_dir, export_dir};
pub use redact::Redactor;
pub use said::{said_once, said_whole, AddressRefusal, CannotWrite, EmptyMessage, Refused, Worded};
#[cfg(feature = "secrets")]
pub use secrets::{KeyStorage, Secrets};
pub use text::{first_line, one_line, shorten, truncate_middle};
