//! One folder brought up to date, read only: examined (never selected, so nothing is
//! marked read), nothing fetched when UIDVALIDITY, UIDNEXT and the count did not move,
//! else only the new mails, each fetched with `BODY.PEEK` and only its first
//! [`MAX_FETCH_BYTES`]; mails gone from the server are forgotten; a changed
//! UIDVALIDITY reads the folder again from nothing, with nothing doubled.
//!
//! CONDSTORE (RFC 7162) is not asked for: its MODSEQ tells a flag changed, and Sidecar
//! keeps no flags. A mail's content never changes in IMAP; what a read-only copy must
//! see (a new mail, a deleted one, the folder renumbered) moves UIDNEXT, the count or
//! UIDVALIDITY, all three in the one EXAMINE answer, so an unchanged HIGHESTMODSEQ would
//! save nothing more; QRESYNC's VANISHED would spare the UID SEARCH after a deletion,
//! which `async-imap` does not read.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};
use futures_util::TryStreamExt;
use serde::Serialize;
use sidecar_store::Store;

use crate::connection::MailSession;
use crate::error::MailError;
use crate::parse::parse;
use crate::rows::{self, Seen};

/// The most of one mail fetched: a 200 MB attachment costs 1 MB at most.
pub const MAX_FETCH_BYTES: u64 = 1024 * 1024;
/// Mails fetched per request.
const BATCH: usize = 50;

/// What one folder's sync did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct FolderSync {
    pub added: u32,
    pub removed: u32,
    /// Nothing was fetched: the folder had not moved.
    pub unchanged: bool,
    /// The server's UIDVALIDITY changed: everything was read again.
    pub read_again: bool,
}

/// Brings folder `id` (`name` on the server) up to date through `session`.
#[tracing::instrument(skip(session, store), fields(folder = name))]
pub(crate) async fn sync_folder(
    session: &mut MailSession,
    store: &Store,
    id: i64,
    name: &str,
    first_days: u32,
    now: DateTime<Utc>,
) -> Result<FolderSync, MailError> {
    let mailbox = session.examine(name).await.map_err(|e| match e {
        async_imap::error::Error::No(_) => MailError::NoFolder(name.to_string()),
        other => other.into(),
    })?;
    let server = Seen { uid_validity: mailbox.uid_validity, uid_next: mailbox.uid_next, exists: Some(mailbox.exists) };
    let known = rows::seen(store, id).await?;
    let mut report = FolderSync::default();
    if known.uid_validity.is_some() && known.uid_validity != server.uid_validity {
        let dropped = rows::forget_folder(store, id).await?;
        tracing::info!(dropped, "UIDVALIDITY changed: the folder is read again");
        report.read_again = true;
    } else if known == server && known.uid_validity.is_some() {
        report.unchanged = true;
        rows::synced(store, id, Some(server), now, None).await?;
        return Ok(report);
    }
    let first = report.read_again || known.uid_validity.is_none();
    let held: BTreeSet<u32> = rows::uids(store, id).await?.into_iter().collect();
    let on_server: BTreeSet<u32> = if mailbox.exists == 0 {
        BTreeSet::new()
    } else if first {
        let since = (now - Duration::days(i64::from(first_days))).format("%d-%b-%Y");
        session.uid_search(format!("SINCE {since}")).await?.into_iter().collect()
    } else {
        // Every UID from the oldest held: the new ones to fetch and the held ones still there.
        let from = held.first().copied().unwrap_or(known.uid_next.unwrap_or(1)).max(1);
        session.uid_search(format!("UID {from}:*")).await?.into_iter().filter(|uid| *uid >= from).collect()
    };
    let gone: Vec<u32> = held.difference(&on_server).copied().collect();
    report.removed = rows::forget(store, id, &gone).await? as u32;
    let new: Vec<u32> = on_server.difference(&held).copied().collect();
    for batch in new.chunks(BATCH) {
        let set = batch.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        let query = format!("(UID RFC822.SIZE INTERNALDATE BODY.PEEK[]<0.{MAX_FETCH_BYTES}>)");
        let fetched: Vec<_> = session.uid_fetch(&set, &query).await?.try_collect().await?;
        for fetch in &fetched {
            let Some(uid) = fetch.uid else { continue };
            let raw = fetch.body().unwrap_or_default();
            let arrived = fetch.internal_date().map(|d| d.with_timezone(&Utc)).unwrap_or(now);
            let mail = parse(raw, u64::from(fetch.size.unwrap_or(raw.len() as u32)), arrived);
            if rows::keep(store, id, uid, &mail).await? {
                report.added += 1;
            }
        }
    }
    rows::synced(store, id, Some(server), now, None).await?;
    tracing::info!(added = report.added, removed = report.removed, read_again = report.read_again, "folder synced");
    Ok(report)
}

/// The folders the server has (their names as it writes them).
pub(crate) async fn folder_names(session: &mut MailSession) -> Result<Vec<String>, MailError> {
    let names: Vec<_> = session.list(Some(""), Some("*")).await?.try_collect().await?;
    let mut names: Vec<String> = names
        .iter()
        .filter(|n| !n.attributes().iter().any(|a| matches!(a, async_imap::types::NameAttribute::NoSelect)))
        .map(|n| n.name().to_string())
        .collect();
    names.sort();
    Ok(names)
}
