//! The chats paired with this Sidecar: one list, kept by the channel service and
//! shared with the running bot, saved to `settings.toml` on every change. Pairing
//! while the bot runs and unpairing while it is off change the same list.

use std::sync::Arc;
use std::sync::RwLock;

use crate::events::ChannelEvent;
use sidecar_domain::Emitter;
use sidecar_settings::Change;
use sidecar_settings::SettingsFileError;
use sidecar_settings::SettingsOwner;

pub(crate) struct PairedChats {
    chats: RwLock<Vec<i64>>,
    /// `None` keeps the list in memory only (tests).
    owner: Arc<SettingsOwner>,
    events: Emitter<ChannelEvent>,
}

impl PairedChats {
    pub(crate) fn new(chats: Vec<i64>, owner: Arc<SettingsOwner>, events: Emitter<ChannelEvent>) -> Self {
        Self { chats: RwLock::new(chats), owner, events }
    }

    pub(crate) fn list(&self) -> Vec<i64> {
        self.chats.read().expect("paired lock").clone()
    }

    pub(crate) fn add(&self, chat: i64) -> Result<(), SettingsFileError> {
        self.change(|chats| {
            if !chats.contains(&chat) {
                chats.push(chat)
            }
        })
    }

    pub(crate) fn remove(&self, chat: i64) -> Result<(), SettingsFileError> {
        self.change(|chats| chats.retain(|c| *c != chat))
    }

    fn change(&self, change: impl FnOnce(&mut Vec<i64>)) -> Result<(), SettingsFileError> {
        let chats = {
            let mut chats = self.chats.write().expect("paired lock");
            change(&mut chats);
            chats.clone()
        };
        self.owner.change(Change::TelegramChats(chats))?;
        self.events.publish(ChannelEvent::ChannelsChanged);
        Ok(())
    }
}
