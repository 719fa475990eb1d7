//! `[desktop]`: how the desktop app looks and is reached — theme, language, the global
//! shortcut that summons it, and the character on the desktop with its own shortcut.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The app's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Follows the system's light or dark setting.
    #[default]
    System,
    Light,
    Dark,
}

impl Theme {
    /// As settings.toml spells it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// The language Sidecar speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum LanguageChoice {
    /// `SIDECAR_LANG`, else the system's locale.
    #[default]
    System,
    En,
    Es,
}

impl LanguageChoice {
    /// As settings.toml spells it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            LanguageChoice::System => "system",
            LanguageChoice::En => "en",
            LanguageChoice::Es => "es",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct DesktopSettings {
    pub theme: Theme,
    pub language: LanguageChoice,
    /// The global shortcut that shows or hides the window ("Ctrl+Shift+Space" unless set).
    pub hotkey: Option<String>,
    /// Sidecar as a small character on the desktop; off until the user turns it on.
    pub character: bool,
    /// The shortcut that shows or hides the character ("Ctrl+Shift+Period" unless set).
    pub character_hotkey: Option<String>,
    /// Push-to-talk's shortcut: press to speak, press again to send ("Ctrl+Alt+Space"
    /// unless set).
    pub talk_hotkey: Option<String>,
    /// The window locks after this many idle minutes and at start, until the lock's
    /// passphrase is typed; 0 (the default) is no lock.
    pub lock_after_minutes: u32,
}

/// The idle minutes the app lock takes: from a minute to a working day.
pub const LOCK_MINUTES: std::ops::RangeInclusive<u32> = 1..=480;
