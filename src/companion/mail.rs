//! Mail in the assembly: the account connected and disconnected, `search_mail` offered
//! while it is, and a loop that keeps the chosen folders up to date (IDLE on the Inbox
//! while the app runs, a sync when it wakes and at least every quarter of an hour) and
//! speaks first, once, about a mail that asks by a date.

use std::sync::Arc;
use std::time::Duration;

use super::Companion;
use sidecar_mail::{Connect, MailService, MailView};

/// How long after a failed sync or wait the loop tries again.
const RETRY_AFTER: Duration = Duration::from_secs(5 * 60);

impl Companion {
    /// The mail account: connect, choose folders, who matters, sync, search.
    pub fn mail(&self) -> &Arc<MailService> {
        &self.mail
    }

    /// Connects the account (the login checked, the folders listed, the first sync done)
    /// and offers `search_mail`.
    pub async fn connect_mail(&self, connect: Connect) -> Result<MailView, crate::CompanionError> {
        let view = self.mail.connect(connect, self.preferences.lang()).await?;
        Ok(self.offer_mail_tool(view))
    }

    /// Forgets the account and deletes every stored mail; `search_mail` goes.
    pub async fn disconnect_mail(&self) -> Result<MailView, crate::CompanionError> {
        let view = self.mail.disconnect().await?;
        // Recall's vectors of the mails go with them, not at the next tidy.
        if let Err(error) = self.meaning().forget_orphans().await {
            tracing::warn!(%error, "the vectors of the deleted mail could not be forgotten yet");
        }
        Ok(self.offer_mail_tool(view))
    }

    /// Speaks first about the oldest mail from someone who matters that asks by a date
    /// and was not spoken of, when the proactive rules let anything be said now; once
    /// said, never again. Sidecar's own words: no model reads the mail for this.
    pub async fn speak_of_mail(&self) -> Result<Option<sidecar_proactive::TickReport>, crate::CompanionError> {
        let Some(hit) = self.mail.unspoken_asks().await?.into_iter().next() else { return Ok(None) };
        let Some(words) = self.mail.ask_words(&hit, self.preferences.lang()) else { return Ok(None) };
        let report = self.proactive.speak_of(&words).await?;
        if matches!(report, sidecar_proactive::TickReport::Sent { .. }) {
            self.mail.spoken(hit.id).await?;
        }
        tracing::info!(mail = hit.id, report = ?report, "a mail that asks by a date");
        Ok(Some(report))
    }

    fn offer_mail_tool(&self, view: MailView) -> MailView {
        let offered = if view.account.is_some() { vec![self.mail_tool.clone()] } else { Vec::new() };
        self.calendar_tools.1.set("mail", offered);
        view
    }

    /// Keeps the chosen folders up to date while an account is connected: a sync, then
    /// IDLE on the Inbox until it changes or [`sidecar_mail::POLL_EVERY`] passes. The
    /// server down or refusing: each folder keeps its last copy and says why.
    pub(crate) async fn watch_mail(self: Arc<Self>) {
        loop {
            if !self.mail.view().await.is_ok_and(|view| view.account.is_some()) {
                tokio::time::sleep(RETRY_AFTER).await;
                continue;
            }
            if let Err(error) = self.mail.sync_all(self.preferences.lang()).await {
                tracing::warn!(%error, "the mail could not be synced");
                tokio::time::sleep(RETRY_AFTER).await;
                continue;
            }
            if let Err(error) = self.speak_of_mail().await {
                tracing::warn!(%error, "a mail that asks could not be spoken of");
            }
            if let Err(error) = self.mail.wait_for_mail(sidecar_mail::POLL_EVERY).await {
                tracing::warn!(%error, "waiting for new mail failed");
                tokio::time::sleep(RETRY_AFTER).await;
            }
        }
    }
}

impl Companion {
    /// Senders the user may want among who matters: those whose first name the user's
    /// facts or calendar (30 days back and ahead) already name.
    pub async fn mail_suggestions(&self) -> Result<Vec<sidecar_mail::SenderSuggestion>, crate::CompanionError> {
        let now = self.clock.now();
        let month = chrono::Duration::days(30);
        let events = self.calendar.between(now - month, now + month).await.unwrap_or_default();
        let known: Vec<String> = self.knowledge.facts().into_iter().map(|f| f.fact.text).chain(events.into_iter().map(|e| e.summary)).collect();
        Ok(self.mail.suggestions(&known).await?)
    }
}
