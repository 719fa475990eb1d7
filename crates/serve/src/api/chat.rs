//! OpenAI's chat completions, answered by Sidecar itself: the request's last user
//! message becomes one turn of the user's own conversation (through the inbox, channel
//! `api`), with Sidecar's memory, persona and tools; the reply comes back whole or as
//! server-sent chunks. Sidecar keeps the history: earlier messages in the request are
//! not replayed, and system messages do not change its persona.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;
use serde::Deserialize;
use serde_json::{json, Value};

use super::error::ApiError;
use crate::connections::hosting::Hosting;
use sidecar_agent::ChatEvent;
use sidecar_agent::TurnOutcome;
use sidecar_domain::Channel;
use sidecar_domain::Subscriber;

/// The model name clients give and get back.
pub(crate) const MODEL: &str = "sidecar";

#[derive(Deserialize)]
struct ChatRequest {
    messages: Vec<InMessage>,
    #[serde(default)]
    stream: bool,
}

#[derive(Deserialize)]
struct InMessage {
    role: String,
    #[serde(default)]
    content: Option<Content>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Content {
    Text(String),
    Parts(Vec<Part>),
}

#[derive(Deserialize)]
struct Part {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
}

/// What the request asks: the last user message's text, and whether to stream.
pub(crate) fn read_request(body: &[u8]) -> Result<(String, bool), ApiError> {
    let request: ChatRequest = serde_json::from_slice(body).map_err(|e| ApiError::Invalid(format!("not a chat completion request ({e})")))?;
    let last = request.messages.iter().rev().find(|m| m.role == "user").ok_or_else(|| ApiError::Invalid("no message with role \"user\"".into()))?;
    let text = match &last.content {
        Some(Content::Text(text)) => text.clone(),
        Some(Content::Parts(parts)) => parts.iter().filter(|p| p.kind == "text").filter_map(|p| p.text.clone()).collect::<Vec<_>>().join("\n"),
        None => String::new(),
    };
    if text.trim().is_empty() {
        return Err(ApiError::Invalid("the last user message has no text".into()));
    }
    Ok((text, request.stream))
}

/// The completion's id: the reply's message id when known, else the time it started.
fn id_of(number: i64) -> String {
    format!("chatcmpl-sidecar-{number}")
}

/// The whole answer, as `chat.completion`.
pub(crate) fn completion(outcome: &TurnOutcome, created: i64) -> Value {
    let usage = outcome.usage.unwrap_or_default();
    json!({
        "id": id_of(outcome.message_id),
        "object": "chat.completion",
        "created": created,
        "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": outcome.reply}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": usage.input_tokens, "completion_tokens": usage.output_tokens, "total_tokens": usage.input_tokens + usage.output_tokens},
    })
}

fn chunk(id: &str, created: i64, delta: Value, finish: Option<&str>) -> Bytes {
    let chunk = json!({"id": id, "object": "chat.completion.chunk", "created": created, "model": MODEL, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    Bytes::from(format!("data: {chunk}\n\n"))
}

/// Runs the turn and streams its reply as it is written, then `[DONE]`.
pub(crate) fn stream(hosting: Arc<Hosting>, events: &Subscriber<ChatEvent>, text: String, created: i64) -> BoxBody<Bytes, Infallible> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Bytes>();
    let mut heard = events.subscribe();
    tokio::spawn(async move {
        let id = id_of(created);
        let _one_at_a_time = hosting.chat_turn.lock().await;
        let _ = tx.send(chunk(&id, created, json!({"role": "assistant", "content": ""}), None));
        let call = hosting.chat.call(&text);
        tokio::pin!(call);
        let mut ours = None;
        let mut sent = String::new();
        let mut listening = true;
        let outcome = loop {
            tokio::select! {
                outcome = &mut call => break outcome,
                event = heard.recv(), if listening => match event {
                    // API turns run one at a time, so the one that starts on channel api is ours.
                    Ok(ChatEvent::TurnStarted { conversation_id, channel: Channel::Api, .. }) => ours = Some(conversation_id),
                    Ok(ChatEvent::Delta { conversation_id, text }) if ours == Some(conversation_id) => {
                        sent.push_str(&text);
                        let _ = tx.send(chunk(&id, created, json!({"content": text}), None));
                    }
                    // The rest comes from the stored reply.
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => listening = false,
                    _ => {}
                },
            }
        };
        match outcome {
            Ok(outcome) => {
                // Pieces not heard (a lagging subscriber) are sent from the stored reply.
                if let Some(rest) = outcome.reply.strip_prefix(sent.as_str()).filter(|rest| !rest.is_empty()) {
                    let _ = tx.send(chunk(&id, created, json!({"content": rest}), None));
                }
                let _ = tx.send(chunk(&id, created, json!({}), Some("stop")));
            }
            Err(error) => {
                let failed = ApiError::Failed(error.to_string()).body();
                let _ = tx.send(Bytes::from(format!("data: {failed}\n\n")));
            }
        }
        let _ = tx.send(Bytes::from_static(b"data: [DONE]\n\n"));
    });
    let frames = tokio_stream_from(rx).map(|bytes| Ok::<_, Infallible>(Frame::data(bytes)));
    BodyExt::boxed(StreamBody::new(frames))
}

fn tokio_stream_from(mut rx: tokio::sync::mpsc::UnboundedReceiver<Bytes>) -> impl futures_util::Stream<Item = Bytes> {
    futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

#[cfg(test)]
mod tests {
    use super::read_request;

    #[test]
    fn the_last_user_message_is_the_turn_whatever_came_before() {
        let body = br#"{"model":"sidecar","messages":[{"role":"system","content":"You are a pirate"},{"role":"user","content":"first"},{"role":"assistant","content":"ok"},{"role":"user","content":[{"type":"text","text":"what did I"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"say?"}]}],"stream":true}"#;
        assert_eq!(read_request(body).unwrap(), ("what did I\nsay?".to_string(), true));
        assert!(read_request(br#"{"messages":[{"role":"system","content":"hi"}]}"#).is_err());
        assert!(read_request(br#"{"messages":[{"role":"user","content":"  "}]}"#).is_err());
        assert!(read_request(b"not json").is_err());
    }
}
