//! IPC commands: each one a few lines calling the core.

use std::sync::Arc;

use serde::Serialize;
use sidecar::companion::UsageReport;
use sidecar::context::checkpoint::{Checkpoint, Status};
use sidecar::context::engine::ContextMeter;
use sidecar::context::plan::PlanItem;
use sidecar::knowledge::store::ProfileFile;
use sidecar::proactive::config::ProactiveConfig;
use sidecar::proactive::ProactiveStatus;
use sidecar::provider_admin::{ConnectionTest, ProviderInput, ProviderView, SavedProvider};
use sidecar::reminders::rows::Reminder;
use sidecar::reminders::Setting;
use sidecar::store::Message;
use sidecar::words::Lang;
use sidecar::{Companion, CompanionError, ModelStatus, TurnOutcome};
use tauri::{AppHandle, State};

/// An error as the UI receives it: what to show, and whether Retry makes sense.
#[derive(Debug, Serialize)]
pub struct CommandError {
    pub(crate) message: String,
    pub(crate) retryable: bool,
    /// A queued message was cancelled before its turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) cancelled: bool,
}

impl CommandError {
    /// A core error said in `lang`, with whether Retry makes sense.
    pub(crate) fn said(error: impl Into<CompanionError>, lang: Lang) -> Self {
        let error = error.into();
        Self { cancelled: error.is_cancelled_queue(), retryable: error.is_retryable(), message: sidecar::said::said_whole(&error, lang) }
    }
}

/// The core's errors for the UI (a feature's own error is composed into the core's):
/// `.said(&core)` says one in the language the user has chosen now, read from the
/// core's preferences at that moment, so a change in Settings is followed at once
/// and no language is kept in the shell.
pub(crate) trait SaidBy<T> {
    fn said(self, core: &Companion) -> Result<T, CommandError>;
}

impl<T, E: Into<CompanionError>> SaidBy<T> for Result<T, E> {
    fn said(self, core: &Companion) -> Result<T, CommandError> {
        self.map_err(|error| CommandError::said(error, core.preferences().lang()))
    }
}

pub(crate) type Core<'a> = State<'a, Arc<Companion>>;

#[tauri::command]
pub async fn send_message(core: Core<'_>, text: String) -> Result<TurnOutcome, CommandError> {
    core.send(&text).await.said(&core)
}

#[tauri::command]
pub async fn send_with_files(core: Core<'_>, text: String, attachments: Vec<sidecar::attachments::Attachment>) -> Result<TurnOutcome, CommandError> {
    core.send_with(&text, &attachments).await.said(&core)
}

#[tauri::command]
pub async fn attach_file(core: Core<'_>, path: std::path::PathBuf) -> Result<sidecar::attachments::Attachment, CommandError> {
    core.attach(&path).await.said(&core)
}

#[tauri::command]
pub async fn retry_reply(core: Core<'_>) -> Result<TurnOutcome, CommandError> {
    core.retry().await.said(&core)
}

#[tauri::command]
pub fn stop_reply(core: Core<'_>) -> bool {
    core.stop()
}

#[tauri::command]
pub fn cancel_queued(core: Core<'_>, id: u64) -> bool {
    core.conversation().cancel_queued(id)
}

#[tauri::command]
pub async fn load_history(core: Core<'_>, limit: Option<u32>) -> Result<Vec<Message>, CommandError> {
    core.history(limit.unwrap_or(200)).await.said(&core)
}

#[tauri::command]
pub fn model_status(core: Core<'_>) -> ModelStatus {
    core.model_status()
}

#[tauri::command]
pub async fn send_test_notification(app: AppHandle) {
    // The notifier blocks on D-Bus; keep it off the async workers.
    let _ = tauri::async_runtime::spawn_blocking(move || crate::tray::send_test_notification(&app)).await;
}

/// Runs blocking core work (keychain, settings file) off the async workers and the
/// UI thread.
pub(crate) async fn blocking<T: Send + 'static>(core: &Arc<Companion>, work: impl FnOnce(&Companion) -> T + Send + 'static) -> T {
    let core = core.clone();
    tauri::async_runtime::spawn_blocking(move || work(&core)).await.expect("core work does not panic")
}

