//! The desktop app's preferences: theme, language, the global shortcut, the character
//! on the desktop with its own shortcut, push-to-talk's shortcut, kept in `[desktop]` of settings.toml. The shell applies them (registers the shortcut, sets
//! the window's theme); the rules — what a valid shortcut is, which language a choice
//! means — live here.

pub(crate) mod hotkey;

use std::sync::Arc;
use std::sync::Mutex;

use serde::Serialize;

use crate::desktop::{DesktopSettings, LanguageChoice, Theme};
use crate::file::SettingsFileError;
use crate::owner::{Change, DesktopChange, SettingsOwner};
pub(crate) use hotkey::DEFAULT_TALK_HOTKEY;
pub use hotkey::{Hotkey, HotkeyError, DEFAULT_CHARACTER_HOTKEY, DEFAULT_HOTKEY};
use sidecar_domain::Lang;

/// The preferences as Settings shows them.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct PreferencesView {
    pub theme: Theme,
    pub language: LanguageChoice,
    /// The language the choice means (the system's, for "system").
    pub chosen_lang: Lang,
    /// Sidecar's own messages (reminders, command answers) switch at the next start.
    pub restart_for_language: bool,
    pub hotkey: String,
    pub default_hotkey: &'static str,
    /// The character on the desktop is shown.
    pub character: bool,
    pub character_hotkey: String,
    pub default_character_hotkey: &'static str,
    /// Push-to-talk's shortcut.
    pub talk_hotkey: String,
    pub default_talk_hotkey: &'static str,
}

/// Which of Sidecar's global shortcuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HotkeyRole {
    /// Shows or hides the chat window.
    Window,
    /// Shows or hides the character on the desktop.
    Character,
    /// Push-to-talk: starts listening, and sends what was said at the second press.
    Talk,
}

/// Reads and saves the preferences. One per process. The `[desktop]` section is read
/// from the settings' owner each time, never copied; only the shortcuts the shell has
/// registered are kept here.
pub struct Preferences {
    owner: Arc<SettingsOwner>,
    /// The shortcut, read from `desktop.hotkey` once (a bad one is reported once) and
    /// kept here from then on.
    hotkey: Mutex<Hotkey>,
    /// The character's shortcut, read the same way.
    character_hotkey: Mutex<Hotkey>,
    /// Push-to-talk's, read the same way.
    talk_hotkey: Mutex<Hotkey>,
    /// What the core speaks since it started.
    speaking: Lang,
}

/// The language a choice means: its own, or the system's.
pub fn language_of(choice: LanguageChoice) -> Lang {
    match choice {
        LanguageChoice::En => Lang::En,
        LanguageChoice::Es => Lang::Es,
        LanguageChoice::System => Lang::from_env(),
    }
}

impl Preferences {
    pub fn new(owner: Arc<SettingsOwner>, speaking: Lang) -> Self {
        let saved = owner.current().desktop.clone();
        let hotkey = saved_hotkey(saved.hotkey.as_deref(), "desktop.hotkey", Hotkey::default_hotkey);
        let mut character_hotkey = saved_hotkey(saved.character_hotkey.as_deref(), "desktop.character_hotkey", Hotkey::default_character_hotkey);
        if character_hotkey == hotkey {
            tracing::warn!(%hotkey, "desktop.character_hotkey is the window's shortcut; the character gets another default");
            character_hotkey = if hotkey == Hotkey::default_character_hotkey() { Hotkey::default_hotkey() } else { Hotkey::default_character_hotkey() };
        }
        let mut talk_hotkey = saved_hotkey(saved.talk_hotkey.as_deref(), "desktop.talk_hotkey", Hotkey::default_talk_hotkey);
        if talk_hotkey == hotkey || talk_hotkey == character_hotkey {
            tracing::warn!(%talk_hotkey, "desktop.talk_hotkey is another shortcut of Sidecar's; push-to-talk gets its default");
            talk_hotkey = Hotkey::default_talk_hotkey();
        }
        Self { owner, hotkey: Mutex::new(hotkey), character_hotkey: Mutex::new(character_hotkey), talk_hotkey: Mutex::new(talk_hotkey), speaking }
    }

    pub fn view(&self) -> PreferencesView {
        let saved = self.saved();
        let chosen_lang = language_of(saved.language);
        PreferencesView {
            theme: saved.theme,
            language: saved.language,
            chosen_lang,
            restart_for_language: chosen_lang != self.speaking,
            hotkey: self.hotkey().to_string(),
            default_hotkey: DEFAULT_HOTKEY,
            character: saved.character,
            character_hotkey: self.character_hotkey().to_string(),
            default_character_hotkey: DEFAULT_CHARACTER_HOTKEY,
            talk_hotkey: self.talk_hotkey().to_string(),
            default_talk_hotkey: DEFAULT_TALK_HOTKEY,
        }
    }

    /// The character's shortcut to register.
    pub fn character_hotkey(&self) -> Hotkey {
        self.character_hotkey.lock().expect("preferences lock").clone()
    }

    /// Whether the character on the desktop is shown.
    pub fn character(&self) -> bool {
        self.saved().character
    }

    pub fn set_character(&self, shown: bool) -> Result<PreferencesView, SettingsFileError> {
        self.save(DesktopChange::Character(shown))?;
        Ok(self.view())
    }

