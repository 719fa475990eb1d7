//! The models folder (`DATA/models`): the GGUF files downloaded or imported, and
//! the `.part` files of downloads that were paused or cut and can resume.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::gguf::{read_info, GgufError};

/// Suffix of a download in progress.
pub(crate) const PART: &str = "part";

/// A model file ready to run.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct InstalledModel {
    /// The file name without `.gguf`: what `sidecar models use NAME` takes.
    pub name: String,
    pub path: PathBuf,
    pub size_bytes: u64,
    /// The window the model was trained for, from its header.
    pub context_tokens: Option<u32>,
    /// It carries a chat template (tool calling and roles work with llama.cpp).
    pub chat_template: bool,
}

/// A download that stopped before the end and can resume.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct PartialModel {
    pub file: String,
    pub received_bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("there is no model called \"{0}\" in the models folder; `sidecar models list` shows them")]
    Unknown(String),
    #[error("a model called \"{0}\" is already in the models folder")]
    Exists(String),
    #[error(transparent)]
    NotAModel(#[from] GgufError),
    #[error("cannot use the models folder {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

#[derive(Debug, Clone)]
pub struct ModelLibrary {
    dir: PathBuf,
}

impl ModelLibrary {
    pub fn new(data_dir: &Path) -> Self {
        Self { dir: data_dir.join("models") }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn io(&self, source: std::io::Error) -> LibraryError {
        LibraryError::Io { path: self.dir.display().to_string(), source }
    }

    /// The models, by name. A file whose header cannot be read is left out (it is
    /// not a model llama.cpp could load).
    pub fn installed(&self) -> Vec<InstalledModel> {
        let mut models: Vec<InstalledModel> = self
            .files("gguf")
            .into_iter()
            .filter_map(|path| {
                let info = read_info(&path).inspect_err(|error| tracing::warn!(%error, "skipping an unreadable model file")).ok()?;
                Some(InstalledModel {
                    name: path.file_stem()?.to_string_lossy().into_owned(),
                    size_bytes: path.metadata().map(|m| m.len()).unwrap_or(0),
                    context_tokens: info.context_length,
                    chat_template: info.has_chat_template,
                    path,
                })
            })
            .collect();
        models.sort_by_key(|a| a.name.to_lowercase());
        models
    }

    /// Downloads that can resume.
    pub fn partials(&self) -> Vec<PartialModel> {
        self.files(PART)
            .into_iter()
            .filter_map(|path| {
                Some(PartialModel { file: path.file_stem()?.to_string_lossy().into_owned(), received_bytes: path.metadata().map(|m| m.len()).unwrap_or(0) })
            })
            .collect()
    }

    fn files(&self, extension: &str) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file() && p.extension().is_some_and(|x| x == extension)).collect()
    }

    /// The model called `name` (with or without `.gguf`).
    pub(crate) fn find(&self, name: &str) -> Result<InstalledModel, LibraryError> {
        let wanted = name.trim().trim_end_matches(".gguf");
        self.installed().into_iter().find(|m| m.name == wanted).ok_or_else(|| LibraryError::Unknown(name.to_string()))
    }

    /// Where a download of `file` goes once complete, and while in progress.
    pub(crate) fn destination(&self, file: &str) -> (PathBuf, PathBuf) {
        (self.dir.join(file), self.dir.join(format!("{file}.{PART}")))
    }

    /// Copies a `.gguf` from disk into the folder, checking first that it is one.
    pub(crate) fn import(&self, source: &Path) -> Result<InstalledModel, LibraryError> {
        read_info(source)?;
        let file = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let file = if file.ends_with(".gguf") { file } else { format!("{file}.gguf") };
        let (target, part) = self.destination(&file);
        if target.exists() {
            return Err(LibraryError::Exists(file.trim_end_matches(".gguf").to_string()));
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| self.io(e))?;
        // Copied under the part name so an interrupted copy is never taken for a model.
        std::fs::copy(source, &part).map_err(|e| self.io(e))?;
        std::fs::rename(&part, &target).map_err(|e| self.io(e))?;
        self.find(&file)
    }

    /// Deletes the model called `name`, and any unfinished download of it.
    pub(crate) fn remove(&self, name: &str) -> Result<InstalledModel, LibraryError> {
        let model = self.find(name)?;
        std::fs::remove_file(&model.path).map_err(|e| self.io(e))?;
        Ok(model)
    }

    /// Deletes an unfinished download.
    pub(crate) fn discard_partial(&self, file: &str) -> Result<(), LibraryError> {
        let (_, part) = self.destination(file);
        match std::fs::remove_file(part) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(self.io(e)),
            _ => Ok(()),
        }
    }
}

impl sidecar_domain::Worded for LibraryError {
    fn spanish(&self) -> String {
        match self {
            LibraryError::Unknown(name) => format!("no hay ningún modelo llamado «{name}» en la carpeta de modelos; `sidecar models list` los muestra"),
            LibraryError::Exists(name) => format!("ya hay un modelo llamado «{name}» en la carpeta de modelos"),
            LibraryError::NotAModel(e) => e.spanish(),
            LibraryError::Io { path, source } => format!("no se puede usar la carpeta de modelos {path}: {source}"),
        }
    }
}
