//! The desktop app's preferences: theme, language and the global shortcut, kept in
//! `[desktop]` of settings.toml. The shell applies them (registers the shortcut, sets
//! the window's theme); the rules — what a valid shortcut is, which language a choice
//! means — live here.

pub mod hotkey;

use std::path::PathBuf;
use std::sync::Mutex;

use serde::Serialize;

use crate::error::CompanionError;
use crate::locale::Lang;
use crate::settings::desktop::{DesktopSettings, LanguageChoice, Theme};
pub use hotkey::{Hotkey, HotkeyError, DEFAULT_HOTKEY};

/// The preferences as Settings shows them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PreferencesView {
    pub theme: Theme,
    pub language: LanguageChoice,
    /// The language the choice means (the system's, for "system").
    pub chosen_lang: Lang,
    /// Sidecar's own messages (reminders, command answers) switch at the next start.
    pub restart_for_language: bool,
    pub hotkey: String,
    pub default_hotkey: &'static str,
}

/// Reads and saves the preferences. One per process.
pub struct Preferences {
    config_path: Option<PathBuf>,
    saved: Mutex<DesktopSettings>,
    /// The shortcut, read from `saved.hotkey` once (a bad one is reported once) and
    /// kept here from then on.
    hotkey: Mutex<Hotkey>,
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
    pub fn new(saved: DesktopSettings, config_path: Option<PathBuf>, speaking: Lang) -> Self {
        let hotkey = match saved.hotkey.as_deref().map(Hotkey::parse) {
            Some(Ok(hotkey)) => hotkey,
            Some(Err(error)) => {
                tracing::warn!(%error, "desktop.hotkey in settings.toml is not usable; the default is registered");
                Hotkey::default_hotkey()
            }
            None => Hotkey::default_hotkey(),
        };
        Self { config_path, saved: Mutex::new(saved), hotkey: Mutex::new(hotkey), speaking }
    }

    pub fn view(&self) -> PreferencesView {
        let saved = self.saved.lock().expect("preferences lock").clone();
        let chosen_lang = language_of(saved.language);
        PreferencesView {
            theme: saved.theme,
            language: saved.language,
            chosen_lang,
            restart_for_language: chosen_lang != self.speaking,
            hotkey: self.hotkey().to_string(),
            default_hotkey: DEFAULT_HOTKEY,
        }
    }

    /// The shortcut to register: the one set, or the default when none is (or the one
    /// in the file cannot be read; the start says so in the log).
    pub fn hotkey(&self) -> Hotkey {
        self.hotkey.lock().expect("preferences lock").clone()
    }

    pub fn set_theme(&self, theme: Theme) -> Result<PreferencesView, CompanionError> {
        self.save("theme", theme.as_str())?;
        self.saved.lock().expect("preferences lock").theme = theme;
        Ok(self.view())
    }

    pub fn set_language(&self, language: LanguageChoice) -> Result<PreferencesView, CompanionError> {
        self.save("language", language.as_str())?;
        self.saved.lock().expect("preferences lock").language = language;
        Ok(self.view())
    }

    /// The language the user chose, as it stands now (the core's own words were fixed
    /// at start; windows and command errors follow this one at once).
    pub fn lang(&self) -> Lang {
        language_of(self.saved.lock().expect("preferences lock").language)
    }

    /// Keeps a shortcut the shell has registered.
    pub fn save_hotkey(&self, hotkey: &Hotkey) -> Result<PreferencesView, CompanionError> {
        self.save("hotkey", &hotkey.to_string())?;
        *self.hotkey.lock().expect("preferences lock") = hotkey.clone();
        Ok(self.view())
    }

    fn save(&self, key: &str, setting: &str) -> Result<(), CompanionError> {
        match &self.config_path {
            Some(path) => crate::settings_file::save_desktop(path, key, setting).map_err(CompanionError::from),
            None => Ok(()),
        }
    }
}
