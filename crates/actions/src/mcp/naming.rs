//! The names the model sees for MCP tools: `mcp__SERVER__TOOL`, in the characters every
//! provider accepts (`[A-Za-z0-9_-]`) and at most 64 of them.

use sha2::{Digest, Sha256};

const MAX: usize = 64;

/// The model-facing name of a server's tool. A name too long is cut and given a short
/// hash of the whole, so two long names that share a start stay two tools.
pub fn tool_name(server: &str, tool: &str) -> String {
    let full = format!("mcp__{}__{}", sanitize(server), sanitize(tool));
    if full.len() <= MAX {
        return full;
    }
    let hash = hex::encode(&Sha256::digest(format!("{server}\u{0}{tool}").as_bytes())[..4]);
    format!("{}_{hash}", &full[..MAX - hash.len() - 1])
}

fn sanitize(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_plain_and_bounded() {
        assert_eq!(tool_name("time", "get_current_time"), "mcp__time__get_current_time");
        assert_eq!(tool_name("my files", "read.file/v2"), "mcp__my_files__read_file_v2");
        let long = "x".repeat(80);
        let a = tool_name("srv", &format!("{long}a"));
        let b = tool_name("srv", &format!("{long}b"));
        assert!(a.len() <= 64 && b.len() <= 64);
        assert_ne!(a, b);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    }
}
