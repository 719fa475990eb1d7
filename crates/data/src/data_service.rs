//! The user's data as a whole: backups (on demand and daily), restore, export, and
//! importing history from elsewhere (JSON lines, ChatGPT and Claude exports). Imported
//! history is an archive: searchable by recall, never the chat that continues.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::backup::{BackupInfo, Backups, Passphrase};
use crate::chat_exports::{self, ExportKind};
pub use crate::error::DataError;
use crate::export::{self, ExportFormat};
use crate::problem::ImportProblem;
pub use crate::retention::TidyReport;
use sidecar_domain::Clock;
use sidecar_domain::KeyStorage;
use sidecar_domain::Lang;
use sidecar_domain::Secrets;
use sidecar_domain::Worded;
use sidecar_llm::Role;
use sidecar_memory::KnowledgeStore;
use sidecar_memory::MeaningIndex;
use sidecar_store::ImportedTurn;
use sidecar_store::Store;

/// Where the backups' passphrase is kept in the keychain.
const SEAL_KEY: &str = "backup-passphrase";
/// A shorter passphrase is refused: scrypt slows guessing, it cannot make "1234" safe.
pub const PASSPHRASE_MIN_CHARS: usize = 10;

/// The passphrase backups are sealed with, if the user set one (for [`crate::open_store`],
/// whose backup before an upgrade is sealed like the others).
pub fn backup_seal(secrets: &Secrets) -> Option<Passphrase> {
    secrets.get(SEAL_KEY).and_then(|text| Passphrase::new(&text))
}

/// Whether backups are sealed with a passphrase, as Settings → Your data shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct BackupSeal {
    pub sealed: bool,
    /// Where the passphrase is kept (the keychain, or this session only).
    pub storage: Option<KeyStorage>,
    /// The shortest passphrase taken.
    pub min_chars: usize,
}

/// The backups in `backups/` made before something was last deleted for good: they may
/// still hold it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct HeldInBackups {
    /// When something was last deleted for good (RFC 3339), if ever.
    pub since: Option<String>,
    pub backups: Vec<PathBuf>,
}

/// How often the daily-backup loop looks whether today's backup is written.
const DAILY_LOOK: Duration = Duration::from_secs(3600);
/// Where Settings → Data → Export writes, inside the data directory.
pub(crate) const EXPORT_DIR: &str = "exports";

/// One turn of a chat brought in from elsewhere: who said it, what, when (if known),
/// and its id in the export (if it had one).
type BroughtTurn = (Role, String, Option<chrono::DateTime<chrono::Utc>>, Option<String>);

/// What an import of another assistant's export did.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct ChatImport {
    /// `ChatGPT` or `Claude`.
    pub from: String,
    pub conversations: usize,
    pub messages: usize,
    /// Conversations skipped (1-based position) and why, in the user's language.
    pub problems: Vec<(usize, String)>,
    /// Messages already in Sidecar (imported before, or twice in the file): not stored again.
    pub already: usize,
}

/// What an import of JSON lines did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JsonlImport {
    pub imported: usize,
    /// Lines skipped (1-based) and why, in the user's language.
    pub problems: Vec<(usize, String)>,
    /// How many times had no offset, and the zone they were read in.
    pub local_times: Option<(usize, String)>,
    /// Messages already in Sidecar (imported before, or twice in the file): not stored again.
    pub already: usize,
}

pub struct DataService {
    store: Store,
    knowledge: Arc<KnowledgeStore>,
    meaning: Arc<MeaningIndex>,
    backups: Backups,
    clock: Clock,
    lang: Lang,
    data_dir: PathBuf,
    /// Keeps the backups' passphrase.
    secrets: Arc<Secrets>,
}

/// Where the data lives and what a [`DataService`] keeps its passphrase in.
pub struct DataPlaces {
    pub data_dir: PathBuf,
    pub config_path: Option<PathBuf>,
    pub secrets: Arc<Secrets>,
}

impl DataService {
    pub fn new(store: Store, knowledge: Arc<KnowledgeStore>, meaning: Arc<MeaningIndex>, clock: Clock, lang: Lang, places: DataPlaces) -> Self {
        let DataPlaces { data_dir, config_path, secrets } = places;
        let backups = Backups::new(store.clone(), data_dir.clone(), config_path, backup_seal(&secrets));
        Self { store, knowledge, meaning, backups, clock, lang, data_dir, secrets }
    }

    /// Whether backups are sealed, and where the passphrase is kept.
    pub fn backup_seal(&self) -> BackupSeal {
        let sealed = self.backups.sealed();
        BackupSeal { sealed, storage: self.secrets.storage(SEAL_KEY).filter(|_| sealed), min_chars: PASSPHRASE_MIN_CHARS }
    }

