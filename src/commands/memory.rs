//! The window's memory commands (`commands` says how the table serves them).

use crate::commands::{blocking, commands, CommandError, SaidBy};
use crate::CompanionError;
use serde::Serialize;
use sidecar_data::BackupInfo;
use sidecar_data::ChatImport;
use sidecar_data::ExportFormat;
use sidecar_memory::MeaningInput;
use sidecar_memory::MeaningView;
use sidecar_memory::ProfileFields;
use sidecar_memory::ProfileFile;
use sidecar_memory::ProfileView;

/// Facts by category and the lines of learnings.md that could not be read.
#[derive(Serialize, ts_rs::TS)]
pub(super) struct MemoryReport {
    facts: Vec<sidecar_memory::ListedFact>,
    problems: Vec<sidecar_memory::Malformed>,
    conflicts: Vec<sidecar_memory::FactConflict>,
    /// The message each fact was learned from, where it is known and still kept.
    origins: Vec<sidecar_memory::FactOrigin>,
    /// Lines of the knowledge files held out of the prompt for reading as instructions.
    suspects: Vec<sidecar_memory::SuspectLine>,
}

/// SOUL.md or user.md, with the version to send back when saving.
#[derive(Serialize, ts_rs::TS)]
pub(super) struct ProfileText {
    text: String,
    version: String,
}

