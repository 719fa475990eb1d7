//! The digest of turns about to leave the context: one model call returns the updated
//! running summary, a checkpoint of the work, and the personal facts worth keeping
//! (the memory flush). When the model's answer is not the JSON asked for, a
//! deterministic digest stands in, so eviction never waits on a good model.
//!
//! Also Bug 12's safety net: evicted user messages that look like personal facts and
//! were never saved are reported, to be logged and kept in `truncated_messages.jsonl`.

use serde::{Deserialize, Serialize};

use super::checkpoint::CheckpointBody;
use sidecar_domain::shorten;
use sidecar_domain::truncate_middle;
use sidecar_llm::ChatMessage;
use sidecar_llm::Role;
use sidecar_memory::potential_facts;

/// The running summary is kept under this many tokens (less in small windows).
pub(crate) const SUMMARY_TOKENS: usize = 1_200;
/// Facts one digest may save.
pub(crate) const MAX_FLUSHED_FACTS: usize = 8;
/// A tool result is shown to the digest call at most this long.
const TOOL_RESULT_TOKENS: usize = 150;

const INSTRUCTIONS: &str = r#"You maintain the memory of a long conversation between a user and their assistant. Older turns are leaving the assistant's context. Read the previous summary and the leaving turns, and answer with ONE JSON object and nothing else:
{"summary": "the previous summary updated with what matters from the leaving turns: topics, decisions, names, numbers, dates, open questions (under 250 words, in the user's language)",
 "checkpoint": {"title": "...", "current_work": "...", "completed": ["..."], "pending": ["..."], "decisions": [{"what": "what was decided", "why": "the reason given", "confidence": 0.8}], "successful_approaches": ["what was tried and worked"], "failed_approaches": ["what was tried and failed, and why"], "user_preferences": ["..."], "critical_info": ["..."], "blockers": ["what stops the work now, if anything"]},
 "facts": [{"fact": "a lasting personal fact the user stated about themselves", "category": "Health|Preferences|Work|Relationships|Schedule|Goals|General"}]}
Only facts the user said about themselves go in "facts". Keep identifiers, names, URLs and numbers exact."#;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct DigestFact {
    pub fact: String,
    #[serde(default)]
    pub category: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Digest {
    pub summary: String,
    pub checkpoint: CheckpointBody,
    pub facts: Vec<DigestFact>,
}

/// What the user wrote, without the per-turn block the message was sent with.
fn said(message: &ChatMessage) -> &str {
    sidecar_llm::per_turn::split(&message.content).0
}

/// Renders turns as plain text for the digest call, within `budget` tokens.
pub(crate) fn transcript(turns: &[ChatMessage], budget: usize, count: &dyn Fn(&str) -> usize) -> String {
    let mut names = std::collections::HashMap::new();
    let mut lines = Vec::new();
    for message in turns {
        for call in &message.tool_calls {
            names.insert(call.id.clone(), call.name.clone());
        }
        let line = match message.role {
            Role::User => format!("USER: {}", said(message)),
            Role::Assistant if message.content.is_empty() => continue,
            Role::Assistant => format!("ASSISTANT: {}", message.content),
            Role::Tool => {
                let name = message.tool_call_id.as_ref().and_then(|id| names.get(id)).map(String::as_str).unwrap_or("tool");
                format!("TOOL {name}: {}", truncate_middle(&message.content, TOOL_RESULT_TOKENS, count))
            }
            Role::System => continue,
        };
        lines.push(line);
    }
    let lines: Vec<String> = lines.iter().map(|l| truncate_middle(l, budget / 8, count)).collect();
    keep_ends(&lines, budget, count)
}

/// The first and last lines that fit `budget` (two thirds from the start, the rest
/// from the end), with a marker where lines were left out. Linear in the lines.
fn keep_ends(lines: &[String], budget: usize, count: &dyn Fn(&str) -> usize) -> String {
    let tokens: Vec<usize> = lines.iter().map(|l| count(l) + 1).collect();
    if tokens.iter().sum::<usize>() <= budget {
        return lines.join("\n");
    }
    let (mut head, mut used) = (0, 0);
    while head < lines.len() && used + tokens[head] <= budget * 2 / 3 {
        used += tokens[head];
        head += 1;
    }
    let mut tail = lines.len();
    while tail > head && used + tokens[tail - 1] <= budget.saturating_sub(20) {
        used += tokens[tail - 1];
        tail -= 1;
    }
    let mut out: Vec<&str> = lines[..head].iter().map(String::as_str).collect();
    let marker = format!("[… {} lines left out here …]", tail - head);
    out.push(&marker);
    out.extend(lines[tail..].iter().map(String::as_str));
    out.join("\n")
}

