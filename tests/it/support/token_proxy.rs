//! A reverse proxy on loopback that adds a bearer token to every request it passes on,
//! for a test tool that cannot be told to send one (the MCP conformance runner). Every
//! other header, the Host and Origin among them, goes through as the tool sent it.

use std::convert::Infallible;

use futures_util::StreamExt;
use http_body_util::{BodyExt, StreamBody};
use hyper::body::{Frame, Incoming};
use hyper_util::rt::TokioIo;

/// Starts the proxy in front of `target` (`http://127.0.0.1:PORT`); its own base.
pub(crate) async fn start(target: String, token: String) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let client = reqwest::Client::new();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (client, target, token) = (client.clone(), target.clone(), token.clone());
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                    let (client, target, token) = (client.clone(), target.clone(), token.clone());
                    async move {
                        let (parts, body) = request.into_parts();
                        let body = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                        let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
                        let mut forwarded = client.request(parts.method, format!("{target}{path}"));
                        for (name, value) in &parts.headers {
                            forwarded = forwarded.header(name, value);
                        }
                        let response = forwarded.bearer_auth(&token).body(body).send().await.unwrap();
                        let mut answer = hyper::Response::builder().status(response.status());
                        for (name, value) in response.headers() {
                            answer = answer.header(name, value);
                        }
                        let frames = response.bytes_stream().map(|chunk| chunk.map(Frame::data));
                        Ok::<_, Infallible>(answer.body(StreamBody::new(frames)).unwrap())
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
            });
        }
    });
    format!("http://{address}")
}