#[tauri::command]
pub async fn list_providers(core: Core<'_>) -> Result<Vec<ProviderView>, CommandError> {
    Ok(blocking(&core, |c| c.provider_admin().providers()).await)
}

#[tauri::command]
pub async fn save_provider(core: Core<'_>, input: ProviderInput) -> Result<SavedProvider, CommandError> {
    blocking(&core, move |c| c.provider_admin().save_provider(input)).await.said(&core)
}

#[tauri::command]
pub async fn remove_provider(core: Core<'_>, id: String) -> Result<Option<String>, CommandError> {
    blocking(&core, move |c| c.provider_admin().remove_provider(&id)).await.said(&core)
}

#[tauri::command]
pub async fn order_providers(core: Core<'_>, ids: Vec<String>) -> Result<Option<String>, CommandError> {
    blocking(&core, move |c| c.provider_admin().order_providers(&ids)).await.said(&core)
}

#[tauri::command]
pub async fn test_provider(core: Core<'_>, input: ProviderInput) -> Result<ConnectionTest, CommandError> {
    Ok(core.provider_admin().test_provider(input).await)
}

#[tauri::command]
pub async fn usage_report(core: Core<'_>) -> Result<UsageReport, CommandError> {
    core.usage_report().await.said(&core)
}

#[tauri::command]
pub async fn usage_history(core: Core<'_>) -> Result<sidecar::budget::usage::UsageHistory, CommandError> {
    core.budget().usage_history().await.said(&core)
}

#[tauri::command]
pub async fn budget_view(core: Core<'_>) -> Result<sidecar::budget::BudgetView, CommandError> {
    core.budget().view().await.said(&core)
}

/// The one click past a limit: `amount` more today, in the user's currency.
#[tauri::command]
pub async fn allow_more_today(core: Core<'_>, amount: f64) -> Result<sidecar::budget::BudgetView, CommandError> {
    core.budget().allow_more_today(amount).await.said(&core)
}

#[tauri::command]
pub fn budget_limits(core: Core<'_>) -> sidecar::budget::limits::LimitsForm {
    core.budget().limits()
}

#[tauri::command]
pub async fn save_budget_limits(core: Core<'_>, form: sidecar::budget::limits::LimitsForm) -> Result<sidecar::budget::BudgetView, CommandError> {
    core.budget().save_limits(&form).await.said(&core)
}

#[tauri::command]
pub async fn pinned_model(core: Core<'_>) -> Result<Option<String>, CommandError> {
    core.conversation().pinned_provider().await.said(&core)
}

#[tauri::command]
pub async fn pin_model(core: Core<'_>, id: Option<String>) -> Result<(), CommandError> {
    core.conversation().pin_provider(id.as_deref()).await.said(&core)
}

/// Facts by category and the lines of learnings.md that could not be read.
#[derive(Serialize)]
pub struct MemoryReport {
    facts: Vec<sidecar::knowledge::store::ListedFact>,
    problems: Vec<sidecar::knowledge::learnings::Malformed>,
    conflicts: Vec<sidecar::knowledge::store::FactConflict>,
}

#[tauri::command]
pub async fn memory_report(core: Core<'_>) -> Result<MemoryReport, CommandError> {
    Ok(blocking(&core, |c| {
        // Pick up edits made in a text editor since the last look (the watcher may not
        // have polled yet).
        let _ = c.knowledge().reload_if_changed();
        MemoryReport { facts: c.facts(), problems: c.knowledge_problems(), conflicts: c.knowledge().conflicts() }
    })
    .await)
}

#[tauri::command]
pub async fn remember_fact(
    core: Core<'_>,
    text: String,
    category: sidecar::knowledge::learnings::Category,
) -> Result<sidecar::knowledge::facts::SaveOutcome, CommandError> {
    core.remember(&text, category).await.said(&core)
}

/// The user confirmed that a newer fact replaces the one on `line`.
#[tauri::command]
pub async fn supersede_fact(core: Core<'_>, line: usize, expected: String) -> Result<(), CommandError> {
    blocking(&core, move |c| c.knowledge().supersede(line, &expected, c.clock().local_today()).map_err(CompanionError::from)).await.said(&core)
}

