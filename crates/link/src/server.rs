//! The home core's listener: TLS on the addresses the user chose, then HTTP/1.1 with
//! its doors. `POST /pair` trades the open pairing code for a device token; `GET /link`
//! with that token upgrades to a WebSocket that carries calls, replies and events. A
//! browser gets the same through the web app (`web`): `POST /web/session` trades the
//! code for a session cookie, which `/link` then takes from a page of this origin. A
//! request that names another web origin is refused; plain HTTP never gets past TLS.
//!
//! Over 400 lines: with its tests; the code is 312.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{header, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::calls::Calls;
use crate::devices::{Device, Devices};
use crate::error::{LinkError, PairingError};
use crate::identity::{Fingerprint, Identity};
use crate::present::Present;
use crate::replies::Replies;
use crate::socket;
use crate::web::{self, WebApp, WebFiles};

pub struct LinkServer {
    identity: Identity,
    devices: Arc<Devices>,
    calls: Arc<dyn Calls>,
    replies: Arc<Replies>,
    present: Arc<Present>,
    web: std::sync::OnceLock<WebApp>,
}

/// A listener running; stops when told (and its links with it).
pub struct Listening {
    pub address: SocketAddr,
    stop: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Listening {
    pub async fn stop(self) {
        self.stop.cancel();
        let _ = self.task.await;
    }
}

/// How long a TLS handshake and a request's head may take.
const HANDSHAKE_LIMIT: Duration = Duration::from_secs(10);
/// The largest pairing request read.
const PAIR_BODY_LIMIT: usize = 4096;

impl LinkServer {
    pub fn new(identity: Identity, devices: Arc<Devices>, calls: Arc<dyn Calls>) -> Arc<Self> {
        Arc::new(Self { identity, devices, calls, replies: Arc::default(), present: Arc::default(), web: std::sync::OnceLock::new() })
    }

    /// Serves the window's files to browsers as the web app (off until given).
    pub fn serve_web(&self, files: Arc<dyn WebFiles>) {
        let _ = self.web.set(WebApp::new(files));
    }

    pub fn fingerprint(&self) -> Fingerprint {
        self.identity.fingerprint()
    }

    pub fn devices(&self) -> &Arc<Devices> {
        &self.devices
    }

    /// Which devices are attached now, and which of them the user is at.
    pub fn present(&self) -> &Arc<Present> {
        &self.present
    }

    /// Listens on `address` (port 0: any free port) until stopped.
    pub async fn listen(self: &Arc<Self>, address: SocketAddr) -> Result<Listening, LinkError> {
        let listener = TcpListener::bind(address).await?;
        let address = listener.local_addr()?;
        let acceptor = tokio_rustls::TlsAcceptor::from(self.identity.server_config()?);
        let stop = CancellationToken::new();
        let (server, halt) = (self.clone(), stop.clone());
        let task = tokio::spawn(async move {
            loop {
                let (tcp, peer) = tokio::select! {
                    _ = halt.cancelled() => break,
                    accepted = listener.accept() => match accepted {
                        Ok(accepted) => accepted,
                        Err(e) => {
                            tracing::warn!(error = %e, "the link's listener could not accept");
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            continue;
                        }
                    },
                };
                let (server, acceptor, halt) = (server.clone(), acceptor.clone(), halt.clone());
                tokio::spawn(async move {
                    let tls = match tokio::time::timeout(HANDSHAKE_LIMIT, acceptor.accept(tcp)).await {
                        Ok(Ok(tls)) => tls,
                        // Plain HTTP, a scanner, a device that no longer trusts us: nothing to say.
                        Ok(Err(e)) => return tracing::debug!(%peer, error = %e, "a TLS handshake failed"),
                        Err(_) => return tracing::debug!(%peer, "a TLS handshake took too long"),
                    };
                    let service = hyper::service::service_fn(move |req| {
                        let (server, halt) = (server.clone(), halt.clone());
                        async move { Ok::<_, std::convert::Infallible>(server.route(req, halt).await) }
                    });
                    let connection = hyper::server::conn::http1::Builder::new()
                        .timer(hyper_util::rt::TokioTimer::new())
                        .header_read_timeout(HANDSHAKE_LIMIT)
                        .serve_connection(TokioIo::new(tls), service)
                        .with_upgrades();
                    if let Err(e) = connection.await {
                        tracing::debug!(%peer, error = %e, "a device's connection ended");
                    }
                });
            }
        });
        tracing::info!(%address, "the link listens");
        Ok(Listening { address, stop, task })
    }