    /// Every backup from now on is sealed with `passphrase`; an empty one makes them
    /// plain again. Backups already made stay as they were.
    pub fn seal_backups(&self, passphrase: &str) -> Result<BackupSeal, DataError> {
        if passphrase.is_empty() {
            self.secrets.delete(SEAL_KEY);
            self.backups.seal_with(None);
            return Ok(self.backup_seal());
        }
        if passphrase.chars().count() < PASSPHRASE_MIN_CHARS {
            return Err(DataError::ShortPassphrase(PASSPHRASE_MIN_CHARS));
        }
        self.secrets.store(SEAL_KEY, passphrase);
        self.backups.seal_with(Passphrase::new(passphrase));
        Ok(self.backup_seal())
    }

    /// Whether the database is encrypted at rest, and what the next start changes.
    pub fn database_encryption(&self) -> crate::DatabaseEncryption {
        crate::encryption::state(&self.data_dir, &self.secrets, self.lang)
    }

    /// Encrypts the database from the next start on, its key in the keychain; refused
    /// when no keychain keeps keys across restarts.
    pub fn encrypt_database(&self) -> Result<crate::DatabaseEncryption, DataError> {
        crate::encryption::turn_on(&self.data_dir, &self.secrets, self.lang)
    }

    /// Makes the database plain again at the next start.
    pub fn decrypt_database(&self) -> Result<crate::DatabaseEncryption, DataError> {
        crate::encryption::turn_off(&self.data_dir, &self.secrets, self.lang)
    }

    pub fn backups(&self) -> &Backups {
        &self.backups
    }

    /// A backup now, into `dest` (a folder or a file), or `backups/` when `None`.
    pub async fn back_up(&self, dest: Option<&Path>) -> Result<BackupInfo, DataError> {
        let dest = dest.map_or_else(|| self.backups.dir(), Path::to_path_buf);
        std::fs::create_dir_all(self.backups.dir()).map_err(|source| DataError::Write { path: self.backups.dir(), source })?;
        Ok(self.backups.write(&dest, self.clock.now()).await?)
    }

    /// The backups that may still hold what was deleted for good since they were made.
    pub async fn held_in_backups(&self) -> Result<HeldInBackups, DataError> {
        let since = self.store.last_forgotten().await?;
        let at = since.as_deref().and_then(|at| chrono::DateTime::parse_from_rfc3339(at).ok()).map(|at| at.to_utc());
        Ok(HeldInBackups { backups: at.map(|at| self.backups.written_before(at)).unwrap_or_default(), since })
    }

    /// Removes what was deleted from the backups too: a backup of everything kept is made
    /// now (sealed like the others), then the backups made before the last deletion are
    /// removed. How many went. A backup saved outside `backups/` is not seen.
    pub async fn forget_in_backups(&self) -> Result<usize, DataError> {
        let held = self.held_in_backups().await?;
        if held.backups.is_empty() {
            return Ok(0);
        }
        let fresh = self.back_up(None).await?;
        let mut removed = 0;
        for path in held.backups.iter().filter(|p| **p != fresh.path) {
            match std::fs::remove_file(path) {
                Ok(()) => removed += 1,
                Err(source) => return Err(DataError::Write { path: path.clone(), source }),
            }
        }
        tracing::info!(removed, fresh = %fresh.path.display(), "backups made before a deletion removed");
        Ok(removed)
    }

