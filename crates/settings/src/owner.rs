//! The one owner of the settings while Sidecar runs. Every change a face or a feature
//! makes is a typed [`Change`] of one section; the owner writes it to `settings.toml`
//! (keeping the rest of the file as the user left it), applies it to the settings it
//! holds, and tells whoever subscribed. Without a file (tests, `--config` unset in a
//! test harness) the change is only held.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::watch;

use crate::budget::BudgetSettings;
use crate::channels::{TelegramSettings, WhatsappSettings};
use crate::desktop::{LanguageChoice, Theme};
use crate::file::{self, SettingsFileError};
use crate::llm::sampling::Sampling;
use crate::memory::EmbeddingsBackend;
use crate::{ProviderSettings, SearchBackend, Settings};

/// One section's change, as the user made it.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// `[[providers]]` and `routing.chat`.
    Providers { providers: Vec<ProviderSettings>, chat: Vec<String> },
    /// `[local_model]`'s sampling and context window; unset values go back to the
    /// catalogue's defaults.
    LocalSampling { sampling: Sampling, context_tokens: Option<u32> },
    /// `[local_model] model`, the GGUF the local server runs.
    LocalModel(Option<PathBuf>),
    /// `[user] timezone`, an IANA name.
    TimeZone(String),
    /// `[user] place`; `None` takes it away.
    Place(Option<String>),
    /// `[budget]`.
    Budget(BudgetSettings),
    /// One key of `[desktop]`.
    Desktop(DesktopChange),
    /// `[updates] daily`.
    UpdatesDaily(bool),
    /// `[updates] address`; `None` goes back to the build's.
    UpdatesAddress(Option<String>),
    /// `[tools.web_search]`'s backend and address.
    WebSearch { backend: SearchBackend, url: Option<String> },
    /// `[tools] notes_folder`.
    NotesFolder(Option<PathBuf>),
    /// `[tools] auto_allow_read_only`.
    AutoAllowReadOnly(bool),
    /// `[retention]`, whole.
    Retention(crate::RetentionSettings),
    /// `[voice] speak_replies`.
    SpeakReplies(crate::voice::SpeakReplies),
    /// One of `[voice]`'s switches.
    VoiceSwitch(crate::voice::VoiceSwitch, bool),
    /// `[voice] input_device`; `None`: the default input.
    InputDevice(Option<String>),
    /// `[voice] output_device`; `None`: the default output.
    OutputDevice(Option<String>),
    /// `[voice]`'s voices and speed.
    Voicing { spanish: Option<String>, english: Option<String>, speed: f32 },
    /// `[memory] auto_remember`.
    AutoRemember(bool),
    /// `[memory] tidy_alone`.
    TidyAlone(bool),
    /// `[memory.embeddings]`'s backend, address and model.
    Embeddings { backend: EmbeddingsBackend, url: Option<String>, model: Option<String> },
    /// `[connections] serve_http`.
    ServeHttp(bool),
    /// `[devices] listen`: where other devices reach this Sidecar (empty: off).
    DevicesListen(Vec<String>),
    /// `[channels.telegram] allowed_chats` (the section made, on, when missing).
    TelegramChats(Vec<i64>),
    /// `[channels.NAME] enabled`.
    ChannelEnabled(PhoneChannel, bool),
}

/// One key of `[desktop]`.
#[derive(Debug, Clone, PartialEq)]
pub enum DesktopChange {
    Theme(Theme),
    Language(LanguageChoice),
    Hotkey(String),
    Character(bool),
    CharacterHotkey(String),
    TalkHotkey(String),
    /// `lock_after_minutes`; 0 turns the lock off.
    LockAfter(u32),
}

/// A phone channel's section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneChannel {
    Telegram,
    Whatsapp,
}

impl PhoneChannel {
    fn key(self) -> &'static str {
        match self {
            PhoneChannel::Telegram => "telegram",
            PhoneChannel::Whatsapp => "whatsapp",
        }
    }
}

