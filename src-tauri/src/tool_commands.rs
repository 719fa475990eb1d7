//! IPC commands for MCP servers and permissions: Settings → Tools and Permissions, and
//! the chat's permission cards. Each a few lines calling the core.

use std::sync::Arc;

use sidecar::permissions::asking::WindowQuestions;
use sidecar::permissions::grant::Choice;
use sidecar::permissions::Question;
use tauri::State;

/// The permission cards the window shows, and the clicks that answer them.
pub(crate) type Questions<'a> = State<'a, Arc<WindowQuestions>>;

#[tauri::command]
pub fn permission_questions(questions: Questions<'_>) -> Vec<Question> {
    questions.waiting()
}

#[tauri::command]
pub fn answer_permission(questions: Questions<'_>, id: u64, choice: Choice) -> bool {
    questions.answer(id, choice)
}
