//! Errors as the user reads them. Each feature words its own errors in both languages,
//! beside the error: English is the error's `Display` (thiserror), Spanish is its
//! [`Worded::spanish`], an exhaustive match, so a new variant without Spanish words does
//! not compile. The assembly's error only chooses which feature to ask.
//!
//! Text that comes from elsewhere (a server's message, the operating system's reason)
//! is quoted as it came: it is not ours to translate.

use crate::locale::Lang;

/// An error worded in English (its `Display`) and in Spanish.
pub trait Worded: std::error::Error {
    /// The same words in Spanish.
    fn spanish(&self) -> String;

    /// The error in the user's language.
    fn said_in(&self, lang: Lang) -> String {
        match lang {
            Lang::En => self.to_string(),
            Lang::Es => self.spanish(),
        }
    }
}

/// An error and its causes in one line, each said once: a layer that already quotes
/// its cause (`database error: {0}`) is not followed by that cause again.
pub fn said_once(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let said = next.to_string();
        if !text.contains(&said) {
            text = format!("{text}: {said}");
        }
        cause = next.source();
    }
    text
}

/// An error with its causes, in the user's language: the words a face shows. English
/// follows the causes ([`said_once`]); Spanish is the error's own.
pub fn said_whole<E: Worded + 'static>(error: &E, lang: Lang) -> String {
    match lang {
        Lang::En => said_once(error),
        Lang::Es => error.spanish(),
    }
}

/// A refusal worded in the user's language where it was made (a feature that holds
/// the language says it whole, as the update check does).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

impl Worded for Refused {
    fn spanish(&self) -> String {
        self.0.clone()
    }
}

/// A file Sidecar could not write, with the system's reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write {path}: {why}")]
pub struct CannotWrite {
    pub path: String,
    pub why: String,
}

impl CannotWrite {
    pub fn new(path: &std::path::Path, why: impl std::fmt::Display) -> Self {
        CannotWrite { path: path.display().to_string(), why: why.to_string() }
    }
}

impl Worded for CannotWrite {
    fn spanish(&self) -> String {
        format!("no se puede escribir {}: {}", self.path, self.why)
    }
}

/// A message, a reminder or a note with nothing in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the message is empty")]
pub struct EmptyMessage;

impl Worded for EmptyMessage {
    fn spanish(&self) -> String {
        "el mensaje está vacío".into()
    }
}

/// An address typed in a form that is not one Sidecar can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressRefusal {
    #[error("\"{text}\" is not an address; write it whole, like {example}")]
    NotAnAddress { text: String, example: &'static str },
    #[error("\"{0}\" must start with http:// or https://")]
    NotHttp(String),
}

impl AddressRefusal {
    /// `text` as a web address (`http://` or `https://`), or why it is not one.
    pub fn check_web(text: &str, example: &'static str) -> Result<url::Url, AddressRefusal> {
        let url = url::Url::parse(text).map_err(|_| AddressRefusal::NotAnAddress { text: text.to_string(), example })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(AddressRefusal::NotHttp(text.to_string()));
        }
        Ok(url)
    }
}

impl Worded for AddressRefusal {
    fn spanish(&self) -> String {
        match self {
            AddressRefusal::NotAnAddress { text, example } => format!("«{text}» no es una dirección; escríbela entera, como {example}"),
            AddressRefusal::NotHttp(text) => format!("«{text}» debe empezar por http:// o https://"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_already_quoted_is_not_repeated() {
        #[derive(Debug, thiserror::Error)]
        #[error("cannot create the data directory /data: {0}")]
        struct Outer(#[source] std::io::Error);
        let once = said_once(&Outer(std::io::Error::other("disk I/O error")));
        assert_eq!(once, "cannot create the data directory /data: disk I/O error");
    }

    #[test]
    fn an_address_is_checked_whole() {
        assert!(AddressRefusal::check_web("https://search.example.org", "x").is_ok());
        assert_eq!(AddressRefusal::check_web("ftp://x", "x").unwrap_err(), AddressRefusal::NotHttp("ftp://x".into()));
        assert!(matches!(AddressRefusal::check_web("buscador", "x"), Err(AddressRefusal::NotAnAddress { .. })));
        assert_eq!(AddressRefusal::NotHttp("ftp://x".into()).said_in(Lang::Es), "«ftp://x» debe empezar por http:// o https://");
    }
}
