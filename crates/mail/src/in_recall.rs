//! Which mails recall finds (issue 73): those from people who matter, as it finds a
//! message; everyone else's mail stays out of reach until the user searches the mail
//! itself. Kept equal to the mails and the list of who matters after every change of
//! either (a sync, a folder chosen, the list edited, a disconnect).

use std::collections::HashSet;

use sidecar_store::Store;

use crate::error::MailError;

/// The most characters of one mail recall searches and shows (its sender and subject
/// first): a long newsletter's tail would only dilute its meaning.
const RECALLED_CHARS: usize = 4_000;

/// Puts the mails that matter in reach of recall and takes the others out; how many
/// went in and out.
pub(crate) async fn refresh(store: &Store) -> Result<(usize, usize), MailError> {
    let people = crate::people::all(store).await?;
    let senders: Vec<(i64, String)> = sqlx::query_as("SELECT id, from_address FROM mails").fetch_all(store.pool()).await?;
    let wanted: HashSet<i64> = senders.into_iter().filter(|(_, from)| crate::people::matters(from, &people)).map(|(id, _)| id).collect();
    let index = store.recall_index();
    let present: HashSet<i64> = index.mail_ids().await?.into_iter().collect();
    let gone: Vec<i64> = present.difference(&wanted).copied().collect();
    let new: Vec<i64> = wanted.difference(&present).copied().collect();
    let mut texts = Vec::with_capacity(new.len());
    for ids in new.chunks(500) {
        let rows: Vec<(i64, Option<String>, String, String, String)> =
            sqlx::query_as("SELECT id, from_name, from_address, subject, body FROM mails WHERE id IN (SELECT value FROM json_each(?))")
                .bind(serde_json::to_string(ids).expect("ids serialise"))
                .fetch_all(store.pool())
                .await?;
        texts.extend(rows.into_iter().map(|(id, name, address, subject, body)| (id, recalled(name.as_deref().unwrap_or(&address), &subject, &body))));
    }
    index.change_mails(&texts, &gone).await?;
    Ok((texts.len(), gone.len()))
}

/// What recall reads of a mail: who wrote it, its subject, and its text's start.
fn recalled(from: &str, subject: &str, body: &str) -> String {
    let text = format!("{from}: {subject}\n{body}");
    match text.char_indices().nth(RECALLED_CHARS) {
        Some((at, _)) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_mail_is_recalled_by_its_start() {
        let text = super::recalled("Ana", "El piso", &"a".repeat(10_000));
        assert!(text.starts_with("Ana: El piso\naaa"));
        assert_eq!(text.chars().count(), super::RECALLED_CHARS);
    }
}
