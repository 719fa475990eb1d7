//! The mail tables: the account, its folders' sync state, the mails, who matters.

use chrono::{DateTime, Utc};
use serde::Serialize;
use sidecar_store::Store;
use sqlx::Row;

use crate::error::MailError;
use crate::parse::Parsed;
use crate::server::{MailSecurity, MailServer};

/// The connected account, without its password (that is in the keychain).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct MailAccount {
    pub address: String,
    pub server: MailServer,
    pub username: String,
    /// How far back the first sync reads.
    pub first_days: u32,
}

/// A folder of the account, as Settings → Mail shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct MailFolder {
    #[ts(type = "number")]
    pub id: i64,
    pub name: String,
    pub read: bool,
    pub mails: u32,
    pub synced_at: Option<String>,
    pub problem: Option<String>,
}

/// A folder's state on the server at the last sync.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Seen {
    pub uid_validity: Option<u32>,
    pub uid_next: Option<u32>,
    pub exists: Option<u32>,
}

pub(crate) async fn account(store: &Store) -> Result<Option<MailAccount>, MailError> {
    let row = sqlx::query("SELECT address, host, port, security, username, first_days FROM mail_account WHERE id = 1").fetch_optional(store.pool()).await?;
    Ok(row.map(|r| {
        let security = match r.get::<String, _>("security").as_str() {
            "start_tls" => MailSecurity::StartTls,
            "plain" => MailSecurity::Plain,
            _ => MailSecurity::Tls,
        };
        MailAccount {
            address: r.get("address"),
            server: MailServer { host: r.get("host"), port: r.get::<i64, _>("port") as u16, security, hint: None },
            username: r.get("username"),
            first_days: r.get::<i64, _>("first_days") as u32,
        }
    }))
}

pub(crate) async fn keep_account(store: &Store, account: &MailAccount) -> Result<(), MailError> {
    let security = serde_json::to_value(account.server.security).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    sqlx::query(
        "INSERT INTO mail_account (id, address, host, port, security, username, first_days) VALUES (1, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET address = excluded.address, host = excluded.host, port = excluded.port,
         security = excluded.security, username = excluded.username, first_days = excluded.first_days",
    )
    .bind(&account.address)
    .bind(&account.server.host)
    .bind(i64::from(account.server.port))
    .bind(security)
    .bind(&account.username)
    .bind(i64::from(account.first_days))
    .execute(store.pool())
    .await?;
    Ok(())
}

/// Forgets the account and every mail kept from it.
pub(crate) async fn forget_all(store: &Store) -> Result<(), MailError> {
    let mut tx = store.pool().begin().await?;
    sqlx::query("DELETE FROM mails").execute(&mut *tx).await?;
    sqlx::query("DELETE FROM mail_folders").execute(&mut *tx).await?;
    sqlx::query("DELETE FROM mail_account").execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(())
}

