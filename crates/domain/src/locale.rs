//! The user's language, from the environment. Sidecar speaks English and Spanish.

use serde::Serialize;

/// Forces the language regardless of the system locale (`en` or `es`).
pub(crate) const LANG_ENV: &str = "SIDECAR_LANG";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    En,
    Es,
}

impl Lang {
    /// Every language Sidecar speaks.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Es];

    /// From `SIDECAR_LANG`, then the POSIX locale variables in their order of
    /// precedence (`LC_ALL`, `LC_MESSAGES`, `LANG`); English when none says Spanish.
    pub fn from_env() -> Self {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    pub(crate) fn from_vars(var: impl Fn(&str) -> Option<String>) -> Self {
        [LANG_ENV, "LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|name| var(name).filter(|v| !v.is_empty() && v != "C" && v != "POSIX"))
            .next()
            .map(|value| Self::of_tag(&value))
            .unwrap_or(Lang::En)
    }

    /// Of two wordings, the one in this language.
    pub fn pick<T>(self, en: T, es: T) -> T {
        match self {
            Lang::En => en,
            Lang::Es => es,
        }
    }

    /// The language a locale or language tag names ("es_AR.UTF-8", "es-ES,es;q=0.9",
    /// "en-US"): Spanish when it says so, English otherwise.
    pub fn of_tag(tag: &str) -> Self {
        if tag.trim_start().to_ascii_lowercase().starts_with("es") {
            Lang::Es
        } else {
            Lang::En
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_fallback() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| move |n: &str| pairs.iter().find(|(k, _)| *k == n).map(|(_, v)| v.to_string());
        assert_eq!(Lang::from_vars(vars(&[("LANG", "es_AR.UTF-8")])), Lang::Es);
        assert_eq!(Lang::from_vars(vars(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "es_ES")])), Lang::En);
        assert_eq!(Lang::from_vars(vars(&[("LC_ALL", "C"), ("LANG", "es_MX")])), Lang::Es);
        assert_eq!(Lang::from_vars(vars(&[("SIDECAR_LANG", "es"), ("LANG", "en_GB")])), Lang::Es);
        assert_eq!(Lang::from_vars(vars(&[])), Lang::En);
    }
}
