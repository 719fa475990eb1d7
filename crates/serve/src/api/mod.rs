//! Sidecar's local HTTP API, beside the MCP endpoint on the same loopback port: REST
//! for recall, facts, reminders and notes to the user (`/v1/recall`, `/v1/facts`,
//! `/v1/reminders`, `/v1/messages`), and OpenAI's chat completions answered by Sidecar
//! itself. Every request but the OpenAPI description needs a client's bearer token
//! (`connections::tokens`), and each operation the scope the user gave that client,
//! checked and logged at the moment of the request. Bodies are capped, each client has
//! a request budget, and every error is JSON.

pub(crate) mod chat;
pub(crate) mod error;
pub(crate) mod guard;
pub(crate) mod limit;
pub(crate) mod route;

use std::convert::Infallible;
use std::fmt::Display;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bytes::Bytes;
use http::{header, HeaderMap, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::connections::hosting::Hosting;
use crate::connections::{disclosure, Scope};
use error::ApiError;
use route::Route;
use sidecar_memory::Category;

/// The largest request body taken, in bytes (a long chat history fits).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
const OPENAPI: &str = include_str!("openapi.json");

pub(crate) type ApiResponse = Response<BoxBody<Bytes, Infallible>>;

/// What the local API answers from; the assembly gathers them.
pub struct ApiParts {
    pub hosting: Arc<Hosting>,
    pub recall: Arc<sidecar_memory::Recall>,
    pub knowledge: Arc<sidecar_memory::KnowledgeStore>,
    pub reminders: Arc<sidecar_reminders::ReminderService>,
    pub chat_events: sidecar_domain::Subscriber<sidecar_agent::ChatEvent>,
    pub clock: sidecar_domain::Clock,
    pub requests_per_minute: u32,
}

pub struct LocalApi {
    hosting: Arc<Hosting>,
    recall: Arc<sidecar_memory::Recall>,
    knowledge: Arc<sidecar_memory::KnowledgeStore>,
    reminders: Arc<sidecar_reminders::ReminderService>,
    /// The turns' events, for a streamed completion.
    chat_events: sidecar_domain::Subscriber<sidecar_agent::ChatEvent>,
    clock: sidecar_domain::Clock,
    limit: Mutex<limit::RateLimit>,
}

fn json_response(status: StatusCode, body: &Value) -> ApiResponse {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())).boxed())
        .expect("a valid response")
}

/// How much of an oversized body is still read (and dropped) so the client, which is
/// still sending, can read the 413; past it the connection is cut.
const DRAINED_BYTES: usize = 16 * MAX_BODY_BYTES;

async fn read_body(headers: &HeaderMap, mut body: Incoming) -> Result<Bytes, ApiError> {
    let announced = headers.get(header::CONTENT_LENGTH).and_then(|h| h.to_str().ok()).and_then(|h| h.parse::<usize>().ok());
    if announced.is_some_and(|length| length > DRAINED_BYTES) {
        return Err(ApiError::TooLarge(MAX_BODY_BYTES));
    }
    let (mut kept, mut seen) = (Vec::new(), 0usize);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| ApiError::Invalid(format!("the body could not be read ({error})")))?;
        if let Ok(data) = frame.into_data() {
            seen += data.len();
            if seen <= MAX_BODY_BYTES {
                kept.extend_from_slice(&data);
            } else if seen > DRAINED_BYTES {
                break;
            }
        }
    }
    if seen > MAX_BODY_BYTES {
        return Err(ApiError::TooLarge(MAX_BODY_BYTES));
    }
    Ok(Bytes::from(kept))
}

/// A failure as JSON with its status; a missing or wrong token says how to present
/// one (`WWW-Authenticate`), a rate limit when to come back.
pub(crate) fn error_response(error: &ApiError) -> ApiResponse {
    let mut response = json_response(error.status(), &error.body());
    match error {
        ApiError::RateLimited(seconds) => {
            response.headers_mut().insert(header::RETRY_AFTER, (*seconds).into());
        }
        ApiError::NoToken | ApiError::BadToken => {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, http::HeaderValue::from_static("Bearer realm=\"sidecar\""));
        }
        _ => {}
    }
    response
}

fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::Invalid(e.to_string()))
}

#[derive(Deserialize)]
struct RecallAsk {
    query: String,
    #[serde(default)]
    budget_tokens: Option<usize>,
}

#[derive(Deserialize)]
struct FactAsk {
    text: String,
    #[serde(default)]
    category: Option<String>,
}

#[derive(Deserialize)]
struct ReminderAsk {
    text: String,
    when: String,
}

#[derive(Deserialize)]
struct MessageAsk {
    text: String,
}

fn failed(error: impl Display) -> ApiError {
    ApiError::Failed(error.to_string())
}

impl LocalApi {
    pub fn new(parts: ApiParts) -> Self {
        let ApiParts { hosting, recall, knowledge, reminders, chat_events, clock, requests_per_minute } = parts;
        Self { hosting, recall, knowledge, reminders, chat_events, clock, limit: Mutex::new(limit::RateLimit::new(requests_per_minute)) }
    }

