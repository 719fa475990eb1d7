//! Checkpoints: the full state of a piece of work, written before the context fills
//! (or on `/checkpoint`), so it can be picked up later, in a new conversation or
//! after a restart.
//!
//! Lifecycle: a checkpoint starts `in_progress`; it is `paused` when the user starts
//! another conversation, `resumed` when they continue from it, and ends `completed` or
//! `abandoned` (final).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use sidecar_store::Message;

/// Days during which an open checkpoint is offered in a new conversation.
pub(crate) const OFFER_DAYS: i64 = 7;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, sqlx::Type, ts_rs::TS)]
#[sqlx(type_name = "TEXT", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum CheckpointStatus {
    InProgress,
    Paused,
    Resumed,
    Completed,
    Abandoned,
}

impl CheckpointStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CheckpointStatus::InProgress => "in_progress",
            CheckpointStatus::Paused => "paused",
            CheckpointStatus::Resumed => "resumed",
            CheckpointStatus::Completed => "completed",
            CheckpointStatus::Abandoned => "abandoned",
        }
    }

    /// Work still to be picked up.
    pub fn is_open(self) -> bool {
        matches!(self, CheckpointStatus::InProgress | CheckpointStatus::Paused | CheckpointStatus::Resumed)
    }

    /// Whether the lifecycle allows going from `self` to `next`.
    pub(crate) fn can_become(self, next: CheckpointStatus) -> bool {
        use CheckpointStatus::*;
        match (self, next) {
            (a, b) if a == b => true,
            (Completed | Abandoned, _) => false,
            (_, InProgress) => false,
            (InProgress | Resumed, Paused) => true,
            (Paused, Resumed) => true,
            (_, Completed | Abandoned) => true,
            _ => false,
        }
    }
}

/// What a checkpoint records (the seed's seven parts).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct CheckpointBody {
    pub title: String,
    pub current_work: String,
    pub completed: Vec<String>,
    pub pending: Vec<String>,
    /// What was decided, why, when and how sure (the seed's part 5).
    pub decisions: Vec<super::decision::Decision>,
    /// What was tried and worked, kept beside what failed so neither is tried blind again.
    pub successful_approaches: Vec<String>,
    pub failed_approaches: Vec<String>,
    pub user_preferences: Vec<String>,
    pub critical_info: Vec<String>,
    /// What stops the work now (a missing answer, an error, a decision to take).
    pub blockers: Vec<String>,
    /// Written by Sidecar, not the model: what the work ran on and touched.
    pub metadata: Metadata,
}

/// The circumstances of a checkpoint, for whoever picks it up.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Metadata {
    /// The model that was answering.
    pub model: Option<String>,
    /// Tokens of the conversation's context when it was written.
    pub tokens: Option<usize>,
    /// Files attached, reminders set and notes written in the turns it covers.
    pub touched: Vec<String>,
}

/// A stored checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Checkpoint {
    pub id: i64,
    pub conversation_id: i64,
    pub status: CheckpointStatus,
    /// "manual" (`/checkpoint`) or "auto" (the context neared its limit).
    pub trigger: String,
    pub body: CheckpointBody,
    pub created_at: String,
    pub updated_at: String,
}

fn section(out: &mut String, heading: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("\n## {heading}\n"));
    for item in items {
        out.push_str(&format!("- {item}\n"));
    }
}

impl Checkpoint {
    /// The export format: readable on its own, in any Markdown viewer.
    pub(crate) fn to_markdown(&self) -> String {
        let body = &self.body;
        let title = if body.title.trim().is_empty() { "Checkpoint" } else { body.title.trim() };
        let mut out = format!(
            "# {title}\n\n- Checkpoint #{} ({}, {})\n- Conversation {}\n- Created {}, updated {}\n",
            self.id,
            self.trigger,
            self.status.as_str().replace('_', " "),
            self.conversation_id,
            self.created_at,
            self.updated_at
        );
        if !body.current_work.trim().is_empty() {
            out.push_str(&format!("\n## Current work\n{}\n", body.current_work.trim()));
        }
        section(&mut out, "Completed", &body.completed);
        section(&mut out, "Pending", &body.pending);
        section(&mut out, "Decisions", &body.decisions.iter().map(super::decision::Decision::line).collect::<Vec<_>>());
        section(&mut out, "Approaches that worked", &body.successful_approaches);
        section(&mut out, "Approaches that failed", &body.failed_approaches);
        section(&mut out, "User preferences", &body.user_preferences);
        section(&mut out, "Critical information", &body.critical_info);
        section(&mut out, "Blockers", &body.blockers);
        let meta = &body.metadata;
        let mut about = Vec::new();
        if let Some(model) = &meta.model {
            about.push(format!("Model: {model}"));
        }
        if let Some(tokens) = meta.tokens {
            about.push(format!("Context: {tokens} tokens"));
        }
        if !meta.touched.is_empty() {
            about.push(format!("Touched: {}", meta.touched.join(", ")));
        }
        section(&mut out, "Metadata", &about);
        out
    }

