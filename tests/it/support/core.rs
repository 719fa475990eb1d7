//! A fresh core in one call, as ripgrep's `rgtest!` and helix's test helpers give a
//! fresh searcher or editor: a temporary data folder, a scripted model when the test
//! has one, settings on top and the clock it asks for.
//!
//! ```ignore
//! let core = support::core().answered_by(&server).settings("[llm]\nmax_retries = 0\n").open().await;
//! core.send("hola").await.unwrap();
//! ```

use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use sidecar::{Companion, CompanionOptions};
use sidecar_domain::Clock;

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

/// How the core is opened; [`core`] starts one with nothing configured.
#[derive(Default)]
pub(crate) struct CoreBuilder {
    settings: String,
    clock: Option<Clock>,
}

/// A core with no provider (the offline model's place), the system clock and default
/// settings, until the builder says otherwise.
pub(crate) fn core() -> CoreBuilder {
    CoreBuilder::default()
}

impl CoreBuilder {
    /// The scripted model answers, as the provider `p` with the model `m`.
    pub(crate) fn answered_by(self, server: &ScriptedServer) -> Self {
        self.settings(&format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\n", server.base_url))
    }

    /// More of settings.toml (each table said once in all).
    pub(crate) fn settings(mut self, toml: &str) -> Self {
        self.settings.push_str(toml);
        if !self.settings.ends_with('\n') {
            self.settings.push('\n');
        }
        self
    }

    /// The clock stands still at `now`.
    pub(crate) fn at(self, now: DateTime<Utc>) -> Self {
        self.clock(sidecar_domain::fixed_clock(now))
    }

    pub(crate) fn clock(mut self, clock: Clock) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Opens the core in a new temporary folder.
    pub(crate) async fn open(self) -> TestCore {
        let dir = tempfile::tempdir().expect("a temporary folder");
        TestCore { core: self.open_in(dir.path()).await, dir }
    }

    /// Opens the core on `dir` (a test that reopens the same data, or keeps its own).
    pub(crate) async fn open_in(self, dir: &Path) -> Arc<Companion> {
        let settings = toml::from_str(&self.settings).unwrap_or_else(|e| panic!("the test's settings do not read: {e}\n{}", self.settings));
        let mut options = CompanionOptions::new(dir.to_path_buf(), settings);
        if let Some(clock) = self.clock {
            options.clock = clock;
        }
        Companion::open(options).await.expect("the core opens")
    }
}
