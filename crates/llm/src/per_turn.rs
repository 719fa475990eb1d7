//! What changes from turn to turn, said late: the time to the minute, the plan and its
//! progress, recent self-corrections and a resumed checkpoint go in a short block at
//! the end of the newest user message, not in the system prompt. So the start of the
//! prompt stays byte-identical from turn to turn, and a server that caches prompts
//! (llama.cpp, Anthropic, OpenAI) reuses everything before the newest exchange.
//!
//! The block is fixed when a turn's first call is sent and kept with the user's message
//! (beside its words, never in them), so later calls and later turns send that message
//! exactly as it was sent: the server's cache then holds everything up to the newest
//! message, the previous reply included.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::{ChatMessage, Role};

const OPEN: &str = "\n\n<turn_context>\n";
const CLOSE: &str = "\n</turn_context>";

/// How the block's time line starts.
const TIME_LINE: &str = "Current date and time:";

/// How the system prompt's sentence naming the day starts.
const DAY_START: &str = "Today is ";

/// The system prompt's sentence naming the day (never the minute: the prompt would then
/// change every minute and no server could reuse its cache).
pub fn day_sentence(now: DateTime<Utc>, zone: Tz) -> String {
    format!("{DAY_START}{} ({}).", now.with_timezone(&zone).format("%A %Y-%m-%d"), zone.name())
}

/// The day sentence in a system prompt built with [`day_sentence`], if it holds one.
pub(crate) fn find_day_sentence(system: &str) -> Option<&str> {
    let start = system.find(DAY_START)?;
    let end = start + system[start..].find(").")? + 2;
    Some(&system[start..end])
}

/// Messages of live history from which the tool rules are said again, and again each
/// time this many messages have passed without them: past this, the seeds saw models
/// forget they can act (the plans name 6 to 8; 8 is the user side).
pub const REINFORCE_AFTER: usize = 8;

/// How the restated rules start (to find them in a kept block).
const REINFORCEMENT_START: &str = "Reminder, as the conversation is long";

/// Whether the rules are due again: the live history holds `history_len` messages, and
/// none of the per-turn blocks kept with its last [`REINFORCE_AFTER`] (`recent_blocks`)
/// carried them.
pub fn reinforcement_due<'a>(history_len: usize, recent_blocks: impl IntoIterator<Item = &'a str>) -> bool {
    history_len >= REINFORCE_AFTER && !recent_blocks.into_iter().any(|b| b.contains(REINFORCEMENT_START))
}

/// The tool rules said again late in a long conversation, with the tools by name.
pub fn reinforcement(tools: &[&str]) -> String {
    format!(
        "{REINFORCEMENT_START}: you can act with your tools ({}). Use them when they help, and never say you did something (set a reminder, saved a fact) unless you called the tool for it in this reply.",
        tools.join(", ")
    )
}

/// The parts of the block fixed when a turn starts (the plan is added at each call,
/// since the model may change it between rounds).
pub fn head(now: DateTime<Utc>, zone: Tz, corrections: &[String], resumed: Option<&str>, reinforce: Option<&str>, plan_first: Option<&str>) -> String {
    let mut out = format!("{TIME_LINE} {}.", sidecar_domain::describe_moment(now, zone));
    for line in [reinforce, plan_first].into_iter().flatten() {
        out.push('\n');
        out.push_str(line);
    }
    if !corrections.is_empty() {
        out.push_str("\nMistakes you made recently; avoid repeating them:");
        for note in corrections {
            out.push_str("\n- ");
            out.push_str(note);
        }
    }
    if let Some(checkpoint) = resumed {
        out.push('\n');
        out.push_str(checkpoint);
    }
    out
}

/// The whole block for one model call: `head` and the current plan.
pub fn block(head: &str, plan: &str) -> String {
    if plan.is_empty() {
        format!("{OPEN}{head}{CLOSE}")
    } else {
        format!("{OPEN}{head}\n{plan}{CLOSE}")
    }
}

/// The index of the newest user message.
pub fn newest_user(messages: &[ChatMessage]) -> Option<usize> {
    messages.iter().rposition(|m| m.role == Role::User)
}

/// Puts `block` on message `at`, in place of the one it carries, if any.
pub fn attach_at(messages: &mut [ChatMessage], at: usize, block: &str) {
    if let Some(message) = messages.get_mut(at) {
        let said = split(&message.content).0.to_string();
        message.content = said + block;
    }
}

/// A user message's own words and its block, when it carries one.
pub fn split(content: &str) -> (&str, Option<&str>) {
    match content.rfind(OPEN) {
        Some(at) if content.ends_with(CLOSE) => (&content[..at], Some(&content[at + OPEN.len()..content.len() - CLOSE.len()])),
        _ => (content, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn the_block_goes_on_the_newest_user_message_and_splits_back() {
        let now = Utc.with_ymd_and_hms(2026, 11, 24, 13, 5, 0).unwrap();
        let head = head(now, chrono_tz::Europe::Madrid, &["You said 3pm; it was 4pm.".into()], None, None, None);
        let mut messages = vec![ChatMessage::system("s"), ChatMessage::user("first"), ChatMessage::assistant("a"), ChatMessage::user("second")];
        let newest = newest_user(&messages).unwrap();
        attach_at(&mut messages, newest, &block(&head, "Plan:\n- [ ] pack"));
        assert_eq!(messages[1].content, "first");
        let (said, late) = split(&messages[3].content);
        assert_eq!(said, "second");
        let late = late.unwrap();
        assert!(late.starts_with("Current date and time: Tuesday 2026-11-24 14:05 (Europe/Madrid"), "{late}");
        assert!(late.contains("You said 3pm") && late.ends_with("- [ ] pack"), "{late}");
        assert_eq!(split("no block here"), ("no block here", None));
        // A message sent again (a retry) carries one block, the newest.
        attach_at(&mut messages, newest, &block(&head, ""));
        assert_eq!(messages[3].content.matches("<turn_context>").count(), 1);
        assert!(!messages[3].content.contains("pack"));
    }

    #[test]
    fn the_day_sentence_is_found_again_in_a_system_prompt_and_names_the_local_day() {
        let late_evening = Utc.with_ymd_and_hms(2026, 11, 24, 23, 30, 0).unwrap();
        let day = day_sentence(late_evening, chrono_tz::Europe::Madrid);
        assert_eq!(day, "Today is Wednesday 2026-11-25 (Europe/Madrid).");
        assert_eq!(find_day_sentence(&format!("Persona.\n\n{day} More.\n\n<facts>x (y).</facts>")), Some(day.as_str()));
        assert_eq!(find_day_sentence("no day here"), None);
    }
}
