//! Remote MCP servers over streamable HTTP, through Sidecar's own reqwest: rmcp's
//! HTTP client feature would pull a second major of reqwest, so its client trait is
//! implemented here, following rmcp's own reqwest client.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use http::{HeaderName, HeaderValue, StatusCode};
use rmcp::model::{ClientJsonRpcMessage, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse};
use sse_stream::{Sse, SseStream};

const SESSION_ID: &str = "Mcp-Session-Id";
const LAST_EVENT_ID: &str = "Last-Event-Id";
const EVENT_STREAM: &str = "text/event-stream";
const JSON: &str = "application/json";

#[derive(Clone)]
pub(crate) struct McpHttp(pub reqwest::Client);

type Failure = StreamableHttpError<reqwest::Error>;

fn is(content_type: Option<&HeaderValue>, expected: &str) -> bool {
    content_type.and_then(|v| v.to_str().ok()).is_some_and(|v| v.split(';').next().unwrap_or_default().trim().eq_ignore_ascii_case(expected))
}

fn with_headers(mut request: reqwest::RequestBuilder, auth: Option<String>, headers: HashMap<HeaderName, HeaderValue>) -> reqwest::RequestBuilder {
    if let Some(token) = auth {
        request = request.bearer_auth(token);
    }
    for (name, value) in headers {
        request = request.header(name, value);
    }
    request.header(reqwest::header::ACCEPT, format!("{EVENT_STREAM}, {JSON}"))
}

fn unexpected(what: String) -> Failure {
    StreamableHttpError::UnexpectedServerResponse(Cow::Owned(what))
}

fn events(response: reqwest::Response) -> BoxStream<'static, Result<Sse, sse_stream::Error>> {
    SseStream::from_bytes_stream(response.bytes_stream()).boxed()
}

impl StreamableHttpClient for McpHttp {
    type Error = reqwest::Error;

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, sse_stream::Error>>, Failure> {
        let mut request = with_headers(self.0.get(uri.as_ref()), auth, headers);
        if let Some(session_id) = session_id {
            request = request.header(SESSION_ID, session_id.as_ref());
        }
        if let Some(last_event_id) = last_event_id {
            request = request.header(LAST_EVENT_ID, last_event_id);
        }
        let response = request.send().await.map_err(StreamableHttpError::Client)?;
        if response.status() == StatusCode::METHOD_NOT_ALLOWED {
            return Err(StreamableHttpError::ServerDoesNotSupportSse);
        }
        let response = response.error_for_status().map_err(StreamableHttpError::Client)?;
        let content_type = response.headers().get(reqwest::header::CONTENT_TYPE);
        if !is(content_type, EVENT_STREAM) && !is(content_type, JSON) {
            return Err(StreamableHttpError::UnexpectedContentType(content_type.map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())));
        }
        Ok(events(response))
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Failure> {
        let request = with_headers(self.0.delete(uri.as_ref()), auth, headers).header(SESSION_ID, session_id.as_ref());
        let response = request.send().await.map_err(StreamableHttpError::Client)?;
        // A server that does not end sessions says so; nothing is wrong.
        if response.status() != StatusCode::METHOD_NOT_ALLOWED {
            response.error_for_status().map_err(StreamableHttpError::Client)?;
        }
        Ok(())
    }

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth: Option<String>,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Failure> {
        let mut request = with_headers(self.0.post(uri.as_ref()), auth, headers);
        let had_session = session_id.is_some();
        if let Some(session_id) = session_id {
            request = request.header(SESSION_ID, session_id.as_ref());
        }
        let response = request.json(&message).send().await.map_err(StreamableHttpError::Client)?;
        let status = response.status();
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && had_session {
            return Err(StreamableHttpError::SessionExpired);
        }
        let awaits_nothing = matches!(message, ClientJsonRpcMessage::Notification(_) | ClientJsonRpcMessage::Response(_) | ClientJsonRpcMessage::Error(_));
        let session_id = response.headers().get(SESSION_ID).and_then(|v| v.to_str().ok()).map(str::to_string);
        let content_type = response.headers().get(reqwest::header::CONTENT_TYPE).cloned();
        if is(content_type.as_ref(), EVENT_STREAM) && status.is_success() {
            return Ok(StreamableHttpPostResponse::Sse(events(response), session_id));
        }
        let body = response.text().await.map_err(StreamableHttpError::Client)?;
        if is(content_type.as_ref(), JSON) {
            match serde_json::from_str::<ServerJsonRpcMessage>(&body) {
                Ok(message) if status.is_success() || matches!(message, JsonRpcMessage::Error(_)) => {
                    return Ok(StreamableHttpPostResponse::Json(message, session_id));
                }
                _ => {}
            }
        }
        if status.is_success() && awaits_nothing {
            // Some servers answer a notification with an empty 200 instead of 202.
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        let shown: String = body.chars().take(300).collect();
        Err(unexpected(format!("HTTP {status}: {shown}")))
    }
}
