//! Reads and writes inside one folder, and nowhere else: `..`, absolute paths, links
//! that lead out and device files are refused before anything is touched, and the tools
//! that change notes leave hidden folders (an app's settings) alone. A new note is
//! written atomically; an append adds only its lines at the end, so a crash can cut
//! the new lines but never what was there; a note changed on disk since it was last
//! read is not overwritten.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use serde::Serialize;
use sha2::{Digest, Sha256};

/// The longest note read or changed; longer ones are refused rather than cut silently
/// (a file that size is a log or an export, not a note).
pub const MAX_NOTE_BYTES: u64 = 2 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NotesError {
    #[error("\"{0}\" is outside the notes folder; use a path inside it, like \"Projects/plan.md\"")]
    Outside(String),
    #[error("\"{0}\" does not exist in the notes folder")]
    Missing(String),
    #[error("\"{0}\" already exists; choose another name or append to it")]
    Exists(String),
    #[error("\"{0}\" is not a note (only Markdown and text files are notes)")]
    NotANote(String),
    #[error("\"{0}\" changed on disk since it was read; read it again before changing it")]
    ChangedOnDisk(String),
    #[error("\"{0}\" is larger than 2 MB; open it in an editor instead")]
    TooLarge(String),
    #[error("\"{0}\" is not a file or folder but a pipe, socket or device; Sidecar only reads notes")]
    NotAFile(String),
    #[error("\"{0}\" is in a hidden folder (like .obsidian or .trash), which holds an app's files, not notes")]
    Hidden(String),
    #[error("the notes folder could not be used: {0}")]
    Io(String),
}

fn io(error: std::io::Error) -> NotesError {
    NotesError::Io(error.to_string())
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    pub path: String,
    pub folder: bool,
    pub bytes: u64,
}

pub struct NotesFolder {
    root: PathBuf,
    /// What each note held when it was last read or written here (SHA-256).
    seen: Mutex<HashMap<PathBuf, String>>,
}

fn digest(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

pub(crate) fn is_note(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref(), Some("md" | "markdown" | "txt"))
}

impl NotesFolder {
    /// Opens a folder; `~/…` is read from the home folder, as people type it.
    pub fn open(root: &Path) -> Result<Self, NotesError> {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let root = match (root.strip_prefix("~"), home) {
            (Ok(rest), Some(home)) => home.join(rest),
            _ => root.to_path_buf(),
        };
        let root = root.canonicalize().map_err(|_| NotesError::Missing(root.display().to_string()))?;
        if !root.is_dir() {
            return Err(NotesError::NotANote(root.display().to_string()));
        }
        Ok(Self { root, seen: Mutex::default() })
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The real path of `relative`, proven to be inside the folder. The deepest part
    /// that exists is resolved (links included) and must stay inside; what does not
    /// exist yet can only be plain names below it.
    pub(crate) fn resolve(&self, relative: &str) -> Result<PathBuf, NotesError> {
        let outside = || NotesError::Outside(relative.to_string());
        let given = Path::new(relative.trim());
        if given.as_os_str().is_empty() {
            return Ok(self.root.clone());
        }
        if given.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
            return Err(outside());
        }
        let mut existing = self.root.clone();
        let mut rest = Vec::new();
        for part in given.components() {
            let next = existing.join(part);
            if rest.is_empty() && std::fs::symlink_metadata(&next).is_ok() {
                existing = next.canonicalize().map_err(|_| outside())?;
                if !existing.starts_with(&self.root) {
                    return Err(outside());
                }
            } else {
                rest.push(part);
            }
        }
        if let Ok(meta) = std::fs::metadata(&existing) {
            if !meta.is_file() && !meta.is_dir() {
                return Err(NotesError::NotAFile(relative.to_string()));
            }
        }
        Ok(rest.into_iter().fold(existing, |path, part| path.join(part)))
    }

