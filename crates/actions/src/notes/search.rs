//! Searching the notes folder by words, within bounds: a search may run without asking
//! (it only reads), so what it reads is capped per note and in total. Notes are read a
//! line at a time, never whole; a note over the cap, or the notes left when the total
//! is spent, are skipped and named in the answer, so the model can say what it did not
//! look at.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::folder::{is_note, NotesError, NotesFolder, MAX_NOTE_BYTES};

/// The most one search reads, over all notes.
pub(crate) const SEARCH_TOTAL_BYTES: u64 = 32 * 1024 * 1024;
/// A plain scan stops after this many files (a vault larger than this wants the index).
const SCAN_LIMIT: usize = 5_000;
/// How many skipped notes are named; the rest are counted.
const NAMED_SKIPS: usize = 10;
/// Matching lines kept per note, and the characters kept of each.
const LINES_SHOWN: usize = 3;
const LINE_CHARS: usize = 300;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Found {
    pub path: String,
    /// The matching lines, trimmed.
    pub lines: Vec<String>,
}

/// A note the search did not read, and why.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(rename = "NoteSkipped")]
pub struct Skipped {
    pub path: String,
    pub why: String,
}

/// What a search found, and what it left unread.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Searched {
    pub found: Vec<Found>,
    /// Notes over the per-note cap (the first few, by path).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
    /// Notes not read at all because the search's total was spent or the scan was too
    /// long, plus skipped ones beyond those named.
    #[serde(skip_serializing_if = "is_zero")]
    pub not_searched: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Notes in `folder` whose text holds every word of `query` (any case), best first.
pub fn search(folder: &NotesFolder, query: &str, limit: usize) -> Result<Searched, NotesError> {
    let shown = |path: &Path| folder.shown(path);
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let mut searched = Searched::default();
    if words.is_empty() {
        return Ok(searched);
    }
    let mut ranked = Vec::new();
    let (mut spent, mut scanned) = (0u64, 0usize);
    for (path, bytes) in notes_under(folder.root())? {
        scanned += 1;
        if scanned > SCAN_LIMIT || spent + bytes.min(MAX_NOTE_BYTES) > SEARCH_TOTAL_BYTES {
            searched.not_searched += 1;
            continue;
        }
        if bytes > MAX_NOTE_BYTES {
            skip(&mut searched, shown(&path), "larger than 2 MB; open it in an editor");
            continue;
        }
        let Ok(file) = std::fs::File::open(&path) else { continue };
        spent += bytes;
        let name = shown(&path);
        if let Some((hits, lines)) = matches(file, &words, &name.to_lowercase()) {
            ranked.push((hits, Found { path: name, lines }));
        }
    }
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.path.cmp(&b.1.path)));
    searched.found = ranked.into_iter().take(limit).map(|(_, f)| f).collect();
    Ok(searched)
}

fn skip(searched: &mut Searched, path: String, why: &str) {
    if searched.skipped.len() < NAMED_SKIPS {
        searched.skipped.push(Skipped { path, why: why.to_string() });
    } else {
        searched.not_searched += 1;
    }
}

/// Every note below `root` with its size, by path: hidden entries, links and anything
/// that is not a regular file (a pipe would block the read) are left out.
fn notes_under(root: &Path) -> Result<Vec<(PathBuf, u64)>, NotesError> {
    let mut notes = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| NotesError::Io(e.to_string()))?;
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            if entry.file_name().to_string_lossy().starts_with('.') || kind.is_symlink() {
                continue;
            }
            let path = entry.path();
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file() && is_note(&path) {
                let bytes = entry.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
                notes.push((path, bytes));
            }
        }
    }
    notes.sort();
    Ok(notes)
}

/// Reads a note a line at a time (at most [`MAX_NOTE_BYTES`], even if it grew since it
/// was listed): the number of times the words occur and the first matching lines, or
/// `None` when a word is missing from both the text and the note's name.
fn matches(file: std::fs::File, words: &[String], name: &str) -> Option<(usize, Vec<String>)> {
    let mut reader = BufReader::new(file.take(MAX_NOTE_BYTES));
    let mut seen = vec![false; words.len()];
    let (mut hits, mut lines, mut buffer) = (0usize, Vec::new(), Vec::new());
    loop {
        buffer.clear();
        match reader.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buffer);
        let lower = line.to_lowercase();
        let mut matched = false;
        for (word, seen) in words.iter().zip(seen.iter_mut()) {
            let count = lower.matches(word.as_str()).count();
            if count > 0 {
                (hits, *seen, matched) = (hits + count, true, true);
            }
        }
        if matched && lines.len() < LINES_SHOWN {
            lines.push(line.trim().chars().take(LINE_CHARS).collect());
        }
    }
    let all = words.iter().zip(&seen).all(|(word, seen)| *seen || name.contains(word.as_str()));
    all.then_some((hits, lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_must_be_in_the_text_or_the_name_and_more_hits_rank_first() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("cello.md"), "Lessons on Thursday\n").unwrap();
        std::fs::write(dir.path().join("b.md"), "cello lessons, cello strings\nThursday\n").unwrap();
        std::fs::write(dir.path().join("c.md"), "only thursday\n").unwrap();
        let found = search(&NotesFolder::open(dir.path()).unwrap(), "Cello thursday", 10).unwrap();
        let paths: Vec<_> = found.found.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["b.md", "cello.md"]);
        assert_eq!(found.found[0].lines, ["cello lessons, cello strings", "Thursday"]);
        assert!(found.skipped.is_empty() && found.not_searched == 0);
    }

    #[test]
    fn a_note_over_the_cap_is_skipped_and_named_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let big = std::fs::File::create(dir.path().join("huge.md")).unwrap();
        big.set_len(MAX_NOTE_BYTES + 1).unwrap(); // sparse: nothing is written
        std::fs::write(dir.path().join("small.md"), "the word\n").unwrap();
        let found = search(&NotesFolder::open(dir.path()).unwrap(), "word", 10).unwrap();
        assert_eq!(found.found.len(), 1);
        assert_eq!(found.skipped, [Skipped { path: "huge.md".into(), why: "larger than 2 MB; open it in an editor".into() }]);
    }
}
