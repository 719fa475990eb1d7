//! Updates: Settings → About's version, a look for a newer one (on demand, and daily when
//! the user allows it), what changed, and an install only after the user asks for it.
//!
//! The fetching, signature check and install are the shell's [`source::UpdateSource`]
//! (Tauri's updater plugin); this service keeps the rules and the state the window shows,
//! publishing each change as [`UpdateEvent::Update`].

pub(crate) mod events;
pub(crate) mod record;
pub(crate) mod rules;
pub(crate) mod source;
pub(crate) mod view;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use crate::updates::events::UpdateEvent;
use sidecar_domain::Clock;
use sidecar_domain::Emitter;
use sidecar_domain::Lang;
use sidecar_domain::Refused;
use sidecar_domain::Worded;
use sidecar_settings::Change;
use sidecar_settings::SettingsFileError;
use sidecar_settings::SettingsOwner;
use sidecar_settings::UpdateSettings;
use source::{PackageFormat, UpdateSource};
pub use view::{UpdateState, UpdatesView};

/// The version this program is.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The release channel a build was made for (`SIDECAR_UPDATE_ADDRESS` when it was
/// compiled; `make package` passes it on). A build from source has none.
pub const BUILT_ADDRESS: Option<&str> = option_env!("SIDECAR_UPDATE_ADDRESS");

/// How often the daily look wakes to see whether it is due.
pub(crate) const WAKE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

pub struct Updates {
    /// Holds `[updates]` as the file reads, and writes its changes.
    owner: Arc<SettingsOwner>,
    record_path: PathBuf,
    /// The last look, read from `record_path` once and kept in step with it.
    last_looked: Mutex<Option<chrono::DateTime<chrono::Utc>>>,
    clock: Clock,
    events: Emitter<UpdateEvent>,
    lang: Lang,
    /// The shell's updater and how this copy was installed; none in the CLI.
    source: OnceLock<(Arc<dyn UpdateSource>, Option<PackageFormat>)>,
    state: Mutex<UpdateState>,
    /// One look or install at a time.
    working: tokio::sync::Mutex<()>,
}

impl Updates {
    pub fn new(owner: Arc<SettingsOwner>, data_dir: &std::path::Path, clock: Clock, events: Emitter<UpdateEvent>, lang: Lang) -> Self {
        let record_path = record::path_in(data_dir);
        Self {
            owner,
            last_looked: Mutex::new(record::read(&record_path).last_looked),
            record_path,
            clock,
            events,
            lang,
            source: OnceLock::new(),
            state: Mutex::new(UpdateState::Idle),
            working: tokio::sync::Mutex::new(()),
        }
    }

    /// The shell's updater, and the package format it found this copy in.
    pub fn attach(&self, source: Arc<dyn UpdateSource>, format: Option<PackageFormat>) {
        let _ = self.source.set((source, format));
    }

    pub fn view(&self) -> UpdatesView {
        let settings = self.settings();
        UpdatesView {
            version: VERSION,
            format: self.format(),
            cannot: self.cannot(&settings),
            address: address_in_use(&settings),
            own_address: settings.address.is_some(),
            built_address: BUILT_ADDRESS.is_some(),
            own_key: settings.public_key.is_some(),
            daily: settings.daily,
            last_looked: *self.last_looked.lock().expect("updates lock"),
            state: self.state.lock().expect("updates lock").clone(),
        }
    }

    /// `[updates]` as the owner holds it.
    fn settings(&self) -> UpdateSettings {
        self.owner.current().updates.clone()
    }

    fn format(&self) -> Option<PackageFormat> {
        self.source.get().and_then(|(_, format)| *format)
    }

    fn cannot(&self, settings: &UpdateSettings) -> Option<String> {
        match self.format() {
            None => Some(crate::words::built_from_source(self.lang)),
            Some(format) if !format.updates_in_place() => Some(crate::words::format_not_updated(self.lang)),
            Some(_) if address_in_use(settings).is_none() => Some(crate::words::no_address(self.lang)),
            Some(_) => None,
        }
    }

    /// Looks for a newer version now. The outcome is in the view's state.
    pub async fn look(&self) -> UpdatesView {
        let _working = self.working.lock().await;
        let settings = self.settings();
        let (Some((source, _)), None, Some(address)) = (self.source.get(), self.cannot(&settings), address_in_use(&settings)) else {
            return self.view();
        };
        self.set_state(UpdateState::Looking);
        let found = source.check(&address, settings.public_key.as_deref()).await;
        let now = self.clock.now();
        *self.last_looked.lock().expect("updates lock") = Some(now);
        if let Err(error) = record::write(&self.record_path, &record::LookRecord { last_looked: Some(now) }) {
            tracing::warn!(%error, "could not note when updates were looked for");
        }
        self.set_state(match found {
            Ok(Some(offer)) => UpdateState::Available { offer },
            Ok(None) => UpdateState::UpToDate,
            Err(failure) => {
                tracing::warn!(%failure, "looking for an update failed");
                UpdateState::Failed { message: crate::words::failure(&failure, self.lang), offer: None }
            }
        });
        self.view()
    }

