//! Recall hits as the model reads them: the day said once, on a `[2026-11-20]` line, and
//! under it one line per hit with its id and who said it. The budget is counted on these
//! lines, so what fits is what the model really gets.
//!
//! Each hit used to repeat its source, date and minute (`- [message 42 2026-11-20 10:00Z]
//! user: …`): about 15 of a recalled line's 49 tokens. Said once per day, the same budget
//! holds a third more of what was said; the id still names the message.

use std::collections::{BTreeMap, HashSet};

use super::RecallHit;

/// The hits grouped by day, oldest day first and in the order found within a day:
///
/// ```text
/// [2026-11-20]
/// - 42 user: I moved to Lyon
/// - fact 3 place: Lives in Lyon
/// ```
///
/// A message is named by its id alone; a fact, summary or checkpoint by its kind and id.
pub fn lines(hits: &[RecallHit]) -> String {
    let mut days: BTreeMap<String, Vec<&RecallHit>> = BTreeMap::new();
    for hit in hits {
        days.entry(day(hit)).or_default().push(hit);
    }
    let mut out = String::new();
    for (day, hits) in days {
        out.push_str(&day_line(&day));
        for hit in hits {
            out.push_str(&line(hit));
        }
    }
    out
}

/// One hit's line, without its day: `- 42 user: …`, with the imported reference and
/// whether a newer fact replaced it.
fn line(hit: &RecallHit) -> String {
    let name = if hit.source == "message" { hit.id.to_string() } else { format!("{} {}", hit.source, hit.id) };
    let reference = hit.external_id.as_deref().map(|e| format!(" (ref {e})")).unwrap_or_default();
    let superseded = hit.superseded.as_deref().map(|since| format!(" (superseded {since}: no longer true)")).unwrap_or_default();
    format!("- {name}{reference}{superseded} {}: {}\n", hit.label, hit.snippet)
}

fn day_line(day: &str) -> String {
    format!("[{day}]\n")
}

/// The hit's day (UTC, as stored), or its timestamp as given when it is not a date.
fn day(hit: &RecallHit) -> String {
    if let Ok(at) = hit.timestamp.parse::<chrono::DateTime<chrono::Utc>>() {
        return at.format("%Y-%m-%d").to_string();
    }
    match hit.timestamp.get(..10).map(|start| chrono::NaiveDate::parse_from_str(start, "%Y-%m-%d")) {
        Some(Ok(date)) => date.to_string(),
        _ => hit.timestamp.clone(),
    }
}

/// What [`lines`] costs as hits are added one by one: a hit's line, and its day's line
/// when it is the first of that day.
#[derive(Default)]
pub(crate) struct Cost {
    days: HashSet<String>,
}

impl Cost {
    /// The tokens `hit` would add.
    pub(crate) fn of(&self, hit: &RecallHit) -> usize {
        let day = day(hit);
        let header = if self.days.contains(&day) { 0 } else { sidecar_llm::tokens::count(&day_line(&day)) };
        header + sidecar_llm::tokens::count(&line(hit))
    }

    /// Counts `hit` as shown.
    pub(crate) fn add(&mut self, hit: &RecallHit) {
        self.days.insert(day(hit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(id: i64, source: &str, timestamp: &str, superseded: Option<&str>) -> RecallHit {
        RecallHit {
            source: source.into(),
            id,
            label: "user".into(),
            snippet: "I moved to Lyon".into(),
            timestamp: timestamp.into(),
            external_id: None,
            superseded: superseded.map(str::to_string),
            score: 1.0,
            beside: false,
        }
    }

    /// Three messages over two days, out of order as recall ranks them.
    fn two_days() -> Vec<RecallHit> {
        vec![
            hit(42, "message", "2026-11-20T10:00:37Z", None),
            hit(7, "message", "2026-11-19T23:59:00Z", None),
            hit(43, "message", "2026-11-20T10:01:00Z", None),
        ]
    }

    #[test]
    fn the_day_is_said_once_and_each_line_keeps_its_id() {
        let mut hits = two_days();
        hits.push(hit(3, "fact", "2026-11-20", None));
        assert_eq!(
            lines(&hits),
            "[2026-11-19]\n- 7 user: I moved to Lyon\n\
             [2026-11-20]\n- 42 user: I moved to Lyon\n- 43 user: I moved to Lyon\n- fact 3 user: I moved to Lyon\n"
        );
    }

    #[test]
    fn a_replaced_fact_and_an_imported_reference_are_said() {
        let mut imported = hit(9, "message", "2023-05-08T13:56:00Z", None);
        imported.external_id = Some("chatgpt:abc".into());
        let text = lines(&[hit(2, "fact", "2026-01-02", Some("2026-11-01")), imported]);
        assert!(text.contains("- fact 2 (superseded 2026-11-01: no longer true) user:"), "{text}");
        assert!(text.contains("[2023-05-08]\n- 9 (ref chatgpt:abc) user:"), "{text}");
        // A timestamp that is not a date is its own heading, not lost.
        assert!(lines(&[hit(1, "summary", "yesterday", None)]).starts_with("[yesterday]\n- summary 1 user:"));
    }

    #[test]
    fn the_cost_counted_hit_by_hit_is_what_the_lines_cost() {
        let hits = two_days();
        let mut cost = Cost::default();
        let mut total = 0;
        for hit in &hits {
            total += cost.of(hit);
            cost.add(hit);
        }
        assert_eq!(total, sidecar_llm::tokens::count(&lines(&hits)));
        // The second hit of a day pays no day line.
        assert!(cost.of(&hits[0]) < Cost::default().of(&hits[0]));
    }
}
