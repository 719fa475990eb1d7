//! A fresh core in one call, as ripgrep's `rgtest!` and helix's test helpers give a
//! fresh searcher or editor: a temporary data folder, a scripted model when the test
//! has one, settings on top and the clock it asks for.
//!
//! ```ignore
//! let core = support::core().answered_by(&server).settings("[llm]\nmax_retries = 0\n").open().await;
//! core.send("hola").await.unwrap();
//! ```

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use sidecar::{Companion, CompanionOptions};
use sidecar_domain::Clock;
use sidecar_settings::Settings;

use super::ScriptedServer;

/// A core and the folder it keeps its data in (removed when the test ends).
pub(crate) struct TestCore {
    pub core: Arc<Companion>,
    pub dir: tempfile::TempDir,
}

impl Deref for TestCore {
    type Target = Arc<Companion>;

    fn deref(&self) -> &Arc<Companion> {
        &self.core
    }
}

/// A change to the settings once they are read (a value settings.toml cannot say, or
/// one a test computes).
type Edit = Box<dyn FnOnce(&mut Settings) + Send>;

/// How the core is opened; [`core`] starts one with nothing configured.
#[derive(Default)]
pub(crate) struct CoreBuilder {
    settings: String,
    /// Settings read from this file, which the core also writes to (as the app does).
    file: Option<PathBuf>,
    /// The file Settings' changes are written to, when the settings are the test's text.
    config_path: Option<PathBuf>,
    edits: Vec<Edit>,
    clock: Option<Clock>,
    channel: Option<sidecar_proactive::Channel>,
    secrets: Option<Arc<sidecar_domain::Secrets>>,
    computer: Option<Arc<dyn sidecar_computer::Computer>>,
}

/// A core with no provider (the offline model's place), the system clock and default
/// settings, until the builder says otherwise.
pub(crate) fn core() -> CoreBuilder {
    CoreBuilder::default()
}

impl CoreBuilder {
    /// The scripted model answers, as the provider `p` with the model `m`.
    pub(crate) fn answered_by(self, server: &ScriptedServer) -> Self {
        self.provider("p", &server.base_url)
    }

    /// A provider `id` at `base_url` with the model `m`.
    pub(crate) fn provider(self, id: &str, base_url: &str) -> Self {
        self.settings(&format!("[[providers]]\nid = \"{id}\"\nbase_url = \"{base_url}\"\nmodel = \"m\"\n"))
    }

    /// More of settings.toml (each table said once in all).
    pub(crate) fn settings(mut self, toml: &str) -> Self {
        self.settings.push_str(toml);
        if !self.settings.ends_with('\n') {
            self.settings.push('\n');
        }
        self
    }

    /// The settings in `path` (loaded as the app loads them), which the core also writes
    /// to when Settings changes something.
    pub(crate) fn config_file(mut self, path: &Path) -> Self {
        self.file = Some(path.to_path_buf());
        self
    }

    /// Settings' changes are written to `path`; the settings are the test's own.
    pub(crate) fn writes_to(mut self, path: &Path) -> Self {
        self.config_path = Some(path.to_path_buf());
        self
    }

    /// Changes the settings once they are read.
    pub(crate) fn edit(mut self, edit: impl FnOnce(&mut Settings) + Send + 'static) -> Self {
        self.edits.push(Box::new(edit));
        self
    }

    /// The offline runtime beside the core, and the light embedder (see
    /// [`super::LIGHT_EMBEDDER`]).
    pub(crate) fn offline(self) -> Self {
        self.with_runtime().edit(super::light_embedder)
    }

    /// The offline runtime beside the core (its embedder the one settings choose).
    pub(crate) fn with_runtime(self) -> Self {
        self.edit(|settings| settings.local_model.runtime = Some(super::runtime()))
    }

    /// The clock stands still at `now`.
    pub(crate) fn at(self, now: DateTime<Utc>) -> Self {
        self.clock(sidecar_domain::fixed_clock(now))
    }

    pub(crate) fn clock(mut self, clock: Clock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Where this core's user talks from (the desktop unless said).
    pub(crate) fn channel(mut self, channel: sidecar_proactive::Channel) -> Self {
        self.channel = Some(channel);
        self
    }

    /// The computer's idle time and battery, as a test sets them.
    pub(crate) fn computer(mut self, computer: Arc<dyn sidecar_computer::Computer>) -> Self {
        self.computer = Some(computer);
        self
    }

    pub(crate) fn secrets(mut self, secrets: Arc<sidecar_domain::Secrets>) -> Self {
        self.secrets = Some(secrets);
        self
    }

    /// Opens the core in a new temporary folder.
    pub(crate) async fn open(self) -> TestCore {
        let dir = tempfile::tempdir().expect("a temporary folder");
        TestCore { core: self.open_in(dir.path()).await, dir }
    }

    /// Opens the core on `dir` (a test that reopens the same data, or keeps its own).
    pub(crate) async fn open_in(self, dir: &Path) -> Arc<Companion> {
        self.try_open_in(dir).await.expect("the core opens")
    }

    /// Opens the core on `dir`, or says why it would not.
    pub(crate) async fn try_open_in(self, dir: &Path) -> Result<Arc<Companion>, sidecar::CompanionError> {
        let mut settings = match &self.file {
            Some(file) => Settings::load(file).unwrap_or_else(|e| panic!("the test's settings file does not read: {e}")),
            None => toml::from_str(&self.settings).unwrap_or_else(|e| panic!("the test's settings do not read: {e}\n{}", self.settings)),
        };
        for edit in self.edits {
            edit(&mut settings);
        }
        let mut options = CompanionOptions::new(dir.to_path_buf(), settings);
        options.config_path = self.file.or(self.config_path);
        if let Some(clock) = self.clock {
            options.clock = clock;
        }
        if let Some(channel) = self.channel {
            options.channel = channel;
        }
        if let Some(secrets) = self.secrets {
            options.secrets = secrets;
        }
        if let Some(computer) = self.computer {
            options.computer = computer;
        }
        Companion::open(options).await
    }
}
