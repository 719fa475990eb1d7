//! The built-in demo model (SmolLM2-135M) answers briefly or not at all: a short reply
//! limit, never continued, and a guard that cuts a reply once it loops
//! (`repetition`). A cut reply ends with a mark saying so. Real models, local or not,
//! go through the router untouched.

use std::sync::Mutex;

use super::provider::Provider;
use super::repetition::RepetitionGuard;
use super::router::{self, RetryPolicy, RouteError, RouteNotice, Routed};
use super::{ChatRequest, Completion, FinishReason};
use crate::words::outcomes::{demo_cut, DemoCut};
use crate::words::Lang;

/// The longest demo reply, in tokens: a few sentences.
pub const DEMO_MAX_TOKENS: u32 = 200;

/// Whether `provider` is the built-in demo model.
pub fn is_demo(provider: &Provider) -> bool {
    provider.is_local() && provider.model() == super::local_server::LOCAL_MODEL_NAME
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
    let lang = crate::user_language::written_in(said, lang);
    let request = ChatRequest { max_tokens: Some(request.max_tokens.map_or(DEMO_MAX_TOKENS, |m| m.min(DEMO_MAX_TOKENS))), ..request.clone() };
    let guard = Mutex::new(RepetitionGuard::default());
    let looped = tokio::sync::Notify::new();
    let call = router::complete(
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
        _ => (Completion { text: guard.kept().to_string(), tool_calls: Vec::new(), finish_reason: Some(FinishReason::Stop), usage: None }, Some(DemoCut::Repeating)),
    };
    if let Some(cut) = cut {
        let mark = format!("\n\n{}", demo_cut(cut, lang));
        on_delta(&mark);
        completion.text = format!("{}{mark}", completion.text.trim_end());
    }
    Ok(Routed { completion, provider_id: demo.id.clone(), model: demo.model().to_string(), fallback_from: None })
}
