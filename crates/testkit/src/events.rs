//! The events a scripted reply streams, written as OpenAI's and Anthropic's APIs write them.

use std::time::Duration;

use crate::Reply;

/// A chat.completion.chunk carrying `text`.
pub fn delta(text: &str) -> String {
    serde_json::json!({
        "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]
    })
    .to_string()
}

/// The closing chunk with a finish reason.
pub fn finish(reason: &str) -> String {
    serde_json::json!({
        "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [{"index": 0, "delta": {}, "finish_reason": reason}]
    })
    .to_string()
}

/// The usage chunk OpenAI sends last when `stream_options.include_usage` is set.
pub fn usage(input: u32, output: u32) -> String {
    serde_json::json!({
        "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [],
        "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output}
    })
    .to_string()
}

/// A reply that calls tools: each `(id, name, arguments)` streamed the way OpenAI does
/// (id and name first, arguments in two fragments), then `tool_calls` and usage.
pub fn tool_call_events(calls: &[(&str, &str, &str)]) -> Vec<String> {
    let mut events = Vec::new();
    for (index, (id, name, arguments)) in calls.iter().enumerate() {
        let chunk = |call: serde_json::Value| {
            serde_json::json!({
                "id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
                "choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": null}]
            })
            .to_string()
        };
        events.push(chunk(serde_json::json!({
            "index": index, "id": id, "type": "function", "function": {"name": name, "arguments": ""}
        })));
        let cut = arguments.len() / 2;
        let cut = (0..=cut).rev().find(|i| arguments.is_char_boundary(*i)).unwrap_or(0);
        for piece in [&arguments[..cut], &arguments[cut..]] {
            events.push(chunk(serde_json::json!({"index": index, "function": {"arguments": piece}})));
        }
    }
    events.push(finish("tool_calls"));
    events.push(usage(30, 10));
    events
}

/// An Anthropic SSE frame: `event: TYPE` and its JSON data.
pub fn anthropic_frame(data: serde_json::Value) -> String {
    format!("event: {}\ndata: {}\n\n", data["type"].as_str().unwrap_or("unknown"), data)
}

/// Streams `events` at once (no delay between them).
pub fn stream(events: Vec<String>) -> Reply {
    Reply::Stream { events, delay: Duration::ZERO }
}

/// A whole reply: the text in pieces, a finish reason and usage.
pub fn reply_events(pieces: &[&str]) -> Vec<String> {
    let mut events: Vec<String> = pieces.iter().map(|p| delta(p)).collect();
    events.push(finish("stop"));
    events.push(usage(20, pieces.len() as u32));
    events
}