    /// Reads a shortcut the user typed for one role; Sidecar's shortcuts must all
    /// differ, or one press would do two things.
    pub fn read_hotkey(&self, text: &str, role: HotkeyRole) -> Result<Hotkey, HotkeyError> {
        let hotkey = Hotkey::parse(text)?;
        let others = match role {
            HotkeyRole::Window => [self.character_hotkey(), self.talk_hotkey()],
            HotkeyRole::Character => [self.hotkey(), self.talk_hotkey()],
            HotkeyRole::Talk => [self.hotkey(), self.character_hotkey()],
        };
        if others.contains(&hotkey) {
            return Err(HotkeyError::SameAsOther { hotkey: hotkey.to_string() });
        }
        Ok(hotkey)
    }

    /// Push-to-talk's shortcut to register.
    pub fn talk_hotkey(&self) -> Hotkey {
        self.talk_hotkey.lock().expect("preferences lock").clone()
    }

    /// Keeps push-to-talk's shortcut the shell has registered.
    pub fn save_talk_hotkey(&self, hotkey: &Hotkey) -> Result<PreferencesView, SettingsFileError> {
        self.save(DesktopChange::TalkHotkey(hotkey.to_string()))?;
        *self.talk_hotkey.lock().expect("preferences lock") = hotkey.clone();
        Ok(self.view())
    }

    /// Keeps the character's shortcut the shell has registered.
    pub fn save_character_hotkey(&self, hotkey: &Hotkey) -> Result<PreferencesView, SettingsFileError> {
        self.save(DesktopChange::CharacterHotkey(hotkey.to_string()))?;
        *self.character_hotkey.lock().expect("preferences lock") = hotkey.clone();
        Ok(self.view())
    }

    /// The shortcut to register: the one set, or the default when none is (or the one
    /// in the file cannot be read; the start says so in the log).
    pub fn hotkey(&self) -> Hotkey {
        self.hotkey.lock().expect("preferences lock").clone()
    }

    pub fn set_theme(&self, theme: Theme) -> Result<PreferencesView, SettingsFileError> {
        self.save(DesktopChange::Theme(theme))?;
        Ok(self.view())
    }

    pub fn set_language(&self, language: LanguageChoice) -> Result<PreferencesView, SettingsFileError> {
        self.save(DesktopChange::Language(language))?;
        Ok(self.view())
    }

    /// The language the user chose, as it stands now (the core's own words were fixed
    /// at start; windows and command errors follow this one at once).
    pub fn lang(&self) -> Lang {
        language_of(self.saved().language)
    }

    /// Keeps a shortcut the shell has registered.
    pub fn save_hotkey(&self, hotkey: &Hotkey) -> Result<PreferencesView, SettingsFileError> {
        self.save(DesktopChange::Hotkey(hotkey.to_string()))?;
        *self.hotkey.lock().expect("preferences lock") = hotkey.clone();
        Ok(self.view())
    }

    /// `[desktop]` as the owner holds it now.
    fn saved(&self) -> DesktopSettings {
        self.owner.current().desktop.clone()
    }

    fn save(&self, change: DesktopChange) -> Result<(), SettingsFileError> {
        self.owner.change(Change::Desktop(change)).map(drop)
    }
}

/// A shortcut from settings.toml, or the default when none is set or it cannot be read
/// (the start says so in the log).
fn saved_hotkey(text: Option<&str>, key: &str, default: fn() -> Hotkey) -> Hotkey {
    match text.map(Hotkey::parse) {
        Some(Ok(hotkey)) => hotkey,
        Some(Err(error)) => {
            tracing::warn!(%error, key, "a shortcut in settings.toml is not usable; the default is registered");
            default()
        }
        None => default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    #[test]
    fn a_change_saved_through_the_owner_elsewhere_is_what_the_preferences_show() {
        let owner = Arc::new(SettingsOwner::new(Settings::default(), None));
        let preferences = Preferences::new(owner.clone(), Lang::En);
        assert!(!preferences.character());
        // Another face (the CLI, a reload) changes `[desktop]`; the preferences hold no copy.
        owner.change(Change::Desktop(DesktopChange::Character(true))).unwrap();
        owner.change(Change::Desktop(DesktopChange::Language(LanguageChoice::Es))).unwrap();
        assert!(preferences.character());
        assert_eq!(preferences.lang(), Lang::Es);
        assert!(preferences.view().restart_for_language, "the core still speaks English until it restarts");
    }

    #[test]
    fn push_to_talk_has_its_own_shortcut_and_none_of_sidecars_three_may_share_one() {
        let owner = Arc::new(SettingsOwner::new(Settings::default(), None));
        let preferences = Preferences::new(owner.clone(), Lang::En);
        assert_eq!(preferences.view().talk_hotkey, DEFAULT_TALK_HOTKEY);
        let same = preferences.read_hotkey(DEFAULT_HOTKEY, HotkeyRole::Talk);
        assert_eq!(same, Err(HotkeyError::SameAsOther { hotkey: DEFAULT_HOTKEY.into() }));
        assert!(matches!(preferences.read_hotkey(DEFAULT_TALK_HOTKEY, HotkeyRole::Character), Err(HotkeyError::SameAsOther { .. })));
        let chosen = preferences.read_hotkey("Ctrl+Alt+KeyT", HotkeyRole::Talk).unwrap();
        assert_eq!(preferences.save_talk_hotkey(&chosen).unwrap().talk_hotkey, "Ctrl+Alt+T");
        assert_eq!(owner.current().desktop.talk_hotkey.as_deref(), Some("Ctrl+Alt+T"));

        // One written by hand over the window's is not taken: push-to-talk keeps its default.
        let mut settings = Settings::default();
        settings.desktop.talk_hotkey = Some(DEFAULT_HOTKEY.into());
        let preferences = Preferences::new(Arc::new(SettingsOwner::new(settings, None)), Lang::En);
        assert_eq!(preferences.talk_hotkey().to_string(), DEFAULT_TALK_HOTKEY);
    }
}
