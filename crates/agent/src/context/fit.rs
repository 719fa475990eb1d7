//! The context's fit, run before every model call: it brings a prompt inside the
//! model's budget (window − reply reserve) without ever breaking a tool call from its
//! result. In order:
//! 1. tool results over the size limit are compacted (deterministic JSON, or the middle
//!    cut from text);
//! 2. tool results older than the most recent few are replaced by a placeholder that
//!    says what was there;
//! 3. if still over budget, or more turns than `max_history_turns` are there (the
//!    plans' sliding window), the oldest whole turns leave (a turn is a user message and
//!    everything that answered it, so calls and results go together), keeping at least
//!    `min_turns_to_keep`;
//! 4. as a last resort, the longest messages are cut in the middle.
//!
//! The running summary (see `digest`) normally makes step 3 unnecessary; this is the
//! guarantee that no request is ever too long. Pure: the caller logs the report.

use std::collections::HashMap;

use serde::Serialize;

use super::compact::Compactions;
use sidecar_domain::truncate_middle;
use sidecar_llm::ChatMessage;
use sidecar_llm::Role;
use sidecar_settings::ContextSettings;

/// Marks a tool result the guard replaced, so it is not replaced twice.
pub(crate) const CLEARED_PREFIX: &str = "[cleared to save context:";
/// Tokens every message costs beyond its text (role and framing).
const MESSAGE_OVERHEAD: usize = 4;
/// The smallest budget the guard works with, whatever the window.
const MIN_BUDGET: usize = 512;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Tokens the prompt may use: the window minus the reply reserve.
    pub budget: usize,
    pub keep_tool_results: usize,
    pub max_tool_result_tokens: usize,
    pub min_turns_to_keep: usize,
    /// The most whole turns sent; `None`: as many as fit.
    pub max_history_turns: Option<usize>,
    /// Tokens of the tool definitions sent beside the prompt, already taken from
    /// `budget` (the meter counts them as used, so its whole stays the window's).
    pub tools: usize,
}

impl Limits {
    pub fn new(window: u32, reply_reserve: u32, settings: &ContextSettings) -> Self {
        let budget = (window.saturating_sub(reply_reserve) as usize).max(MIN_BUDGET);
        Self {
            budget,
            keep_tool_results: settings.keep_tool_results,
            // One result never takes more than an eighth of a small window, so the few
            // kept in full leave room for the conversation.
            max_tool_result_tokens: settings.max_tool_result_tokens.min(budget / 8).max(64),
            min_turns_to_keep: settings.min_turns_to_keep.max(1),
            max_history_turns: settings.max_history_turns.map(|turns| turns.max(settings.min_turns_to_keep).max(1)),
            tools: 0,
        }
    }
}

impl Limits {
    /// The same limits with `tokens` less to spend (the tool definitions sent alongside).
    pub(crate) fn less(self, tokens: usize) -> Self {
        Self { budget: self.budget.saturating_sub(tokens).max(MIN_BUDGET), tools: self.tools + tokens, ..self }
    }
}

/// What the guard did to one prompt.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    pub budget: usize,
    pub before: usize,
    pub after: usize,
    pub compacted: usize,
    pub cleared: usize,
    /// Whole turns in the prompt before fitting.
    pub turns: usize,
    pub dropped_turns: usize,
    pub truncated: usize,
}

impl Report {
    /// The prompt is still over the budget after everything else was cut: the system
    /// prompt (with the Health facts in it), which is never cut, does not fit.
    pub(crate) fn overflows(&self) -> bool {
        self.after > self.budget
    }

    /// Whether anything beyond routine clearing happened (worth a log line at info).
    pub(crate) fn trimmed(&self) -> bool {
        self.compacted + self.cleared + self.dropped_turns + self.truncated > 0
    }

    /// Whole turns sent after fitting.
    pub(crate) fn kept_turns(&self) -> usize {
        self.turns.saturating_sub(self.dropped_turns)
    }
}

pub(crate) type Counter<'a> = &'a dyn Fn(&str) -> usize;