#[tauri::command]
pub async fn search_memory(core: Core<'_>, query: String, pages: usize, weaker: bool) -> Result<sidecar::recall::MemoryPage, CommandError> {
    core.search_memory(&query, pages, weaker).await.said(&core)
}

#[tauri::command]
pub async fn edit_fact(
    core: Core<'_>,
    line: usize,
    expected: String,
    text: String,
    category: sidecar::knowledge::learnings::Category,
) -> Result<(), CommandError> {
    blocking(&core, move |c| c.knowledge().edit(line, &expected, &text, category).map_err(CompanionError::from)).await.said(&core)
}

#[tauri::command]
pub async fn delete_fact(core: Core<'_>, line: usize, expected: String) -> Result<(), CommandError> {
    blocking(&core, move |c| c.knowledge().delete(line, &expected).map_err(CompanionError::from)).await.said(&core)
}

/// SOUL.md or user.md, with the version to send back when saving.
#[derive(Serialize)]
pub struct ProfileText {
    text: String,
    version: String,
}

#[tauri::command]
pub async fn read_profile(core: Core<'_>, file: ProfileFile) -> Result<ProfileText, CommandError> {
    let (text, version) = blocking(&core, move |c| c.profile(file)).await.said(&core)?;
    Ok(ProfileText { text, version })
}

#[tauri::command]
pub async fn save_profile(core: Core<'_>, file: ProfileFile, text: String, version: String) -> Result<String, CommandError> {
    blocking(&core, move |c| c.save_profile(file, &text, &version)).await.said(&core)
}

#[tauri::command]
pub async fn list_checkpoints(core: Core<'_>) -> Result<Vec<Checkpoint>, CommandError> {
    core.context().checkpoints().await.said(&core)
}

#[tauri::command]
pub async fn set_checkpoint_status(core: Core<'_>, id: i64, status: Status) -> Result<Checkpoint, CommandError> {
    core.context().set_checkpoint_status(id, status).await.said(&core)
}

/// Replaces what a checkpoint records, as the user edited it.
#[tauri::command]
pub async fn edit_checkpoint(core: Core<'_>, id: i64, body: sidecar::context::checkpoint::Body) -> Result<Checkpoint, CommandError> {
    core.context().edit_checkpoint(id, body).await.said(&core)
}

/// Writes the checkpoint as Markdown and returns where.
#[tauri::command]
pub async fn export_checkpoint(core: Core<'_>, id: i64) -> Result<String, CommandError> {
    Ok(core.context().export_checkpoint(id).await.said(&core)?.display().to_string())
}

/// Writes every checkpoint into one Markdown file: how many, and where.
#[tauri::command]
pub async fn export_checkpoints(core: Core<'_>) -> Result<(usize, String), CommandError> {
    let (count, path) = core.context().export_checkpoints().await.said(&core)?;
    Ok((count, path.map(|p| p.display().to_string()).unwrap_or_default()))
}

#[tauri::command]
pub async fn new_conversation(core: Core<'_>) -> Result<i64, CommandError> {
    core.context().new_conversation().await.said(&core)
}

#[tauri::command]
pub async fn continuation_offer(core: Core<'_>) -> Result<Option<Checkpoint>, CommandError> {
    core.context().continuation_offer().await.said(&core)
}

#[tauri::command]
pub async fn continue_checkpoint(core: Core<'_>, id: i64) -> Result<Checkpoint, CommandError> {
    core.context().continue_from(id).await.said(&core)
}

#[tauri::command]
pub async fn dismiss_offer(core: Core<'_>) -> Result<(), CommandError> {
    core.context().dismiss_offer().await.said(&core)
}

#[tauri::command]
pub async fn current_plan(core: Core<'_>) -> Result<Vec<PlanItem>, CommandError> {
    core.context().plan().await.said(&core)
}

#[tauri::command]
pub async fn context_meter(core: Core<'_>) -> Result<ContextMeter, CommandError> {
    core.context().context_meter().await.said(&core)
}

#[tauri::command]
pub async fn reminders_overview(core: Core<'_>) -> Result<sidecar::reminders::Overview, CommandError> {
    core.reminders().overview().await.said(&core)
}