impl Change {
    /// Writes the change into the file at `path`.
    fn write(&self, path: &Path) -> Result<(), SettingsFileError> {
        match self {
            Change::Providers { providers, chat } => {
                // A provider that came from SIDECAR_LLM_BASE_URL belongs to the
                // environment, not to the file.
                let from_env = std::env::var_os(crate::LLM_BASE_URL_ENV).is_some();
                let providers: Vec<ProviderSettings> = providers.iter().filter(|p| !(from_env && p.id == "env")).cloned().collect();
                let chat: Vec<String> = chat.iter().filter(|id| !(from_env && *id == "env")).cloned().collect();
                file::save_providers(path, &providers, &chat)
            }
            Change::LocalSampling { sampling, context_tokens } => file::save_local_sampling(path, sampling, *context_tokens),
            Change::LocalModel(model) => file::save_local_model(path, model.as_deref()),
            Change::TimeZone(zone) => file::save_timezone(path, zone),
            Change::Place(place) => file::save_place(path, place.as_deref()),
            Change::Budget(budget) => file::save_budget(path, budget),
            Change::Desktop(change) => {
                let (key, setting) = match change {
                    DesktopChange::Theme(theme) => ("theme", toml_edit::value(theme.as_str())),
                    DesktopChange::Language(language) => ("language", toml_edit::value(language.as_str())),
                    DesktopChange::Hotkey(hotkey) => ("hotkey", toml_edit::value(hotkey.as_str())),
                    DesktopChange::Character(shown) => ("character", toml_edit::value(*shown)),
                    DesktopChange::CharacterHotkey(hotkey) => ("character_hotkey", toml_edit::value(hotkey.as_str())),
                    DesktopChange::TalkHotkey(hotkey) => ("talk_hotkey", toml_edit::value(hotkey.as_str())),
                    DesktopChange::LockAfter(minutes) => ("lock_after_minutes", toml_edit::value(i64::from(*minutes))),
                };
                file::save_desktop(path, key, setting)
            }
            Change::UpdatesDaily(daily) => file::save_updates(path, "daily", Some(toml_edit::value(*daily))),
            Change::UpdatesAddress(address) => file::save_updates(path, "address", address.as_deref().map(toml_edit::value)),
            Change::WebSearch { backend, url } => file::save_web_search(path, *backend, url.as_deref()),
            Change::NotesFolder(folder) => file::save_notes_folder(path, folder.as_deref()),
            Change::AutoAllowReadOnly(on) => file::save_auto_allow_read_only(path, *on),
            Change::Retention(retention) => file::save_retention(path, retention),
            Change::SpeakReplies(which) => file::save_speak_replies(path, *which),
            Change::VoiceSwitch(which, on) => file::save_voice_switch(path, *which, *on),
            Change::InputDevice(name) => file::save_voice_device(path, "input_device", name.as_deref()),
            Change::OutputDevice(name) => file::save_voice_device(path, "output_device", name.as_deref()),
            Change::Voicing { spanish, english, speed } => file::save_voicing(path, spanish.as_deref(), english.as_deref(), *speed),
            Change::AutoRemember(on) => file::save_memory_switch(path, "auto_remember", *on),
            Change::TidyAlone(on) => file::save_memory_switch(path, "tidy_alone", *on),
            Change::Embeddings { backend, url, model } => file::save_embeddings(path, *backend, url.as_deref(), model.as_deref()),
            Change::ServeHttp(on) => file::save_serve_http(path, *on),
            Change::DevicesListen(addresses) => file::save_devices_listen(path, addresses),
            Change::TelegramChats(chats) => file::save_telegram_chats(path, chats),
            Change::ChannelEnabled(channel, enabled) => file::save_channel_enabled(path, channel.key(), *enabled),
        }
    }

