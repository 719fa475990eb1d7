//! One mail's bytes to what Sidecar keeps: who wrote it, when, about what, its text
//! (plain parts, or HTML turned to text), the names of its attachments (never read),
//! all within bounds. Any charset is decoded or replaced; nothing here can fail.

use chrono::{DateTime, Utc};
use mail_parser::{MessageParser, MimeHeaders};
use serde::{Deserialize, Serialize};

/// The most of a mail's text kept (characters); the rest is said to be cut.
pub const MAX_TEXT_CHARS: usize = 20_000;
/// The most attachments named for one mail.
const MAX_NAMED: usize = 50;
/// The most text parts read for one mail (a mail of thousands of parts is a bomb).
const MAX_TEXT_PARTS: usize = 20;

/// A mail as Sidecar keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Parsed {
    pub message_id: Option<String>,
    /// The sender's address, lower case; empty when the mail names none.
    pub from_address: String,
    pub from_name: Option<String>,
    pub subject: String,
    /// From the `Date` header; the server's arrival time when it has none or nonsense.
    pub sent_at: DateTime<Utc>,
    pub text: String,
    pub attachments: Vec<String>,
    /// The text was longer than [`MAX_TEXT_CHARS`], or the mail larger than Sidecar
    /// fetches: what was cut.
    pub cut: Option<Cut>,
}

/// What of a mail was not kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub enum Cut {
    /// Fetched only its first bytes of this size (the whole is `of` bytes).
    Fetched {
        #[ts(type = "number")]
        kept: u64,
        #[ts(type = "number")]
        of: u64,
    },
    /// Its text was longer than [`MAX_TEXT_CHARS`].
    Text,
    /// More text parts than [`MAX_TEXT_PARTS`], or attachments than can be named.
    Parts,
}

/// Reads `raw` (perhaps only the first bytes of a larger mail: `size` is the whole's,
/// as the server said). `arrived` stands in for a missing or absurd `Date`.
pub fn parse(raw: &[u8], size: u64, arrived: DateTime<Utc>) -> Parsed {
    let fetched_part = (size > raw.len() as u64).then_some(Cut::Fetched { kept: raw.len() as u64, of: size });
    let Some(message) = MessageParser::default().parse(raw) else {
        // No headers at all: kept as text so the user can still see it arrived.
        let (text, cut) = bounded(String::from_utf8_lossy(raw).into_owned());
        return Parsed {
            message_id: None,
            from_address: String::new(),
            from_name: None,
            subject: String::new(),
            sent_at: arrived,
            text,
            attachments: Vec::new(),
            cut: fetched_part.or(cut),
        };
    };
    let from = message.from().and_then(|a| a.first());
    let sent_at = message
        .date()
        .and_then(|d| DateTime::from_timestamp(d.to_timestamp(), 0))
        // A date years ahead of its arrival is a sender's lie or a broken clock.
        .filter(|d| *d <= arrived + chrono::Duration::days(2))
        .unwrap_or(arrived);
    let mut parts_cut = false;
    let mut text = String::new();
    for (n, part) in message.text_bodies().enumerate() {
        if n == MAX_TEXT_PARTS {
            parts_cut = true;
            break;
        }
        let piece =
            if part.is_text_html() { part.text_contents().map(mail_parser::decoders::html::html_to_text) } else { part.text_contents().map(str::to_string) };
        if let Some(piece) = piece {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(piece.trim());
            if text.chars().count() > MAX_TEXT_CHARS {
                break;
            }
        }
    }
    if text.is_empty() {
        // "Content-Type: text" with no subtype, and other text the parser did not take
        // for a body: the first part that says it is text, as text.
        let said_text = |p: &&mail_parser::MessagePart| p.content_type().is_some_and(|c| c.ctype().eq_ignore_ascii_case("text"));
        if let Some(part) = message.parts.iter().find(said_text) {
            text = String::from_utf8_lossy(part.contents()).trim().to_string();
        }
    }
    let (text, text_cut) = bounded(text);
    let mut attachments: Vec<String> = Vec::new();
    for part in message.attachments() {
        if attachments.len() == MAX_NAMED {
            parts_cut = true;
            break;
        }
        attachments.push(part.attachment_name().map(|n| clip(n, 200)).unwrap_or_else(|| "(unnamed)".into()));
    }
    Parsed {
        message_id: message.message_id().map(|id| clip(id, 500)),
        from_address: from.and_then(|a| a.address()).map(|a| clip(&a.trim().to_lowercase(), 320)).unwrap_or_default(),
        from_name: from.and_then(|a| a.name()).map(|n| clip(n.trim(), 200)).filter(|n| !n.is_empty()),
        subject: message.subject().map(|s| clip(s.trim(), 500)).unwrap_or_default(),
        sent_at,
        text,
        attachments,
        cut: fetched_part.or(text_cut).or(parts_cut.then_some(Cut::Parts)),
    }
}

/// `text` cut to [`MAX_TEXT_CHARS`], and whether it was.
fn bounded(text: String) -> (String, Option<Cut>) {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((at, _)) => (text[..at].to_string(), Some(Cut::Text)),
        None => (text, None),
    }
}

fn clip(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        "2026-12-03T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn a_plain_mail_is_read_whole() {
        let raw = b"From: Ana Ruiz <Ana@Example.org>\r\nSubject: El piso\r\nDate: Thu, 03 Dec 2026 09:00:00 +0100\r\nMessage-ID: <1@x>\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n\xbfTe va bien el jueves a las 6?\r\n";
        let mail = parse(raw, raw.len() as u64, now());
        assert_eq!(mail.from_address, "ana@example.org");
        assert_eq!(mail.from_name.as_deref(), Some("Ana Ruiz"));
        assert_eq!(mail.subject, "El piso");
        assert_eq!(mail.text, "¿Te va bien el jueves a las 6?");
        assert_eq!(mail.sent_at, "2026-12-03T08:00:00Z".parse::<DateTime<Utc>>().unwrap());
        assert_eq!(mail.cut, None);
    }

    #[test]
    fn html_becomes_text_and_attachments_are_named_not_read() {
        let raw = "From: a@b.c\r\nSubject: x\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/html\r\n\r\n<p>Hola <b>Ana</b></p><script>alert(1)</script>\r\n--B\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"contrato.pdf\"\r\n\r\nJVBERi0=\r\n--B--\r\n";
        let mail = parse(raw.as_bytes(), raw.len() as u64, now());
        assert!(mail.text.contains("Hola") && mail.text.contains("Ana") && !mail.text.contains("<b>"), "{:?}", mail.text);
        assert_eq!(mail.attachments, vec!["contrato.pdf".to_string()]);
    }

    #[test]
    fn a_date_far_ahead_of_arrival_is_not_believed() {
        let raw = b"From: a@b.c\r\nDate: Fri, 01 Jan 2100 00:00:00 +0000\r\n\r\nhi\r\n";
        assert_eq!(parse(raw, raw.len() as u64, now()).sent_at, now());
    }

    #[test]
    fn what_was_not_kept_is_said() {
        let long = format!("From: a@b.c\r\n\r\n{}", "palabra ".repeat(5_000));
        let mail = parse(long.as_bytes(), long.len() as u64, now());
        assert_eq!((mail.text.chars().count(), mail.cut), (MAX_TEXT_CHARS, Some(Cut::Text)));
        let fetched = parse(b"From: a@b.c\r\n\r\nthe start", 200_000_000, now());
        assert_eq!(fetched.cut, Some(Cut::Fetched { kept: 24, of: 200_000_000 }));
    }
}