pub(crate) fn message_tokens(message: &ChatMessage, count: Counter<'_>) -> usize {
    MESSAGE_OVERHEAD
        + count(&message.content)
        + message.tool_calls.iter().map(|c| MESSAGE_OVERHEAD + count(&c.name) + count(&c.arguments)).sum::<usize>()
        + message.images.len() * sidecar_memory::IMAGE_TOKENS
}

pub fn total_tokens(messages: &[ChatMessage], count: Counter<'_>) -> usize {
    messages.iter().map(|m| message_tokens(m, count)).sum()
}

/// Steps 1 and 2; the messages keep their number and order.
pub(crate) fn prepare(messages: &mut [ChatMessage], limits: &Limits, compactions: &Compactions, count: Counter<'_>) -> (usize, usize) {
    let mut compacted = 0;
    for message in messages.iter_mut().filter(|m| m.role == Role::Tool && !m.content.starts_with(CLEARED_PREFIX)) {
        if count(&message.content) > limits.max_tool_result_tokens {
            message.content = compactions.compact(&message.content, limits.max_tool_result_tokens, count);
            compacted += 1;
        }
    }
    // The latest round's results are never cleared: the model has not read them yet. Nor
    // are the latest plan and notes it wrote: they are what a long turn works from (the
    // per-turn block carries them only from the next turn on, to keep the prefix stable).
    let latest_round = messages.iter().rposition(|m| !m.tool_calls.is_empty()).unwrap_or(0);
    let kept = latest_of(messages, &[super::plan_item::PLAN_TOOL, super::scratchpad::NAME]);
    let results: Vec<usize> = messages.iter().enumerate().filter(|(_, m)| m.role == Role::Tool).map(|(i, _)| i).collect();
    let old: Vec<usize> =
        results[..results.len().saturating_sub(limits.keep_tool_results)].iter().copied().filter(|&i| i < latest_round && !kept.contains(&i)).collect();
    let cleared = clear_results(messages, &old, count);
    (compacted, cleared)
}

/// The index of the latest result of each tool in `names`.
fn latest_of(messages: &[ChatMessage], names: &[&str]) -> Vec<usize> {
    let calls: HashMap<&str, &str> = messages.iter().flat_map(|m| m.tool_calls.iter()).map(|c| (c.id.as_str(), c.name.as_str())).collect();
    names
        .iter()
        .filter_map(|name| messages.iter().rposition(|m| m.role == Role::Tool && m.tool_call_id.as_deref().and_then(|id| calls.get(id)) == Some(name)))
        .collect()
}

fn clear_results(messages: &mut [ChatMessage], indices: &[usize], count: Counter<'_>) -> usize {
    let calls: HashMap<String, (String, String)> =
        messages.iter().flat_map(|m| m.tool_calls.iter()).map(|c| (c.id.clone(), (c.name.clone(), c.arguments.clone()))).collect();
    let mut cleared = 0;
    for &index in indices {
        let message = &mut messages[index];
        if message.content.starts_with(CLEARED_PREFIX) {
            continue;
        }
        let (name, arguments) = message.tool_call_id.as_ref().and_then(|id| calls.get(id)).cloned().unwrap_or_else(|| ("a tool".into(), String::new()));
        let arguments: String = arguments.chars().take(80).collect();
        message.content = format!(
            "{CLEARED_PREFIX} the result of {name}({arguments}), {} tokens. It is stored; call the tool again or use recall if you need it.]",
            count(&message.content)
        );
        cleared += 1;
    }
    cleared
}

/// Indices where turns start: each user message from `head` on (after the system
/// prompt, when there is one).
fn turn_starts(messages: &[ChatMessage], head: usize) -> Vec<usize> {
    messages.iter().enumerate().skip(head).filter(|(_, m)| m.role == Role::User).map(|(i, _)| i).collect()
}