    /// The tokens that say who a client is.
    pub(crate) fn tokens(&self) -> &crate::connections::tokens::ApiTokens {
        &self.hosting.tokens
    }

    /// Answers one request; every failure is a JSON error with its status.
    pub(crate) async fn handle(&self, request: Request<Incoming>) -> ApiResponse {
        match self.answer(request).await {
            Ok(response) => response,
            Err(error) => error_response(&error),
        }
    }

    async fn answer(&self, request: Request<Incoming>) -> Result<ApiResponse, ApiError> {
        let (parts, body) = request.into_parts();
        guard::check_host(&parts.headers)?;
        guard::check_origin(&parts.headers)?;
        let route = Route::of(&parts.method, parts.uri.path())
            .ok_or_else(|| ApiError::NotFound { method: parts.method.to_string(), path: parts.uri.path().to_string() })?;
        if route == Route::OpenApi {
            return Ok(Response::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .body(Full::new(Bytes::from_static(OPENAPI.as_bytes())).boxed())
                .expect("a valid response"));
        }
        let client = guard::admit(&parts.headers, &self.hosting.tokens).await?;
        self.limit.lock().expect("limit lock").take(&client, Instant::now()).map_err(ApiError::RateLimited)?;
        let body = read_body(&parts.headers, body).await?;
        let scopes = match route.scope() {
            Some(scope) => self.hosting.connections.check(&client, scope, &route.action()).await?,
            None => Vec::new(),
        };
        let health = scopes.contains(&Scope::Health);
        let ok = |value: Value| Ok(json_response(StatusCode::OK, &value));
        match route {
            Route::OpenApi => unreachable!("answered above"),
            Route::Models => ok(json!({"object": "list", "data": [{"id": chat::MODEL, "object": "model", "created": 0, "owned_by": "sidecar"}]})),
            Route::Recall => {
                let ask: RecallAsk = parse(&body)?;
                let budget = ask.budget_tokens.unwrap_or(1500).clamp(100, 8000);
                let found = self.recall.search_for_others(&ask.query, budget).await.map_err(failed)?;
                let hits: Vec<_> = found.hits.into_iter().filter(|hit| disclosure::hit_shown(hit, health)).collect();
                ok(json!({"results": hits, "omitted": found.omitted, "words_only": found.words_only}))
            }
            Route::ListFacts => {
                let facts: Vec<_> = self.knowledge.facts().into_iter().filter(|f| disclosure::fact_shown(f, health)).collect();
                ok(json!({"facts": facts}))
            }
            Route::AddFact => {
                let ask: FactAsk = parse(&body)?;
                if ask.text.trim().is_empty() {
                    return Err(ApiError::Invalid("\"text\" is empty".into()));
                }
                let category = ask.category.as_deref().and_then(Category::parse).unwrap_or(Category::General);
                if category == Category::Health && !health {
                    return Err(ApiError::Refused(format!("\"{client}\" was not given the health scope, so it cannot save health facts")));
                }
                let saved = self.knowledge.save(ask.text.trim(), category, self.clock.local_today()).await.map_err(failed)?;
                ok(json!({"saved": saved}))
            }
            Route::ListReminders => {
                let pending = self.reminders.pending().await.map_err(failed)?;
                let views: Vec<_> = pending.into_iter().map(|r| self.reminders.view(r)).collect();
                ok(json!({"reminders": views}))
            }
            Route::SetReminder => {
                let ask: ReminderAsk = parse(&body)?;
                let set = self.reminders.set(&ask.text, &ask.when).await.map_err(|e| ApiError::Invalid(e.to_string()))?;
                let said = self.reminders.describe(&set.reminder);
                Ok(json_response(StatusCode::CREATED, &json!({"reminder": self.reminders.view(set.reminder), "said": said, "note": set.note})))
            }
            Route::CancelReminder(id) => {
                let cancelled =
                    self.reminders.cancel(id).await.map_err(|e| ApiError::NotFound { method: "DELETE".into(), path: format!("/v1/reminders/{id} ({e})") })?;
                ok(json!({"cancelled": self.reminders.view(cancelled)}))
            }
            Route::PostMessage => {
                let ask: MessageAsk = parse(&body)?;
                let message_id = self.hosting.notes.post(&client, &ask.text).await.map_err(|e| match e {
                    crate::connections::note::NoteError::NotShown(why) => ApiError::Failed(why),
                    other => ApiError::Invalid(other.to_string()),
                })?;
                Ok(json_response(StatusCode::CREATED, &json!({"posted": true, "message_id": message_id})))
            }
            Route::ChatCompletions => {
                let (text, streaming) = chat::read_request(&body)?;
                let created = self.clock.now().timestamp();
                if streaming {
                    let body = chat::stream(self.hosting.clone(), &self.chat_events, text, created);
                    return Ok(Response::builder()
                        .header(header::CONTENT_TYPE, "text/event-stream")
                        .header(header::CACHE_CONTROL, "no-cache")
                        .body(body)
                        .expect("a valid response"));
                }
                let outcome = {
                    let _one_at_a_time = self.hosting.chat_turn.lock().await;
                    self.hosting.chat.call(&text).await.map_err(failed)?
                };
                ok(chat::completion(&outcome, created))
            }
        }
    }
}