    /// A path as the user sees it: relative to the folder.
    pub(crate) fn shown(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).unwrap_or(path).to_string_lossy().into_owned()
    }

    pub fn list(&self, relative: &str) -> Result<Vec<Entry>, NotesError> {
        let dir = self.resolve(relative)?;
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|_| NotesError::Missing(relative.to_string()))? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            // Obsidian's settings and the trash of other apps are not notes.
            if name.starts_with('.') {
                continue;
            }
            let Ok(meta) = std::fs::metadata(entry.path()) else { continue };
            if meta.is_dir() || (meta.is_file() && is_note(&entry.path())) {
                entries.push(Entry { path: self.shown(&entry.path()), folder: meta.is_dir(), bytes: if meta.is_dir() { 0 } else { meta.len() } });
            }
        }
        entries.sort_by(|a, b| (!a.folder, &a.path).cmp(&(!b.folder, &b.path)));
        Ok(entries)
    }

    pub fn read(&self, relative: &str) -> Result<String, NotesError> {
        let path = self.note(relative)?;
        let meta = std::fs::metadata(&path).map_err(|_| NotesError::Missing(relative.to_string()))?;
        if meta.len() > MAX_NOTE_BYTES {
            return Err(NotesError::TooLarge(relative.to_string()));
        }
        let bytes = std::fs::read(&path).map_err(io)?;
        self.seen.lock().expect("seen lock").insert(path, digest(&bytes));
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    pub fn create(&self, relative: &str, content: &str) -> Result<String, NotesError> {
        let path = self.writable_note(relative)?;
        if path.exists() {
            return Err(NotesError::Exists(relative.to_string()));
        }
        self.write(&path, content.as_bytes())?;
        Ok(self.shown(&path))
    }

    /// Adds `content` at the end of a note, on its own lines. The note is checked
    /// against what was last read of it, then only the new bytes are written (opened for
    /// appending, synced): nothing before them is rewritten, and a note over
    /// [`MAX_NOTE_BYTES`] is refused before anything of it is read.
    pub fn append(&self, relative: &str, content: &str) -> Result<String, NotesError> {
        use std::io::{Read, Write};
        let path = self.writable_note(relative)?;
        let meta = std::fs::metadata(&path).map_err(|_| NotesError::Missing(relative.to_string()))?;
        if !meta.is_file() {
            return Err(NotesError::Missing(relative.to_string()));
        }
        if meta.len() + content.len() as u64 > MAX_NOTE_BYTES {
            return Err(NotesError::TooLarge(relative.to_string()));
        }
        let mut file = std::fs::OpenOptions::new().read(true).append(true).open(&path).map_err(io)?;
        let mut before = Vec::new();
        (&mut file).take(MAX_NOTE_BYTES + 1).read_to_end(&mut before).map_err(io)?;
        if before.len() as u64 > MAX_NOTE_BYTES {
            return Err(NotesError::TooLarge(relative.to_string()));
        }
        self.unchanged(&path, &before, relative)?;
        let mut added = Vec::with_capacity(content.len() + 2);
        if !before.is_empty() && !before.ends_with(b"\n") {
            added.push(b'\n');
        }
        added.extend_from_slice(content.as_bytes());
        if !added.ends_with(b"\n") {
            added.push(b'\n');
        }
        file.write_all(&added).and_then(|()| file.sync_data()).map_err(io)?;
        before.extend_from_slice(&added);
        self.seen.lock().expect("seen lock").insert(path.clone(), digest(&before));
        Ok(self.shown(&path))
    }

    pub fn create_folder(&self, relative: &str) -> Result<String, NotesError> {
        let path = self.visible(relative)?;
        std::fs::create_dir_all(&path).map_err(io)?;
        Ok(self.shown(&path))
    }

    /// Moves a note, or a folder of notes, inside the folder. Hidden entries (an app's
    /// settings) and files that are not notes stay where they are, and a note stays a
    /// note (its new name ends in .md or .txt too).
    pub fn rename(&self, from: &str, to: &str) -> Result<String, NotesError> {
        let (source, target) = (self.visible(from)?, self.visible(to)?);
        let meta = std::fs::symlink_metadata(&source).map_err(|_| NotesError::Missing(from.to_string()))?;
        if source == self.root {
            return Err(NotesError::Missing(from.to_string()));
        }
        if meta.is_file() && !(is_note(&source) && is_note(&target)) {
            return Err(NotesError::NotANote(if is_note(&source) { to } else { from }.to_string()));
        }
        if !meta.is_file() && !meta.is_dir() {
            return Err(NotesError::NotAFile(from.to_string()));
        }
        if target.exists() {
            return Err(NotesError::Exists(to.to_string()));
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::rename(&source, &target).map_err(io)?;
        let mut seen = self.seen.lock().expect("seen lock");
        if let Some(digest) = seen.remove(&source) {
            seen.insert(target.clone(), digest);
        }
        Ok(self.shown(&target))
    }

    /// Moves a note to the system trash, where the user can get it back.
    pub fn delete(&self, relative: &str) -> Result<String, NotesError> {
        let path = self.writable_note(relative)?;
        if !path.is_file() {
            return Err(NotesError::Missing(relative.to_string()));
        }
        trash::delete(&path).map_err(|e| NotesError::Io(format!("it could not be moved to the trash ({e}), so it was left where it is")))?;
        self.seen.lock().expect("seen lock").remove(&path);
        Ok(self.shown(&path))
    }

    /// A path inside the folder that no hidden entry leads to: what the tools change.
    fn visible(&self, relative: &str) -> Result<PathBuf, NotesError> {
        let path = self.resolve(relative)?;
        let inside = path.strip_prefix(&self.root).unwrap_or(&path);
        if inside.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.')) {
            return Err(NotesError::Hidden(relative.to_string()));
        }
        Ok(path)
    }

    fn writable_note(&self, relative: &str) -> Result<PathBuf, NotesError> {
        self.visible(relative)?;
        self.note(relative)
    }

    fn note(&self, relative: &str) -> Result<PathBuf, NotesError> {
        let path = self.resolve(relative)?;
        if !is_note(&path) {
            return Err(NotesError::NotANote(relative.to_string()));
        }
        Ok(path)
    }

    /// Refuses to change a note that differs from what was last read of it here.
    fn unchanged(&self, path: &Path, now: &[u8], relative: &str) -> Result<(), NotesError> {
        match self.seen.lock().expect("seen lock").get(path) {
            Some(known) if *known != digest(now) => Err(NotesError::ChangedOnDisk(relative.to_string())),
            _ => Ok(()),
        }
    }

    fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), NotesError> {
        sidecar_domain::write_atomically(path, bytes).map_err(io)?;
        self.seen.lock().expect("seen lock").insert(path.to_path_buf(), digest(bytes));
        Ok(())
    }
}