    /// Applies the change to `settings` as the file now reads.
    fn apply(self, settings: &mut Settings) {
        match self {
            Change::Providers { providers, chat } => {
                settings.providers = providers;
                settings.routing.chat = chat;
            }
            Change::LocalSampling { sampling, context_tokens } => {
                settings.local_model.sampling = sampling;
                settings.local_model.context_tokens = context_tokens;
            }
            Change::LocalModel(model) => settings.local_model.model = model,
            Change::TimeZone(zone) => settings.user.timezone = Some(zone),
            Change::Place(place) => settings.user.place = place,
            Change::Budget(budget) => settings.budget = budget,
            Change::Desktop(change) => {
                let desktop = &mut settings.desktop;
                match change {
                    DesktopChange::Theme(theme) => desktop.theme = theme,
                    DesktopChange::Language(language) => desktop.language = language,
                    DesktopChange::Hotkey(hotkey) => desktop.hotkey = Some(hotkey),
                    DesktopChange::Character(shown) => desktop.character = shown,
                    DesktopChange::CharacterHotkey(hotkey) => desktop.character_hotkey = Some(hotkey),
                    DesktopChange::TalkHotkey(hotkey) => desktop.talk_hotkey = Some(hotkey),
                    DesktopChange::LockAfter(minutes) => desktop.lock_after_minutes = minutes,
                }
            }
            Change::UpdatesDaily(daily) => settings.updates.daily = daily,
            Change::UpdatesAddress(address) => settings.updates.address = address,
            Change::WebSearch { backend, url } => {
                settings.tools.web_search.backend = Some(backend);
                settings.tools.web_search.url = url;
            }
            Change::NotesFolder(folder) => settings.tools.notes_folder = folder,
            Change::AutoAllowReadOnly(on) => settings.tools.auto_allow_read_only = on,
            Change::Retention(retention) => settings.retention = retention,
            Change::SpeakReplies(which) => settings.voice.speak_replies = which,
            Change::VoiceSwitch(which, on) => *settings.voice.switch(which) = on,
            Change::InputDevice(name) => settings.voice.input_device = name,
            Change::OutputDevice(name) => settings.voice.output_device = name,
            Change::Voicing { spanish, english, speed } => {
                let voice = &mut settings.voice;
                (voice.spanish_voice, voice.english_voice, voice.speed) = (spanish, english, speed);
            }
            Change::AutoRemember(on) => settings.memory.auto_remember = on,
            Change::TidyAlone(on) => settings.memory.tidy_alone = on,
            Change::Embeddings { backend, url, model } => {
                let embeddings = &mut settings.memory.embeddings;
                (embeddings.backend, embeddings.url, embeddings.model) = (backend, url, model);
            }
            Change::ServeHttp(on) => settings.connections.serve_http = on,
            Change::DevicesListen(addresses) => settings.devices.listen = addresses,
            Change::TelegramChats(chats) => settings.channels.telegram.get_or_insert_with(TelegramSettings::default).allowed_chats = chats,
            Change::ChannelEnabled(PhoneChannel::Telegram, enabled) => {
                settings.channels.telegram.get_or_insert_with(TelegramSettings::default).enabled = enabled
            }
            Change::ChannelEnabled(PhoneChannel::Whatsapp, enabled) => {
                settings.channels.whatsapp.get_or_insert_with(WhatsappSettings::default).enabled = enabled
            }
        }
    }
}

/// Holds the settings, writes every change, and signals it.
pub struct SettingsOwner {
    path: Option<PathBuf>,
    held: watch::Sender<Arc<Settings>>,
}

/// The defaults, held in memory and written nowhere (tests, a feature used alone).
impl Default for SettingsOwner {
    fn default() -> Self {
        Self::new(Settings::default(), None)
    }
}

impl SettingsOwner {
    /// Owns `settings` as read from `path` (`None`: nothing is written).
    pub fn new(settings: Settings, path: Option<PathBuf>) -> Self {
        Self { path, held: watch::Sender::new(Arc::new(settings)) }
    }

    /// The settings as they stand.
    pub fn current(&self) -> Arc<Settings> {
        self.held.borrow().clone()
    }

    /// Hears every change from now on; the receiver sees the settings after it.
    pub fn subscribe(&self) -> watch::Receiver<Arc<Settings>> {
        self.held.subscribe()
    }

    /// Writes `change` to the file, then holds and signals it. A write that fails
    /// changes nothing: the file and the settings held stay as they were.
    pub fn change(&self, change: Change) -> Result<Arc<Settings>, SettingsFileError> {
        if let Some(path) = &self.path {
            change.write(path)?;
        }
        Ok(self.hold(change))
    }

