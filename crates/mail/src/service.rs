//! Mail as the rest of Sidecar uses it: an account connected (its password in the
//! keychain), its folders chosen, all brought up to date, and the mails found by words
//! or by who wrote them. Disconnecting deletes every stored mail.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_domain::Secrets;
use sidecar_domain::Worded;
use sidecar_store::Store;

use crate::connection::{log_in, MailSession};
use crate::error::MailError;
use crate::rows::{self, MailAccount, MailFolder};
use crate::server::MailServer;
use crate::sync::{folder_names, sync_folder, FolderSync};

/// How recent a mail must be for Sidecar to speak first about it: older, the user has
/// likely read it elsewhere.
const ASKS_WITHIN: chrono::Duration = chrono::Duration::hours(24);

/// The keychain entry of the account's password.
const SECRET: &str = "mail/account";

/// Settings → Mail.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct MailView {
    pub account: Option<MailAccount>,
    pub folders: Vec<MailFolder>,
    /// Senders and domains whose mail Sidecar reads to the model and speaks of.
    pub who_matters: Vec<String>,
}

/// What the user types to connect.
#[derive(Debug, Clone)]
pub struct Connect {
    pub address: String,
    pub server: MailServer,
    pub username: String,
    pub password: String,
    pub first_days: u32,
}

pub struct MailService {
    store: Store,
    secrets: Arc<Secrets>,
    clock: Clock,
}

impl MailService {
    pub fn new(store: Store, secrets: Arc<Secrets>, clock: Clock) -> Self {
        Self { store, secrets, clock }
    }

    pub(crate) fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// Connects the account: the login is checked and the folders listed before
    /// anything is kept; the password goes to the keychain; the first sync reads the
    /// chosen folders' last `first_days`.
    pub async fn connect(&self, connect: Connect, lang: Lang) -> Result<MailView, MailError> {
        let mut session = log_in(&connect.server, &connect.username, &connect.password).await?;
        let names = folder_names(&mut session).await?;
        let account = MailAccount {
            address: connect.address.trim().to_string(),
            server: MailServer { hint: None, ..connect.server },
            username: connect.username,
            first_days: connect.first_days.max(1),
        };
        if rows::account(&self.store).await?.is_some_and(|kept| kept.server.host != account.server.host || kept.username != account.username) {
            // Another mailbox: the last one's mail is not kept beside it.
            rows::forget_all(&self.store).await?;
        }
        rows::keep_account(&self.store, &account).await?;
        self.secrets.store(SECRET, &connect.password);
        rows::found_folders(&self.store, &names).await?;
        self.sync_with(&mut session, account.first_days, lang).await;
        let _ = session.logout().await;
        crate::in_recall::refresh(&self.store).await?;
        self.view().await
    }

    /// Forgets the account, its password and every mail kept from it.
    pub async fn disconnect(&self) -> Result<MailView, MailError> {
        rows::forget_all(&self.store).await?;
        self.secrets.delete(SECRET);
        crate::in_recall::refresh(&self.store).await?;
        self.store.forget_written().await;
        self.view().await
    }

    pub async fn view(&self) -> Result<MailView, MailError> {
        Ok(MailView {
            account: rows::account(&self.store).await?,
            folders: rows::folders(&self.store).await?,
            who_matters: crate::people::all(&self.store).await?,
        })
    }

    /// Reads these folders from now on; a folder no longer read keeps no mail.
    pub async fn choose_folders(&self, read: &[String]) -> Result<MailView, MailError> {
        rows::choose(&self.store, read).await?;
        crate::in_recall::refresh(&self.store).await?;
        self.view().await
    }

    /// Sets who matters (addresses and domains; anything else is left out).
    pub async fn set_who_matters(&self, people: &[String]) -> Result<MailView, MailError> {
        crate::people::set(&self.store, people).await?;
        crate::in_recall::refresh(&self.store).await?;
        self.view().await
    }

    /// The mails whose sender, subject or text has `words`, best first.
    pub async fn search(&self, words: &str, limit: u32) -> Result<Vec<crate::MailHit>, MailError> {
        crate::find::by_words(&self.store, words, limit).await
    }

