//! The core's error: what went wrong, worded for the user, and whether Retry helps.

use crate::knowledge::store::KnowledgeError;
use crate::llm::router::RouteError;
use crate::settings::SettingsError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum CompanionError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("Sidecar was updated and backs up your data before it upgrades it, but the backup failed ({0}); nothing was changed. Free some disk space and start Sidecar again")]
    UpgradeBackup(crate::backup::BackupError),
    #[error("the model is not available: {0}")]
    ModelUnavailable(String),
    #[error(transparent)]
    Route(#[from] RouteError),
    #[error("{0}")]
    TurnFailed(String),
    #[error("a reply is still being written; press Stop first")]
    Busy,
    #[error("the queued message was cancelled before its turn")]
    QueuedCancelled,
    #[error("there is no unanswered message to retry")]
    NothingToRetry,
    #[error("there is no reply to write again")]
    NothingToRegenerate,
    #[error("only your own messages in this conversation can be edited")]
    NotEditable,
    #[error("the message is empty")]
    EmptyMessage,
    #[error("{0}")]
    InvalidInput(String),
    /// Words that could not be read as a time; the text says what to say instead.
    #[error(transparent)]
    Date(#[from] crate::dates::DateError),
    #[error(transparent)]
    Knowledge(#[from] KnowledgeError),
    #[error(transparent)]
    Attach(#[from] crate::attachments::AttachError),
    #[error(transparent)]
    Library(#[from] crate::local_models::library::LibraryError),
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    SettingsFile(#[from] crate::settings_file::SettingsFileError),
    #[error(transparent)]
    Calendar(#[from] crate::reminders::ics::IcsError),
    #[error(transparent)]
    Download(#[from] crate::local_models::download::PullError),
    #[error(transparent)]
    WebSearch(#[from] crate::tools::search_failure::SearchFailure),
}

/// Requests the core turns down, each worded in both languages (`words::errors`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the name may use letters, digits, - and _ only")]
    ProviderName,
    #[error("\"local\" is the offline model's name; pick another")]
    ProviderNameTaken,
    #[error("the base URL must be an http:// or https:// address")]
    ProviderUrl,
    #[error("the model name is empty")]
    NoModelName,
    #[error("could not list the models at {url}: {problem}")]
    ModelList { url: String, problem: crate::llm::endpoint::ProbeProblem },
    #[error("\"{0}\" is not an IANA time zone (like \"Europe/Madrid\")")]
    NotAZone(String),
    #[error("write an amount more than zero, in {0}")]
    NotAnAmount(String),
    #[error("{0}")]
    BudgetLimits(crate::budget::limits::LimitsProblem),
    #[error("message {0} is not a spontaneous message")]
    NotSpontaneous(i64),
    #[error("there is no pending reminder with id {0}; list_reminders shows them")]
    NoPendingReminder(i64),
    #[error("reminder {0} disappeared")]
    ReminderGone(i64),
    #[error("minutes must be from 1 to {0}")]
    SnoozeMinutes(u32),
    #[error("there is no reminder with id {0} to snooze")]
    NoReminderToSnooze(i64),
    #[error("reminder {0} was cancelled; it cannot be snoozed")]
    SnoozeCancelled(i64),
    #[error("message {0} is not a reminder")]
    NotAReminder(i64),
    #[error("the reply has no version {0}")]
    NoVersion(u32),
    #[error("conversation {0} does not exist (or is imported history, which cannot be continued)")]
    NoChatToOpen(i64),
    #[error("conversation {0} does not exist")]
    NoChat(i64),
    #[error("Telegram is not running here: turn it on and save a bot token first")]
    TelegramOff,
    #[error("that does not look like a bot token (@BotFather gives one like 123456789:AA…)")]
    NotABotToken,
    #[error("stopped before the model was ready")]
    StoppedBeforeModel,
    #[error("stopped while older messages were being summarised")]
    StoppedWhileFolding,
    #[error("Sidecar is shutting down")]
    ShuttingDown,
    #[error("{name} must be from {low} to {high}")]
    OutOfRange { name: &'static str, low: String, high: String },
    #[error("\"{text}\" is not an address; write it whole, like {example}")]
    NotAnAddress { text: String, example: &'static str },
    #[error("\"{0}\" must start with http:// or https://")]
    NotHttp(String),
    #[error("SearXNG needs the address of an instance, like https://search.example.org")]
    SearxngNeedsAddress,
    #[error("Brave Search needs an API key (free at api-dashboard.search.brave.com)")]
    BraveNeedsKey,
    #[error("Write the endpoint's address, like http://localhost:11434/v1")]
    EmbeddingsNeedAddress,
    #[error("Name the embedding model, like nomic-embed-text")]
    NoEmbeddingModel,
    #[error("there is no checkpoint #{0}")]
    NoCheckpoint(i64),
    #[error("message {0} is not in any conversation")]
    NotInAConversation(i64),
    #[error("cannot write {path}: {why}")]
    CannotWrite { path: String, why: String },
    #[error("cannot remove the WhatsApp session: {0}")]
    WhatsAppSession(String),
    #[error("checkpoint #{id} is {} and cannot become {}", from.replace('_', " "), to.replace('_', " "))]
    CheckpointStatus { id: i64, from: &'static str, to: &'static str },
    #[error("{0} is not a backup file")]
    NotABackupFile(String),
}

impl From<crate::llm::sampling::OutOfRange> for Refusal {
    fn from(o: crate::llm::sampling::OutOfRange) -> Self {
        Refusal::OutOfRange { name: o.name, low: o.low, high: o.high }
    }
}

impl From<crate::llm::sampling::OutOfRange> for CompanionError {
    fn from(o: crate::llm::sampling::OutOfRange) -> Self {
        CompanionError::Refused(o.into())
    }
}

impl Refusal {
    /// A file that could not be written, with the system's reason.
    pub fn cannot_write(path: &std::path::Path, why: impl std::fmt::Display) -> Self {
        Refusal::CannotWrite { path: path.display().to_string(), why: why.to_string() }
    }

    /// A turn stopped on its way, which asking again may finish.
    fn interrupted(&self) -> bool {
        matches!(self, Refusal::StoppedBeforeModel | Refusal::StoppedWhileFolding | Refusal::ShuttingDown)
    }
}

impl CompanionError {
    pub fn is_retryable(&self) -> bool {
        match self {
            CompanionError::Route(e) => e.is_retryable(),
            CompanionError::ModelUnavailable(_) | CompanionError::TurnFailed(_) => true,
            CompanionError::Refused(refusal) => refusal.interrupted(),
            _ => false,
        }
    }
}

/// An error and its causes in one line, each said once: a layer that already quotes
/// its cause (`database error: {0}`) is not followed by that cause again.
pub fn said_once(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let said = next.to_string();
        if !text.contains(&said) {
            text = format!("{text}: {said}");
        }
        cause = next.source();
    }
    text
}

#[cfg(test)]
mod said_once_tests {
    #[test]
    fn a_cause_already_quoted_is_not_repeated() {
        let inner = std::io::Error::other("disk I/O error");
        let store = crate::store::StoreError::CreateDir { path: "/data".into(), source: inner };
        let error = super::CompanionError::Store(store);
        let once = super::said_once(&error);
        assert_eq!(once, "cannot create the data directory /data: disk I/O error");
        assert_eq!(once.matches("disk I/O error").count(), 1);
    }
}
