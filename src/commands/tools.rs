//! The window's tools commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use serde::Serialize;
use sidecar_actions::ServerForm;
use sidecar_actions::ServerStatus;
use sidecar_actions::ImportReport;
use sidecar_actions::Grant;

#[derive(Serialize, ts_rs::TS)]
pub(super) struct McpView {
    config_path: String,
    servers: Vec<ServerStatus>,
}

fn mcp_view(core: &crate::Companion) -> McpView {
    McpView { config_path: core.mcp().config_path().display().to_string(), servers: core.mcp().servers() }
}

fn failed(error: impl std::fmt::Display) -> CommandError {
    CommandError { message: error.to_string(), retryable: false, cancelled: false }
}

commands! {
    /// The permission questions waiting for a click (a window opened late shows them).
    async fn permission_questions(core) -> Result<Vec<sidecar_actions::Question>, CommandError> {
        Ok(core.window_questions().waiting())
    }

    /// A permission card's click; false when the question no longer waits.
    async fn answer_permission(core, id: u64, choice: sidecar_actions::Choice) -> Result<bool, CommandError> {
        Ok(core.window_questions().answer(id, choice))
    }

    async fn mcp_servers(core) -> Result<McpView, CommandError> {
        Ok(mcp_view(&core))
    }

    /// Adds a server, or edits one, as Settings' form has it.
    async fn mcp_save(core, name: String, form: ServerForm) -> Result<McpView, CommandError> {
        core.mcp().save(&name, &form).map_err(failed)?;
        Ok(mcp_view(&core))
    }

    async fn mcp_remove(core, name: String) -> Result<McpView, CommandError> {
        core.mcp().remove(&name).map_err(failed)?;
        core.permissions().revoke(&name, None).await.map_err(failed)?;
        Ok(mcp_view(&core))
    }

    async fn mcp_set_enabled(core, name: String, enabled: bool) -> Result<McpView, CommandError> {
        core.mcp().set_enabled(&name, enabled).map_err(failed)?;
        Ok(mcp_view(&core))
    }

    /// Brings in the servers of Claude Desktop, Cursor, LM Studio and Jan found here.
    async fn mcp_import(core) -> Result<Vec<(String, ImportReport)>, CommandError> {
        let reports = sidecar_actions::known_mcp_files()
            .into_iter()
            .map(|file| Ok((file.display().to_string(), sidecar_actions::import_mcp_file(core.mcp().config_path(), &file).map_err(failed)?)))
            .collect::<Result<Vec<_>, CommandError>>()?;
        core.mcp().reload().map_err(failed)?;
        Ok(reports)
    }

    async fn list_grants(core) -> Result<Vec<Grant>, CommandError> {
        core.permissions().grants().await.map_err(failed)
    }

    async fn revoke_grant(core, server: String, tool: Option<String>) -> Result<Vec<Grant>, CommandError> {
        core.permissions().revoke(&server, tool.as_deref()).await.map_err(failed)?;
        core.permissions().grants().await.map_err(failed)
    }

    async fn notes_view(core) -> Result<sidecar_actions::NotesView, CommandError> {
        Ok(core.notes().view())
    }

    /// Settings → Notes: the folder the note tools use (`None`: none).
    async fn choose_notes_folder(core, folder: Option<std::path::PathBuf>) -> Result<sidecar_actions::NotesView, CommandError> {
        core.notes().choose(folder.as_deref()).map_err(failed)
    }

    async fn auto_allow_read_only(core) -> Result<bool, CommandError> {
        Ok(core.permissions().auto_read_only())
    }

    async fn set_auto_allow_read_only(core, on: bool) -> Result<bool, CommandError> {
        core.set_auto_allow_read_only(on).said(&core)?;
        Ok(on)
    }
}
