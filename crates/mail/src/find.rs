//! Mails found: by words (the same full-text index as messages), and by who wrote them
//! since a time (the brief, speaking first).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
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
    /// What it asks by a date, for a mail from someone who matters (the brief, speaking
    /// first); not looked for in a search.
    pub ask: Option<crate::MailAsk>,
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
        ask: None,
    }
}

/// `hit` with what it asks by a date, read at the time it was sent in `zone`.
fn with_ask(mut hit: MailHit, zone: Tz) -> MailHit {
    if let Ok(sent) = DateTime::parse_from_rfc3339(&hit.sent_at) {
        hit.ask = crate::ask_in(&hit.text, sent.with_timezone(&Utc), zone);
    }
    hit
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

/// Mail that arrived since `since`: from people who matter (newest first, each with
/// what it asks by a date in `zone`), and how many others came, which are counted and
/// not read.
pub(crate) async fn since(store: &Store, since: DateTime<Utc>, zone: Tz) -> Result<(Vec<MailHit>, u32), MailError> {
    let all = sent_since(store, since, false).await?;
    let others = all.iter().filter(|m| !m.matters).count() as u32;
    Ok((all.into_iter().filter(|m| m.matters).map(|m| with_ask(m, zone)).collect(), others))
}

/// Mail from people who matter since `since` that asks by a moment still ahead of `now`
/// and that Sidecar has not spoken of, oldest first.
pub(crate) async fn unspoken_asks(store: &Store, since: DateTime<Utc>, now: DateTime<Utc>, zone: Tz) -> Result<Vec<MailHit>, MailError> {
    let mut asking: Vec<MailHit> = sent_since(store, since, true)
        .await?
        .into_iter()
        .filter(|m| m.matters)
        .map(|m| with_ask(m, zone))
        .filter(|m| m.ask.as_ref().is_some_and(|ask| ask.when > now))
        .collect();
    asking.reverse();
    Ok(asking)
}

/// Records that Sidecar spoke of mail `id` (never again).
pub(crate) async fn spoken(store: &Store, id: i64, at: DateTime<Utc>) -> Result<(), MailError> {
    sqlx::query("UPDATE mails SET spoken_at = ? WHERE id = ?").bind(at.to_rfc3339()).bind(id).execute(store.pool()).await?;
    Ok(())
}

/// Every mail sent since `since`, newest first; only those not spoken of when
/// `unspoken`.
async fn sent_since(store: &Store, since: DateTime<Utc>, unspoken: bool) -> Result<Vec<MailHit>, MailError> {
    let people = crate::people::all(store).await?;
    let rows = sqlx::query(
        "SELECT m.id, f.name AS folder, m.from_address, m.from_name, m.subject, m.sent_at, m.body, m.attachments, m.cut
         FROM mails m JOIN mail_folders f ON f.id = m.folder_id WHERE m.sent_at >= ? AND (? = 0 OR m.spoken_at IS NULL) ORDER BY m.sent_at DESC",
    )
    .bind(since.to_rfc3339())
    .bind(unspoken)
    .fetch_all(store.pool())
    .await?;
    Ok(rows.iter().map(|r| hit(r, &people)).collect())
}