/// The folders the server listed: new ones kept (Inbox read by default), gone ones
/// forgotten with their mail.
pub(crate) async fn found_folders(store: &Store, names: &[String]) -> Result<(), MailError> {
    let mut tx = store.pool().begin().await?;
    for name in names {
        sqlx::query("INSERT INTO mail_folders (name, read) VALUES (?, ?) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .bind(name.eq_ignore_ascii_case("INBOX"))
            .execute(&mut *tx)
            .await?;
    }
    let kept: Vec<(i64, String)> = sqlx::query_as("SELECT id, name FROM mail_folders").fetch_all(&mut *tx).await?;
    for (id, name) in kept {
        if !names.contains(&name) {
            sqlx::query("DELETE FROM mail_folders WHERE id = ?").bind(id).execute(&mut *tx).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

pub(crate) async fn folders(store: &Store) -> Result<Vec<MailFolder>, MailError> {
    let rows = sqlx::query(
        "SELECT f.id, f.name, f.read, f.synced_at, f.problem, (SELECT COUNT(*) FROM mails m WHERE m.folder_id = f.id) AS mails
         FROM mail_folders f ORDER BY f.name <> 'INBOX', f.name",
    )
    .fetch_all(store.pool())
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| MailFolder {
            id: r.get("id"),
            name: r.get("name"),
            read: r.get("read"),
            mails: r.get::<i64, _>("mails") as u32,
            synced_at: r.get("synced_at"),
            problem: r.get("problem"),
        })
        .collect())
}

pub(crate) async fn choose(store: &Store, read: &[String]) -> Result<(), MailError> {
    let mut tx = store.pool().begin().await?;
    let kept: Vec<(i64, String)> = sqlx::query_as("SELECT id, name FROM mail_folders").fetch_all(&mut *tx).await?;
    for (id, name) in kept {
        let chosen = read.contains(&name);
        sqlx::query("UPDATE mail_folders SET read = ? WHERE id = ?").bind(chosen).bind(id).execute(&mut *tx).await?;
        if !chosen {
            // A folder no longer read keeps nothing: its mail is not Sidecar's to hold.
            sqlx::query("DELETE FROM mails WHERE folder_id = ?").bind(id).execute(&mut *tx).await?;
            sqlx::query("UPDATE mail_folders SET uid_validity = NULL, uid_next = NULL, exists_count = NULL WHERE id = ?").bind(id).execute(&mut *tx).await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

pub(crate) async fn seen(store: &Store, folder: i64) -> Result<Seen, MailError> {
    let row: (Option<i64>, Option<i64>, Option<i64>) =
        sqlx::query_as("SELECT uid_validity, uid_next, exists_count FROM mail_folders WHERE id = ?").bind(folder).fetch_one(store.pool()).await?;
    let n = |v: Option<i64>| v.map(|v| v as u32);
    Ok(Seen { uid_validity: n(row.0), uid_next: n(row.1), exists: n(row.2) })
}

/// The folder is as the server said at `at`; `problem` is what went wrong, if anything.
pub(crate) async fn synced(store: &Store, folder: i64, seen: Option<Seen>, at: DateTime<Utc>, problem: Option<&str>) -> Result<(), MailError> {
    match seen {
        Some(s) => sqlx::query("UPDATE mail_folders SET uid_validity = ?, uid_next = ?, exists_count = ?, synced_at = ?, problem = NULL WHERE id = ?")
            .bind(s.uid_validity.map(i64::from))
            .bind(s.uid_next.map(i64::from))
            .bind(s.exists.map(i64::from))
            .bind(at.to_rfc3339())
            .bind(folder),
        None => sqlx::query("UPDATE mail_folders SET problem = ? WHERE id = ?").bind(problem).bind(folder),
    }
    .execute(store.pool())
    .await?;
    Ok(())
}

/// Every mail of `folder` forgotten (its UIDVALIDITY changed: each UID is another mail).
pub(crate) async fn forget_folder(store: &Store, folder: i64) -> Result<u64, MailError> {
    Ok(sqlx::query("DELETE FROM mails WHERE folder_id = ?").bind(folder).execute(store.pool()).await?.rows_affected())
}

pub(crate) async fn uids(store: &Store, folder: i64) -> Result<Vec<u32>, MailError> {
    let rows: Vec<(i64,)> = sqlx::query_as("SELECT uid FROM mails WHERE folder_id = ? ORDER BY uid").bind(folder).fetch_all(store.pool()).await?;
    Ok(rows.into_iter().map(|(u,)| u as u32).collect())
}

pub(crate) async fn keep(store: &Store, folder: i64, uid: u32, mail: &Parsed) -> Result<bool, MailError> {
    let done = sqlx::query(
        "INSERT INTO mails (folder_id, uid, message_id, from_address, from_name, subject, sent_at, body, attachments, cut)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (folder_id, uid) DO NOTHING",
    )
    .bind(folder)
    .bind(i64::from(uid))
    .bind(&mail.message_id)
    .bind(&mail.from_address)
    .bind(&mail.from_name)
    .bind(&mail.subject)
    .bind(mail.sent_at.to_rfc3339())
    .bind(&mail.text)
    .bind(serde_json::to_string(&mail.attachments).unwrap_or_else(|_| "[]".into()))
    .bind(mail.cut.map(|c| serde_json::to_string(&c).unwrap_or_default()))
    .execute(store.pool())
    .await?;
    Ok(done.rows_affected() == 1)
}

pub(crate) async fn forget(store: &Store, folder: i64, gone: &[u32]) -> Result<u64, MailError> {
    let mut removed = 0;
    for uid in gone {
        removed +=
            sqlx::query("DELETE FROM mails WHERE folder_id = ? AND uid = ?").bind(folder).bind(i64::from(*uid)).execute(store.pool()).await?.rows_affected();
    }
    Ok(removed)
}
