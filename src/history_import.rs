//! Reading an exported history (JSON lines: `role`, `content`, optional `timestamp` and
//! `id`) for `sidecar import`. Every line is checked before anything is stored: a line
//! that is not UTF-8, not JSON, of another role, or with a time that is not a real
//! past instant is skipped and reported with its line number; the rest is imported.

use chrono::{DateTime, Utc};

use crate::llm::Role;

/// One message ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedLine {
    pub role: Role,
    pub content: String,
    /// When it was said, in the store's form; `None` means now.
    pub timestamp: Option<DateTime<Utc>>,
    pub external_id: Option<String>,
}

#[derive(serde::Deserialize)]
struct Raw {
    role: Role,
    content: String,
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(default)]
    id: Option<serde_json::Value>,
}

/// The lines of `bytes` worth importing, and the problems by line number (1-based).
pub fn read(bytes: &[u8], now: DateTime<Utc>) -> (Vec<ImportedLine>, Vec<(usize, String)>) {
    let (mut lines, mut problems) = (Vec::new(), Vec::new());
    for (index, piece) in bytes.split(|b| *b == b'\n').enumerate() {
        let number = index + 1;
        let text = match std::str::from_utf8(piece) {
            Ok(text) => text,
            Err(e) => {
                let column = String::from_utf8_lossy(&piece[..e.valid_up_to()]).chars().count() + 1;
                problems.push((number, format!("not UTF-8 text: byte 0x{:02X} at column {column}", piece[e.valid_up_to()])));
                continue;
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        match line(text, now) {
            Ok(line) => lines.push(line),
            Err(problem) => problems.push((number, problem)),
        }
    }
    (lines, problems)
}

fn line(text: &str, now: DateTime<Utc>) -> Result<ImportedLine, String> {
    let raw: Raw = serde_json::from_str(text).map_err(|e| e.to_string())?;
    if !matches!(raw.role, Role::User | Role::Assistant | Role::System) {
        return Err("role must be user, assistant or system".into());
    }
    let timestamp = raw.timestamp.as_deref().map(|t| instant(t, now)).transpose()?;
    let external_id = raw.id.map(|id| id.as_str().map(str::to_string).unwrap_or_else(|| id.to_string()));
    Ok(ImportedLine { role: raw.role, content: raw.content, timestamp, external_id })
}

/// An RFC 3339 instant from 1970 up to now (a message cannot be said in the future; a
/// day of slack covers clocks that disagree).
fn instant(text: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
    let at = DateTime::parse_from_rfc3339(text.trim())
        .map_err(|_| format!("timestamp \"{text}\" is not a time like 2026-11-20T10:00:00Z"))?
        .with_timezone(&Utc);
    if at.timestamp() < 0 || at > now + chrono::Duration::days(1) {
        return Err(format!("timestamp \"{text}\" is not between 1970 and now"));
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn bad_bytes_and_bad_times_are_reported_by_line_and_the_rest_kept() {
        let now = Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap();
        let mut file = Vec::new();
        file.extend_from_slice(b"{\"role\":\"user\",\"content\":\"hola\",\"timestamp\":\"2026-11-20T10:00:00+01:00\",\"id\":7}\n");
        file.extend_from_slice(b"{\"role\":\"user\",\"content\":\"caf\xe9\"}\n");
        file.extend_from_slice(b"{\"role\":\"assistant\",\"content\":\"x\",\"timestamp\":\"yesterday-ish\"}\n");
        file.extend_from_slice(b"\n{\"role\":\"assistant\",\"content\":\"y\",\"timestamp\":\"9999-12-31T23:59:59Z\"}\n");
        file.extend_from_slice(b"{\"role\":\"tool\",\"content\":\"z\"}\n");
        let (lines, problems) = read(&file, now);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].timestamp, Some(Utc.with_ymd_and_hms(2026, 11, 20, 9, 0, 0).unwrap()));
        assert_eq!(lines[0].external_id.as_deref(), Some("7"));
        let numbers: Vec<usize> = problems.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [2, 3, 5, 6]);
        assert!(problems[0].1.contains("byte 0xE9 at column 30"), "{}", problems[0].1);
        assert!(problems[1].1.contains("yesterday-ish"));
        assert!(problems[2].1.contains("between 1970 and now"));
    }
}
