//! Reading an exported history (JSON lines: `role`, `content`, optional `timestamp` and
//! `id`) for `sidecar import`. Every line is checked before anything is stored: a line
//! that is not UTF-8, not JSON, of another role, or with a time that is not a real
//! past instant is skipped and reported with its line number; the rest is imported.
//! A time written with no offset ("2023-10-22T09:55:00", as most exports write it) is
//! read in the user's zone, and the import says so once.

use chrono::{DateTime, NaiveDateTime, Utc};
use chrono_tz::Tz;

use sidecar_llm::Role;

use crate::problem::ImportProblem;

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

/// What a file held.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HistoryFile {
    pub lines: Vec<ImportedLine>,
    /// Lines skipped, by number (1-based), and why.
    pub problems: Vec<(usize, ImportProblem)>,
    /// Lines whose time had no offset and was read in the user's zone.
    pub local_times: usize,
}

/// The lines of `bytes` worth importing, and the problems by line number; times
/// without an offset are read in `zone`.
pub fn read(bytes: &[u8], now: DateTime<Utc>, zone: Tz) -> HistoryFile {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let (mut lines, mut problems, mut local_times) = (Vec::new(), Vec::new(), 0);
    for (index, piece) in bytes.split(|b| *b == b'\n').enumerate() {
        let number = index + 1;
        let text = match std::str::from_utf8(piece) {
            Ok(text) => text,
            Err(e) => {
                let column = String::from_utf8_lossy(&piece[..e.valid_up_to()]).chars().count() + 1;
                problems.push((number, ImportProblem::NotUtf8 { byte: piece[e.valid_up_to()], column }));
                continue;
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        match line(text, now, zone) {
            Ok((line, local)) => {
                local_times += usize::from(local);
                lines.push(line);
            }
            Err(problem) => problems.push((number, problem)),
        }
    }
    HistoryFile { lines, problems, local_times }
}

/// A line, and whether its time was read in the user's zone.
fn line(text: &str, now: DateTime<Utc>, zone: Tz) -> Result<(ImportedLine, bool), ImportProblem> {
    let raw: Raw = serde_json::from_str(text).map_err(|e| ImportProblem::NotJson(e.to_string()))?;
    if !matches!(raw.role, Role::User | Role::Assistant | Role::System) {
        return Err(ImportProblem::Role);
    }
    let (timestamp, local) = match raw.timestamp.as_deref() {
        Some(t) => instant(t, now, zone).map(|(at, local)| (Some(at), local))?,
        None => (None, false),
    };
    let external_id = raw.id.map(|id| id.as_str().map(str::to_string).unwrap_or_else(|| id.to_string()));
    Ok((ImportedLine { role: raw.role, content: raw.content, timestamp, external_id }, local))
}

/// A time from an export is believed from 1970 to now (a message cannot be said in the
/// future; a day of slack covers clocks that disagree).
pub(crate) fn believable(at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    at.timestamp() >= 0 && at <= now + chrono::Duration::days(1)
}

/// Date-times without an offset that exports write.
const LOCAL_FORMATS: [&str; 4] = ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"];

/// A believable instant: RFC 3339, or a local time read in `zone` (then true), where a
/// time the clocks skip moves on by the gap and one they repeat is the first.
fn instant(text: &str, now: DateTime<Utc>, zone: Tz) -> Result<(DateTime<Utc>, bool), ImportProblem> {
    let trimmed = text.trim();
    let unreadable = || ImportProblem::UnreadableTime(text.to_string());
    let (at, local) = match DateTime::parse_from_rfc3339(trimmed) {
        Ok(at) => (at.with_timezone(&Utc), false),
        Err(_) => {
            let naive = LOCAL_FORMATS.iter().find_map(|f| NaiveDateTime::parse_from_str(trimmed, f).ok()).ok_or_else(unreadable)?;
            (sidecar_dates::instant(naive.date(), naive.time(), zone, sidecar_domain::Lang::En).0, true)
        }
    };
    if !believable(at, now) {
        return Err(ImportProblem::TimeOutOfRange(text.to_string()));
    }
    Ok((at, local))
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
        let HistoryFile { lines, problems, local_times } = read(&file, now, chrono_tz::UTC);
        assert_eq!((lines.len(), local_times), (1, 0));
        assert_eq!(lines[0].timestamp, Some(Utc.with_ymd_and_hms(2026, 11, 20, 9, 0, 0).unwrap()));
        assert_eq!(lines[0].external_id.as_deref(), Some("7"));
        let numbers: Vec<usize> = problems.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [2, 3, 5, 6]);
        assert!(problems[0].1.to_string().contains("byte 0xE9 at column 30"), "{}", problems[0].1);
        assert!(problems[1].1.to_string().contains("yesterday-ish"));
        assert!(problems[2].1.to_string().contains("between 1970 and now"));
    }

    #[test]
    fn a_time_without_an_offset_is_read_in_the_users_zone() {
        let now = Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap();
        let file = b"{\"role\":\"user\",\"content\":\"hola\",\"timestamp\":\"2023-10-22T09:55:00\"}\n\
{\"role\":\"assistant\",\"content\":\"hi\",\"timestamp\":\"2023-10-22 09:56:30.250\"}\n\
{\"role\":\"user\",\"content\":\"z\",\"timestamp\":\"2023-10-22T09:57:00Z\"}\n";
        let read = read(file, now, chrono_tz::Europe::Madrid);
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        assert_eq!(read.local_times, 2);
        // Madrid was on summer time (UTC+2) that day.
        assert_eq!(read.lines[0].timestamp, Some(Utc.with_ymd_and_hms(2023, 10, 22, 7, 55, 0).unwrap()));
        assert_eq!(read.lines[2].timestamp, Some(Utc.with_ymd_and_hms(2023, 10, 22, 9, 57, 0).unwrap()));
    }
}