/// Runs the guard on a prompt whose first message is the system prompt.
pub fn fit(mut messages: Vec<ChatMessage>, limits: &Limits, compactions: &Compactions, count: Counter<'_>) -> (Vec<ChatMessage>, Report) {
    let mut report = Report { budget: limits.budget, before: total_tokens(&messages, count), ..Report::default() };
    (report.compacted, report.cleared) = prepare(&mut messages, limits, compactions, count);
    let has_system = messages.first().is_some_and(|m| m.role == Role::System);
    let head = usize::from(has_system);

    // Step 3: whole turns leave, oldest first (and anything before the first turn).
    // One pass over per-message counts: histories can be thousands of messages long.
    let tokens: Vec<usize> = messages.iter().map(|m| message_tokens(m, count)).collect();
    let mut total: usize = tokens.iter().sum();
    let starts = turn_starts(&messages, head);
    report.turns = starts.len();
    let over_cap = limits.max_history_turns.map_or(0, |max| starts.len().saturating_sub(max));
    if total > limits.budget || over_cap > 0 {
        let keep_from = starts.len().saturating_sub(limits.min_turns_to_keep);
        let mut cut = head;
        for (turn, &start) in starts.iter().enumerate() {
            // Reaching `starts[turn]` drops the `turn` turns before it.
            let capped = turn <= over_cap && over_cap > 0;
            if (total <= limits.budget && !capped) || turn > keep_from {
                break;
            }
            if start > cut {
                total -= tokens[cut..start].iter().sum::<usize>();
                report.dropped_turns += usize::from(messages[cut].role == Role::User);
                cut = start;
            }
        }
        messages.drain(head..cut);
    }

    // Step 4: clear every result before the current turn, then cut the longest messages.
    if total_tokens(&messages, count) > limits.budget {
        let current = turn_starts(&messages, head).last().copied().unwrap_or(head);
        let older: Vec<usize> = (head..current).filter(|&i| messages[i].role == Role::Tool).collect();
        report.cleared += clear_results(&mut messages, &older, count);
    }
    for _ in 0..64 {
        let total = total_tokens(&messages, count);
        if total <= limits.budget {
            break;
        }
        // The system prompt is never cut: it holds who Sidecar is, the rules and the
        // Health facts. When it alone does not fit, the report says so.
        let Some((index, tokens)) =
            messages.iter().enumerate().skip(head).map(|(i, m)| (i, count(&m.content))).filter(|(_, tokens)| *tokens > 32).max_by_key(|(_, tokens)| *tokens)
        else {
            break;
        };
        let target = tokens.saturating_sub(total - limits.budget).max(tokens / 2).max(16);
        messages[index].content = truncate_middle(&messages[index].content, target, count);
        report.truncated += 1;
    }
    report.after = total_tokens(&messages, count);
    (messages, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sidecar_llm::tokens::count;
    use sidecar_llm::ToolCall;

    fn limits(budget: usize) -> Limits {
        Limits { budget, keep_tool_results: 2, max_tool_result_tokens: 200, min_turns_to_keep: 2, max_history_turns: None, tools: 0 }
    }

    fn tool_turn(i: usize, result: &str) -> Vec<ChatMessage> {
        let id = format!("call-{i}");
        vec![
            ChatMessage::user(format!("question {i}")),
            ChatMessage::assistant_with_tools("", vec![ToolCall { id: id.clone(), name: "web_search".into(), arguments: format!("{{\"query\":\"q{i}\"}}") }]),
            ChatMessage::tool_result(&id, result, false),
            ChatMessage::assistant(format!("answer {i}")),
        ]
    }

    fn pairs_intact(messages: &[ChatMessage]) -> bool {
        messages.iter().enumerate().all(|(i, m)| match m.role {
            Role::Tool => (0..i)
                .rev()
                .map(|j| &messages[j])
                .find(|p| p.role != Role::Tool)
                .is_some_and(|p| p.tool_calls.iter().any(|c| Some(&c.id) == m.tool_call_id.as_ref())),
            Role::Assistant if !m.tool_calls.is_empty() => {
                m.tool_calls.iter().all(|c| messages[i + 1..].iter().take_while(|r| r.role == Role::Tool).any(|r| r.tool_call_id.as_ref() == Some(&c.id)))
            }
            _ => true,
        })
    }

    #[test]
    fn old_tool_results_become_placeholders_naming_the_call() {
        let mut messages = vec![ChatMessage::system("persona")];
        for i in 0..5 {
            messages.extend(tool_turn(i, "{\"temperature\": 21}"));
        }
        let (out, report) = fit(messages, &limits(100_000), &Compactions::default(), &count);
        assert_eq!(report.cleared, 3);
        assert_eq!(report.dropped_turns, 0);
        let results: Vec<&ChatMessage> = out.iter().filter(|m| m.role == Role::Tool).collect();
        assert!(results[0].content.starts_with(CLEARED_PREFIX));
        assert!(results[0].content.contains("web_search({\"query\":\"q0\"})"), "{}", results[0].content);
        assert_eq!(results[4].content, "{\"temperature\": 21}");
        assert!(pairs_intact(&out));
    }

    #[test]
    fn the_latest_notes_and_plan_are_never_cleared() {
        let call = |id: &str, name: &str| ChatMessage::assistant_with_tools("", vec![ToolCall { id: id.into(), name: name.into(), arguments: "{}".into() }]);
        let mut messages = vec![ChatMessage::system("persona"), ChatMessage::user("compare the hotels")];
        for (id, name, result) in
            [("n0", "write_scratchpad", "old notes"), ("n1", "write_scratchpad", "Notes kept: Baixa 95 €"), ("p1", "update_plan", "Plan saved.")]
        {
            messages.extend([call(id, name), ChatMessage::tool_result(id, result, false)]);
        }
        for i in 0..4 {
            let id = format!("w{i}");
            messages.extend([call(&id, "web_search"), ChatMessage::tool_result(&id, "{\"hotel\": 1}", false)]);
        }
        let (out, _) = fit(messages, &limits(100_000), &Compactions::default(), &count);
        let results: Vec<&str> = out.iter().filter(|m| m.role == Role::Tool).map(|m| m.content.as_str()).collect();
        assert!(results[0].starts_with(CLEARED_PREFIX), "older notes go: {results:?}");
        assert_eq!((results[1], results[2]), ("Notes kept: Baixa 95 €", "Plan saved."));
        assert!(results[3].starts_with(CLEARED_PREFIX));
    }

    #[test]
    fn over_budget_drops_whole_turns_oldest_first_and_keeps_the_minimum() {
        let mut messages = vec![ChatMessage::system("persona")];
        for i in 0..30 {
            messages.extend(tool_turn(i, &"x ".repeat(150)));
        }
        let (out, report) = fit(messages, &limits(400), &Compactions::default(), &count);
        assert!(report.after <= 400, "{report:?}");
        assert!(report.dropped_turns > 0);
        assert_eq!(out[0].role, Role::System);
        assert_eq!(out[1].role, Role::User);
        assert!(out.last().unwrap().content == "answer 29");
        assert!(pairs_intact(&out));
    }

    #[test]
    fn max_history_turns_keeps_the_newest_whole_turns_with_room_to_spare() {
        let mut messages = vec![ChatMessage::system("persona"), ChatMessage::assistant("Hello! What can I do?")];
        for i in 0..20 {
            messages.extend(tool_turn(i, "{\"t\":1}"));
        }
        let capped = Limits { max_history_turns: Some(15), ..limits(100_000) };
        let (out, report) = fit(messages.clone(), &capped, &Compactions::default(), &count);
        assert_eq!((report.turns, report.dropped_turns, report.kept_turns()), (20, 5, 15), "{report:?}");
        assert_eq!(out.iter().filter(|m| m.role == Role::User).count(), 15);
        assert_eq!(out[1].content, "question 5", "the oldest turns leave first, the greeting before them too");
        assert!(pairs_intact(&out));

        let (out, report) = fit(messages, &limits(100_000), &Compactions::default(), &count);
        assert_eq!((report.turns, report.dropped_turns), (20, 0), "no cap: every turn that fits stays");
        assert_eq!(out.iter().filter(|m| m.role == Role::User).count(), 20);
    }

    #[test]
    fn a_tight_budget_still_drops_more_than_the_cap_asks() {
        let mut messages = vec![ChatMessage::system("persona")];
        for i in 0..30 {
            messages.extend(tool_turn(i, &"x ".repeat(150)));
        }
        let capped = Limits { max_history_turns: Some(25), ..limits(400) };
        let (_, report) = fit(messages, &capped, &Compactions::default(), &count);
        assert!(report.after <= 400, "{report:?}");
        assert!(report.dropped_turns > 5, "{report:?}");
        assert_eq!(report.kept_turns(), 30 - report.dropped_turns);
    }

    #[test]
    fn a_huge_current_message_is_cut_rather_than_sent_too_long() {
        let messages = vec![ChatMessage::system("persona"), ChatMessage::user("palabra ".repeat(3000))];
        let (out, report) = fit(messages, &limits(600), &Compactions::default(), &count);
        assert!(report.after <= 600, "{report:?}");
        assert!(report.truncated >= 1);
        assert_eq!(out.len(), 2);
    }

    #[test]
    fn results_of_the_latest_round_are_never_cleared() {
        let calls: Vec<ToolCall> = (0..5).map(|i| ToolCall { id: format!("c{i}"), name: "get_weather".into(), arguments: "{}".into() }).collect();
        let mut messages = vec![ChatMessage::system("persona"), ChatMessage::user("weather in five cities")];
        messages.push(ChatMessage::assistant_with_tools("", calls));
        messages.extend((0..5).map(|i| ChatMessage::tool_result(format!("c{i}"), "{\"t\":1}", false)));
        let (out, report) = fit(messages, &limits(100_000), &Compactions::default(), &count);
        assert_eq!(report.cleared, 0);
        assert!(out.iter().filter(|m| m.role == Role::Tool).all(|m| m.content == "{\"t\":1}"));
    }

    #[test]
    fn large_results_are_compacted_even_when_recent() {
        let big = serde_json::json!({ "items": (0..300).map(|i| serde_json::json!({"id": i, "name": format!("n{i}")})).collect::<Vec<_>>() }).to_string();
        let mut messages = vec![ChatMessage::system("persona")];
        messages.extend(tool_turn(0, &big));
        let (out, report) = fit(messages, &limits(100_000), &Compactions::default(), &count);
        assert_eq!(report.compacted, 1);
        assert!(count(&out[3].content) <= 200);
        assert!(out[3].content.contains("\"id\":0"));
    }

    mod never_cut {
        use super::*;
        use proptest::prelude::*;

        fn history(turns: &[(usize, usize)]) -> Vec<ChatMessage> {
            turns
                .iter()
                .enumerate()
                .flat_map(|(i, (asked, answered))| {
                    [ChatMessage::user(format!("question {i} {}", "word ".repeat(*asked))), ChatMessage::assistant("answer ".repeat(*answered))]
                })
                .collect()
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

            /// Whatever the window, from 512 tokens to 200k: the system prompt (and the
            /// Health facts in it) is sent whole or not at all; when it fits with room
            /// for the newest message, the prompt fits; when it cannot, the report says so.
            #[test]
            fn the_system_prompt_is_never_cut(window in 512u32..200_000, system_words in 10usize..6_000, turns in proptest::collection::vec((1usize..3_000, 1usize..3_000), 1..30)) {
                let limits = Limits::new(window, 256, &sidecar_settings::ContextSettings::default());
                let system = ChatMessage::system(format!("Health: allergic to penicillin. {}", "rule ".repeat(system_words)));
                let mut messages = vec![system.clone()];
                messages.extend(history(&turns));
                let (out, report) = fit(messages, &limits, &Compactions::default(), &count);
                prop_assert_eq!(&out[0], &system);
                let system_tokens = message_tokens(&system, &count);
                if system_tokens + 64 * 8 <= limits.budget {
                    prop_assert!(!report.overflows(), "system {} of budget {}: {:?}", system_tokens, limits.budget, report);
                }
                if system_tokens > limits.budget {
                    prop_assert!(report.overflows());
                }
            }
        }
    }
}