#[tauri::command]
pub fn preview_when(core: Core<'_>, text: String) -> sidecar::reminders::WhenPreview {
    core.reminders().preview(&text)
}

#[tauri::command]
pub async fn preview_reminder_when(core: Core<'_>, text: String) -> Result<sidecar::reminders::WhenPreview, CommandError> {
    Ok(core.reminders().preview_reminder(&text).await)
}

#[tauri::command]
pub async fn add_reminder(core: Core<'_>, message: String, when: String) -> Result<Setting, CommandError> {
    core.reminders().set(&message, &when).await.said(&core)
}

#[tauri::command]
pub fn preview_sentence(core: Core<'_>, text: String) -> sidecar::reminders::SentencePreview {
    core.reminders().preview_sentence(&text)
}

#[tauri::command]
pub async fn add_reminder_sentence(core: Core<'_>, sentence: String) -> Result<Setting, CommandError> {
    core.reminders().set_from_sentence(&sentence).await.said(&core)
}

/// Writes the pending reminders to `sidecar-reminders.ics` in the Downloads folder (the
/// data folder when there is none); returns the file's path.
#[tauri::command]
pub async fn export_reminders_ics(core: Core<'_>) -> Result<String, CommandError> {
    let dir = sidecar::paths::export_dir(core.data_dir());
    Ok(core.reminders().export_ics_to(&dir).await.said(&core)?.display().to_string())
}

#[tauri::command]
pub async fn import_reminders_ics(core: Core<'_>, text: String) -> Result<sidecar::reminders::ImportReport, CommandError> {
    core.reminders().import_ics(&text).await.said(&core)
}

/// Stops the calendar import under way; whether there was one.
#[tauri::command]
pub fn stop_reminders_import(core: Core<'_>) -> bool {
    core.reminders().stop_import()
}

#[tauri::command]
pub async fn cancel_reminder(core: Core<'_>, id: i64) -> Result<Reminder, CommandError> {
    core.reminders().cancel(id).await.said(&core)
}

#[tauri::command]
pub async fn snooze_reminder(core: Core<'_>, id: i64, minutes: u32) -> Result<sidecar::reminders::Snoozed, CommandError> {
    core.reminders().snooze(id, minutes).await.said(&core)
}

/// Notes `path` to be restored and restarts the app, which restores it before opening
/// the data (the running app holds it).
#[tauri::command]
pub fn restore_at_restart(app: tauri::AppHandle, core: Core<'_>, path: String) -> Result<(), CommandError> {
    sidecar::backup::pending::schedule(core.data_dir(), std::path::Path::new(&path))
        .map_err(|e| CompanionError::NotABackupFile(format!("{path} ({e})")))
        .said(&core)?;
    app.restart()
}

/// How the last restore asked for in Settings went, once.
#[tauri::command]
pub fn restore_note(core: Core<'_>) -> Option<sidecar::backup::pending::RestoreNote> {
    sidecar::backup::pending::take_result(core.data_dir())
}

/// The snooze choices in minutes, as the core offers them everywhere.
#[tauri::command]
pub fn snooze_choices() -> Vec<u32> {
    sidecar::reminders::service::SNOOZE_CHOICES.to_vec()
}

/// Snooze (`minutes`) or Done (none) on a reminder posted in the chat.
#[tauri::command]
pub async fn answer_reminder_message(core: Core<'_>, message_id: i64, minutes: Option<u32>) -> Result<Option<sidecar::reminders::Snoozed>, CommandError> {
    core.reminders().answer_message(message_id, minutes).await.said(&core)
}

#[tauri::command]
pub async fn proactive_status(core: Core<'_>) -> Result<ProactiveStatus, CommandError> {
    core.proactive().status().await.said(&core)
}

#[tauri::command]
pub async fn save_proactive_config(core: Core<'_>, config: ProactiveConfig) -> Result<ProactiveConfig, CommandError> {
    core.proactive().set_config(config).await.said(&core)
}

/// A thumb under a spontaneous message, or its notification clicked or closed.
#[tauri::command]
pub async fn spontaneous_feedback(core: Core<'_>, message_id: i64, signal: sidecar::proactive::learning::Signal) -> Result<(), CommandError> {
    core.proactive().feedback(message_id, signal).await.said(&core)
}

