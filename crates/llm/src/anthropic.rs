//! Anthropic Messages API with SSE streaming and native tool use.
//!
//! Differences from the OpenAI format that matter here: the system prompt is a
//! top-level field; tool calls are `tool_use` content blocks whose JSON input streams
//! as `input_json_delta` fragments; tool results go back as `tool_result` blocks in a
//! user message (consecutive results share one); `max_tokens` is required.

use super::sampling::Sampling;
use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{json, Value};

use super::endpoint::Endpoint;
use super::sse::{stream_events, HttpOptions};
use super::{preview, ChatRequest, Completion, FinishReason, LlmError, Role, ToolCall, Usage};

const API_VERSION: &str = "2023-06-01";
/// Anthropic requires a limit; used when the request has none.
const DEFAULT_MAX_TOKENS: u32 = 4096;

#[derive(Clone)]
pub struct AnthropicClient {
    endpoint: Endpoint,
}

#[derive(Serialize)]
struct WireRequest<'a> {
    model: &'a str,
    max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    top_p: Option<f32>,
    /// One text block marked for the prompt cache: it is the same from turn to turn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    system: Vec<Value>,
    messages: Vec<Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<Value>,
    stream: bool,
}

/// A content block being assembled from stream events.
enum Block {
    Text,
    ToolUse { id: String, name: String, json: String },
    Other,
}

impl AnthropicClient {
    pub fn new(endpoint: Endpoint) -> Self {
        Self { endpoint }
    }

    pub(crate) fn model(&self) -> &str {
        self.endpoint.model()
    }

    /// What this server's words are scrubbed with.
    pub(crate) fn redactor(&self) -> &sidecar_domain::Redactor {
        &self.endpoint.redactor
    }

    pub(crate) fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    fn messages_url(&self) -> String {
        // Accept both "https://api.anthropic.com" and ".../v1".
        if self.endpoint.base_url.ends_with("/v1") {
            format!("{}/messages", self.endpoint.base_url)
        } else {
            format!("{}/v1/messages", self.endpoint.base_url)
        }
    }

    pub async fn stream_chat(&self, request: &ChatRequest, mut on_delta: impl FnMut(&str)) -> Result<Completion, LlmError> {
        let url = self.messages_url();
        let body = wire_request(&self.endpoint.model, request, &self.endpoint.sampling);
        let mut http = self.endpoint.http.post(&url).header("anthropic-version", API_VERSION).json(&body);
        if let Some(key) = &self.endpoint.api_key {
            http = http.header("x-api-key", key);
        }
        let mut state = StreamState::default();
        stream_events(http, HttpOptions { url: &url, timeouts: self.endpoint.timeouts, error_message }, |payload| state.apply(payload, &mut on_delta)).await?;
        state.finish()
    }
}

/// Marks the end of what the next turn will send again unchanged: the last block
/// before the newest user message (which carries the per-turn block). With the system
/// prompt's mark, the next turn reads all of it from the cache.
fn mark_stable_prefix(messages: &mut [Value]) {
    let newest_user = messages.iter().rposition(|m| m["role"] == "user");
    if let Some(stable) = newest_user.and_then(|n| n.checked_sub(1)) {
        if let Some(last) = messages[stable]["content"].as_array_mut().and_then(|blocks| blocks.last_mut()) {
            last["cache_control"] = json!({"type": "ephemeral"});
        }
    }
}

/// The Messages API body as JSON, for tests that check its shape.
pub fn request_body(model: &str, request: &ChatRequest, sampling: &Sampling) -> Value {
    serde_json::to_value(wire_request(model, request, sampling)).unwrap_or_default()
}

/// The Messages API body. It has no repetition penalty, so that setting is not sent.
fn wire_request<'a>(model: &'a str, request: &ChatRequest, sampling: &Sampling) -> WireRequest<'a> {
    let system = request.messages.iter().filter(|m| m.role == Role::System).map(|m| m.content.as_str()).collect::<Vec<_>>().join("\n\n");
    let mut messages: Vec<Value> = Vec::new();
    for message in request.messages.iter().filter(|m| m.role != Role::System) {
        let (role, block_list) = match message.role {
            Role::User => {
                // Images first, then the question: Anthropic's advice for image prompts.
                let mut blocks: Vec<Value> = message
                    .images
                    .iter()
                    .map(|image| json!({"type": "image", "source": {"type": "base64", "media_type": image.media_type, "data": image.data}}))
                    .collect();
                blocks.push(json!({"type": "text", "text": message.content}));
                ("user", blocks)
            }
            Role::Assistant => {
                let mut blocks = Vec::new();
                if !message.content.is_empty() {
                    blocks.push(json!({"type": "text", "text": message.content}));
                }
                for call in &message.tool_calls {
                    // The model's arguments were validated before they were stored;
                    // anything unparsable is sent as an empty object.
                    let input: Value = serde_json::from_str(&call.arguments).unwrap_or_else(|_| json!({}));
                    blocks.push(json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}));
                }
                ("assistant", blocks)
            }
            Role::Tool => (
                "user",
                vec![json!({
                    "type": "tool_result",
                    "tool_use_id": message.tool_call_id,
                    "content": message.content,
                    "is_error": message.is_error,
                })],
            ),
            Role::System => unreachable!("filtered above"),
        };
        // Anthropic wants alternating roles: merge into the previous message when
        // the role repeats (consecutive tool results, or a user note after them).
        match messages.last_mut() {
            Some(last) if last["role"] == role => {
                last["content"].as_array_mut().expect("content is a list").extend(block_list);
            }
            _ => messages.push(json!({"role": role, "content": block_list})),
        }
    }
    mark_stable_prefix(&mut messages);
    let system = if system.is_empty() { Vec::new() } else { vec![json!({"type": "text", "text": system, "cache_control": {"type": "ephemeral"}})] };
    WireRequest {
        model,
        max_tokens: sampling.reply_cap(request.max_tokens, request.general_cap).unwrap_or(DEFAULT_MAX_TOKENS),
        temperature: sampling.temperature,
        top_p: sampling.top_p,
        system,
        messages,
        tools: request.tools.iter().map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters})).collect(),
        stream: true,
    }
}

