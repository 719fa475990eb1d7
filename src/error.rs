//! The core's error as the faces see it: which feature refused or failed, composed from
//! the features' own errors. Each feature words its errors in both languages beside
//! them ([`Worded`]); this only says which to ask, and whether Retry helps.

use sidecar_agent::TurnError;
use sidecar_channels::ChannelError;
use sidecar_data::BackupError;
use sidecar_data::DataError;
use sidecar_data::OpenError;
use sidecar_dates::DateError;
use sidecar_desktop_features::LockError;
use sidecar_desktop_features::UpdatesError;
use sidecar_domain::CannotWrite;
use sidecar_domain::Refused;
use sidecar_domain::Worded;
use sidecar_llm::BudgetError;
use sidecar_llm::HubError;
use sidecar_llm::LibraryError;
use sidecar_llm::ModelUnavailable;
use sidecar_llm::ProviderRefusal;
use sidecar_llm::RouteError;
use sidecar_memory::AttachError;
use sidecar_memory::KnowledgeError;
use sidecar_memory::MeaningSetupError;
use sidecar_proactive::ProactiveError;
use sidecar_reminders::IcsError;
use sidecar_reminders::ReminderError;
use sidecar_settings::OutOfRange;
use sidecar_settings::SettingsError;
use sidecar_settings::SettingsFileError;
use sidecar_store::StoreError;
use sidecar_tools::SearchFailure;
use sidecar_tools::SearchSetupError;

pub use sidecar_domain::said_once;

