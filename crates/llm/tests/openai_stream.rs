//! The OpenAI-compatible streaming client against a scripted server: the happy path
//! and every way the wire can fail.

use std::time::Duration;

use sidecar_llm::http_client;
use sidecar_llm::ChatMessage;
use sidecar_llm::ChatRequest;
use sidecar_llm::Endpoint;
use sidecar_llm::FinishReason;
use sidecar_llm::LlmError;
use sidecar_llm::OpenAiClient;
use sidecar_llm::TimeoutPhase;
use sidecar_llm::Timeouts;
use sidecar_llm::Usage;
use sidecar_testkit::{delta, finish, reply_events, Reply, ScriptedServer};

fn client(base_url: &str, respond: Duration, idle: Duration) -> OpenAiClient {
    let timeouts = Timeouts { connect: Duration::from_secs(2), respond, idle };
    OpenAiClient::new(Endpoint::new(http_client(&timeouts), base_url, "test-model", Some("sk-test".into()), timeouts))
}

fn quick(base_url: &str) -> OpenAiClient {
    client(base_url, Duration::from_secs(5), Duration::from_secs(5))
}

fn hello() -> ChatRequest {
    ChatRequest { messages: vec![ChatMessage::user("hello")], ..Default::default() }
}

#[tokio::test]
async fn streams_deltas_in_order_with_usage_and_finish_reason() {
    let server = ScriptedServer::start(vec![Reply::Stream { events: reply_events(&["Hel", "lo", " wörld"]), delay: Duration::from_millis(5) }]).await;
    let mut pieces = Vec::new();
    let completion = quick(&server.base_url).stream_chat(&ChatRequest { max_tokens: Some(64), ..hello() }, |t| pieces.push(t.to_string())).await.unwrap();
    assert_eq!(pieces, ["Hel", "lo", " wörld"]);
    assert_eq!(completion.text, "Hello wörld");
    assert_eq!(completion.finish_reason, Some(FinishReason::Stop));
    assert_eq!(completion.usage, Some(Usage { input_tokens: 20, output_tokens: 3, cached_tokens: 0 }));

    let request = server.last_request();
    assert_eq!(request["model"], "test-model");
    assert_eq!(request["stream"], true);
    assert_eq!(request["stream_options"]["include_usage"], true);
    assert_eq!(request["max_tokens"], 64);
    assert_eq!(request["messages"][0]["content"], "hello");
}

#[tokio::test]
async fn tolerates_empty_finish_reason_missing_usage_and_extra_fields() {
    let odd = serde_json::json!({
        "choices": [{"delta": {"content": "ok", "role": "assistant", "reasoning": null}, "finish_reason": ""}],
        "system_fingerprint": "x", "extra": {"nested": true}
    })
    .to_string();
    let server = ScriptedServer::start(vec![Reply::Stream { events: vec![odd, finish("length")], delay: Duration::ZERO }]).await;
    let completion = quick(&server.base_url).stream_chat(&hello(), |_| {}).await.unwrap();
    assert_eq!(completion.text, "ok");
    assert_eq!(completion.finish_reason, Some(FinishReason::Length));
    assert_eq!(completion.usage, None);
    assert!(server.last_request().get("max_tokens").is_none());
}

#[tokio::test]
async fn http_500_reports_status_and_the_providers_message() {
    let server = ScriptedServer::start(vec![Reply::Status { code: 500, body: r#"{"error":{"message":"model crashed","type":"server_error"}}"#.into() }]).await;
    let error = quick(&server.base_url).stream_chat(&hello(), |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Http { status: 500, ref message, .. } if message == "model crashed"), "{error:?}");
    assert!(error.is_retryable());
    assert_eq!(error.to_string(), "the provider's server had a problem; try again in a moment. It said: “model crashed”");
}

#[tokio::test]
async fn http_401_with_plain_body_is_not_retryable() {
    let server = ScriptedServer::start(vec![Reply::Status { code: 401, body: "bad key".into() }]).await;
    let error = quick(&server.base_url).stream_chat(&hello(), |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Http { status: 401, ref message, .. } if message == "bad key"), "{error:?}");
    assert!(!error.is_retryable());
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_is_interrupted_after_delivering_what_came() {
    let server = ScriptedServer::start(vec![Reply::CutAfter { events: vec![delta("The answer"), delta(" is")] }]).await;
    let mut got = String::new();
    let error = quick(&server.base_url).stream_chat(&hello(), |t| got.push_str(t)).await.unwrap_err();
    assert!(matches!(error, LlmError::Interrupted { .. }), "{error:?}");
    assert_eq!(got, "The answer is");
}

#[tokio::test]
async fn a_body_that_ends_without_finishing_is_interrupted() {
    let server = ScriptedServer::start(vec![Reply::EndsEarly { events: vec![delta("half")] }]).await;
    let error = quick(&server.base_url).stream_chat(&hello(), |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Interrupted { .. }), "{error:?}");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let server = ScriptedServer::start(vec![Reply::Hang]).await;
    let error = client(&server.base_url, Duration::from_millis(300), Duration::from_secs(5)).stream_chat(&hello(), |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Timeout { phase: TimeoutPhase::Respond, .. }), "{error:?}");
    assert!(error.is_retryable());
}

#[tokio::test]
async fn a_stream_that_goes_silent_times_out() {
    let server = ScriptedServer::start(vec![Reply::StallAfter { events: vec![delta("wait")] }]).await;
    let mut got = String::new();
    let error = client(&server.base_url, Duration::from_secs(5), Duration::from_millis(300)).stream_chat(&hello(), |t| got.push_str(t)).await.unwrap_err();
    assert!(matches!(error, LlmError::Timeout { phase: TimeoutPhase::Stream, .. }), "{error:?}");
    assert_eq!(got, "wait");
}

#[tokio::test]
async fn an_unreachable_server_says_so() {
    // Bind then drop, so nothing listens on the port.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let error = quick(&format!("http://127.0.0.1:{port}/v1")).stream_chat(&hello(), |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Unreachable { .. }), "{error:?}");
    assert!(error.to_string().contains(&port.to_string()));
}

#[tokio::test]
async fn malformed_chunk_is_a_clear_error() {
    let server = ScriptedServer::start(vec![Reply::Stream { events: vec![delta("ok"), "{not json".into()], delay: Duration::ZERO }]).await;
    let error = quick(&server.base_url).stream_chat(&hello(), |_| {}).await.unwrap_err();
    assert!(matches!(error, LlmError::Malformed { .. }), "{error:?}");
    assert!(error.to_string().contains("{not json"));
}
