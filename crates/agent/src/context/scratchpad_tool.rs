//! `write_scratchpad`: the model keeps its notes for the request it works on (see
//! [`super::scratchpad`]).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::plan::PlanBoard;
use super::scratchpad::{MAX_CHARS, NAME};
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::Tool;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

pub struct WriteScratchpad(pub Arc<PlanBoard>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// The notes. They replace the ones kept unless `append` is true; empty clears them.
    text: String,
    /// Add to the notes kept instead of replacing them.
    #[serde(default)]
    append: bool,
}

impl Tool for WriteScratchpad {
    fn name(&self) -> &'static str {
        NAME
    }

    fn local_read(&self) -> bool {
        true
    }

    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Keep working notes", "Tomar notas de trabajo").into()
    }

    fn description(&self) -> &'static str {
        "Keep short working notes for the request you are on (findings, numbers, what to check next). They stay in your context until the request is done, beside your plan, and the user sees them. Not for facts about the user: use remember_fact for those."
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            let text = if args.append {
                let kept = self.0.scratchpad();
                if kept.trim().is_empty() {
                    args.text.trim().to_string()
                } else {
                    format!("{}\n{}", kept.trim_end(), args.text.trim())
                }
            } else {
                args.text.trim().to_string()
            };
            let chars = text.chars().count();
            if chars > MAX_CHARS {
                return Err(ToolError::InvalidArguments(format!(
                    "the notes would be {chars} characters; keep them under {MAX_CHARS}: replace them with a shorter version"
                )));
            }
            self.0.write_scratchpad(text.clone()).await.map_err(|refusal| ToolError::InvalidArguments(refusal.to_string()))?;
            // The whole notes come back: within the turn this result is where the model
            // reads them (it is never cleared), from the next turn on the per-turn block.
            Ok(if text.is_empty() { "Notes cleared.".to_string() } else { format!("Notes kept ({chars} of {MAX_CHARS} characters):\n{text}") })
        })
    }
}
