//! The window's mail commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use sidecar_mail::{Connect, FolderSync, MailSecurity, MailServer, MailView, SenderSuggestion};

commands! {
    async fn mail_view(core) -> Result<MailView, CommandError> {
        core.mail().view().await.said(&core)
    }

    /// The server of the address's provider, when Sidecar knows it, with what it asks for.
    async fn mail_preset(core, address: String) -> Result<Option<MailServer>, CommandError> {
        Ok(sidecar_mail::preset(&address, core.preferences().lang()))
    }

    async fn connect_mail(core, address: String, host: String, port: u16, security: MailSecurity, username: String, password: String) -> Result<MailView, CommandError> {
        let server = MailServer { host, port, security, hint: None };
        core.connect_mail(Connect { address, server, username, password, first_days: 30 }).await.said(&core)
    }

    async fn choose_mail_folders(core, read: Vec<String>) -> Result<MailView, CommandError> {
        core.mail().choose_folders(&read).await.said(&core)
    }

    async fn set_who_matters(core, people: Vec<String>) -> Result<MailView, CommandError> {
        core.mail().set_who_matters(&people).await.said(&core)
    }

    /// Senders the user's facts and calendar already name, offered for who matters.
    async fn mail_suggestions(core) -> Result<Vec<SenderSuggestion>, CommandError> {
        core.mail_suggestions().await.said(&core)
    }

    async fn sync_mail(core) -> Result<Vec<(String, FolderSync)>, CommandError> {
        core.mail().sync_all(core.preferences().lang()).await.said(&core)
    }

    async fn disconnect_mail(core) -> Result<MailView, CommandError> {
        core.disconnect_mail().await.said(&core)
    }
}
