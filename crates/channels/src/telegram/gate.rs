//! Who may talk to Sidecar through the bot. A paired chat's messages go to the
//! conversation; `/start CODE` with the code Settings shows pairs a new chat; anyone
//! else is told the bot is private, and nothing they write reaches the model.

use chrono::{DateTime, Duration, Utc};

/// A pairing code lives this long after it is shown.
pub(crate) const CODE_LIFETIME: Duration = Duration::minutes(10);

/// The one-time code Settings → Channels shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingCode {
    pub code: String,
    pub expires_at: DateTime<Utc>,
}

impl PairingCode {
    /// A fresh six-digit code.
    pub(crate) fn new(now: DateTime<Utc>) -> Self {
        Self { code: format!("{:06}", fastrand::u32(0..1_000_000)), expires_at: now + CODE_LIFETIME }
    }

    fn accepts(&self, given: &str, now: DateTime<Utc>) -> bool {
        now < self.expires_at && given.trim() == self.code
    }
}

/// What to do with one message from a chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A paired chat's message (commands included): the conversation takes it.
    Pass(String),
    /// `/start` with the right code: pair this chat (the code is used up).
    Pair,
    /// `/start` from a chat already paired.
    Welcome,
    /// `/start` with a wrong or expired code.
    WrongCode,
    /// A stranger: told the bot is private.
    Private,
}

/// Judges `text` from `chat`. A command addressed to the bot by name
/// (`/status@my_bot`) loses the name.
pub(crate) fn judge(text: &str, chat: i64, allowed: &[i64], code: Option<&PairingCode>, now: DateTime<Utc>) -> Verdict {
    let text = without_bot_name(text.trim());
    let paired = allowed.contains(&chat);
    if let Some(rest) = text.strip_prefix("/start").filter(|rest| rest.is_empty() || rest.starts_with(' ')) {
        return match (paired, code) {
            (true, _) => Verdict::Welcome,
            (false, Some(code)) if code.accepts(rest, now) => Verdict::Pair,
            (false, _) if rest.trim().is_empty() => Verdict::Private,
            (false, _) => Verdict::WrongCode,
        };
    }
    if paired {
        Verdict::Pass(text)
    } else {
        Verdict::Private
    }
}

fn without_bot_name(text: &str) -> String {
    match text.split_once(char::is_whitespace) {
        Some((first, rest)) if first.starts_with('/') => format!("{} {rest}", first.split('@').next().unwrap_or(first)),
        None if text.starts_with('/') => text.split('@').next().unwrap_or(text).to_string(),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        "2026-11-23T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn only_the_right_code_in_time_pairs_and_strangers_never_pass() {
        let code = PairingCode { code: "123456".into(), expires_at: now() + Duration::minutes(5) };
        assert_eq!(judge("/start 123456", 7, &[], Some(&code), now()), Verdict::Pair);
        assert_eq!(judge("/start@sidecar_bot 123456", 7, &[], Some(&code), now()), Verdict::Pair);
        assert_eq!(judge("/start 654321", 7, &[], Some(&code), now()), Verdict::WrongCode);
        assert_eq!(judge("/start 123456", 7, &[], Some(&code), now() + Duration::minutes(6)), Verdict::WrongCode);
        assert_eq!(judge("/start 123456", 7, &[], None, now()), Verdict::WrongCode);
        assert_eq!(judge("/start", 7, &[], Some(&code), now()), Verdict::Private);
        assert_eq!(judge("hola", 7, &[], Some(&code), now()), Verdict::Private);
        assert_eq!(judge("/status", 7, &[8], Some(&code), now()), Verdict::Private);
        assert_eq!(judge("/startle me", 7, &[7], None, now()), Verdict::Pass("/startle me".into()));
    }

    #[test]
    fn a_paired_chat_passes_with_bot_names_dropped() {
        assert_eq!(judge("/start", 7, &[7], None, now()), Verdict::Welcome);
        assert_eq!(judge("¿qué tengo hoy?", 7, &[7], None, now()), Verdict::Pass("¿qué tengo hoy?".into()));
        assert_eq!(judge("/status@sidecar_bot", 7, &[7], None, now()), Verdict::Pass("/status".into()));
        assert_eq!(judge("/quiet@sidecar_bot here", 7, &[7], None, now()), Verdict::Pass("/quiet here".into()));
    }
}
