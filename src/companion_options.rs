//! What the companion is opened with: where it keeps its things, its settings, and how
//! it tells time.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sidecar_domain::Clock;
use sidecar_domain::Redactor;
use sidecar_domain::Secrets;
use sidecar_settings::Settings;
use sidecar_settings::SettingsError;

/// Where the companion keeps its things, and how it tells time.
#[derive(Clone)]
pub struct CompanionOptions {
    pub data_dir: PathBuf,
    pub settings: Settings,
    pub clock: Clock,
    /// Where provider changes are saved; `None` keeps them in memory.
    pub config_path: Option<PathBuf>,
    pub secrets: Arc<Secrets>,
    /// Where this process's user talks from (the desktop window or the CLI).
    pub channel: sidecar_proactive::Channel,
    /// The computer's idle time and battery (DT-3). [`CompanionOptions::new`] gives one
    /// that knows nothing, so nothing waits for it; [`CompanionOptions::resolve`] (the
    /// app, the CLI, the daemon) gives this computer's.
    pub computer: Arc<dyn sidecar_computer::Computer>,
}

impl std::fmt::Debug for CompanionOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompanionOptions").field("data_dir", &self.data_dir).finish_non_exhaustive()
    }
}

impl CompanionOptions {
    pub fn new(data_dir: PathBuf, settings: Settings) -> Self {
        Self {
            data_dir,
            settings,
            clock: sidecar_domain::system_clock(),
            config_path: None,
            secrets: Arc::new(Secrets::new(false)),
            channel: sidecar_proactive::Channel::Desktop,
            computer: Arc::new(sidecar_computer::FakeComputer::default()),
        }
    }

    /// Resolves the data dir and loads settings from flags, environment and defaults.
    /// Keys go to the OS keychain, and each key used is given to `redactor` (the one
    /// the face's log writer scrubs with).
    pub fn resolve(data_dir: Option<&Path>, config: Option<&Path>, redactor: Redactor) -> Result<Self, SettingsError> {
        let config_path = sidecar_domain::config_file(config);
        Ok(Self {
            config_path: Some(config_path.clone()),
            secrets: Arc::new(Secrets::from_env(redactor)),
            computer: sidecar_computer::this_computer(),
            ..Self::new(sidecar_domain::data_dir(data_dir), Settings::load(&config_path)?)
        })
    }
}