#[derive(Default)]
struct StreamState {
    completion: Completion,
    blocks: BTreeMap<u64, Block>,
    usage: Usage,
    saw_usage: bool,
    stopped: bool,
}

impl StreamState {
    fn apply(&mut self, payload: &str, on_delta: &mut impl FnMut(&str)) -> Result<(), LlmError> {
        let event: Value =
            serde_json::from_str(payload).map_err(|e| LlmError::Malformed { detail: format!("{e} in stream event {}", preview(payload, 300)) })?;
        let index = event["index"].as_u64().unwrap_or(0);
        match event["type"].as_str().unwrap_or("") {
            "message_start" => {
                let usage = &event["message"]["usage"];
                self.usage.input_tokens =
                    count(&usage["input_tokens"]) + count(&usage["cache_read_input_tokens"]) + count(&usage["cache_creation_input_tokens"]);
                self.usage.cached_tokens = count(&usage["cache_read_input_tokens"]);
                self.usage.output_tokens = count(&usage["output_tokens"]);
                self.saw_usage = !usage.is_null();
            }
            "content_block_start" => {
                let block = &event["content_block"];
                let started = match block["type"].as_str() {
                    Some("text") => {
                        if let Some(text) = block["text"].as_str().filter(|t| !t.is_empty()) {
                            self.push_text(text, on_delta);
                        }
                        Block::Text
                    }
                    Some("tool_use") => Block::ToolUse {
                        id: block["id"].as_str().unwrap_or_default().to_string(),
                        name: block["name"].as_str().unwrap_or_default().to_string(),
                        json: String::new(),
                    },
                    _ => Block::Other,
                };
                self.blocks.insert(index, started);
            }
            "content_block_delta" => {
                let delta = &event["delta"];
                match delta["type"].as_str() {
                    Some("text_delta") => {
                        if let Some(text) = delta["text"].as_str() {
                            self.push_text(text, on_delta);
                        }
                    }
                    Some("input_json_delta") => {
                        if let Some(Block::ToolUse { json, .. }) = self.blocks.get_mut(&index) {
                            json.push_str(delta["partial_json"].as_str().unwrap_or_default());
                        }
                    }
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = event["delta"]["stop_reason"].as_str() {
                    self.completion.finish_reason = Some(FinishReason::from_wire(reason));
                }
                if let Some(output) = event["usage"]["output_tokens"].as_u64() {
                    self.usage.output_tokens = output as u32;
                    self.saw_usage = true;
                }
            }
            "message_stop" => self.stopped = true,
            "error" => {
                let kind = event["error"]["type"].as_str().unwrap_or("error");
                let message = event["error"]["message"].as_str().unwrap_or(kind);
                return Err(LlmError::Provider {
                    message: format!("{kind}: {message}"),
                    retryable: matches!(kind, "overloaded_error" | "api_error" | "rate_limit_error"),
                });
            }
            // ping, content_block_stop, and event types added later.
            _ => {}
        }
        Ok(())
    }

    fn push_text(&mut self, text: &str, on_delta: &mut impl FnMut(&str)) {
        self.completion.text.push_str(text);
        on_delta(text);
    }

    fn finish(mut self) -> Result<Completion, LlmError> {
        if self.blocks.is_empty() && self.completion.text.is_empty() && self.completion.finish_reason.is_none() {
            return Err(LlmError::Empty);
        }
        if !self.stopped && self.completion.finish_reason.is_none() {
            return Err(LlmError::Interrupted { detail: "the server closed the connection before message_stop".into() });
        }
        self.completion.tool_calls = std::mem::take(&mut self.blocks)
            .into_values()
            .filter_map(|block| match block {
                Block::ToolUse { id, name, json } => Some(ToolCall {
                    id,
                    name,
                    // An empty input streams no fragments at all.
                    arguments: if json.trim().is_empty() { "{}".into() } else { json },
                }),
                _ => None,
            })
            .collect();
        if self.saw_usage {
            self.completion.usage = Some(self.usage);
        }
        Ok(self.completion)
    }
}

fn count(value: &Value) -> u32 {
    value.as_u64().unwrap_or(0) as u32
}

fn error_message(body: &str) -> Option<String> {
    let parsed: Value = serde_json::from_str(body).ok()?;
    let error = parsed.get("error")?;
    Some(match (error["type"].as_str(), error["message"].as_str()) {
        (Some(kind), Some(message)) => format!("{kind}: {message}"),
        (None, Some(message)) => message.to_string(),
        _ => error.to_string(),
    })
}
