//! The home core's listener: TLS on the addresses the user chose, then HTTP/1.1 with
//! two doors. `POST /pair` trades the open pairing code for a device token; `GET /link`
//! with that token upgrades to a WebSocket that carries calls, replies and events. A
//! request that names another web origin is refused; plain HTTP never gets past TLS.

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
use crate::devices::Devices;
use crate::error::{LinkError, PairingError};
use crate::identity::{Fingerprint, Identity};
use crate::present::Present;
use crate::replies::Replies;
use crate::socket;

pub struct LinkServer {
    identity: Identity,
    devices: Arc<Devices>,
    calls: Arc<dyn Calls>,
    replies: Arc<Replies>,
    present: Arc<Present>,
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
        Arc::new(Self { identity, devices, calls, replies: Arc::default(), present: Arc::default() })
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
            (&Method::POST, "/pair") => self.pair(req).await,
            (&Method::GET, "/link") => self.link(req, stop).await,
            _ => answer(StatusCode::NOT_FOUND, json!({ "error": "not_found" })),
        }
    }

    async fn pair(&self, req: Request<Incoming>) -> Response<Full<Bytes>> {
        #[derive(serde::Deserialize)]
        struct Asked {
            code: String,
            name: String,
        }
        let Ok(body) = Limited::new(req.into_body(), PAIR_BODY_LIMIT).collect().await else {
            return answer(StatusCode::PAYLOAD_TOO_LARGE, json!({ "error": "too_large" }));
        };
        let Ok(asked) = serde_json::from_slice::<Asked>(&body.to_bytes()) else {
            return answer(StatusCode::BAD_REQUEST, json!({ "error": "bad_request" }));
        };
        let redeemed = match self.devices.redeem_code(&asked.code).await {
            Ok(redeemed) => redeemed,
            Err(e) => {
                tracing::warn!(error = %e, "a pairing code could not be checked");
                return answer(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": "store" }));
            }
        };
        if let Err(e) = redeemed {
            tracing::info!(error = %e, "a pairing code was refused");
            let status = if e == PairingError::NoTriesLeft { StatusCode::TOO_MANY_REQUESTS } else { StatusCode::FORBIDDEN };
            return answer(status, json!({ "error": "pairing", "pairing": e }));
        }
        match self.devices.add(&asked.name).await {
            Ok(issued) => answer(StatusCode::OK, json!({ "token": issued.token, "device": issued.device })),
            Err(e) => {
                tracing::warn!(error = %e, "a device could not be paired");
                answer(StatusCode::INTERNAL_SERVER_ERROR, json!({ "error": "store" }))
            }
        }
    }

    async fn link(self: Arc<Self>, mut req: Request<Incoming>, stop: CancellationToken) -> Response<Full<Bytes>> {
        let token = bearer(&req);
        let device = match token {
            Some(token) => self.devices.owner(&token).await,
            None => Ok(None),
        };
        let device = match device {
            Ok(Some(device)) => device,
            Ok(None) => return answer(StatusCode::UNAUTHORIZED, json!({ "error": "not_allowed" })),
            Err(e) => {
                tracing::warn!(error = %e, "a device's token could not be checked");
                return answer(StatusCode::SERVICE_UNAVAILABLE, json!({ "error": "store" }));
            }
        };
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
                    socket::serve(attached, device, TokioIo::new(upgraded), stop).await
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
    use crate::devices::Device;
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
        let (tls, _) = crate::tls::connect(address, None).await.unwrap();
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await.unwrap();
        tokio::spawn(connection);
        sender.send_request(req).await.unwrap().status()
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
}
