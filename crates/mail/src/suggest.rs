//! Who might matter: senders of the mail Sidecar keeps whose first name is one the user
//! already talks about (in their facts, on their calendar). Offered in Settings → Mail,
//! never added without the user.

use serde::Serialize;
use sidecar_store::Store;

use crate::error::MailError;
use crate::people::matters;

/// A sender the user may want to add to who matters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct SenderSuggestion {
    pub address: String,
    pub name: String,
    /// How many of the kept mails they sent.
    pub mails: u32,
}

/// The most suggestions shown at once.
const MOST: usize = 8;

/// Senders whose display name starts with a name found in `known` (the user's facts and
/// calendar, as text), most mails first, leaving out who already matters. A name is a
/// capitalised word of three letters or more; accents and case do not count.
pub fn suggest(senders: &[(String, Option<String>, u32)], known: &[String], people: &[String]) -> Vec<SenderSuggestion> {
    let names: std::collections::HashSet<String> = known
        .iter()
        .flat_map(|text| text.split(|c: char| !c.is_alphabetic()))
        .filter(|w| w.chars().count() >= 3 && w.chars().next().is_some_and(char::is_uppercase))
        .map(folded)
        .collect();
    let mut found: Vec<SenderSuggestion> = senders
        .iter()
        .filter(|(address, _, _)| !matters(address, people))
        .filter_map(|(address, name, mails)| {
            let name = name.as_deref()?;
            let first = name.split_whitespace().next()?;
            names.contains(&folded(first)).then(|| SenderSuggestion { address: address.clone(), name: name.to_string(), mails: *mails })
        })
        .collect();
    found.sort_by(|a, b| b.mails.cmp(&a.mails).then_with(|| a.address.cmp(&b.address)));
    found.truncate(MOST);
    found
}

/// Lower case without accents: "Álvaro" and "alvaro" are one name.
fn folded(word: &str) -> String {
    word.to_lowercase()
        .chars()
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            other => other,
        })
        .collect()
}

/// Each sender of the kept mail with a name, and how many mails they sent.
pub(crate) async fn senders(store: &Store) -> Result<Vec<(String, Option<String>, u32)>, MailError> {
    let rows: Vec<(String, Option<String>, i64)> =
        sqlx::query_as("SELECT from_address, MAX(from_name), COUNT(*) FROM mails WHERE from_address <> '' GROUP BY from_address")
            .fetch_all(store.pool())
            .await?;
    Ok(rows.into_iter().map(|(a, n, c)| (a, n, c as u32)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender(address: &str, name: Option<&str>, mails: u32) -> (String, Option<String>, u32) {
        (address.into(), name.map(str::to_string), mails)
    }

    #[test]
    fn senders_named_in_the_facts_or_the_calendar_are_offered_most_mails_first() {
        let senders = [
            sender("ana@example.org", Some("Ana Ruiz"), 3),
            sender("alvaro@work.example", Some("Álvaro Gil"), 9),
            sender("news@shop.example", Some("Tienda"), 40),
            sender("marta@example.org", Some("Marta"), 1),
            sender("nobody@example.org", None, 5),
        ];
        let known = ["Ana es mi hermana".to_string(), "Café con alvaro y ALVARO el lunes".to_string(), "Reunión con Alvaro".to_string()];
        let found = suggest(&senders, &known, &["example.org".to_string()]);
        let addresses: Vec<&str> = found.iter().map(|s| s.address.as_str()).collect();
        assert_eq!(addresses, ["alvaro@work.example"], "Ana's domain already matters; the shop and Marta are not named");
        let found = suggest(&senders, &known, &[]);
        assert_eq!(found.iter().map(|s| s.address.as_str()).collect::<Vec<_>>(), ["alvaro@work.example", "ana@example.org"]);
    }

    #[test]
    fn nothing_known_nothing_offered() {
        assert!(suggest(&[sender("ana@example.org", Some("Ana"), 2)], &[], &[]).is_empty());
        assert!(suggest(&[sender("ana@example.org", Some("Ana"), 2)], &["el día de la semana".to_string()], &[]).is_empty());
    }
}
