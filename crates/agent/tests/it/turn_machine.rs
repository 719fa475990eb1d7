//! The turn state machine on its own: events in, effects out, no IO and no clock.

use sidecar_agent::Effect;
use sidecar_agent::ToolResult;
use sidecar_agent::Turn;
use sidecar_agent::TurnEnd;
use sidecar_agent::TurnEvent;
use sidecar_agent::TurnLimits;
use sidecar_agent::TurnNote;
use sidecar_agent::CONTINUE_PROMPT;
use sidecar_llm::ChatMessage;
use sidecar_llm::Completion;
use sidecar_llm::FinishReason;
use sidecar_llm::Role;
use sidecar_llm::ToolCall;

fn prompt() -> Vec<ChatMessage> {
    vec![ChatMessage::system("sys"), ChatMessage::user("hi")]
}

fn text(t: &str, reason: FinishReason) -> TurnEvent {
    TurnEvent::ModelReplied(Completion { text: t.into(), finish_reason: Some(reason), ..Default::default() })
}

fn calls(ids: &[&str]) -> TurnEvent {
    TurnEvent::ModelReplied(Completion {
        tool_calls: ids.iter().map(|id| ToolCall { id: id.to_string(), name: "t".into(), arguments: "{}".into() }).collect(),
        finish_reason: Some(FinishReason::ToolUse),
        ..Default::default()
    })
}

fn ok(id: &str) -> ToolResult {
    ToolResult { call_id: id.into(), content: "{}".into(), is_error: false }
}

#[test]
fn a_plain_answer_is_one_call_and_done() {
    let (mut turn, effects) = Turn::start(prompt(), TurnLimits::default());
    assert!(matches!(&effects[..], [Effect::CallModel { with_tools: true, messages }] if messages.len() == 2));
    let effects = turn.handle(text("Hello!", FinishReason::Stop));
    assert_eq!(effects, vec![Effect::Finish(TurnEnd::Complete { text: "Hello!".into(), finish_reason: Some(FinishReason::Stop) })]);
    assert!(turn.is_done());
    assert!(turn.handle(text("late", FinishReason::Stop)).is_empty(), "events after the end are ignored");
}

#[test]
fn tool_calls_are_recorded_run_and_answered_in_order() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    let effects = turn.handle(calls(&["a", "b"]));
    assert!(matches!(&effects[0], Effect::Record(m) if m.role == Role::Assistant && m.tool_calls.len() == 2));
    assert!(matches!(&effects[1], Effect::RunTools(c) if c.len() == 2));
    // Results arriving in another order are paired by id, in call order.
    let effects = turn.handle(TurnEvent::ToolsFinished(vec![ok("b"), ok("a")]));
    let ids: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Record(m) => m.tool_call_id.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["a", "b"]);
    assert!(matches!(effects.last(), Some(Effect::CallModel { messages, .. }) if messages.len() == 5));
}

#[test]
fn a_missing_tool_result_becomes_an_error_result() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    turn.handle(calls(&["a", "b"]));
    let effects = turn.handle(TurnEvent::ToolsFinished(vec![ok("a")]));
    assert!(matches!(&effects[1], Effect::Record(m) if m.tool_call_id.as_deref() == Some("b") && m.is_error));
}

#[test]
fn out_of_order_events_are_ignored() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    assert!(turn.handle(TurnEvent::ToolsFinished(vec![ok("x")])).is_empty());
    assert!(!turn.is_done());
    assert!(matches!(&turn.handle(text("ok", FinishReason::Stop))[..], [Effect::Finish(_)]));
}

#[test]
fn stop_while_tools_run_pairs_the_calls_and_finishes_stopped() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    turn.handle(calls(&["a"]));
    let effects = turn.handle(TurnEvent::StopRequested);
    assert!(matches!(&effects[0], Effect::Record(m) if m.is_error && m.content.contains("stopped")));
    assert!(matches!(&effects[1], Effect::Finish(TurnEnd::Stopped { .. })));
    assert!(turn.handle(TurnEvent::ToolsFinished(vec![ok("a")])).is_empty());
}

