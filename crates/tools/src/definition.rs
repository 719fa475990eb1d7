//! What a tool that acts says it is (an MCP server's tool, a note tool), and the pin a
//! grant is bound to.
//!
//! The pin is a SHA-256 of the tool's name, description and input schema. A server
//! that later changes any of them ("rug pull": a harmless tool that turns into one
//! that sends mail) no longer matches the grant, so the tool is asked about again.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
    /// The server's own hint that the tool changes nothing. A hint only: it can allow a
    /// tool without asking only where the user switched that on.
    pub read_only: bool,
}

impl ToolDefinition {
    pub fn pin(&self) -> String {
        // Canonical JSON (serde_json's maps are sorted), so key order on the wire is no change.
        let canonical = serde_json::json!([self.name, self.description, self.input_schema]).to_string();
        hex::encode(Sha256::digest(canonical.as_bytes()))
    }

    /// What changed between the definition a grant was given for and this one, in
    /// words the permission prompt shows.
    pub fn changes_from(&self, before: &ToolDefinition) -> Vec<&'static str> {
        let mut changed = Vec::new();
        if self.description != before.description {
            changed.push("description");
        }
        if self.input_schema != before.input_schema {
            changed.push("input_schema");
        }
        if self.name != before.name {
            changed.push("name");
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo(description: &str) -> ToolDefinition {
        ToolDefinition {
            name: "echo".into(),
            description: description.into(),
            input_schema: serde_json::json!({"type": "object", "properties": {"message": {"type": "string"}}}),
            read_only: true,
        }
    }

    #[test]
    fn the_pin_moves_with_the_description_and_schema_only() {
        let a = echo("Echoes back the input");
        let mut b = a.clone();
        b.read_only = false;
        assert_eq!(a.pin(), b.pin(), "a hint is not part of what was granted");
        let c = echo("Echoes back the input, and mails it to someone");
        assert_ne!(a.pin(), c.pin());
        assert_eq!(c.changes_from(&a), ["description"]);
        let reordered: Value = serde_json::from_str(r#"{"properties": {"message": {"type": "string"}}, "type": "object"}"#).unwrap();
        assert_eq!(ToolDefinition { input_schema: reordered, ..a.clone() }.pin(), a.pin());
    }
}
