//! The built-in demo model (SmolLM2-135M) answers briefly or not at all: a short reply
//! limit, never continued, and a guard that cuts a reply once it loops
//! (`repetition`). A cut reply ends with a mark saying so. Real models, local or not,
//! go through the router untouched.

use std::sync::Mutex;

use super::fallback::{self, RetryPolicy, RouteError, RouteNotice, Routed};
use super::provider::Provider;
use super::repetition::RepetitionGuard;
use super::{ChatRequest, Completion, FinishReason};
use crate::outcomes::{demo_cut, DemoCut};
use sidecar_domain::Lang;

/// The longest demo reply, in tokens: a few sentences.
pub const DEMO_MAX_TOKENS: u32 = 200;

/// Whether `provider` is the built-in demo model.
pub(crate) fn is_demo(provider: &Provider) -> bool {
    provider.is_local() && provider.model() == super::local_server::LOCAL_MODEL_NAME
}

/// What the demo model is told of who it is: a few plain words and the day. The
/// full system prompt (tool rules, the user's facts) is beyond a 135M model: it
/// echoed it back ("save it with the remember_fact tool"). Sidecar answers what the
/// facts answer itself, before the model, and the time too.
const DEMO_PROMPT: &str = "You are Sidecar, a friendly companion. Answer briefly and simply, in the language the user writes in.";

/// The conversation with the demo's own short system prompt in place of the full one:
/// the day from the full prompt, never the minute, so the prompt's start stays the same
/// all day and llama.cpp reuses its cache. The per-turn blocks stay out too: a tiny model
/// echoes them. Public for the agent's test that its prompt keeps this start.
pub fn demo_messages(messages: &[super::ChatMessage]) -> Vec<super::ChatMessage> {
    let day = messages.iter().find(|m| m.role == super::Role::System).and_then(|m| super::per_turn::find_day_sentence(&m.content));
    let prompt = match day {
        Some(day) => format!("{DEMO_PROMPT}\n{day}"),
        None => DEMO_PROMPT.to_string(),
    };
    let mut out = vec![super::ChatMessage::system(prompt)];
    // System notes (what Sidecar did) stay out: Sidecar said it already.
    for message in messages.iter().filter(|m| m.role != super::Role::System) {
        let said = super::per_turn::split(&message.content).0;
        out.push(super::ChatMessage { content: said.to_string(), ..message.clone() });
    }
    out
}

/// One call to the demo model: at most `DEMO_MAX_TOKENS`, stopped as soon as the reply
/// loops, and marked when it was cut for either reason (the mark streams too).
pub async fn complete(
    demo: &Provider,
    policy: &RetryPolicy,
    request: &ChatRequest,
    mut on_delta: impl FnMut(&str),
    on_notice: impl FnMut(RouteNotice),
    lang: Lang,
) -> Result<Routed, RouteError> {
    // Sidecar's own words follow the language the user wrote in.
    let said = request.messages.iter().rev().find(|m| m.role == super::Role::User).map(|m| m.content.as_str()).unwrap_or_default();
    let lang = sidecar_dates::written_in(said, lang);
    let request = ChatRequest {
        messages: demo_messages(&request.messages),
        max_tokens: Some(request.max_tokens.map_or(DEMO_MAX_TOKENS, |m| m.min(DEMO_MAX_TOKENS))),
        general_cap: false,
        ..request.clone()
    };
    let guard = Mutex::new(RepetitionGuard::default());
    let looped = tokio::sync::Notify::new();
    let call = fallback::complete(
        std::slice::from_ref(demo),
        true,
        policy,
        &request,
        |text: &str| {
            let mut guard = guard.lock().expect("guard lock");
            if guard.feed(text) {
                looped.notify_one();
            } else {
                on_delta(text);
            }
        },
        on_notice,
    );
    let outcome = tokio::select! {
        result = call => Some(result?),
        // Dropping the call closes the stream: the server stops generating.
        _ = looped.notified() => None,
    };
    let guard = guard.into_inner().expect("guard lock");
    let (mut completion, cut) = match outcome {
        Some(routed) if !guard.looped() => {
            let length = routed.completion.finish_reason == Some(FinishReason::Length);
            let mut completion = routed.completion;
            if length {
                // Never continued: what it would add is more of the same.
                completion.finish_reason = Some(FinishReason::Stop);
            }
            (completion, length.then_some(DemoCut::Length))
        }
        // Stopped as it looped, or it ended on the loop: what came before it.
        _ => (
            Completion { text: guard.kept().to_string(), tool_calls: Vec::new(), finish_reason: Some(FinishReason::Stop), usage: None },
            Some(DemoCut::Repeating),
        ),
    };
    if let Some(cut) = cut {
        let mark = format!("\n\n{}", demo_cut(cut, lang));
        on_delta(&mark);
        completion.text = format!("{}{mark}", completion.text.trim_end());
    }
    Ok(Routed { completion, provider_id: demo.id.clone(), model: demo.model().to_string(), fallback_from: None, fallback_reason: None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChatMessage, Role};

    #[test]
    fn the_demo_gets_a_short_prompt_with_the_day_and_no_tool_rules() {
        let full = "You are Sidecar.\n\nUse your tools when they help… remember_fact …\n\nToday is Tuesday 2026-11-24 (Europe/Madrid). The exact time comes with the newest message.\n\n<facts>I live in Madrid</facts>";
        let mut messages =
            vec![ChatMessage::system(full), ChatMessage::user("hola"), ChatMessage::system("Sidecar set a reminder"), ChatMessage::assistant("¡Hola!")];
        let head = crate::per_turn::head(
            chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2026, 11, 24, 18, 30, 0).unwrap(),
            chrono_tz::Europe::Madrid,
            &[],
            None,
            None,
            None,
        );
        let newest = crate::per_turn::newest_user(&messages).unwrap();
        crate::per_turn::attach_at(&mut messages, newest, &crate::per_turn::block(&head, "Plan:\n- [ ] call the tool"));
        let shown = demo_messages(&messages);
        assert_eq!(shown.len(), 3);
        assert_eq!(shown[0].role, Role::System);
        assert_eq!(shown[0].content, format!("{DEMO_PROMPT}\nToday is Tuesday 2026-11-24 (Europe/Madrid)."));
        assert!(!shown.iter().any(|m| m.content.contains("tool") || m.content.contains("Madrid</facts>") || m.content.contains("19:30")));
        assert_eq!((shown[1].content.as_str(), shown[2].content.as_str()), ("hola", "¡Hola!"));
    }
}