/// Settings → Proactivity's Reset of what was learned.
#[tauri::command]
pub async fn forget_learned(core: Core<'_>) -> Result<ProactiveStatus, CommandError> {
    core.proactive().forget_learned().await.said(&core)?;
    core.proactive().status().await.said(&core)
}

/// Writes settings.toml: off the main thread.
#[tauri::command]
pub async fn set_timezone(core: Core<'_>, zone: String) -> Result<String, CommandError> {
    Ok(blocking(&core, move |c| c.set_timezone(&zone)).await.said(&core)?.name().to_string())
}

/// Quiet for `minutes`, or lifted with `None`.
#[tauri::command]
pub async fn set_quiet(core: Core<'_>, minutes: Option<i64>) -> Result<ProactiveStatus, CommandError> {
    core.proactive().set_quiet(minutes, None).await.said(&core)?;
    core.proactive().status().await.said(&core)
}

/// Problems found at start that the user should see (a bad time zone in settings).
#[tauri::command]
pub fn core_warnings(core: Core<'_>) -> Vec<String> {
    core.warnings().to_vec()
}

/// Opens the folder of the daily log files in the system's file manager.
#[tauri::command]
pub fn open_logs_folder(app: AppHandle, core: Core<'_>) -> Result<(), CommandError> {
    use tauri_plugin_opener::OpenerExt;
    let dir = sidecar::logging::log_dir(core.data_dir());
    app.opener().open_path(dir.to_string_lossy(), None::<&str>).map_err(|e| CommandError {
        message: format!("cannot open {}: {e}", dir.display()),
        retryable: false,
        cancelled: false,
    })
}

/// Settings → Channels: each phone channel's state, pairing and token source.
#[tauri::command]
pub fn channels_view(core: Core<'_>) -> sidecar::channels::service::ChannelsView {
    core.channels().view()
}

/// Saves the bot token (keychain) and turns Telegram on: off the main thread.
#[tauri::command]
pub async fn set_telegram_token(core: Core<'_>, token: String) -> Result<sidecar::channels::service::ChannelsView, CommandError> {
    blocking(&core, move |c| c.channels().set_telegram_token(&token)).await.said(&core)?;
    Ok(core.channels().view())
}

#[tauri::command]
pub async fn set_telegram_enabled(core: Core<'_>, enabled: bool) -> Result<sidecar::channels::service::ChannelsView, CommandError> {
    blocking(&core, move |c| c.channels().set_telegram_enabled(enabled)).await.said(&core)?;
    Ok(core.channels().view())
}

#[tauri::command]
pub fn new_telegram_code(core: Core<'_>) -> Result<sidecar::channels::service::ChannelsView, CommandError> {
    core.channels().telegram_pairing_code().said(&core)?;
    Ok(core.channels().view())
}

#[tauri::command]
pub async fn unpair_telegram(core: Core<'_>, chat: i64) -> Result<sidecar::channels::service::ChannelsView, CommandError> {
    blocking(&core, move |c| c.channels().unpair_telegram(chat)).await.said(&core)?;
    Ok(core.channels().view())
}

#[tauri::command]
pub async fn set_whatsapp_enabled(core: Core<'_>, enabled: bool) -> Result<sidecar::channels::service::ChannelsView, CommandError> {
    blocking(&core, move |c| c.channels().set_whatsapp_enabled(enabled)).await.said(&core)?;
    Ok(core.channels().view())
}

#[tauri::command]
pub async fn unlink_whatsapp(core: Core<'_>) -> Result<sidecar::channels::service::ChannelsView, CommandError> {
    blocking(&core, |c| c.channels().unlink_whatsapp()).await.said(&core)?;
    Ok(core.channels().view())
}

/// The chat commands with a line each, for the `/` palette (the core's table).
#[tauri::command]
pub fn command_table(core: Core<'_>) -> Vec<sidecar::words::command_table::CommandHelp> {
    sidecar::words::command_table::command_table(core.lang())
}

/// The IANA zone names the core knows, for the time zone picker.
#[tauri::command]
pub fn time_zones() -> Vec<&'static str> {
    sidecar::clock::zone_names()
}