#[test]
fn deadline_and_failure_end_the_turn() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    assert!(matches!(&turn.handle(TurnEvent::DeadlineReached)[..], [Effect::Finish(TurnEnd::TimedOut { .. })]));
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    let effects = turn.handle(TurnEvent::ModelFailed { message: "HTTP 500".into(), retryable: true });
    assert!(matches!(&effects[..], [Effect::Finish(TurnEnd::Failed { retryable: true, .. })]));
}

#[test]
fn continuation_appends_the_partial_and_the_continue_prompt() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits { max_iterations: 5, max_continuations: 1 });
    let effects = turn.handle(text("abc", FinishReason::Length));
    assert_eq!(effects[0], Effect::Note(TurnNote::Continued { attempt: 1 }));
    let Effect::CallModel { messages, .. } = &effects[1] else { panic!("{effects:?}") };
    assert_eq!(messages[messages.len() - 2].content, "abc");
    assert_eq!(messages[messages.len() - 1].content, CONTINUE_PROMPT);
    // The bound is reached: the next cut reply is final.
    let effects = turn.handle(text("def", FinishReason::Length));
    assert_eq!(effects, vec![Effect::Finish(TurnEnd::Complete { text: "abcdef".into(), finish_reason: Some(FinishReason::Length) })]);
}

#[test]
fn the_last_allowed_call_offers_no_tools_and_the_cap_pairs_stray_calls() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits { max_iterations: 2, max_continuations: 0 });
    turn.handle(calls(&["a"]));
    let effects = turn.handle(TurnEvent::ToolsFinished(vec![ok("a")]));
    assert!(matches!(effects.last(), Some(Effect::CallModel { with_tools: false, .. })));
    let effects = turn.handle(calls(&["b"]));
    assert!(effects.contains(&Effect::Note(TurnNote::IterationCap)));
    assert!(effects.iter().any(|e| matches!(e, Effect::Record(m) if m.tool_call_id.as_deref() == Some("b") && m.is_error)));
    assert!(matches!(effects.last(), Some(Effect::Finish(TurnEnd::Incomplete { .. }))), "{effects:?}");
    assert_eq!(turn.iterations(), 2);
}

#[test]
fn one_corrective_retry_then_the_answer_stands() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    let effects = turn.handle(text("I'll remind you at 9.", FinishReason::Stop));
    assert_eq!(effects[0], Effect::Note(TurnNote::CorrectiveRetry { check: "claimed_reminder_without_tool" }));
    // A second claim is not corrected again: the loop cannot spin on it.
    let effects = turn.handle(text("I'll remind you at 9, promise.", FinishReason::Stop));
    assert!(matches!(&effects[..], [Effect::Finish(TurnEnd::Complete { text, .. })] if text == "I'll remind you at 9, promise."));
}

/// The demo model cannot call tools: its claim is not answered with a correction it
/// could only echo back to the user (a first-hour finding).
#[test]
fn a_model_without_tools_gets_no_correction() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    turn.answered_without_tools();
    let effects = turn.handle(text("I'll remind you at 9.", FinishReason::Stop));
    assert!(matches!(&effects[..], [Effect::Finish(TurnEnd::Complete { text, .. })] if text == "I'll remind you at 9."), "{effects:?}");
}

/// Agent mode 2.3: a reply that claims two actions after running the tool of one is
/// corrected for the other ("Listo: cancelé el recordatorio y agendé la reunión").
#[test]
fn the_second_claim_of_a_sentence_is_corrected_when_only_the_first_ran() {
    let (mut turn, _) = Turn::start(prompt(), TurnLimits::default());
    turn.handle(TurnEvent::ModelReplied(Completion {
        tool_calls: vec![ToolCall { id: "c".into(), name: "cancel_reminder".into(), arguments: "{\"id\": 3}".into() }],
        finish_reason: Some(FinishReason::ToolUse),
        ..Default::default()
    }));
    turn.handle(TurnEvent::ToolsFinished(vec![ok("c")]));
    let effects = turn.handle(text("Listo: cancelé el recordatorio y agendé la reunión con Ana.", FinishReason::Stop));
    assert_eq!(effects[0], Effect::Note(TurnNote::CorrectiveRetry { check: "claimed_calendar_event_without_tool" }));
    let Some(Effect::CallModel { messages, .. }) = effects.last() else { panic!("{effects:?}") };
    assert!(messages.last().unwrap().content.contains("you called no calendar tool"), "{:?}", messages.last());
}
