//! The morning brief as the faces reach it: turned on at a time (with the weather tool
//! when there is one), the place for its weather, and the user's thumbs kept. Its runs
//! are the tasks' runner's (`sidecar_tasks::Runner`).

use chrono::NaiveTime;

use super::Companion;
use sidecar_tasks::Task;

impl Companion {
    /// Turns the morning brief on at `at` ("07:30", the user's time) every day, moves
    /// it, or turns it off (`None`).
    pub async fn set_brief(&self, at: Option<&str>) -> Result<Option<Task>, crate::CompanionError> {
        let at = at.map(|t| NaiveTime::parse_from_str(t.trim(), "%H:%M").map_err(|_| sidecar_tasks::TasksError::NotATime(t.to_string()))).transpose()?;
        let tools: Vec<String> = self.conversation.tools().tools().filter(|t| t.name() == sidecar_tasks::WEATHER).map(|t| t.name().to_string()).collect();
        Ok(self.tasks.set_brief(at, &tools, self.clock.now(), self.clock.zone(), self.preferences.lang()).await?)
    }

    /// Where the brief looks up the weather ("Madrid"); empty takes it away, and the
    /// brief leaves the weather out.
    pub async fn set_brief_place(&self, place: &str) -> Result<(), crate::CompanionError> {
        let place = sidecar_tasks::read_place(place)?;
        self.models.settings_owner().change(sidecar_settings::Change::Place(place))?;
        Ok(())
    }

    /// The user's thumb on a brief (a message in the Tasks conversation).
    pub async fn rate_brief(&self, message_id: i64, liked: bool) -> Result<(), crate::CompanionError> {
        let text = self.store.conversations().message(message_id).await?.map(|m| m.content).unwrap_or_default();
        Ok(self.tasks.rate_brief(message_id, liked, &text).await?)
    }
}
