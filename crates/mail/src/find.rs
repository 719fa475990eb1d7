//! Mails found: by words (the same full-text index as messages), and by who wrote them
//! since a time (the brief, speaking first).

use chrono::{DateTime, Utc};
use serde::Serialize;
use sidecar_store::Store;
use sqlx::Row;

use crate::error::MailError;
use crate::parse::Cut;
use crate::people::matters;

/// A mail as a search, the brief or the chat shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct MailHit {
    #[ts(type = "number")]
    pub id: i64,
    pub folder: String,
    pub from_address: String,
    pub from_name: Option<String>,
    pub subject: String,
    pub sent_at: String,
    pub text: String,
    pub attachments: Vec<String>,
    /// What of it was not kept.
    pub cut: Option<Cut>,
    /// The sender is someone who matters.
    pub matters: bool,
}

fn hit(row: &sqlx::sqlite::SqliteRow, people: &[String]) -> MailHit {
    let from_address: String = row.get("from_address");
    MailHit {
        id: row.get("id"),
        folder: row.get("folder"),
        matters: matters(&from_address, people),
        from_address,
        from_name: row.get("from_name"),
        subject: row.get("subject"),
        sent_at: row.get("sent_at"),
        text: row.get("body"),
        attachments: serde_json::from_str(&row.get::<String, _>("attachments")).unwrap_or_default(),
        cut: row.get::<Option<String>, _>("cut").and_then(|c| serde_json::from_str(&c).ok()),
    }
}

/// The mails whose sender, subject or text has `words`, best first.
pub(crate) async fn by_words(store: &Store, words: &str, limit: u32) -> Result<Vec<MailHit>, MailError> {
    let Some(query) = sidecar_store::fts_query(words) else { return Ok(Vec::new()) };
    let people = crate::people::all(store).await?;
    let rows = sqlx::query(
        "SELECT m.id, f.name AS folder, m.from_address, m.from_name, m.subject, m.sent_at, m.body, m.attachments, m.cut
         FROM mails_fts JOIN mails m ON m.id = mails_fts.rowid JOIN mail_folders f ON f.id = m.folder_id
         WHERE mails_fts MATCH ? ORDER BY bm25(mails_fts), m.sent_at DESC LIMIT ?",
    )
    .bind(query)
    .bind(i64::from(limit))
    .fetch_all(store.pool())
    .await?;
    Ok(rows.iter().map(|r| hit(r, &people)).collect())
}

/// Mail that arrived since `since`: from people who matter (newest first), and how many
/// others came, which are counted and not read.
pub(crate) async fn since(store: &Store, since: DateTime<Utc>) -> Result<(Vec<MailHit>, u32), MailError> {
    let people = crate::people::all(store).await?;
    let rows = sqlx::query(
        "SELECT m.id, f.name AS folder, m.from_address, m.from_name, m.subject, m.sent_at, m.body, m.attachments, m.cut
         FROM mails m JOIN mail_folders f ON f.id = m.folder_id WHERE m.sent_at >= ? ORDER BY m.sent_at DESC",
    )
    .bind(since.to_rfc3339())
    .fetch_all(store.pool())
    .await?;
    let all: Vec<MailHit> = rows.iter().map(|r| hit(r, &people)).collect();
    let others = all.iter().filter(|m| !m.matters).count() as u32;
    Ok((all.into_iter().filter(|m| m.matters).collect(), others))
}