    /// What goes into the prompt of the conversation that continues this work.
    pub(crate) fn to_prompt(&self) -> String {
        format!("<resumed_checkpoint>\nThe user chose to continue earlier work. Its saved state:\n{}</resumed_checkpoint>", self.to_markdown())
    }
}

/// Every checkpoint in `all` (newest first, as listed) as one Markdown document,
/// headed by when it was exported.
pub(crate) fn all_to_markdown(all: &[Checkpoint], exported_at: &str) -> String {
    let counted = if all.len() == 1 { "1 checkpoint".to_string() } else { format!("{} checkpoints", all.len()) };
    let mut out = format!("# Checkpoints\n\n{counted}, exported {exported_at}.\n");
    for checkpoint in all {
        // Each checkpoint's own headings go one level down under the document's.
        let own = checkpoint
            .to_markdown()
            .lines()
            .map(|line| if line.starts_with('#') { format!("#{line}") } else { line.to_string() })
            .collect::<Vec<_>>()
            .join("\n");
        out.push_str(&format!("\n---\n\n{own}\n"));
    }
    out
}

/// Tools whose calls write a note, and the argument naming it.
const NOTE_WRITES: [(&str, &str); 3] = [("create_note", "path"), ("append_content", "path"), ("move_note", "to")];

/// Files attached, reminders set and notes written in `messages`, each named once, in
/// order. A call whose result was an error touched nothing.
pub(crate) fn touched(messages: &[Message]) -> Vec<String> {
    let failed: HashSet<&str> = messages.iter().filter(|m| m.is_error).filter_map(|m| m.tool_call_id.as_deref()).collect();
    let mut out: Vec<String> = Vec::new();
    for message in messages {
        let meta = message.meta.as_ref().map(|m| &m.0);
        let files = meta.map(|m| m.attachments.iter().map(|a| a.name.clone()).collect::<Vec<_>>()).unwrap_or_default();
        let calls = message.tool_calls.iter().flat_map(|c| c.0.iter()).filter(|c| !failed.contains(c.id.as_str()));
        let written = calls.filter_map(|c| {
            let arguments = serde_json::from_str::<serde_json::Value>(&c.arguments).ok()?;
            let argument = |key: &str| arguments.get(key).and_then(|v| v.as_str()).map(str::to_string);
            if c.name == "set_reminder" {
                return argument("message").map(|m| format!("reminder: {m}"));
            }
            let (_, key) = NOTE_WRITES.iter().find(|(tool, _)| *tool == c.name)?;
            argument(key).map(|path| format!("note: {path}"))
        });
        for name in files.into_iter().chain(written) {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use CheckpointStatus::*;

    #[test]
    fn the_lifecycle_only_moves_forward() {
        assert!(InProgress.can_become(Paused));
        assert!(Paused.can_become(Resumed));
        assert!(Resumed.can_become(Completed));
        assert!(InProgress.can_become(Abandoned));
        assert!(!Completed.can_become(Resumed));
        assert!(!Abandoned.can_become(Paused));
        assert!(!Paused.can_become(InProgress));
        assert!(!InProgress.can_become(Resumed));
    }

    #[test]
    fn markdown_has_every_part_that_was_filled() {
        let checkpoint = Checkpoint {
            id: 3,
            conversation_id: 9,
            status: InProgress,
            trigger: "manual".into(),
            body: CheckpointBody {
                title: "Trip to Lisbon".into(),
                current_work: "Comparing hotels".into(),
                completed: vec!["Flights booked".into()],
                pending: vec!["Pick a hotel".into()],
                successful_approaches: vec!["Filtering by quiet rooms".into()],
                failed_approaches: vec!["Booking.com's map (no prices shown)".into()],
                critical_info: vec!["Allergic to peanuts".into()],
                blockers: vec!["Waiting for the hotel's answer".into()],
                metadata: Metadata { model: Some("gpt-4o-mini".into()), tokens: Some(5200), touched: vec!["itinerary.pdf".into()] },
                ..CheckpointBody::default()
            },
            created_at: "2026-11-22T10:00:00Z".into(),
            updated_at: "2026-11-22T10:00:00Z".into(),
        };
        let md = checkpoint.to_markdown();
        assert!(md.starts_with("# Trip to Lisbon\n"));
        assert!(md.contains("## Current work\nComparing hotels"));
        assert!(md.contains("## Pending\n- Pick a hotel"));
        assert!(md.contains("## Critical information\n- Allergic to peanuts"));
        assert!(!md.contains("## Decisions"));
        assert!(md.contains("## Approaches that worked\n- Filtering by quiet rooms\n\n## Approaches that failed\n- Booking.com's map"), "{md}");
        assert!(md.contains("## Blockers\n- Waiting for the hotel's answer"));
        assert!(md.contains("- Model: gpt-4o-mini\n- Context: 5200 tokens\n- Touched: itinerary.pdf"), "{md}");
    }

    fn said(id: i64, role: sidecar_store::Role, calls: &[(&str, &str, &str)], answers: Option<(&str, bool)>) -> Message {
        let tool_calls = calls
            .iter()
            .map(|(id, name, args)| sidecar_llm::ToolCall { id: (*id).into(), name: (*name).into(), arguments: (*args).into() })
            .collect::<Vec<_>>();
        Message {
            id,
            conversation_id: 1,
            role,
            content: String::new(),
            status: sidecar_store::MessageStatus::Complete,
            finish_reason: None,
            created_at: "2026-11-22T10:00:00Z".into(),
            tool_calls: (!tool_calls.is_empty()).then_some(sqlx::types::Json(tool_calls)),
            tool_call_id: answers.map(|(id, _)| id.into()),
            is_error: answers.is_some_and(|(_, error)| error),
            meta: None,
            channel: None,
        }
    }

    #[test]
    fn the_notes_written_are_listed_and_a_failed_write_is_not() {
        use sidecar_store::Role::Assistant;
        use sidecar_store::Role::Tool;
        let messages = [
            said(
                1,
                Assistant,
                &[
                    ("a", "create_note", r#"{"path": "Trips/Lisbon.md", "content": "Hotels"}"#),
                    ("b", "create_note", r#"{"path": "Trips/Porto.md", "content": "x"}"#),
                    ("c", "set_reminder", r#"{"message": "Call the hotel"}"#),
                ],
                None,
            ),
            said(2, Tool, &[], Some(("a", false))),
            said(3, Tool, &[], Some(("b", true))),
            said(4, Tool, &[], Some(("c", false))),
            said(
                5,
                Assistant,
                &[("d", "append_content", r#"{"path": "Trips/Lisbon.md", "content": "More"}"#), ("e", "move_note", r#"{"from": "a.md", "to": "Trips/b.md"}"#)],
                None,
            ),
            said(6, Tool, &[], Some(("d", false))),
            said(7, Tool, &[], Some(("e", false))),
        ];
        assert_eq!(touched(&messages), vec!["note: Trips/Lisbon.md", "reminder: Call the hotel", "note: Trips/b.md"]);
    }

    #[test]
    fn all_checkpoints_make_one_document_with_their_headings_below_its_own() {
        let one = |id: i64, title: &str| Checkpoint {
            id,
            conversation_id: 1,
            status: Completed,
            trigger: "auto".into(),
            body: CheckpointBody { title: title.into(), pending: vec!["Next".into()], ..CheckpointBody::default() },
            created_at: "2026-11-20T10:00:00Z".into(),
            updated_at: "2026-11-20T10:00:00Z".into(),
        };
        let md = all_to_markdown(&[one(2, "Second"), one(1, "First")], "2026-11-29T16:00:00Z");
        assert!(md.starts_with("# Checkpoints\n\n2 checkpoints, exported 2026-11-29T16:00:00Z.\n"), "{md}");
        assert!(md.find("## Second").unwrap() < md.find("## First").unwrap(), "{md}");
        assert_eq!(md.matches("### Pending\n- Next").count(), 2, "{md}");
        assert_eq!(md.matches("\n---\n").count(), 2);
    }
}