#[derive(Debug, thiserror::Error)]
pub enum CompanionError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("Sidecar was updated and backs up your data before it upgrades it, but the backup failed ({0}); nothing was changed. Free some disk space and start Sidecar again")]
    UpgradeBackup(BackupError),
    #[error(transparent)]
    Unavailable(#[from] ModelUnavailable),
    #[error(transparent)]
    Route(#[from] RouteError),
    /// The turn's own refusals; what it met below it is said as that feature's error.
    #[error(transparent)]
    Turn(TurnError),
    /// Words that could not be read as a time; the text says what to say instead.
    #[error(transparent)]
    Date(#[from] DateError),
    #[error(transparent)]
    Knowledge(#[from] KnowledgeError),
    #[error(transparent)]
    Attach(#[from] AttachError),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Models(#[from] HubError),
    #[error(transparent)]
    Provider(#[from] ProviderRefusal),
    #[error(transparent)]
    Range(#[from] OutOfRange),
    #[error(transparent)]
    Budget(#[from] BudgetError),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
    #[error(transparent)]
    Calendar(#[from] IcsError),
    #[error(transparent)]
    Reminders(#[from] ReminderError),
    #[error(transparent)]
    Tasks(#[from] sidecar_tasks::TasksError),
    #[error(transparent)]
    CalDav(#[from] sidecar_calendar::CalendarError),
    #[error(transparent)]
    Mail(#[from] sidecar_mail::MailError),
    #[error(transparent)]
    Proactive(#[from] ProactiveError),
    #[error(transparent)]
    WebSearch(#[from] SearchFailure),
    #[error(transparent)]
    SearchSetup(#[from] SearchSetupError),
    #[error(transparent)]
    MeaningSetup(#[from] MeaningSetupError),
    #[error(transparent)]
    Channels(#[from] ChannelError),
    #[error(transparent)]
    Updates(#[from] UpdatesError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error(transparent)]
    Data(#[from] DataError),
    #[error(transparent)]
    CannotWrite(#[from] CannotWrite),
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Devices(#[from] crate::devices_error::DevicesError),
    #[error("\"{0}\" is not an IANA time zone (like \"Europe/Madrid\")")]
    NotAZone(String),
    #[error("\"{0}\" is not one of the voices Settings → Voice offers for that language")]
    NotAVoice(String),
}

impl From<TurnError> for CompanionError {
    /// An error the turn met in a layer below it is that layer's error to the faces.
    fn from(error: TurnError) -> Self {
        match error {
            TurnError::Unavailable(e) => e.into(),
            TurnError::Route(e) => e.into(),
            TurnError::Date(e) => e.into(),
            TurnError::Knowledge(e) => e.into(),
            TurnError::Attach(e) => e.into(),
            TurnError::Reminders(e) => e.into(),
            TurnError::Proactive(e) => e.into(),
            TurnError::CannotWrite(e) => e.into(),
            TurnError::Store(e) => e.into(),
            own => Self::Turn(own),
        }
    }
}

impl From<OpenError> for CompanionError {
    fn from(error: OpenError) -> Self {
        match error {
            OpenError::Store(e) => Self::Store(e),
            OpenError::Backup(e) => Self::UpgradeBackup(e),
        }
    }
}

impl CompanionError {
    pub fn is_retryable(&self) -> bool {
        match self {
            CompanionError::Route(e) => e.is_retryable(),
            CompanionError::Unavailable(_) => true,
            CompanionError::Turn(e) => e.is_retryable(),
            _ => false,
        }
    }

    /// A queued message the user cancelled before its turn: not a failure to show.
    pub fn is_cancelled_queue(&self) -> bool {
        matches!(self, CompanionError::Turn(TurnError::QueuedCancelled))
    }
}

impl Worded for CompanionError {
    fn spanish(&self) -> String {
        match self {
            CompanionError::Settings(e) => e.spanish(),
            CompanionError::Store(e) => e.spanish(),
            CompanionError::UpgradeBackup(e) => format!(
                "Sidecar se actualizó y hace una copia de tus datos antes de actualizarlos, pero la copia falló ({}); no se cambió nada. Libera espacio en el disco y vuelve a abrir Sidecar",
                e.spanish()
            ),
            CompanionError::Unavailable(e) => e.spanish(),
            CompanionError::Route(e) => e.spanish(),
            CompanionError::Turn(e) => e.spanish(),
            // Worded in the language of the words it could not read.
            CompanionError::Date(e) => e.to_string(),
            CompanionError::Knowledge(e) => e.spanish(),
            CompanionError::Attach(e) => e.spanish(),
            CompanionError::Library(e) => e.spanish(),
            CompanionError::Models(e) => e.spanish(),
            CompanionError::Provider(e) => e.spanish(),
            CompanionError::Range(e) => e.spanish(),
            CompanionError::Budget(e) => e.spanish(),
            CompanionError::SettingsFile(e) => e.spanish(),
            CompanionError::Calendar(e) => e.spanish(),
            CompanionError::Reminders(e) => e.spanish(),
            CompanionError::Tasks(e) => e.spanish(),
            CompanionError::CalDav(e) => e.spanish(),
            CompanionError::Mail(e) => e.spanish(),
            CompanionError::Proactive(e) => e.spanish(),
            CompanionError::WebSearch(e) => e.spanish(),
            CompanionError::SearchSetup(e) => e.spanish(),
            CompanionError::MeaningSetup(e) => e.spanish(),
            CompanionError::Channels(e) => e.spanish(),
            CompanionError::Updates(e) => e.spanish(),
            CompanionError::Lock(e) => e.said_in(sidecar_domain::Lang::Es),
            CompanionError::Data(e) => e.spanish(),
            CompanionError::CannotWrite(e) => e.spanish(),
            CompanionError::Refused(e) => e.spanish(),
            CompanionError::Devices(e) => e.spanish(),
            CompanionError::NotAZone(name) => format!("«{name}» no es una zona horaria IANA (como «Europe/Madrid»)"),
            CompanionError::NotAVoice(id) => format!("«{id}» no es una de las voces que Ajustes → Voz ofrece para ese idioma"),
        }
    }
}

#[cfg(test)]
mod said_once_tests {
    #[test]
    fn a_cause_already_quoted_is_not_repeated() {
        let inner = std::io::Error::other("disk I/O error");
        let store = sidecar_store::StoreError::CreateDir { path: "/data".into(), source: inner };
        let error = super::CompanionError::Store(store);
        let once = super::said_once(&error);
        assert_eq!(once, "cannot create the data directory /data: disk I/O error");
        assert_eq!(once.matches("disk I/O error").count(), 1);
    }
}