    /// Downloads, verifies and installs the version the last look found; the user asked.
    pub async fn install(&self) -> Result<UpdatesView, UpdatesError> {
        let _working = self.working.lock().await;
        let offer = match &*self.state.lock().expect("updates lock") {
            UpdateState::Available { offer } | UpdateState::Failed { offer: Some(offer), .. } => offer.clone(),
            _ => return Err(UpdatesError::from(Refused(crate::words::nothing_to_install(self.lang)))),
        };
        let Some((source, _)) = self.source.get() else {
            return Err(UpdatesError::from(Refused(crate::words::built_from_source(self.lang))));
        };
        self.set_state(UpdateState::Installing { offer: offer.clone(), received: 0, total: None });
        let mut received = 0u64;
        let mut said_percent = None;
        let progress = Box::new(|chunk: u64, total: Option<u64>| {
            received += chunk;
            // A state event per percent, not per network chunk.
            let percent = total.map(|total| received * 100 / total.max(1));
            if percent != said_percent {
                said_percent = percent;
                self.set_state(UpdateState::Installing { offer: offer.clone(), received, total });
            }
        });
        let installed = source.install(progress).await;
        self.set_state(match installed {
            Ok(()) => {
                tracing::info!(version = %offer.version, "update installed");
                UpdateState::Installed { version: offer.version.clone() }
            }
            Err(failure) => {
                tracing::warn!(%failure, version = %offer.version, "the update was not installed");
                // A package refused for its signature would be refused again: nothing to retry.
                let retry = (!matches!(failure, source::UpdateFailure::BadSignature(_))).then(|| offer.clone());
                UpdateState::Failed { message: crate::words::failure(&failure, self.lang), offer: retry }
            }
        });
        Ok(self.view())
    }

    /// Allows or stops the daily look.
    pub fn set_daily(&self, daily: bool) -> Result<UpdatesView, UpdatesError> {
        self.owner.change(Change::UpdatesDaily(daily))?;
        Ok(self.view())
    }

    /// Sets the update address, or goes back to the build's with `None`.
    pub fn set_address(&self, address: Option<&str>) -> Result<UpdatesView, UpdatesError> {
        let address = match address.map(str::trim).filter(|a| !a.is_empty()) {
            Some(text) => Some(rules::check_address(text).map_err(|problem| UpdatesError::from(Refused(crate::words::bad_address(&problem, self.lang))))?),
            None => None,
        };
        self.owner.change(Change::UpdatesAddress(address))?;
        self.set_state(UpdateState::Idle);
        Ok(self.view())
    }

    /// Looks once a day while the user allows it; a newer version is announced with a
    /// notification. Runs until the process ends.
    pub async fn run_daily(self: Arc<Self>) {
        loop {
            let daily = self.settings().daily;
            let installing = matches!(*self.state.lock().expect("updates lock"), UpdateState::Installing { .. } | UpdateState::Installed { .. });
            let last_looked = *self.last_looked.lock().expect("updates lock");
            if !installing && rules::due(daily, last_looked, self.clock.now()) {
                if let UpdateState::Available { offer } = self.look().await.state {
                    let (title, body) = crate::words::found(&offer.version, self.lang);
                    self.events.publish(UpdateEvent::UpdateFound { title, body });
                }
            }
            tokio::time::sleep(WAKE_EVERY).await;
        }
    }

    fn set_state(&self, state: UpdateState) {
        *self.state.lock().expect("updates lock") = state;
        self.events.publish(UpdateEvent::Update(self.view()));
    }
}

/// Why an update could not be installed or its settings changed.
#[derive(Debug, thiserror::Error)]
pub enum UpdatesError {
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
}

impl Worded for UpdatesError {
    fn spanish(&self) -> String {
        match self {
            UpdatesError::Refused(e) => e.spanish(),
            UpdatesError::SettingsFile(e) => e.spanish(),
        }
    }
}

fn address_in_use(settings: &UpdateSettings) -> Option<String> {
    settings.address.clone().or_else(|| BUILT_ADDRESS.map(str::to_string))
}