    async fn route(self: Arc<Self>, req: Request<Incoming>, stop: CancellationToken) -> Response<Full<Bytes>> {
        if !same_origin(&req) {
            return answer(StatusCode::FORBIDDEN, json!({ "error": "foreign_origin" }));
        }
        match (req.method(), req.uri().path()) {
            (&Method::POST, "/pair") => match self.pair(req).await {
                Ok(issued) => answer(StatusCode::OK, json!({ "token": issued.token, "device": issued.device })),
                Err(refused) => refused,
            },
            (&Method::GET, "/link") => self.link(req, stop).await,
            (&Method::GET, "/web/session") => self.session(&req).await,
            (&Method::POST, "/web/session") if says_origin(&req) => match self.pair(req).await {
                Ok(issued) => web::secured(Response::builder().status(StatusCode::OK).header(header::SET_COOKIE, web::session_cookie(&issued.token)))
                    .header(header::CONTENT_TYPE, "application/json")
                    .header(header::CACHE_CONTROL, "no-store")
                    .body(Full::new(Bytes::from(json!({ "device": issued.device }).to_string())))
                    .expect("a response"),
                Err(refused) => refused,
            },
            (&Method::POST, "/web/session/end") if says_origin(&req) => self.end_session(&req).await,
            (&Method::GET, path) => match self.web.get() {
                Some(app) => app.page(path, web::takes_gzip(&req)),
                None => answer(StatusCode::NOT_FOUND, json!({ "error": "not_found" })),
            },
            _ => answer(StatusCode::NOT_FOUND, json!({ "error": "not_found" })),
        }
    }

