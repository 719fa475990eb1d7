//! The MCP endpoint at `http://127.0.0.1:PORT/mcp` in the running app or daemon: the
//! same server as `sidecar mcp serve`, over streamable HTTP, on loopback only and off
//! unless the user turns it on (Settings → Connections). rmcp's service answers; hyper
//! carries it. The local HTTP API (`api`) answers under `/v1` on the same port. Both
//! ask for a client's bearer token (`api::guard`); `listener` keeps the port usable.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde::Serialize;
use tokio_util::sync::CancellationToken;

use super::listener;
use super::server::SidecarServer;
use crate::api::guard::TokenHolder;

/// What Settings shows: whether it runs, and where.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct EndpointView {
    /// `http://127.0.0.1:PORT/mcp` while it runs.
    pub url: Option<String>,
    /// Why it is not running although it is on (the port taken…).
    pub problem: Option<String>,
}

#[derive(Default)]
pub struct McpEndpoint {
    /// The address and the token that stops it, while it runs.
    running: Mutex<Option<(SocketAddr, CancellationToken)>>,
    problem: Mutex<Option<String>>,
}

impl McpEndpoint {
    /// Listens on 127.0.0.1:`port` (0: any free port) and serves `server` until
    /// stopped; a running endpoint is replaced.
    pub async fn start(&self, server: SidecarServer, api: crate::api::LocalApi, port: u16, lang: sidecar_domain::Lang) -> std::io::Result<SocketAddr> {
        self.stop();
        let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
            Ok(listener) => listener,
            Err(error) => {
                *self.problem.lock().expect("endpoint lock") = Some(crate::words::port_unusable(port, &error.to_string(), lang));
                return Err(error);
            }
        };
        let address = listener.local_addr()?;
        let stop = CancellationToken::new();
        let mut config = StreamableHttpServerConfig::default();
        config.cancellation_token = stop.child_token();
        let mcp = StreamableHttpService::new(move || Ok(server.clone()), Arc::new(LocalSessionManager::default()), config);
        let api = Arc::new(api);
        let answer: listener::Answer = Arc::new(move |request: hyper::Request<hyper::body::Incoming>| {
            let (mcp, api) = (mcp.clone(), api.clone());
            Box::pin(async move {
                let path = request.uri().path();
                if path == "/v1" || path.starts_with("/v1/") {
                    return api.handle(request).await;
                }
                // Over HTTP a client is whoever holds the token, whatever name it gives.
                match crate::api::guard::admit(request.headers(), api.tokens()).await {
                    Ok(client) => {
                        let mut request = request;
                        request.extensions_mut().insert(TokenHolder(client));
                        mcp.handle(request).await
                    }
                    Err(refused) => refusal(&refused),
                }
            })
        });
        tokio::spawn(listener::serve(listener, stop.clone(), answer));
        tracing::info!(%address, "MCP endpoint listening");
        *self.running.lock().expect("endpoint lock") = Some((address, stop));
        *self.problem.lock().expect("endpoint lock") = None;
        Ok(address)
    }

    pub fn stop(&self) {
        if let Some((_, stop)) = self.running.lock().expect("endpoint lock").take() {
            stop.cancel();
        }
        *self.problem.lock().expect("endpoint lock") = None;
    }

    pub fn view(&self) -> EndpointView {
        let url = self.running.lock().expect("endpoint lock").as_ref().map(|(address, _)| format!("http://{address}/mcp"));
        EndpointView { url, problem: self.problem.lock().expect("endpoint lock").clone() }
    }
}

/// A refused MCP request: the HTTP status and `WWW-Authenticate` as for the API, with a
/// JSON-RPC error for a body, which MCP clients show their user as it is.
fn refusal(error: &crate::api::error::ApiError) -> crate::api::ApiResponse {
    let mut response = crate::api::error_response(error);
    let body = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32001, "message": error.to_string()}});
    *response.body_mut() = http_body_util::BodyExt::boxed(http_body_util::Full::new(bytes::Bytes::from(body.to_string())));
    response
}