    /// Holds and signals `change` even when the file cannot take it (it then applies
    /// until Sidecar restarts), and says why it was not saved.
    pub fn change_or_hold(&self, change: Change) -> (Arc<Settings>, Option<SettingsFileError>) {
        let unsaved = self.path.as_deref().and_then(|path| change.write(path).err());
        (self.hold(change), unsaved)
    }

    fn hold(&self, change: Change) -> Arc<Settings> {
        let mut settings = (*self.current()).clone();
        change.apply(&mut settings);
        let settings = Arc::new(settings);
        self.held.send_replace(settings.clone());
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a restart would read: the file the owner wrote, loaded again.
    fn reread(path: &Path) -> Settings {
        Settings::load(path).unwrap()
    }

    #[test]
    fn each_change_is_written_held_and_signalled_as_a_restart_would_read_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        std::fs::write(&path, "# mine\n[user]\nall_day_time = \"08:30\"\n").unwrap();
        let owner = SettingsOwner::new(reread(&path), Some(path.clone()));
        let mut heard = owner.subscribe();
        let changes = [
            Change::TimeZone("Europe/Madrid".into()),
            Change::Place(Some("Zaragoza".into())),
            Change::Desktop(DesktopChange::Theme(Theme::Dark)),
            Change::Desktop(DesktopChange::Character(true)),
            Change::UpdatesDaily(false),
            Change::UpdatesAddress(Some("https://example.org/latest.json".into())),
            Change::WebSearch { backend: SearchBackend::Searxng, url: Some("http://127.0.0.1:8888".into()) },
            Change::NotesFolder(Some(dir.path().to_path_buf())),
            Change::AutoAllowReadOnly(true),
            Change::AutoRemember(true),
            Change::Embeddings { backend: EmbeddingsBackend::Openai, url: Some("http://127.0.0.1:11434/v1".into()), model: Some("nomic".into()) },
            Change::ServeHttp(true),
            Change::DevicesListen(vec!["192.168.1.20".into()]),
            Change::TelegramChats(vec![42, 7]),
            Change::ChannelEnabled(PhoneChannel::Whatsapp, false),
            Change::LocalModel(Some(dir.path().join("m.gguf"))),
            Change::SpeakReplies(crate::voice::SpeakReplies::Always),
            Change::VoiceSwitch(crate::voice::VoiceSwitch::SpeakReminders, true),
            Change::VoiceSwitch(crate::voice::VoiceSwitch::ReviewBeforeSending, true),
            Change::InputDevice(Some("USB Headset".into())),
            Change::OutputDevice(Some("HDMI".into())),
            Change::Voicing { spanish: Some("es-419+f3".into()), english: None, speed: 1.3 },
            Change::InputDevice(None),
            Change::Place(None),
        ];
        for change in changes {
            let held = owner.change(change.clone()).unwrap();
            assert!(heard.has_changed().unwrap(), "{change:?} was not signalled");
            assert_eq!(*heard.borrow_and_update(), held);
            let mut restarted = reread(&path);
            restarted.warnings.clear();
            let mut held = (*held).clone();
            held.warnings.clear();
            assert_eq!(restarted, held, "after {change:?}");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n") && text.contains("all_day_time = \"08:30\""), "{text}");
    }

    #[test]
    fn a_file_that_cannot_be_written_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        std::fs::write(&path, "this is [not toml").unwrap();
        let owner = SettingsOwner::new(Settings::default(), Some(path.clone()));
        let heard = owner.subscribe();
        assert!(matches!(owner.change(Change::AutoRemember(true)), Err(SettingsFileError::Parse { .. })));
        assert!(!owner.current().memory.auto_remember);
        assert!(!heard.has_changed().unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "this is [not toml");
    }

    #[test]
    fn without_a_file_a_change_is_only_held() {
        let owner = SettingsOwner::new(Settings::default(), None);
        owner.change(Change::ServeHttp(true)).unwrap();
        assert!(owner.current().connections.serve_http);
    }
}