    /// Mail since `since` from people who matter, and how many others came (counted,
    /// not read).
    pub async fn since(&self, since: DateTime<Utc>) -> Result<(Vec<crate::MailHit>, u32), MailError> {
        crate::find::since(&self.store, since, self.clock.zone()).await
    }

    /// The brief's lines for the mail since `since` from people who matter (with what
    /// each asks by a date), in `lang`, and how many others came.
    pub async fn brief(&self, since: DateTime<Utc>, lang: Lang) -> Result<(Vec<String>, u32), MailError> {
        let (mut mail, others) = self.since(since).await?;
        let now = self.now();
        // A day already gone is no question any more.
        mail.iter_mut().for_each(|m| m.ask = m.ask.take().filter(|ask| ask.when > now));
        Ok((mail.iter().map(|m| crate::brief_line(m, self.clock.zone(), lang)).collect(), others))
    }

    /// What Sidecar says first about `hit`, in `lang` ([`crate::ask_words`]).
    pub fn ask_words(&self, hit: &crate::MailHit, lang: Lang) -> Option<String> {
        crate::ask_words(hit, self.clock.zone(), lang)
    }

    /// Mail from people who matter, sent in the last [`ASKS_WITHIN`], that asks by a
    /// moment still ahead and that Sidecar has not spoken of: what it may speak first
    /// about, oldest first.
    pub async fn unspoken_asks(&self) -> Result<Vec<crate::MailHit>, MailError> {
        let now = self.now();
        crate::find::unspoken_asks(&self.store, now - ASKS_WITHIN, now, self.clock.zone()).await
    }

    /// Records that Sidecar spoke of mail `id`: it is never spoken of again.
    pub async fn spoken(&self, id: i64) -> Result<(), MailError> {
        crate::find::spoken(&self.store, id, self.now()).await
    }

    /// Senders of the kept mail whose first name is in `known` (the user's facts and
    /// calendar), who do not matter yet.
    pub async fn suggestions(&self, known: &[String]) -> Result<Vec<crate::SenderSuggestion>, MailError> {
        let people = crate::people::all(&self.store).await?;
        Ok(crate::suggest(&crate::suggest::senders(&self.store).await?, known, &people))
    }

    /// A session on the connected account.
    pub(crate) async fn session(&self) -> Result<(MailAccount, MailSession), MailError> {
        let account = rows::account(&self.store).await?.ok_or(MailError::NoAccount)?;
        let password = self.secrets.get(SECRET).unwrap_or_default();
        let session = log_in(&account.server, &account.username, &password).await?;
        Ok((account, session))
    }

    /// Brings every chosen folder up to date. When the server cannot be reached or
    /// refuses, each folder keeps its last copy and says why (in `lang`), and the
    /// error is returned.
    pub async fn sync_all(&self, lang: Lang) -> Result<Vec<(String, FolderSync)>, MailError> {
        let synced = self.sync_every_folder(lang).await;
        crate::in_recall::refresh(&self.store).await?;
        synced
    }

    async fn sync_every_folder(&self, lang: Lang) -> Result<Vec<(String, FolderSync)>, MailError> {
        match self.session().await {
            Ok((account, mut session)) => {
                let reports = self.sync_with(&mut session, account.first_days, lang).await;
                let _ = session.logout().await;
                Ok(reports)
            }
            Err(e) => {
                for folder in rows::folders(&self.store).await?.into_iter().filter(|f| f.read) {
                    rows::synced(&self.store, folder.id, None, self.now(), Some(&e.said_in(lang))).await?;
                }
                Err(e)
            }
        }
    }

    async fn sync_with(&self, session: &mut MailSession, first_days: u32, lang: Lang) -> Vec<(String, FolderSync)> {
        let Ok(folders) = rows::folders(&self.store).await else { return Vec::new() };
        let mut reports = Vec::new();
        for folder in folders.into_iter().filter(|f| f.read) {
            match sync_folder(session, &self.store, folder.id, &folder.name, first_days, self.now()).await {
                Ok(report) => reports.push((folder.name, report)),
                Err(e) => {
                    tracing::warn!(folder = folder.name, error = %e, "a mail folder could not be synced");
                    let _ = rows::synced(&self.store, folder.id, None, self.now(), Some(&e.said_in(lang))).await;
                }
            }
        }
        reports
    }
}
