//! Speaking first about something Sidecar noticed itself (a mail from someone who
//! matters that asks by a date): Sidecar's own words, under the same rules, limits and
//! budget as a tick, and no model asked, so nothing a stranger wrote chooses what is
//! said or whether.

use super::{Opened, ProactiveService};
use crate::error::ProactiveError;
use crate::rules::{Approved, MessageType, Skip};
use crate::{TickMode, TickReport};

impl ProactiveService {
    /// Says `text` as a contextual message when the rules let anything be said now (at
    /// Medium or High): `Sent`, or `Skipped` with why (the caller may offer it again
    /// later).
    pub async fn speak_of(&self, text: &str) -> Result<TickReport, ProactiveError> {
        let Opened { now, config, state, channel, .. } = match self.open(TickMode::Send).await? {
            Ok(opened) => opened,
            Err(reason) => return Ok(TickReport::Skipped { reason }),
        };
        // Said at Medium too, where the model's own remarks are not: the user named who
        // matters, and what they ask is theirs to answer. Low says nothing (`open`); a
        // kind the user's answers paused stays paused.
        if !Self::learned_welcome(&config, &state, now, channel, MessageType::Contextual) {
            return Ok(TickReport::Skipped { reason: Skip::NotWelcome });
        }
        // A reply or a tick being written: this waits for the next chance (P7).
        let Ok(_brain) = self.brain.try_lock() else {
            return Ok(TickReport::Skipped { reason: Skip::BrainBusy });
        };
        let approved = Approved { message_type: MessageType::Contextual, greeting: None, text: text.trim().to_string() };
        let routed = self.send_approved(&approved, &config, now, channel).await?;
        tracing::info!(reached = routed.reached_anyone(), "spoke first about something noticed");
        Ok(TickReport::Sent { approved, routed, prompt_tokens: 0 })
    }
}
