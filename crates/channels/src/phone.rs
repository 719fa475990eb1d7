//! What a phone channel (Telegram, WhatsApp) needs from the core: the store for the
//! ids it has seen, the clock, the user's language, the event bus, where the
//! settings file is (pairing writes to it), the data dir, and where the signs it
//! sees about spontaneous messages go, and the speech model that hears voice notes.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Weak;

use crate::events::ChannelEvent;
use sidecar_domain::Clock;
use sidecar_domain::Emitter;
use sidecar_domain::Lang;
use sidecar_proactive::ProactiveService;
use sidecar_settings::SettingsOwner;
use sidecar_store::Store;

#[derive(Clone)]
pub struct PhoneParts {
    pub store: Store,
    pub clock: Clock,
    pub lang: Lang,
    pub events: Emitter<ChannelEvent>,
    /// `None` keeps pairings in memory only (tests).
    pub settings: Arc<SettingsOwner>,
    /// Where a channel keeps its own files (WhatsApp's session).
    pub data_dir: PathBuf,
    /// Told the signs a channel sees about spontaneous messages (a reaction).
    pub proactive: Weak<ProactiveService>,
    /// Knows the bot's token and scrubs what the channel's servers say.
    pub redactor: sidecar_domain::Redactor,
    /// Turns voice notes into words (missing weights: the chat is told voice is off).
    pub speech: Arc<sidecar_voice::SpeechModel>,
}
