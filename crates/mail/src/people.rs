//! Who matters: the senders and domains whose mail reaches the model, the brief and
//! Sidecar's first words. Everyone else's mail is counted, never read to the model
//! unless the user asks about it.

use sidecar_store::Store;

use crate::error::MailError;

/// A sender's address or a domain as the user wrote it, cleaned: lower case, no
/// spaces, no "@" before a domain; `None` for what is neither.
pub fn normalized(who: &str) -> Option<String> {
    let who = who.trim().trim_start_matches('@').to_lowercase();
    let domain = who.rsplit_once('@').map_or(who.as_str(), |(_, d)| d);
    let fine = !who.is_empty() && !who.contains(char::is_whitespace) && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.');
    fine.then_some(who)
}

/// Whether mail from `address` is from someone who matters in `people`.
pub fn matters(address: &str, people: &[String]) -> bool {
    let address = address.to_lowercase();
    let domain = address.rsplit_once('@').map(|(_, d)| d).unwrap_or_default();
    people.iter().any(|who| if who.contains('@') { *who == address } else { domain == who || domain.ends_with(&format!(".{who}")) })
}

pub(crate) async fn all(store: &Store) -> Result<Vec<String>, MailError> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT who FROM mail_people ORDER BY who").fetch_all(store.pool()).await?;
    Ok(rows.into_iter().map(|(w,)| w).collect())
}

/// Sets who matters to `people` (what is neither an address nor a domain is left out).
pub(crate) async fn set(store: &Store, people: &[String]) -> Result<(), MailError> {
    let mut tx = store.pool().begin().await?;
    sqlx::query("DELETE FROM mail_people").execute(&mut *tx).await?;
    for who in people.iter().filter_map(|w| normalized(w)) {
        sqlx::query("INSERT INTO mail_people (who) VALUES (?) ON CONFLICT DO NOTHING").bind(who).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_or_a_domain_and_its_subdomains() {
        let people = vec!["ana@example.org".to_string(), "work.com".to_string()];
        assert!(matters("Ana@Example.org", &people));
        assert!(!matters("bob@example.org", &people));
        assert!(matters("boss@work.com", &people) && matters("hr@mail.work.com", &people));
        assert!(!matters("x@notwork.com", &people));
    }

    #[test]
    fn what_is_neither_is_left_out() {
        assert_eq!(normalized(" @Work.com "), Some("work.com".into()));
        assert_eq!(normalized("Ana@Example.org"), Some("ana@example.org".into()));
        assert_eq!(normalized("ana"), None);
        assert_eq!(normalized("two words.com"), None);
    }
}
