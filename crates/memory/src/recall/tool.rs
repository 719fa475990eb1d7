//! The `recall` tool: the model looks up what the user said long ago.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::Recall;
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::Tool;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

/// What one tool call may fill of the model's context.
const TOOL_BUDGET_TOKENS: usize = 1500;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// Words to look for in past conversations and saved facts.
    query: String,
}

/// The tool: the model looks up what the user said long ago.
pub struct RecallTool(pub Arc<Recall>);

impl Tool for RecallTool {
    fn name(&self) -> &'static str {
        "recall"
    }
    fn local_read(&self) -> bool {
        true
    }

    fn description(&self) -> &'static str {
        "Search everything the user ever said, every saved fact, the summaries and checkpoints of earlier work, and mail from people who matter to the user, including what is no longer in this conversation. Returns snippets with their source and date."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Search past conversations and memory", "Buscar en conversaciones pasadas y en la memoria").into()
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            let results = self.0.search(&args.query, TOOL_BUDGET_TOKENS).await.map_err(|e| ToolError::Failed(e.to_string()))?;
            if results.hits.is_empty() {
                return Ok(format!("Nothing found for \"{}\".", args.query));
            }
            let mut out = super::line::lines(&results.hits);
            if results.omitted > 0 {
                out.push_str(&format!("({} more matches not shown; search with more specific words.)\n", results.omitted));
            }
            // A mail found is a stranger's words: quoted as data, and the turn's tools
            // that act ask the user from now on (`sidecar_tools::quotes_strangers`).
            if results.hits.iter().any(|hit| hit.source == sidecar_store::ItemKind::Mail.as_str()) {
                return Ok(sidecar_tools::untrusted(sidecar_tools::STRANGERS, &out));
            }
            Ok(out)
        })
    }
}
