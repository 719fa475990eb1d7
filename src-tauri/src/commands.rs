//! IPC commands: each one a few lines calling the core.

use std::sync::Arc;

use serde::Serialize;
use sidecar::store::Message;
use sidecar::{Companion, CompanionError, ModelStatus, TurnOutcome};
use tauri::{AppHandle, State};

/// An error as the UI receives it: what to show, and whether Retry makes sense.
#[derive(Debug, Serialize)]
pub struct CommandError {
    message: String,
    retryable: bool,
}

impl From<CompanionError> for CommandError {
    fn from(error: CompanionError) -> Self {
        Self {
            retryable: error.is_retryable(),
            message: error.to_string(),
        }
    }
}

type Core<'a> = State<'a, Arc<Companion>>;

#[tauri::command]
pub async fn send_message(core: Core<'_>, text: String) -> Result<TurnOutcome, CommandError> {
    Ok(core.send(&text).await?)
}

#[tauri::command]
pub async fn retry_reply(core: Core<'_>) -> Result<TurnOutcome, CommandError> {
    Ok(core.retry().await?)
}

#[tauri::command]
pub fn stop_reply(core: Core<'_>) -> bool {
    core.stop()
}

#[tauri::command]
pub async fn load_history(core: Core<'_>, limit: Option<u32>) -> Result<Vec<Message>, CommandError> {
    Ok(core.history(limit.unwrap_or(200)).await?)
}

#[tauri::command]
pub fn model_status(core: Core<'_>) -> ModelStatus {
    core.model_status()
}

#[tauri::command]
pub async fn send_test_notification(app: AppHandle) {
    // notify-rust blocks on D-Bus; keep it off the async workers.
    let _ = tauri::async_runtime::spawn_blocking(move || crate::tray::send_test_notification(&app)).await;
}

#[tauri::command]
pub fn ui_language() -> sidecar::locale::Lang {
    sidecar::locale::Lang::from_env()
}
