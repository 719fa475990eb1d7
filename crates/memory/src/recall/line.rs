//! A recall hit as the model reads it: one line with its source, id, date and who said
//! it. The budget is counted on this line, so what fits is what the model really gets.

use super::RecallHit;

/// `- [message 42 2026-11-20 10:00Z] user: …`, with the imported reference and
/// whether a newer fact replaced it. The time is to the minute: the seconds cost tokens
/// on every line and answer nothing.
pub fn line(hit: &RecallHit) -> String {
    let when = match hit.timestamp.parse::<chrono::DateTime<chrono::Utc>>() {
        Ok(at) => at.format("%Y-%m-%d %H:%MZ").to_string(),
        Err(_) => hit.timestamp.clone(),
    };
    let reference = hit.external_id.as_deref().map(|e| format!(" (ref {e})")).unwrap_or_default();
    let reference = match &hit.superseded {
        Some(since) => format!("{reference} (superseded {since}: no longer true)"),
        None => reference,
    };
    format!("- [{} {} {}{reference}] {}: {}\n", hit.source, hit.id, when, hit.label, hit.snippet)
}

/// What [`line`] costs of the budget, in tokens.
pub(crate) fn cost(hit: &RecallHit) -> usize {
    sidecar_domain::tokens::count(&line(hit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(timestamp: &str, superseded: Option<&str>) -> RecallHit {
        RecallHit {
            source: "message".into(),
            id: 42,
            label: "user".into(),
            snippet: "I moved to Lyon".into(),
            timestamp: timestamp.into(),
            external_id: None,
            superseded: superseded.map(str::to_string),
            score: 1.0,
            beside: false,
        }
    }

    #[test]
    fn a_line_gives_the_minute_and_says_when_a_fact_was_replaced() {
        assert_eq!(line(&hit("2026-11-20T10:00:37Z", None)), "- [message 42 2026-11-20 10:00Z] user: I moved to Lyon\n");
        let old = line(&hit("2026-01-02", Some("2026-11-01")));
        assert!(old.contains("2026-01-02 (superseded 2026-11-01: no longer true)"), "{old}");
        assert!(cost(&hit("2026-11-20T10:00:37Z", None)) < cost(&hit("2026-11-20T10:00:37.123456789Z", Some("x"))));
    }
}
