//! IPC commands for memory as a whole: recall by meaning's embedder, backups, export
//! and imports from other assistants. Each a few lines calling the core.

use sidecar::backup::BackupInfo;
use sidecar::data_service::ChatImport;
use sidecar::export::ExportFormat;
use sidecar::meaning::setup::{MeaningInput, MeaningView};
use tauri::AppHandle;

use sidecar::knowledge::profile_form::ProfileFields;
use sidecar::knowledge::store::ProfileView;
use sidecar::CompanionError;

use crate::commands::{blocking, CommandError, Core, SaidBy};

#[tauri::command]
pub async fn meaning_setup(core: Core<'_>) -> Result<MeaningView, CommandError> {
    Ok(core.meaning_setup().view().await)
}

#[tauri::command]
pub async fn save_meaning(core: Core<'_>, input: MeaningInput) -> Result<MeaningView, CommandError> {
    core.meaning_setup().save(input).await.said(&core)
}

#[tauri::command]
pub async fn back_up_now(core: Core<'_>) -> Result<BackupInfo, CommandError> {
    core.data().back_up(None).await.said(&core)
}

/// The automatic backups kept, newest first (date, file).
#[tauri::command]
pub fn automatic_backups(core: Core<'_>) -> Vec<(String, String)> {
    let mut kept = core.data().backups().automatic();
    kept.reverse();
    kept.into_iter().map(|(date, path)| (date.to_string(), path.display().to_string())).collect()
}

/// How many days conversations are kept (`None`: everything).
#[tauri::command]
pub fn keep_days(core: Core<'_>) -> Option<u32> {
    core.settings().retention.keep_days
}

#[tauri::command]
pub fn set_keep_days(core: Core<'_>, days: Option<u32>) -> Result<(), CommandError> {
    core.set_keep_days(days).said(&core)
}

/// Tidies what is kept now; what it did.
#[tauri::command]
pub async fn tidy_now(core: Core<'_>) -> Result<sidecar::data_service::TidyReport, CommandError> {
    core.tidy().await.said(&core)
}

#[tauri::command]
pub async fn export_data(core: Core<'_>, format: ExportFormat) -> Result<String, CommandError> {
    Ok(core.data().export_to_file(format).await.said(&core)?.display().to_string())
}

/// One conversation as Markdown in the exports folder; the file.
#[tauri::command]
pub async fn export_chat(core: Core<'_>, id: i64) -> Result<String, CommandError> {
    Ok(core.data().export_conversation_to_file(id).await.said(&core)?.display().to_string())
}

#[tauri::command]
pub async fn import_chat_export(core: Core<'_>, text: String) -> Result<ChatImport, CommandError> {
    core.data().import_chat_export(text.as_bytes()).await.said(&core)
}

/// Shows the folder holding `path` (a backup or an export) in the file manager.
#[tauri::command]
pub fn reveal_path(app: AppHandle, path: String) -> Result<(), CommandError> {
    use tauri_plugin_opener::OpenerExt;
    let folder = std::path::Path::new(&path).parent().map(|p| p.to_string_lossy().to_string()).unwrap_or(path);
    app.opener().open_path(folder.clone(), None::<&str>).map_err(|e| CommandError {
        message: format!("cannot open {folder}: {e}"),
        retryable: false,
        cancelled: false,
    })
}

#[tauri::command]
pub fn auto_remember(core: Core<'_>) -> bool {
    core.noticing().saves_without_asking()
}

#[tauri::command]
pub fn set_auto_remember(core: Core<'_>, on: bool) -> Result<bool, CommandError> {
    core.noticing().set_saves_without_asking(on).map_err(|e| CommandError { message: e.to_string(), retryable: false, cancelled: false })?;
    Ok(on)
}

#[tauri::command]
pub async fn profile_fields(core: Core<'_>) -> Result<ProfileView, CommandError> {
    blocking(&core, |c| c.knowledge().profile_fields().map_err(CompanionError::from)).await.said(&core)
}

/// New lines and headings are written in the language the user chose.
#[tauri::command]
pub async fn save_profile_fields(core: Core<'_>, fields: ProfileFields, user_version: String, soul_version: String) -> Result<ProfileView, CommandError> {
    blocking(&core, move |c| c.knowledge().save_profile_fields(&fields, &user_version, &soul_version, c.preferences().lang()).map_err(CompanionError::from))
        .await
        .said(&core)
}
