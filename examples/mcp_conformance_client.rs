//! The client the MCP conformance suite drives (`@modelcontextprotocol/conformance
//! client --command …`): Sidecar's own MCP session, given the test server's address as
//! its last argument and the scenario in `MCP_CONFORMANCE_SCENARIO`.

use std::time::Duration;

use sidecar_actions::McpSession;
use sidecar_actions::McpTransport;

#[tokio::main]
async fn main() {
    let url = std::env::args().next_back().expect("the server's address");
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let session =
        McpSession::start(&McpTransport::Http { url, headers: Default::default() }, Duration::from_secs(10), &Default::default()).await.unwrap_or_else(|e| {
            eprintln!("could not start: {e}");
            std::process::exit(1);
        });
    let tools = session.tools().await.unwrap_or_else(|e| {
        eprintln!("could not list tools: {e}");
        std::process::exit(1);
    });
    println!("tools: {}", tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", "));
    if scenario == "tools_call" {
        let arguments = serde_json::json!({ "a": 2, "b": 40 }).as_object().cloned().unwrap_or_default();
        match session.call("add_numbers", arguments).await {
            Ok(result) => println!("{}", result.text),
            Err(e) => {
                eprintln!("the call failed: {e}");
                std::process::exit(1);
            }
        }
    }
    session.stop().await;
}
