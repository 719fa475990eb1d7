//! A result delivered: a notification and the phone (when away), unless the task is not
//! one to deliver always and Sidecar is quiet or the day's task notifications are spent.
//! Then the result waits in Tasks (it is there either way) and is notified later,
//! together with any others.

use super::Runner;
use crate::rows::Task;

/// A result's notification body is cut here; the whole is in the Tasks conversation.
const BODY_CHARS: usize = 240;

/// A task's notification, as the outbox sends it.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskNote {
    /// The task's title (or how many results come together).
    pub title: String,
    /// The start of the result, cut at [`BODY_CHARS`].
    pub body: String,
    /// The whole result, for a chat on the phone.
    pub text: String,
    /// The result's message in the Tasks conversation.
    pub message_id: Option<i64>,
    /// 0 for results held back and notified together.
    pub task_id: i64,
}

impl TaskNote {
    fn new(title: String, text: &str, message_id: Option<i64>, task_id: i64) -> Self {
        let body: String = text.chars().take(BODY_CHARS).collect();
        let body = if body.len() < text.len() { format!("{}…", body.trim_end()) } else { body };
        Self { title, body, text: text.to_string(), message_id, task_id }
    }
}

impl Runner {
    pub(super) async fn deliver(&self, task: &Task, text: &str, message_id: Option<i64>) {
        if !task.always_deliver {
            match self.may_notify().await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::info!(task_id = task.id, "quiet or the day's notifications spent: the result waits in Tasks, notified later");
                    if let Some(message_id) = message_id {
                        if let Err(error) = self.tasks.hold(task.id, message_id).await {
                            tracing::warn!(%error, "a result held back was not kept to notify later");
                        }
                    }
                    return;
                }
                Err(error) => return tracing::warn!(%error, "whether Sidecar may notify is unknown: the result waits in the Tasks conversation"),
            }
        }
        self.notify(TaskNote::new(task.title.clone(), text, message_id, task.id)).await;
    }

    /// Not quiet, and fewer than [`crate::NOTIFICATIONS_PER_DAY`] task notifications went out today.
    async fn may_notify(&self) -> Result<bool, super::ServiceError> {
        if self.services.quiet().await? {
            return Ok(false);
        }
        Ok(self.tasks.may_notify(self.clock.local_midnight()).await?)
    }

    /// Once Sidecar may notify again: the results held back, in one notification (each
    /// task's title and the start of its result; the Tasks conversation has them whole).
    pub(super) async fn deliver_held_results(&self) {
        if !self.tasks.any_held().await.unwrap_or(false) || !self.may_notify().await.unwrap_or(false) {
            return;
        }
        let held = match self.tasks.take_held().await {
            Ok(held) if !held.is_empty() => held,
            Ok(_) => return,
            Err(error) => return tracing::warn!(%error, "the results held back could not be read"),
        };
        let lines: Vec<String> = held.iter().map(|(_, title, text)| format!("{title}: {}", text.lines().next().unwrap_or_default())).collect();
        let last = held.last().map(|(id, _, _)| *id);
        let title = crate::words::held_title(self.services.lang(), held.len());
        self.notify(TaskNote::new(title, &lines.join("\n"), last, 0)).await;
    }

    /// Sends the note and counts it toward the day's [`crate::NOTIFICATIONS_PER_DAY`].
    async fn notify(&self, note: TaskNote) {
        match self.services.notify(note).await {
            Ok(()) => {
                if let Err(error) = self.tasks.notified(self.clock.now()).await {
                    tracing::warn!(%error, "a task's notification was not counted");
                }
            }
            Err(error) => tracing::warn!(%error, "where to deliver a task's result is unknown"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TaskNote;

    #[test]
    fn a_long_result_is_cut_for_the_notification_and_kept_whole_for_the_chat() {
        let text = "word ".repeat(100);
        let note = TaskNote::new("Weather".into(), &text, Some(7), 3);
        assert_eq!(note.body.chars().count(), 240, "{}", note.body);
        assert!(note.body.ends_with("word…"));
        assert_eq!(note.text, text);
        assert_eq!(TaskNote::new("t".into(), "short", None, 1).body, "short");
    }
}