/// The digest request: instructions, the previous summary, the leaving turns.
pub(crate) fn request_messages(previous_summary: &str, transcript: &str) -> Vec<ChatMessage> {
    let previous = if previous_summary.trim().is_empty() { "(none yet)" } else { previous_summary.trim() };
    vec![ChatMessage::system(INSTRUCTIONS), ChatMessage::user(format!("PREVIOUS SUMMARY:\n{previous}\n\nLEAVING TURNS:\n{transcript}"))]
}

/// Why no digest came from the model; the plain summary is made instead.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NoDigest {
    #[error(transparent)]
    Call(#[from] sidecar_llm::CallOnceError),
    #[error("the answer has no JSON object")]
    NoJson,
    #[error("the JSON does not fit: {0}")]
    Unfit(#[from] serde_json::Error),
    #[error("the summary is empty")]
    EmptySummary,
}

/// Reads the model's answer: the first JSON object in it (fences and chatter around
/// it are tolerated). An answer without a summary is not a digest.
pub(crate) fn parse(answer: &str) -> Result<Digest, NoDigest> {
    let (Some(start), Some(end)) = (answer.find('{'), answer.rfind('}')) else {
        return Err(NoDigest::NoJson);
    };
    if end < start {
        return Err(NoDigest::NoJson);
    }
    let digest: Digest = serde_json::from_str(&answer[start..=end])?;
    if digest.summary.trim().is_empty() {
        return Err(NoDigest::EmptySummary);
    }
    Ok(digest)
}

/// On one line, at most `chars` characters.
fn cut(text: &str, chars: usize) -> String {
    shorten(&text.split_whitespace().collect::<Vec<_>>().join(" "), chars)
}

/// A digest made without a model: the summary gains one line per leaving exchange,
/// and the checkpoint records the last request and the fact-like phrases.
/// Which of the user's messages `said` (id, text) a fact the digest found was learned
/// from, for "Where I learned it": the one sharing most of the fact's words, at least two
/// and half of them. A fact put in other words (another language, the third person) has
/// none: no origin is better than a wrong one.
pub(crate) fn learned_in<'a>(fact: &str, said: impl IntoIterator<Item = (i64, &'a str)>) -> Option<i64> {
    use std::collections::HashSet;
    let wanted: HashSet<String> = sidecar_domain::word_overlap::words(fact).into_iter().filter(|w| w.chars().count() > 2).collect();
    said.into_iter()
        .map(|(id, text)| {
            let have: HashSet<String> = sidecar_domain::word_overlap::words(text).into_iter().collect();
            (wanted.intersection(&have).count(), id)
        })
        .filter(|(shared, _)| *shared >= 2 && shared * 2 >= wanted.len())
        .max()
        .map(|(_, id)| id)
}

pub(crate) fn fallback(previous_summary: &str, turns: &[ChatMessage], budget: usize, count: &dyn Fn(&str) -> usize) -> Digest {
    let mut summary = previous_summary.trim().to_string();
    for message in turns.iter().filter(|m| !m.content.trim().is_empty()) {
        let line = match message.role {
            Role::User => format!("- The user said: {}", cut(said(message), 200)),
            Role::Assistant => format!("- Sidecar answered: {}", cut(&message.content, 160)),
            _ => continue,
        };
        if !summary.is_empty() {
            summary.push('\n');
        }
        summary.push_str(&line);
    }
    let user_texts: Vec<&str> = turns.iter().filter(|m| m.role == Role::User).map(said).collect();
    let critical_info: Vec<String> = user_texts.iter().flat_map(|t| potential_facts(t)).collect();
    Digest {
        summary: keep_recent_lines(&summary, budget, count),
        checkpoint: CheckpointBody {
            title: user_texts.first().map(|t| cut(t, 60)).unwrap_or_else(|| "Conversation".into()),
            current_work: user_texts.last().map(|t| cut(t, 300)).unwrap_or_default(),
            critical_info,
            ..CheckpointBody::default()
        },
        facts: Vec::new(),
    }
}

