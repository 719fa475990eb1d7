//! IPC commands for MCP servers and permissions: Settings → Tools and Permissions, and
//! the chat's permission cards. Each a few lines calling the core.

use std::sync::Arc;

use serde::Serialize;
use sidecar::mcp::form::ServerForm;
use sidecar::mcp::hub::ServerStatus;
use sidecar::mcp::import::ImportReport;
use sidecar::permissions::asking::WindowQuestions;
use sidecar::permissions::grant::{Choice, Grant};
use sidecar::permissions::Question;
use tauri::State;

use crate::commands::{CommandError, Core, SaidBy};

/// The permission cards the window shows, and the clicks that answer them.
pub(crate) type Questions<'a> = State<'a, Arc<WindowQuestions>>;

#[derive(Serialize)]
pub struct McpView {
    config_path: String,
    servers: Vec<ServerStatus>,
}

fn failed(error: impl std::fmt::Display) -> CommandError {
    CommandError { message: error.to_string(), retryable: false, cancelled: false }
}

#[tauri::command]
pub fn mcp_servers(core: Core<'_>) -> McpView {
    McpView { config_path: core.mcp().config_path().display().to_string(), servers: core.mcp().servers() }
}

/// Adds a server, or edits one, as Settings' form has it.
#[tauri::command]
pub fn mcp_save(core: Core<'_>, name: String, form: ServerForm) -> Result<McpView, CommandError> {
    core.mcp().save(&name, &form).map_err(failed)?;
    Ok(mcp_servers(core))
}

#[tauri::command]
pub async fn mcp_remove(core: Core<'_>, name: String) -> Result<McpView, CommandError> {
    core.mcp().remove(&name).map_err(failed)?;
    core.permissions().revoke(&name, None).await.map_err(failed)?;
    Ok(mcp_servers(core))
}

#[tauri::command]
pub fn mcp_set_enabled(core: Core<'_>, name: String, enabled: bool) -> Result<McpView, CommandError> {
    core.mcp().set_enabled(&name, enabled).map_err(failed)?;
    Ok(mcp_servers(core))
}

/// Brings in the servers of Claude Desktop, Cursor, LM Studio and Jan found here.
#[tauri::command]
pub fn mcp_import(core: Core<'_>) -> Result<Vec<(String, ImportReport)>, CommandError> {
    let reports = sidecar::mcp::import::known_files()
        .into_iter()
        .map(|file| Ok((file.display().to_string(), sidecar::mcp::import::import_file(core.mcp().config_path(), &file).map_err(failed)?)))
        .collect::<Result<Vec<_>, CommandError>>()?;
    core.mcp().reload().map_err(failed)?;
    Ok(reports)
}

#[tauri::command]
pub fn permission_questions(questions: Questions<'_>) -> Vec<Question> {
    questions.waiting()
}

#[tauri::command]
pub fn answer_permission(questions: Questions<'_>, id: u64, choice: Choice) -> bool {
    questions.answer(id, choice)
}

#[tauri::command]
pub async fn list_grants(core: Core<'_>) -> Result<Vec<Grant>, CommandError> {
    core.permissions().grants().await.map_err(failed)
}

#[tauri::command]
pub async fn revoke_grant(core: Core<'_>, server: String, tool: Option<String>) -> Result<Vec<Grant>, CommandError> {
    core.permissions().revoke(&server, tool.as_deref()).await.map_err(failed)?;
    core.permissions().grants().await.map_err(failed)
}

#[tauri::command]
pub fn notes_view(core: Core<'_>) -> sidecar::notes::setup::NotesView {
    core.notes().view()
}

/// Settings → Notes: the folder the note tools use (`None`: none).
#[tauri::command]
pub fn choose_notes_folder(core: Core<'_>, folder: Option<std::path::PathBuf>) -> Result<sidecar::notes::setup::NotesView, CommandError> {
    core.notes().choose(folder.as_deref()).map_err(failed)
}

#[tauri::command]
pub fn auto_allow_read_only(core: Core<'_>) -> bool {
    core.permissions().auto_read_only()
}

#[tauri::command]
pub fn set_auto_allow_read_only(core: Core<'_>, on: bool) -> Result<bool, CommandError> {
    core.set_auto_allow_read_only(on).said(&core)?;
    Ok(on)
}
