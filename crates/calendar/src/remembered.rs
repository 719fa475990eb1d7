//! An account's choices kept across a disconnect: connecting the same account (address
//! and user name) again brings back the calendars turned off, the one Sidecar writes and
//! the reminders' mirror (the first hour's M4), rather than resetting them.

use serde::{Deserialize, Serialize};
use sidecar_store::StoreError;

use crate::error::CalendarError;
use crate::rows::CalendarStore;
use crate::service::CalendarService;

/// What the user chose for an account's calendars, by their addresses.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Choices {
    /// Calendars turned off (a calendar found later is read, as a new one always is).
    pub unread: Vec<String>,
    pub writable: Option<String>,
    pub mirror: bool,
}

impl CalendarService {
    /// The account's choices now, kept for when it comes back.
    pub(crate) async fn remember_choices(&self, url: &str, username: &str) -> Result<(), CalendarError> {
        let calendars = self.store().calendar_table().all().await?.into_iter().filter(|c| c.source == "caldav").collect::<Vec<_>>();
        let choices = Choices {
            unread: calendars.iter().filter(|c| !c.read).map(|c| c.href.clone()).collect(),
            writable: calendars.iter().find(|c| c.writable).map(|c| c.href.clone()),
            mirror: self.mirrors_reminders().await?,
        };
        let text = serde_json::to_string(&choices).unwrap_or_default();
        sqlx::query(
            "INSERT INTO calendar_remembered (url, username, choices) VALUES (?, ?, ?) ON CONFLICT (url, username) DO UPDATE SET choices = excluded.choices",
        )
        .bind(url)
        .bind(username)
        .bind(text)
        .execute(self.store().pool())
        .await
        .map_err(StoreError::from)?;
        Ok(())
    }

    /// Brings back what was chosen for this account before it was disconnected, if
    /// anything; calendars no longer on the server are left out.
    pub(crate) async fn restore_choices(&self, url: &str, username: &str) -> Result<(), CalendarError> {
        let kept: Option<String> = sqlx::query_scalar("SELECT choices FROM calendar_remembered WHERE url = ? AND username = ?")
            .bind(url)
            .bind(username)
            .fetch_optional(self.store().pool())
            .await
            .map_err(StoreError::from)?;
        let Some(choices) = kept.and_then(|text| serde_json::from_str::<Choices>(&text).ok()) else { return Ok(()) };
        let table = self.store().calendar_table();
        let all = table.all().await?;
        let read: Vec<i64> = all.iter().filter(|c| !choices.unread.contains(&c.href)).map(|c| c.id).collect();
        let writable = all.iter().find(|c| Some(&c.href) == choices.writable.as_ref()).map(|c| c.id);
        table.choose(&read, writable).await?;
        if choices.mirror && writable.is_some() {
            self.set_mirror(true).await?;
        }
        Ok(())
    }
}
