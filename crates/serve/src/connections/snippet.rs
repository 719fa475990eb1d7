//! What a user pastes into another program to reach Sidecar: the `mcpServers` entry
//! Claude Desktop, Cursor and LM Studio read, for the command or for the address (with
//! the program's token, which the address asks for).

use std::path::Path;

/// The configuration that starts `sidecar mcp serve` with the CLI at `sidecar`.
pub fn mcp_config(sidecar: &Path) -> String {
    let config = serde_json::json!({ "mcpServers": { "sidecar": { "command": sidecar, "args": ["mcp", "serve"] } } });
    serde_json::to_string_pretty(&config).expect("a configuration serializes")
}

/// The configuration that reaches the HTTP endpoint at `url` with `token`.
pub fn mcp_http_config(url: &str, token: &str) -> String {
    let config = serde_json::json!({ "mcpServers": { "sidecar": { "type": "http", "url": url, "headers": { "Authorization": format!("Bearer {token}") } } } });
    serde_json::to_string_pretty(&config).expect("a configuration serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_starts_the_server_with_the_cli_named() {
        let text = mcp_config(Path::new("/opt/Sidecar/sidecar"));
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed["mcpServers"]["sidecar"]["command"], "/opt/Sidecar/sidecar");
        assert_eq!(parsed["mcpServers"]["sidecar"]["args"], serde_json::json!(["mcp", "serve"]));
    }

    #[test]
    fn the_address_snippet_carries_the_token_as_a_bearer_header() {
        let parsed: serde_json::Value = serde_json::from_str(&mcp_http_config("http://127.0.0.1:47100/mcp", "sk-sidecar-ab")).unwrap();
        assert_eq!(parsed["mcpServers"]["sidecar"]["url"], "http://127.0.0.1:47100/mcp");
        assert_eq!(parsed["mcpServers"]["sidecar"]["headers"]["Authorization"], "Bearer sk-sidecar-ab");
    }
}
