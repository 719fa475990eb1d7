//! New mail while the app runs: IMAP IDLE on the Inbox, where the server has it; a
//! poll where it does not.

use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;

use crate::error::MailError;
use crate::service::MailService;

/// The poll, where the server has no IDLE or the app is not watching.
pub const POLL_EVERY: Duration = Duration::from_secs(15 * 60);

/// Why a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Woke {
    /// The server said the folder changed (new mail, an expunge).
    Changed,
    /// `limit` passed with nothing said (sync anyway: IDLE can miss what a server
    /// forgets to say).
    Quiet,
}

impl MailService {
    /// Waits until the Inbox changes or `limit` passes, on a session of its own.
    #[tracing::instrument(skip(self))]
    pub async fn wait_for_mail(&self, limit: Duration) -> Result<Woke, MailError> {
        let (_, mut session) = self.session().await?;
        if !session.capabilities().await?.has_str("IDLE") {
            let _ = session.logout().await;
            tokio::time::sleep(limit).await;
            return Ok(Woke::Quiet);
        }
        session.examine("INBOX").await?;
        let mut idle = session.idle();
        idle.init().await?;
        let (wait, _stop) = idle.wait_with_timeout(limit);
        let woke = match wait.await? {
            IdleResponse::NewData(_) => Woke::Changed,
            IdleResponse::Timeout | IdleResponse::ManualInterrupt => Woke::Quiet,
        };
        if let Ok(mut session) = idle.done().await {
            let _ = session.logout().await;
        }
        Ok(woke)
    }
}
