//! What looking for updates says happened (Settings → About, the notification).

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum UpdateEvent {
    /// Looking for an update or installing one moved on (Settings → About).
    Update(crate::updates::view::UpdatesView),
    /// The daily look found a newer version: a notification's title and body.
    UpdateFound { title: String, body: String },
}
