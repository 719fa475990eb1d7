//! Settings → Notes: which folder the note tools work in, kept in settings.toml, and
//! the tools offered again when it changes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use serde::Serialize;

use super::folder::{NotesError, NotesFolder};
use sidecar_settings::Change;
use sidecar_settings::SettingsOwner;
use sidecar_tools::ToolBoard;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct NotesView {
    pub folder: Option<PathBuf>,
    /// The folder in settings that could not be opened, and why.
    pub problem: Option<String>,
}

pub struct NotesSetup {
    folder: RwLock<Option<Arc<NotesFolder>>>,
    problem: RwLock<Option<String>>,
    owner: Arc<SettingsOwner>,
    board: Arc<ToolBoard>,
}

impl NotesSetup {
    pub fn new(configured: Option<&Path>, owner: Arc<SettingsOwner>, board: Arc<ToolBoard>) -> Self {
        let setup = Self { folder: RwLock::default(), problem: RwLock::default(), owner, board };
        if let Some(path) = configured {
            if let Err(error) = setup.open(path) {
                tracing::warn!(%error, "the notes folder is not usable");
                *setup.problem.write().expect("problem lock") = Some(error.to_string());
            }
        }
        setup
    }

    pub fn view(&self) -> NotesView {
        NotesView {
            folder: self.folder.read().expect("folder lock").as_ref().map(|f| f.root().to_path_buf()),
            problem: self.problem.read().expect("problem lock").clone(),
        }
    }

    /// Uses `path` from now on (`None`: no notes folder) and saves the choice.
    pub fn choose(&self, path: Option<&Path>) -> Result<NotesView, NotesError> {
        match path {
            Some(path) => self.open(path)?,
            None => {
                *self.folder.write().expect("folder lock") = None;
                self.board.set("notes", Vec::new());
            }
        }
        *self.problem.write().expect("problem lock") = None;
        self.owner.change(Change::NotesFolder(self.view().folder)).map_err(|e| NotesError::Io(e.to_string()))?;
        Ok(self.view())
    }

    fn open(&self, path: &Path) -> Result<(), NotesError> {
        let folder = Arc::new(NotesFolder::open(path)?);
        self.board.set("notes", super::tools::tools(folder.clone()));
        *self.folder.write().expect("folder lock") = Some(folder);
        Ok(())
    }
}