/// Drops the oldest lines until the text fits (the newest matter most to go on).
fn keep_recent_lines(text: &str, budget: usize, count: &dyn Fn(&str) -> usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut start = lines.len();
    let mut used = 0;
    while start > 0 {
        let cost = count(lines[start - 1]) + 1;
        if used + cost > budget && start < lines.len() {
            break;
        }
        used += cost;
        start -= 1;
    }
    truncate_middle(&lines[start..].join("\n"), budget, count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sidecar_llm::tokens::count;

    #[test]
    fn a_flushed_fact_is_traced_to_the_message_that_says_it_and_no_other() {
        let said = [(4, "Plan my week please"), (6, "Soy diabético tipo 2, by the way"), (9, "y mi hermana Ana vive en Lyon")];
        assert_eq!(learned_in("Es diabético tipo 2", said), Some(6));
        assert_eq!(learned_in("Su hermana Ana vive en Lyon", said), Some(9));
        // Said in other words: no origin rather than a wrong one.
        assert_eq!(learned_in("Has type 2 diabetes", said), None);
        assert_eq!(learned_in("Likes jazz", said), None);
    }

    #[test]
    fn parses_json_inside_fences_and_chatter() {
        let answer = "Sure!\n```json\n{\"summary\": \"Planning a trip\", \"checkpoint\": {\"title\": \"Trip\", \"pending\": [\"hotel\"], \"blockers\": [\"no answer from the hotel\"]}, \"facts\": [{\"fact\": \"Is vegetarian\", \"category\": \"Health\"}]}\n```";
        let digest = parse(answer).unwrap();
        assert_eq!(digest.summary, "Planning a trip");
        assert_eq!(digest.checkpoint.pending, ["hotel"]);
        assert_eq!(digest.checkpoint.blockers, ["no answer from the hotel"]);
        assert_eq!(digest.facts[0].fact, "Is vegetarian");
        assert!(parse("I cannot do that").is_err());
        assert!(parse("{\"summary\": \"\"}").is_err());
        assert!(parse("{\"summary\": 3}").is_err());
    }

    #[test]
    fn the_fallback_keeps_what_the_user_said_and_fact_like_phrases() {
        let turns = vec![ChatMessage::user("Plan my week. Soy diabético tipo 2, by the way."), ChatMessage::assistant("Noted. Here is a plan…")];
        let digest = fallback("- Earlier: talked about Lisbon", &turns, SUMMARY_TOKENS, &count);
        assert!(digest.summary.starts_with("- Earlier: talked about Lisbon\n- The user said: Plan my week."));
        assert!(digest.summary.contains("Sidecar answered: Noted."));
        assert!(digest.checkpoint.critical_info.iter().any(|f| f.contains("diabético")), "{:?}", digest.checkpoint);
        assert_eq!(digest.checkpoint.current_work, "Plan my week. Soy diabético tipo 2, by the way.");
    }

    #[test]
    fn a_long_transcript_keeps_its_beginning_and_end() {
        let turns: Vec<ChatMessage> = (0..3000).map(|i| ChatMessage::user(format!("line {i} of the leaving turns"))).collect();
        let text = transcript(&turns, 500, &count);
        assert!(count(&text) <= 520, "{}", count(&text));
        assert!(text.starts_with("USER: line 0 "));
        assert!(text.ends_with("line 2999 of the leaving turns"));
        assert!(text.contains("lines left out here"));
    }

    #[test]
    fn the_running_summary_stays_within_its_budget() {
        let turns: Vec<ChatMessage> = (0..400).map(|i| ChatMessage::user(format!("message number {i} about many different things"))).collect();
        let digest = fallback("", &turns, SUMMARY_TOKENS, &count);
        assert!(count(&digest.summary) <= SUMMARY_TOKENS);
        assert!(digest.summary.contains("message number 399"));
    }
}
