//! Channels: where messages come from and where answers go. `source` is where they
//! come from; the inbox that queues them for the brain, and the control commands, are
//! the agent's (`sidecar_agent::{inbox, slash, control}`); the way out is
//! `proactive::router` and its sinks. `telegram` (and WhatsApp) are phone channels:
//! both a source and a sink, with a `health` the user can see; `voice_note` hears what
//! their users say aloud. `words` is what they say, in both languages.

pub(crate) mod arrivals;
pub(crate) mod asking;
pub(crate) mod backoff;
mod call;
mod error;
mod events;
mod health;
mod phone;
pub(crate) mod rows;
mod service;
mod serving;
mod source;
pub(crate) mod telegram;
pub(crate) mod voice_note;
mod whatsapp;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use call::{CallSource, Caller};
pub use error::{ChannelError, PhoneError};
pub use events::ChannelEvent;
pub use health::Link;
pub use phone::PhoneParts;
pub use service::{ChannelService, ChannelsView, TokenSource};
pub use serving::serve;
pub use source::{IncomingMessage, MessageSource};
pub use whatsapp::client::WebClient;
pub use whatsapp::link::{LinkEvent, WhatsappLink};
pub use whatsapp::{WhatsApp, WhatsappSource};
