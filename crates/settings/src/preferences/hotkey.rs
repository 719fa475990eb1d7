//! A global shortcut as the user sets it: modifiers and one key, written the one way
//! the shell's shortcut library reads ("Ctrl+Shift+Space").

use std::fmt;

use serde::Serialize;

/// What summons Sidecar when nothing else is set.
pub const DEFAULT_HOTKEY: &str = "Ctrl+Shift+Space";
/// What shows or hides the character on the desktop when nothing else is set.
pub const DEFAULT_CHARACTER_HOTKEY: &str = "Ctrl+Shift+Period";
/// Push-to-talk's shortcut unless the user picks another.
pub(crate) const DEFAULT_TALK_HOTKEY: &str = "Ctrl+Alt+Space";

const MODIFIERS: [(&str, &[&str]); 4] =
    [("Ctrl", &["ctrl", "control"]), ("Alt", &["alt", "option"]), ("Shift", &["shift"]), ("Super", &["super", "cmd", "command", "meta", "win"])];

const NAMED_KEYS: &[&str] = &[
    "Space",
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "Insert",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Up",
    "Down",
    "Left",
    "Right",
    "Comma",
    "Period",
    "Slash",
    "Semicolon",
    "Quote",
    "Minus",
    "Equal",
    "Backquote",
    "BracketLeft",
    "BracketRight",
    "Backslash",
];

/// A shortcut that can be registered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "String")]
pub struct Hotkey {
    modifiers: Vec<&'static str>,
    key: String,
}

/// Why a shortcut cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HotkeyError {
    #[error("\"{text}\" is not a key combination Sidecar knows; press the keys instead of typing them")]
    Unknown { text: String },
    #[error("a global shortcut needs Ctrl, Alt, Shift or Super with the key, or it would fire while you type")]
    NoModifier,
    /// Another program (or the desktop) already uses it.
    #[error("{hotkey} is already used by another program; choose another combination")]
    Taken { hotkey: String },
    /// Sidecar's other shortcut is this one (the window's and the character's differ).
    #[error("{hotkey} is already Sidecar's other shortcut; choose another combination")]
    SameAsOther { hotkey: String },
}

impl Hotkey {
    /// Reads "ctrl + shift + k", "Cmd+F5", … (any case, any order of modifiers).
    pub fn parse(text: &str) -> Result<Self, HotkeyError> {
        let unknown = || HotkeyError::Unknown { text: text.trim().to_string() };
        let mut modifiers = Vec::new();
        let mut key = None;
        for token in text.split('+').map(str::trim) {
            let lower = token.to_ascii_lowercase();
            if let Some((name, _)) = MODIFIERS.iter().find(|(_, spellings)| spellings.contains(&lower.as_str())) {
                if !modifiers.contains(name) {
                    modifiers.push(*name);
                }
            } else if key.is_none() {
                key = Some(key_name(token).ok_or_else(unknown)?);
            } else {
                return Err(unknown());
            }
        }
        let key = key.ok_or_else(unknown)?;
        let function_key = key.starts_with('F') && key.len() > 1;
        if modifiers.is_empty() && !function_key {
            return Err(HotkeyError::NoModifier);
        }
        modifiers.sort_by_key(|m| MODIFIERS.iter().position(|(name, _)| name == m));
        Ok(Self { modifiers, key })
    }

    pub fn default_hotkey() -> Self {
        Self::parse(DEFAULT_HOTKEY).expect("the default shortcut parses")
    }

    pub(crate) fn default_character_hotkey() -> Self {
        Self::parse(DEFAULT_CHARACTER_HOTKEY).expect("the default shortcut parses")
    }

    pub(crate) fn default_talk_hotkey() -> Self {
        Self::parse(DEFAULT_TALK_HOTKEY).expect("the default shortcut parses")
    }
}

/// The key's one spelling: a letter, a digit, F1–F12, or a named key.
fn key_name(token: &str) -> Option<String> {
    let upper = token.to_ascii_uppercase();
    // A browser's key code ("KeyK", "Digit1") names the same key.
    let upper = match upper.strip_prefix("KEY").or_else(|| upper.strip_prefix("DIGIT")) {
        Some(rest) if rest.len() == 1 => rest.to_string(),
        _ => upper,
    };
    if upper.len() == 1 && upper.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Some(upper);
    }
    if let Some(n) = upper.strip_prefix('F').and_then(|n| n.parse::<u8>().ok()) {
        return (1..=12).contains(&n).then(|| format!("F{n}"));
    }
    let bare = upper.strip_prefix("ARROW").unwrap_or(&upper);
    let bare = if bare == "ESC" { "ESCAPE" } else { bare };
    NAMED_KEYS.iter().find(|k| k.eq_ignore_ascii_case(bare)).map(|k| k.to_string())
}

impl fmt::Display for Hotkey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for modifier in &self.modifiers {
            write!(f, "{modifier}+")?;
        }
        f.write_str(&self.key)
    }
}

impl From<Hotkey> for String {
    fn from(hotkey: Hotkey) -> String {
        hotkey.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_read_to_one_form() {
        assert_eq!(Hotkey::parse("shift + control + space").unwrap().to_string(), "Ctrl+Shift+Space");
        assert_eq!(Hotkey::parse("Cmd+Alt+k").unwrap().to_string(), "Alt+Super+K");
        assert_eq!(Hotkey::parse("ctrl+ArrowUp").unwrap().to_string(), "Ctrl+Up");
        assert_eq!(Hotkey::parse("F9").unwrap().to_string(), "F9");
        assert_eq!(Hotkey::parse("Ctrl+Alt+KeyJ").unwrap().to_string(), "Ctrl+Alt+J", "a browser's key code");
        assert_eq!(Hotkey::parse("Super+Digit1").unwrap().to_string(), "Super+1");
        assert_eq!(Hotkey::default_hotkey().to_string(), DEFAULT_HOTKEY);
        assert_eq!(Hotkey::default_character_hotkey().to_string(), DEFAULT_CHARACTER_HOTKEY);
    }

    #[test]
    fn what_cannot_be_a_shortcut_says_why() {
        assert_eq!(Hotkey::parse("K"), Err(HotkeyError::NoModifier));
        assert!(matches!(Hotkey::parse("Ctrl+K+J"), Err(HotkeyError::Unknown { .. })));
        assert!(matches!(Hotkey::parse("Ctrl+Shift"), Err(HotkeyError::Unknown { .. })));
        assert!(matches!(Hotkey::parse("Ctrl+F13"), Err(HotkeyError::Unknown { .. })));
        assert!(matches!(Hotkey::parse("Hyper+ñ"), Err(HotkeyError::Unknown { .. })));
    }
}