    /// The daily backup loop for the process that owns the data (the app or the daemon).
    pub async fn run_daily_backups(self: Arc<Self>) {
        loop {
            match self.backups.daily(self.clock.now(), self.clock.local_today()).await {
                Ok(Some(info)) => tracing::info!(path = %info.path.display(), bytes = info.bytes, "daily backup written"),
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "the daily backup failed; it is tried again in an hour"),
            }
            tokio::time::sleep(DAILY_LOOK).await;
        }
    }

    /// Tidies what is kept ([`crate::retention`]) under the user's `retention`.
    pub async fn tidy(&self, retention: &sidecar_settings::RetentionSettings) -> Result<crate::retention::TidyReport, DataError> {
        Ok(crate::retention::tidy(&self.store, &self.meaning, &self.clock, retention).await?)
    }

    /// Every conversation and fact in `format`.
    pub async fn export(&self, format: ExportFormat) -> Result<String, DataError> {
        let conversations = self.store.export_rows().conversations().await?;
        Ok(export::render(format, &conversations, &self.knowledge.facts(), &sidecar_store::utc(self.clock.now()), self.lang))
    }

    /// Writes the export into `exports/` and returns the file.
    pub async fn export_to_file(&self, format: ExportFormat) -> Result<PathBuf, DataError> {
        let text = self.export(format).await?;
        let path = self.data_dir.join(EXPORT_DIR).join(format!("sidecar-export-{}.{}", self.clock.now().format("%Y-%m-%d-%H%M%S"), format.extension()));
        sidecar_domain::write_atomically(&path, text.as_bytes()).map_err(|source| DataError::Write { path: path.clone(), source })?;
        Ok(path)
    }

    /// Writes one conversation as Markdown into `exports/`; the file.
    pub async fn export_conversation_to_file(&self, conversation_id: i64) -> Result<PathBuf, DataError> {
        let Some(conversation) = self.store.export_rows().conversation(conversation_id).await? else {
            return Err(DataError::NoConversation(conversation_id));
        };
        let text = export::conversation_markdown(&conversation, self.lang);
        let path = self.data_dir.join(EXPORT_DIR).join(format!("sidecar-chat-{conversation_id}-{}.md", self.clock.now().format("%Y-%m-%d-%H%M%S")));
        sidecar_domain::write_atomically(&path, text.as_bytes()).map_err(|source| DataError::Write { path: path.clone(), source })?;
        Ok(path)
    }

    /// Imports JSON lines (`role`, `content`, optional `timestamp` and `id`) into a new
    /// archived conversation; times without an offset are read in the user's zone.
    pub async fn import_jsonl(&self, bytes: &[u8]) -> Result<JsonlImport, DataError> {
        let file = crate::history_import::read(bytes, self.clock.now(), self.clock.zone());
        let turns: Vec<_> = file.lines.into_iter().map(|l| (l.role, l.content, l.timestamp, l.external_id)).collect();
        let (imported, already) = self.archive(None, &turns).await?;
        let zone = self.clock.zone().name().to_string();
        Ok(JsonlImport { imported, problems: self.worded(file.problems), local_times: (file.local_times > 0).then_some((file.local_times, zone)), already })
    }

    /// Imports a ChatGPT or Claude `conversations.json`, one archived conversation each.
    pub async fn import_chat_export(&self, bytes: &[u8]) -> Result<ChatImport, DataError> {
        let (kind, chats, problems) = chat_exports::read(bytes, self.clock.now())?;
        let (mut messages, mut already, mut conversations) = (0, 0, 0);
        for chat in &chats {
            let turns: Vec<_> = chat.messages.iter().map(|m| (m.role, m.content.clone(), m.timestamp, m.external_id.clone())).collect();
            let (new, old) = self.archive(Some(&chat.title), &turns).await?;
            messages += new;
            already += old;
            conversations += usize::from(new > 0);
        }
        Ok(ChatImport { from: ExportKind::name(kind).into(), conversations, messages, problems: self.worded(problems), already })
    }

    /// Problems by position, said in the user's language.
    /// What names `name` ("forget everything about Ana"), for the user to review; nothing
    /// is deleted.
    pub async fn about(&self, name: &str) -> Result<crate::AboutSomeone, DataError> {
        crate::forget_about::about(&self.store, &self.knowledge, name).await
    }

    /// Forgets for good what the user kept ticked of [`DataService::about`]'s list.
    pub async fn forget_about(&self, chosen: &crate::ForgetChosen) -> Result<crate::ForgottenAbout, DataError> {
        crate::forget_about::forget(&self.store, &self.knowledge, &self.meaning, chosen).await
    }

    fn worded(&self, problems: Vec<(usize, ImportProblem)>) -> Vec<(usize, String)> {
        problems.into_iter().map(|(at, problem)| (at, problem.said_in(self.lang))).collect()
    }

    /// Stores the turns not already in Sidecar as one archived conversation (none when
    /// every one was there), in one transaction; (stored, already there).
    async fn archive(&self, title: Option<&str>, turns: &[BroughtTurn]) -> Result<(usize, usize), DataError> {
        let times: Vec<Option<String>> = turns.iter().map(|(_, _, at, _)| at.map(sidecar_store::utc)).collect();
        let turns: Vec<ImportedTurn> = turns
            .iter()
            .zip(&times)
            .map(|((role, content, _, external_id), at)| ImportedTurn { role: *role, content, timestamp: at.as_deref(), external_id: external_id.as_deref() })
            .collect();
        let done = self.store.archives().archive(title, &turns).await?;
        // Vectors follow in the background (or `sidecar import` waits for them).
        self.meaning.wake();
        Ok((done.stored, done.already))
    }
}
