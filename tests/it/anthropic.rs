//! The Anthropic Messages wire format against a scripted server: text and tool_use
//! assembled from deltas, the request shape (system, tool_result blocks), errors.

use std::time::Duration;

use crate::support::{anthropic_frame as frame, Reply, ScriptedServer};
use serde_json::json;
use sidecar_llm::http_client;
use sidecar_llm::AnthropicClient;
use sidecar_llm::ChatMessage;
use sidecar_llm::ChatRequest;
use sidecar_llm::Endpoint;
use sidecar_llm::FinishReason;
use sidecar_llm::LlmError;
use sidecar_llm::Timeouts;
use sidecar_llm::ToolCall;
use sidecar_llm::ToolSpec;

fn client(base_url: &str) -> AnthropicClient {
    let timeouts = Timeouts { connect: Duration::from_secs(2), respond: Duration::from_secs(5), idle: Duration::from_secs(5) };
    AnthropicClient::new(Endpoint::new(http_client(&timeouts), base_url, "claude-sonnet-4-5", Some("sk-ant-test".into()), timeouts))
}

fn tool_use_frames() -> Vec<String> {
    vec![
        frame(json!({"type": "message_start", "message": {"id": "m1", "role": "assistant", "content": [],
            "usage": {"input_tokens": 120, "cache_read_input_tokens": 80, "output_tokens": 1}}})),
        frame(json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})),
        frame(json!({"type": "ping"})),
        frame(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me "}})),
        frame(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "check."}})),
        frame(json!({"type": "content_block_stop", "index": 0})),
        frame(json!({"type": "content_block_start", "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {}}})),
        frame(json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": ""}})),
        frame(json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"locat"}})),
        frame(json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "ion\": \"Madrid\", \"da"}})),
        frame(json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "ys\": 2}"}})),
        frame(json!({"type": "content_block_stop", "index": 1})),
        frame(json!({"type": "content_block_start", "index": 2,
            "content_block": {"type": "tool_use", "id": "toolu_02", "name": "get_current_time", "input": {}}})),
        frame(json!({"type": "content_block_stop", "index": 2})),
        frame(json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 45}})),
        frame(json!({"type": "message_stop"})),
    ]
}

fn text_frames(text: &str) -> Vec<String> {
    vec![
        frame(json!({"type": "message_start", "message": {"usage": {"input_tokens": 200, "output_tokens": 1}}})),
        frame(json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})),
        frame(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}})),
        frame(json!({"type": "content_block_stop", "index": 0})),
        frame(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 12}})),
        frame(json!({"type": "message_stop"})),
    ]
}

