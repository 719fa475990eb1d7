//! The bottom of Sidecar's core: the words every other layer speaks and the few services
//! they all lean on. The injected clock and the user's zone, the language words are keyed
//! by, where files live, secrets (the OS keyring, behind the `secrets` feature) and the
//! redactor that keeps them out of logs, and what a conversation is made of (roles, messages, tool calls, usage, the
//! channel a message came from). It imports nothing of Sidecar; everything imports it.

pub mod address;
pub mod channel;
pub mod clock;
pub mod emitter;
pub mod fsutil;
pub mod locale;
pub mod logging;
pub mod memo;
pub mod message;
pub mod paths;
pub mod process;
pub mod redact;
pub mod runtime_files;
pub mod said;
#[cfg(feature = "secrets")]
pub mod secrets;
pub mod text;
pub mod word_overlap;