commands! {
    async fn meaning_setup(core) -> Result<MeaningView, CommandError> {
        Ok(core.meaning_setup().view().await)
    }

    async fn save_meaning(core, input: MeaningInput) -> Result<MeaningView, CommandError> {
        core.meaning_setup().save(input).await.said(&core)
    }

    async fn back_up_now(core) -> Result<BackupInfo, CommandError> {
        core.data().back_up(None).await.said(&core)
    }

    /// Whether backups are sealed with a passphrase, and where it is kept.
    async fn backup_seal(core) -> Result<sidecar_data::BackupSeal, CommandError> {
        Ok(core.data().backup_seal())
    }

    /// Seals every backup from now on with `passphrase` (empty: plain again).
    async fn seal_backups(core, passphrase: String) -> Result<sidecar_data::BackupSeal, CommandError> {
        core.data().seal_backups(&passphrase).said(&core)
    }

    /// Whether the backup file at `path` is sealed (a restore then asks its passphrase).
    async fn backup_is_sealed(core, path: String) -> Result<bool, CommandError> {
        let file = std::path::PathBuf::from(&path);
        sidecar_data::is_sealed(&file).map_err(|source| sidecar_data::DataError::Backup(sidecar_data::BackupError::Read { path: file, source })).said(&core)
    }

    /// The automatic backups kept, newest first (date, file).
    async fn automatic_backups(core) -> Result<Vec<(String, String)>, CommandError> {
        Ok({
            let mut kept = core.data().backups().automatic();
            kept.reverse();
            kept.into_iter().map(|(date, path)| (date.to_string(), path.display().to_string())).collect()
        })
    }

    /// What is kept and how often Sidecar tidies (`[retention]`), with the choices offered.
    async fn retention(core) -> Result<sidecar_settings::RetentionView, CommandError> {
        Ok(core.settings().retention.view())
    }

    async fn set_retention(core, retention: sidecar_settings::RetentionSettings) -> Result<(), CommandError> {
        core.set_retention(retention).said(&core)
    }

    /// Tidies what is kept now; what it did.
    async fn tidy_now(core) -> Result<sidecar_data::TidyReport, CommandError> {
        core.tidy().await.said(&core)
    }

    async fn export_data(core, format: ExportFormat) -> Result<String, CommandError> {
        Ok(core.data().export_to_file(format).await.said(&core)?.display().to_string())
    }

    /// One conversation as Markdown in the exports folder; the file.
    async fn export_chat(core, id: i64) -> Result<String, CommandError> {
        Ok(core.data().export_conversation_to_file(id).await.said(&core)?.display().to_string())
    }

    async fn import_chat_export(core, text: String) -> Result<ChatImport, CommandError> {
        core.data().import_chat_export(text.as_bytes()).await.said(&core)
    }

    async fn auto_remember(core) -> Result<bool, CommandError> {
        Ok(core.noticing().saves_without_asking())
    }

    async fn set_auto_remember(core, on: bool) -> Result<bool, CommandError> {
        core.noticing().set_saves_without_asking(on).map_err(|e| CommandError { message: e.to_string(), retryable: false, cancelled: false })?;
        Ok(on)
    }

    /// The tidy's proposals (merges, repairs, replacements to undo), and what it did alone.
    async fn memory_review(core) -> Result<sidecar_memory::Review, CommandError> {
        core.knowledge().review(core.clock().local_today()).await.map_err(CompanionError::from).said(&core)
    }

    /// Applies proposal `key`, or keeps things as they are (not asked again).
    async fn answer_tidy(core, key: String, apply: bool) -> Result<(), CommandError> {
        core.knowledge().answer(&key, apply, core.clock().local_today()).await.map_err(CompanionError::from).said(&core)
    }

    /// Lets the tidy apply the safe kinds alone, or makes it ask.
    async fn set_tidy_alone(core, on: bool) -> Result<bool, CommandError> {
        core.knowledge().set_tidies_alone(on).map_err(CompanionError::from).said(&core)?;
        Ok(on)
    }

    /// The facts of a memory list pasted from another assistant, for review; none saved.
    async fn preview_brought(core, text: String) -> Result<Vec<sidecar_memory::BroughtFact>, CommandError> {
        Ok(core.knowledge().preview_brought(&text, core.clock().local_today()))
    }

    /// Saves the facts the user kept in that review.
    async fn bring_facts(core, kept: Vec<sidecar_memory::KeptFact>) -> Result<sidecar_memory::BroughtSaved, CommandError> {
        core.knowledge().bring(&kept, core.clock().local_today()).await.map_err(CompanionError::from).said(&core)
    }

    async fn profile_fields(core) -> Result<ProfileView, CommandError> {
        blocking(&core, |c| c.knowledge().profile_fields().map_err(CompanionError::from)).await.said(&core)
    }

    /// New lines and headings are written in the language the user chose.
    async fn save_profile_fields(core, fields: ProfileFields, user_version: String, soul_version: String) -> Result<ProfileView, CommandError> {
        blocking(&core, move |c| c.knowledge().save_profile_fields(&fields, &user_version, &soul_version, c.preferences().lang()).map_err(CompanionError::from))
            .await
            .said(&core)
    }

    async fn memory_report(core) -> Result<MemoryReport, CommandError> {
        let mut report = blocking(&core, |c| {
            // Pick up edits made in a text editor since the last look (the watcher may not
            // have polled yet; it still says so when it does).
            if let Err(error) = c.knowledge().catch_up() {
                tracing::warn!(%error, "learnings.md could not be re-read for the Memory view");
            }
            MemoryReport {
                facts: c.knowledge().facts(),
                problems: c.knowledge().malformed(),
                conflicts: c.knowledge().conflicts(),
                origins: Vec::new(),
                suspects: c.knowledge().suspect_lines(),
            }
        })
        .await;
        report.origins = core.knowledge().origins().await.map_err(CompanionError::from).said(&core)?;
        Ok(report)
    }

    /// A fact typed in Memory, or a "Remember this?" kept (`from`: the message it was said in).
    async fn remember_fact(core, text: String, category: sidecar_memory::Category, from: Option<i64>) -> Result<sidecar_memory::SaveOutcome, CommandError> {
        match from {
            Some(from) => core.remember_from(&text, category, from).await.said(&core),
            None => core.remember(&text, category).await.said(&core),
        }
    }

    /// The user confirmed that a newer fact replaces the one on `line`.
    async fn supersede_fact(core, line: usize, expected: String) -> Result<(), CommandError> {
        blocking(&core, move |c| c.knowledge().supersede(line, &expected, c.clock().local_today()).map_err(CompanionError::from)).await.said(&core)
    }

    /// The backups made before something was last deleted for good.
    async fn held_in_backups(core) -> Result<sidecar_data::HeldInBackups, CommandError> {
        core.data().held_in_backups().await.map_err(CompanionError::from).said(&core)
    }

    /// A backup now, then the backups that may still hold what was deleted go.
    async fn forget_in_backups(core) -> Result<usize, CommandError> {
        core.data().forget_in_backups().await.map_err(CompanionError::from).said(&core)
    }

    /// Whether the database is encrypted at rest, and what the next start changes.
    async fn database_encryption(core) -> Result<sidecar_data::DatabaseEncryption, CommandError> {
        Ok(core.data().database_encryption())
    }

    /// Encrypts the database at the next start (its key in the keychain), or makes it
    /// plain again.
    async fn set_database_encryption(core, on: bool) -> Result<sidecar_data::DatabaseEncryption, CommandError> {
        let data = core.data();
        if on { data.encrypt_database() } else { data.decrypt_database() }.map_err(CompanionError::from).said(&core)
    }

    /// What names someone, listed before anything is forgotten.
    async fn about_someone(core, name: String) -> Result<sidecar_data::AboutSomeone, CommandError> {
        core.data().about(&name).await.map_err(CompanionError::from).said(&core)
    }

    /// Forgets for good what the user kept ticked of that list.
    async fn forget_about(core, chosen: sidecar_data::ForgetChosen) -> Result<sidecar_data::ForgottenAbout, CommandError> {
        core.forget_about(&chosen).await.said(&core)
    }

    async fn search_memory(core, query: String, pages: usize, weaker: bool) -> Result<sidecar_memory::MemoryPage, CommandError> {
        core.recall_service().browse(&query, pages, weaker).await.said(&core)
    }

    async fn edit_fact(core, line: usize, expected: String, text: String, category: sidecar_memory::Category) -> Result<(), CommandError> {
        core.knowledge().edit(line, &expected, &text, category).await.map_err(CompanionError::from).said(&core)
    }

    /// Marks the fact on `line` important (kept like a Health fact), or not.
    async fn mark_fact_important(core, line: usize, expected: String, important: bool) -> Result<(), CommandError> {
        blocking(&core, move |c| c.knowledge().mark_important(line, &expected, important).map_err(CompanionError::from)).await.said(&core)
    }

    /// A held line is the user's own: it enters the prompt as written.
    async fn keep_suspect(core, text: String) -> Result<(), CommandError> {
        blocking(&core, move |c| c.knowledge().keep_as_written(&text).map_err(CompanionError::from)).await.said(&core)
    }

    /// A held line goes from its file.
    async fn remove_suspect(core, file: sidecar_memory::KnowledgeFile, line: usize, expected: String) -> Result<(), CommandError> {
        core.knowledge().remove_suspect(file, line, &expected).await.map_err(CompanionError::from).said(&core)
    }

    async fn delete_fact(core, line: usize, expected: String) -> Result<(), CommandError> {
        core.knowledge().delete(line, &expected).await.map_err(CompanionError::from).said(&core)
    }

    async fn read_profile(core, file: ProfileFile) -> Result<ProfileText, CommandError> {
        let (text, version) = blocking(&core, move |c| c.knowledge().profile(file)).await.said(&core)?;
        Ok(ProfileText { text, version })
    }

    async fn save_profile(core, file: ProfileFile, text: String, version: String) -> Result<String, CommandError> {
        blocking(&core, move |c| c.knowledge().save_profile(file, &text, &version)).await.said(&core)
    }
}