#[tokio::test]
async fn tool_use_blocks_are_assembled_from_input_json_deltas() {
    let server = ScriptedServer::start(vec![Reply::Sse { frames: tool_use_frames() }]).await;
    let mut streamed = String::new();
    let request = ChatRequest {
        messages: vec![ChatMessage::system("Be brief."), ChatMessage::user("Weather in Madrid?")],
        tools: vec![ToolSpec {
            name: "get_weather".into(),
            description: "Weather".into(),
            parameters: json!({"type": "object", "properties": {"location": {"type": "string"}}}),
        }],
        max_tokens: Some(300),
        general_cap: false,
    };
    let completion = client(&server.base_url).stream_chat(&request, |t| streamed.push_str(t)).await.unwrap();
    assert_eq!(streamed, "Let me check.");
    assert_eq!(completion.finish_reason, Some(FinishReason::ToolUse));
    assert_eq!(
        completion.tool_calls,
        vec![
            ToolCall { id: "toolu_01".into(), name: "get_weather".into(), arguments: r#"{"location": "Madrid", "days": 2}"#.into() },
            ToolCall { id: "toolu_02".into(), name: "get_current_time".into(), arguments: "{}".into() },
        ]
    );
    let usage = completion.usage.unwrap();
    assert_eq!((usage.input_tokens, usage.cached_tokens, usage.output_tokens), (200, 80, 45));

    let sent = server.last_request();
    // The system prompt is one block, marked for the prompt cache.
    assert_eq!(sent["system"], serde_json::json!([{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}]));
    assert_eq!(sent["max_tokens"], 300);
    assert_eq!(sent["stream"], true);
    assert_eq!(sent["tools"][0]["input_schema"]["properties"]["location"]["type"], "string");
    assert_eq!(sent["messages"][0], json!({"role": "user", "content": [{"type": "text", "text": "Weather in Madrid?"}]}));
}

#[tokio::test]
async fn tool_results_go_back_as_tool_result_blocks_in_one_user_message() {
    let server = ScriptedServer::start(vec![Reply::Sse { frames: text_frames("Sunny, 18 °C.") }]).await;
    let calls = vec![
        ToolCall { id: "toolu_01".into(), name: "get_weather".into(), arguments: r#"{"location":"Madrid"}"#.into() },
        ToolCall { id: "toolu_02".into(), name: "get_current_time".into(), arguments: "{}".into() },
    ];
    let request = ChatRequest {
        messages: vec![
            ChatMessage::user("Weather in Madrid?"),
            ChatMessage::assistant_with_tools("Let me check.", calls),
            ChatMessage::tool_result("toolu_01", r#"{"temp":18}"#, false),
            ChatMessage::tool_result("toolu_02", r#"{"error":"boom"}"#, true),
        ],
        tools: vec![],
        max_tokens: None,
        general_cap: false,
    };
    let completion = client(&server.base_url).stream_chat(&request, |_| {}).await.unwrap();
    assert_eq!(completion.text, "Sunny, 18 °C.");
    assert_eq!(completion.finish_reason, Some(FinishReason::Stop));
    let sent = server.last_request();
    let messages = sent["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{sent}");
    assert_eq!(messages[1]["content"][1], json!({"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"location": "Madrid"}}));
    assert_eq!(messages[2]["role"], "user");
    assert_eq!(messages[2]["content"][0]["type"], "tool_result");
    assert_eq!(messages[2]["content"][0]["tool_use_id"], "toolu_01");
    assert_eq!(messages[2]["content"][1]["is_error"], true);
    assert_eq!(sent["max_tokens"], 4096, "Anthropic requires a limit; a default is sent");
}

#[tokio::test]
async fn an_overloaded_error_event_mid_stream_is_retryable() {
    let frames = vec![
        frame(json!({"type": "message_start", "message": {"usage": {"input_tokens": 5}}})),
        frame(json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})),
    ];
    let server = ScriptedServer::start(vec![Reply::Sse { frames }]).await;
    let error = client(&server.base_url).stream_chat(&ChatRequest { messages: vec![ChatMessage::user("hi")], ..Default::default() }, |_| {}).await.unwrap_err();
    assert!(matches!(&error, LlmError::Provider { retryable: true, message } if message.contains("overloaded_error")), "{error:?}");
}

#[tokio::test]
async fn http_errors_carry_anthropics_type_and_message() {
    let server = ScriptedServer::start(vec![Reply::Status {
        code: 401,
        body: r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#.into(),
    }])
    .await;
    let error = client(&server.base_url).stream_chat(&ChatRequest { messages: vec![ChatMessage::user("hi")], ..Default::default() }, |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Http { status: 401, .. }), "{error:?}");
    assert!(
        error.to_string().contains("refused the API key; check it in Settings → Model providers. It said: “authentication_error: invalid x-api-key”"),
        "{error}"
    );
}

#[tokio::test]
async fn a_stream_that_ends_before_message_stop_is_interrupted() {
    let mut frames = text_frames("partial");
    frames.truncate(3);
    let server = ScriptedServer::start(vec![Reply::Sse { frames }]).await;
    let error = client(&server.base_url).stream_chat(&ChatRequest { messages: vec![ChatMessage::user("hi")], ..Default::default() }, |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Interrupted { .. }), "{error:?}");
}

#[tokio::test]
async fn a_whole_tool_loop_through_an_anthropic_provider() {
    let server = ScriptedServer::start(vec![Reply::Sse { frames: tool_use_frames() }, Reply::Sse { frames: text_frames("In Madrid it is sunny.") }]).await;
    let core = crate::support::core()
        .settings(&format!("[[providers]]\nid = \"claude\"\nkind = \"anthropic\"\nbase_url = \"{}\"\nmodel = \"claude-sonnet-4-5\"\n", server.base_url))
        .open()
        .await;
    let outcome = core.send("Weather in Madrid?").await.unwrap();
    // The visible reply joins the text before the tools and the final answer.
    assert_eq!(outcome.reply, "Let me check.\n\nIn Madrid it is sunny.");
    let second = server.last_request();
    let last = second["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["role"], "user");
    assert_eq!(last["content"].as_array().unwrap().len(), 2, "both tool results in one user message");
    // Sonnet pricing applies to both calls.
    assert!(outcome.meta.cost_usd.unwrap() > 0.0);
    assert_eq!(server.request_count(), 2);
}
