//! The window's reminders commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use sidecar_reminders::Reminder;
use sidecar_reminders::Setting;

commands! {
    async fn reminders_overview(core) -> Result<sidecar_reminders::Overview, CommandError> {
        core.reminders().overview().await.said(&core)
    }

    async fn preview_when(core, text: String) -> Result<sidecar_reminders::WhenPreview, CommandError> {
        Ok(core.reminders().preview(&text))
    }

    async fn preview_reminder_when(core, text: String) -> Result<sidecar_reminders::WhenPreview, CommandError> {
        Ok(core.reminders().preview_reminder(&text).await)
    }

    async fn add_reminder(core, message: String, when: String) -> Result<Setting, CommandError> {
        core.reminders().set(&message, &when).await.said(&core)
    }

    async fn preview_sentence(core, text: String) -> Result<sidecar_reminders::SentencePreview, CommandError> {
        Ok(core.reminders().preview_sentence(&text).await)
    }

    async fn add_reminder_sentence(core, sentence: String) -> Result<Setting, CommandError> {
        core.reminders().set_from_sentence(&sentence).await.said(&core)
    }

    /// Writes the pending reminders to `sidecar-reminders.ics` in the Downloads folder (the
    /// data folder when there is none); returns the file's path.
    async fn export_reminders_ics(core) -> Result<String, CommandError> {
        let dir = sidecar_domain::export_dir(core.data_dir());
        Ok(core.reminders().export_ics_to(&dir).await.said(&core)?.display().to_string())
    }

    async fn import_reminders_ics(core, text: String) -> Result<sidecar_reminders::ImportReport, CommandError> {
        core.reminders().import_ics(&text).await.said(&core)
    }

    /// Stops the calendar import under way; whether there was one.
    async fn stop_reminders_import(core) -> Result<bool, CommandError> {
        Ok(core.reminders().stop_import())
    }

    async fn cancel_reminder(core, id: i64) -> Result<Reminder, CommandError> {
        core.reminders().cancel(id).await.said(&core)
    }

    /// New words, and a new time when `when` says one.
    async fn edit_reminder(core, id: i64, message: String, when: Option<String>) -> Result<Reminder, CommandError> {
        core.reminders().edit(id, &message, when.as_deref()).await.said(&core)
    }

    /// The Undo of a cancel.
    async fn restore_reminder(core, id: i64) -> Result<Reminder, CommandError> {
        core.reminders().restore(id).await.said(&core)
    }

    async fn snooze_reminder(core, id: i64, minutes: u32) -> Result<sidecar_reminders::Snoozed, CommandError> {
        core.reminders().snooze(id, minutes).await.said(&core)
    }

    /// How the last restore asked for in Settings went, once.
    async fn restore_note(core) -> Result<Option<sidecar_data::RestoreNote>, CommandError> {
        Ok(sidecar_data::take_restore_result(core.data_dir()))
    }

    /// The snooze choices in minutes, as the core offers them everywhere.
    async fn snooze_choices(_core) -> Result<Vec<u32>, CommandError> {
        Ok(sidecar_reminders::SNOOZE_CHOICES.to_vec())
    }

    /// Snooze (`minutes`) or Done (none) on a reminder posted in the chat.
    async fn answer_reminder_message(core, message_id: i64, minutes: Option<u32>) -> Result<Option<sidecar_reminders::Snoozed>, CommandError> {
        core.reminders().answer_message(message_id, minutes).await.said(&core)
    }
}