    /// Trades the open pairing code for a new device's token, or the answer that says why not.
    async fn pair(&self, req: Request<Incoming>) -> Result<crate::devices::Issued, Response<Full<Bytes>>> {
        #[derive(serde::Deserialize)]
        struct Asked {
            code: String,
            name: String,
        }
        // Before a session there is no user's choice of language: the browser's says it.
        let lang = sidecar_domain::Lang::of_tag(req.headers().get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or_default());
        let Ok(body) = Limited::new(req.into_body(), PAIR_BODY_LIMIT).collect().await else {
            return Err(answer(StatusCode::PAYLOAD_TOO_LARGE, json!({ "error": "too_large" })));
        };
        let Ok(asked) = serde_json::from_slice::<Asked>(&body.to_bytes()) else {
            return Err(answer(StatusCode::BAD_REQUEST, json!({ "error": "bad_request" })));
        };
        let redeemed = match self.devices.redeem_code(&asked.code).await {
            Ok(redeemed) => redeemed,
            Err(e) => {
                tracing::warn!(error = %e, "a pairing code could not be checked");
                return Err(answer(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": "store" })));
            }
        };
        if let Err(e) = redeemed {
            tracing::info!(error = %e, "a pairing code was refused");
            let status = if e == PairingError::NoTriesLeft { StatusCode::TOO_MANY_REQUESTS } else { StatusCode::FORBIDDEN };
            return Err(answer(status, json!({ "error": "pairing", "pairing": e, "message": crate::words::pairing_error(e, lang) })));
        }
        let name = asked.name.trim();
        self.devices.add(if name.is_empty() { "Browser" } else { name }).await.map_err(|e| {
            tracing::warn!(error = %e, "a device could not be paired");
            answer(StatusCode::INTERNAL_SERVER_ERROR, json!({ "error": "store" }))
        })
    }

    /// The device a request's token names: its bearer token, or (from a page of this
    /// origin) its session cookie.
    async fn device_of<B>(&self, req: &Request<B>) -> Result<Option<Device>, LinkError> {
        let token = bearer(req).or_else(|| from_a_page(req).then(|| web::session_token(req)).flatten());
        match token {
            Some(token) => self.devices.owner(&token).await,
            None => Ok(None),
        }
    }

    /// Whether a browser's session is open, and as which device.
    async fn session<B>(&self, req: &Request<B>) -> Response<Full<Bytes>> {
        match self.device_of(req).await {
            Ok(Some(device)) => answer(StatusCode::OK, json!({ "device": device })),
            Ok(None) => answer(StatusCode::UNAUTHORIZED, json!({ "error": "not_allowed" })),
            Err(e) => {
                tracing::warn!(error = %e, "a session could not be checked");
                answer(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": "store" }))
            }
        }
    }

    /// Signs a browser out: its device is revoked (its link closes) and its cookie ended.
    async fn end_session<B>(&self, req: &Request<B>) -> Response<Full<Bytes>> {
        if let Ok(Some(device)) = self.device_of(req).await {
            if let Err(e) = self.devices.revoke(device.id).await {
                tracing::warn!(error = %e, "a browser's device could not be revoked");
                return answer(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": "store" }));
            }
        }
        web::secured(Response::builder().status(StatusCode::NO_CONTENT).header(header::SET_COOKIE, web::ended_cookie()))
            .body(Full::new(Bytes::new()))
            .expect("a response")
    }

    async fn link(self: Arc<Self>, mut req: Request<Incoming>, stop: CancellationToken) -> Response<Full<Bytes>> {
        let device = match self.device_of(&req).await {
            Ok(Some(device)) => device,
            Ok(None) => return answer(StatusCode::UNAUTHORIZED, json!({ "error": "not_allowed" })),
            Err(e) => {
                tracing::warn!(error = %e, "a device's token could not be checked");
                return answer(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": "store" }));
            }
        };
        // A link opened with the session cookie is a web page's.
        let shows = bearer(&req).is_some();
        let Some(accept) = websocket_accept(&req) else {
            return answer(StatusCode::UPGRADE_REQUIRED, json!({ "error": "websocket_required" }));
        };
        let upgrade = hyper::upgrade::on(&mut req);
        tokio::spawn(async move {
            match upgrade.await {
                Ok(upgraded) => {
                    let attached = socket::Attached {
                        calls: self.calls.clone(),
                        devices: self.devices.clone(),
                        replies: self.replies.clone(),
                        present: self.present.clone(),
                    };
                    socket::serve(attached, device, shows, TokioIo::new(upgraded), stop).await
                }
                Err(e) => tracing::debug!(error = %e, "a link's upgrade failed"),
            }
        });
        Response::builder()
            .status(StatusCode::SWITCHING_PROTOCOLS)
            .header(header::CONNECTION, "Upgrade")
            .header(header::UPGRADE, "websocket")
            .header(header::SEC_WEBSOCKET_ACCEPT, accept)
            .body(Full::new(Bytes::new()))
            .expect("a response")
    }
}

fn answer(status: StatusCode, body: Value) -> Response<Full<Bytes>> {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CACHE_CONTROL, "no-store")
        .body(Full::new(Bytes::from(body.to_string())))
        .expect("a response")
}

/// No Origin (a desktop app, a script), or this very server's own: a web page elsewhere
/// cannot drive the core with a device's credentials.
fn same_origin<B>(req: &Request<B>) -> bool {
    let Some(origin) = req.headers().get(header::ORIGIN) else { return true };
    let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok());
    match (origin.to_str(), host) {
        (Ok(origin), Some(host)) => origin.eq_ignore_ascii_case(&format!("https://{host}")),
        _ => false,
    }
}

/// A request a page of this origin made: one that says its Origin (`same_origin` has
/// already refused any other than this server's own; browsers say it on every POST and
/// WebSocket), or a same-origin GET, which says so in its fetch metadata instead.
fn from_a_page<B>(req: &Request<B>) -> bool {
    says_origin(req) || req.headers().get("sec-fetch-site").is_some_and(|site| site == "same-origin")
}

/// Whether a request says its Origin (a browser's POST always does).
fn says_origin<B>(req: &Request<B>) -> bool {
    req.headers().contains_key(header::ORIGIN)
}

fn bearer<B>(req: &Request<B>) -> Option<String> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer "))?;
    Some(token.trim().to_string())
}

/// The Sec-WebSocket-Accept for an upgrade request, if it is one.
fn websocket_accept<B>(req: &Request<B>) -> Option<String> {
    let upgrade = req.headers().get(header::UPGRADE)?.to_str().ok()?;
    if !upgrade.eq_ignore_ascii_case("websocket") {
        return None;
    }
    let key = req.headers().get(header::SEC_WEBSOCKET_KEY)?;
    Some(tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::future::BoxFuture;
    use tokio::sync::broadcast;

    struct Nothing(broadcast::Sender<crate::calls::Addressed>);

    impl Calls for Nothing {
        fn call(&self, _: Device, _: String, _: Value) -> BoxFuture<'static, Result<Value, Value>> {
            Box::pin(async { Ok(Value::Null) })
        }
        fn events(&self) -> broadcast::Receiver<crate::calls::Addressed> {
            self.0.subscribe()
        }
    }

    /// Sends `req` over TLS to `address`; the answer's status.
    async fn status(address: &str, req: Request<Full<Bytes>>) -> StatusCode {
        send(address, req).await.0
    }

    #[tokio::test]
    async fn a_request_from_another_origin_or_without_a_token_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = sidecar_store::Store::open(dir.path()).await.unwrap();
        let devices = Arc::new(Devices::new(store));
        let issued = devices.add("Phone").await.unwrap();
        let identity = Identity::load_or_make(&dir.path().join("link")).unwrap();
        let server = LinkServer::new(identity, devices, Arc::new(Nothing(broadcast::channel(1).0)));
        let listening = server.listen("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let address = listening.address.to_string();
        let link = |origin: Option<&str>, token: Option<&str>| {
            let mut req = Request::get("/link")
                .header(header::HOST, address.as_str())
                .header(header::UPGRADE, "websocket")
                .header(header::CONNECTION, "Upgrade")
                .header(header::SEC_WEBSOCKET_VERSION, "13")
                .header(header::SEC_WEBSOCKET_KEY, "dGhlIHNhbXBsZSBub25jZQ==");
            if let Some(origin) = origin {
                req = req.header(header::ORIGIN, origin);
            }
            if let Some(token) = token {
                req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
            }
            req.body(Full::new(Bytes::new())).unwrap()
        };
        let token = issued.token.as_str();
        assert_eq!(status(&address, link(Some("https://evil.example"), Some(token))).await, StatusCode::FORBIDDEN);
        assert_eq!(status(&address, link(Some(&format!("http://{address}")), Some(token))).await, StatusCode::FORBIDDEN, "its own host, not over TLS");
        assert_eq!(status(&address, link(None, None)).await, StatusCode::UNAUTHORIZED);
        assert_eq!(status(&address, link(None, Some("sk-sidecar-device-00"))).await, StatusCode::UNAUTHORIZED);
        assert_eq!(status(&address, link(Some(&format!("https://{address}")), Some(token))).await, StatusCode::SWITCHING_PROTOCOLS);
        assert_eq!(status(&address, link(None, Some(token))).await, StatusCode::SWITCHING_PROTOCOLS);
        listening.stop().await;
    }

    struct Page;

    impl WebFiles for Page {
        fn file(&self, path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
            (path == "index.html").then_some(std::borrow::Cow::Borrowed(b"<html>".as_slice()))
        }
    }

    /// Sends `req` over TLS to `address`; the answer's status and headers.
    async fn send(address: &str, req: Request<Full<Bytes>>) -> (StatusCode, http::HeaderMap) {
        let (tls, _) = crate::tls::connect(address, None).await.unwrap();
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await.unwrap();
        tokio::spawn(connection);
        let answer = sender.send_request(req).await.unwrap();
        (answer.status(), answer.headers().clone())
    }

    /// A browser opens a session with the pairing code from a page of this origin, and
    /// only so: the cookie is out of scripts' reach, is taken from a page of this origin
    /// alone, opens the link, and signing out revokes the device.
    #[tokio::test]
    async fn a_browser_s_session_is_opened_by_the_code_and_kept_in_a_cookie_only_its_pages_send() {
        let dir = tempfile::tempdir().unwrap();
        let store = sidecar_store::Store::open(dir.path()).await.unwrap();
        let devices = Arc::new(Devices::new(store));
        let identity = Identity::load_or_make(&dir.path().join("link")).unwrap();
        let server = LinkServer::new(identity, devices.clone(), Arc::new(Nothing(broadcast::channel(1).0)));
        let listening = server.listen("127.0.0.1:0".parse().unwrap()).await.unwrap();
        let address = listening.address.to_string();
        let own = format!("https://{address}");
        let request = |method: Method, path: &str, origin: Option<&str>, cookie: Option<&str>, body: &str| {
            let mut req = Request::builder().method(method).uri(path).header(header::HOST, address.as_str());
            if let Some(origin) = origin {
                req = req.header(header::ORIGIN, origin);
            }
            if let Some(cookie) = cookie {
                req = req.header(header::COOKIE, cookie);
            }
            if path == "/link" {
                req = req
                    .header(header::UPGRADE, "websocket")
                    .header(header::CONNECTION, "Upgrade")
                    .header(header::SEC_WEBSOCKET_VERSION, "13")
                    .header(header::SEC_WEBSOCKET_KEY, "dGhlIHNhbXBsZSBub25jZQ==");
            }
            req.body(Full::new(Bytes::from(body.to_string()))).unwrap()
        };
        // No web app until the face gives its files.
        assert_eq!(send(&address, request(Method::GET, "/", None, None, "")).await.0, StatusCode::NOT_FOUND);
        server.serve_web(Arc::new(Page));
        let (status, headers) = send(&address, request(Method::GET, "/", Some(&own), None, "")).await;
        assert_eq!(status, StatusCode::OK);
        assert!(headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().contains("frame-ancestors 'none'"));

        let code = devices.open_code().await.unwrap().code;
        let login = |code: &str| format!(r#"{{"code":"{code}","name":"Phone"}}"#);
        assert_eq!(send(&address, request(Method::POST, "/web/session", Some(&own), None, &login("000000"))).await.0, StatusCode::FORBIDDEN);
        assert_eq!(send(&address, request(Method::POST, "/web/session", Some("https://evil.example"), None, &login(&code))).await.0, StatusCode::FORBIDDEN);
        assert_eq!(send(&address, request(Method::POST, "/web/session", None, None, &login(&code))).await.0, StatusCode::NOT_FOUND, "not from a page");
        let (status, headers) = send(&address, request(Method::POST, "/web/session", Some(&own), None, &login(&code))).await;
        assert_eq!(status, StatusCode::OK);
        let set = headers[header::SET_COOKIE].to_str().unwrap().to_string();
        for flag in ["HttpOnly", "Secure", "SameSite=Strict"] {
            assert!(set.contains(flag), "{set}");
        }
        let cookie = set.split(';').next().unwrap().to_string();
        assert_eq!(devices.list().await.unwrap().iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["Phone"]);

        assert_eq!(send(&address, request(Method::GET, "/web/session", Some(&own), Some(&cookie), "")).await.0, StatusCode::OK);
        assert_eq!(send(&address, request(Method::GET, "/web/session", None, Some(&cookie), "")).await.0, StatusCode::UNAUTHORIZED, "a cookie outside a page");
        let mut same_site_get = request(Method::GET, "/web/session", None, Some(&cookie), "");
        same_site_get.headers_mut().insert("sec-fetch-site", http::HeaderValue::from_static("same-origin"));
        assert_eq!(send(&address, same_site_get).await.0, StatusCode::OK, "a page's own GET says no Origin, but its fetch metadata");
        assert_eq!(send(&address, request(Method::GET, "/link", Some("https://evil.example"), Some(&cookie), "")).await.0, StatusCode::FORBIDDEN);
        assert_eq!(send(&address, request(Method::GET, "/link", Some(&own), Some(&cookie), "")).await.0, StatusCode::SWITCHING_PROTOCOLS);

        let (status, headers) = send(&address, request(Method::POST, "/web/session/end", Some(&own), Some(&cookie), "")).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        assert!(headers[header::SET_COOKIE].to_str().unwrap().contains("Max-Age=0"));
        assert_eq!(send(&address, request(Method::GET, "/web/session", Some(&own), Some(&cookie), "")).await.0, StatusCode::UNAUTHORIZED, "revoked");
        assert_eq!(send(&address, request(Method::GET, "/link", Some(&own), Some(&cookie), "")).await.0, StatusCode::UNAUTHORIZED);
        listening.stop().await;
    }
}
