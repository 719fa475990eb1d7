//! `schedule_task`: the model proposes a task from what the user asked ("every weekday
//! at 8, check the weather and tell me"), and the user confirms it: the tool acts, so
//! the permission gate asks before it runs, showing the prompt, the time and the tools
//! the task would be given.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::Action;
use sidecar_tools::Tool;
use sidecar_tools::ToolDefinition;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

use crate::catch_up::CatchUp;
use crate::manage::{when_words, TaskRequest};
use crate::service::Tasks;

/// What a missed occurrence becomes when the model does not say: a brief at noon is noise.
pub const DEFAULT_SKIP_MINUTES: u32 = 120;

/// The tools there are, to check a task's grants against (the registry the tool is in).
pub(crate) type KnownTools = Arc<dyn Fn() -> Vec<String> + Send + Sync>;

pub struct ScheduleTask {
    pub tasks: Arc<Tasks>,
    pub clock: Clock,
    pub lang: Lang,
    pub known: KnownTools,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
enum IfMissed {
    Run,
    Ask,
    Skip,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ScheduleArgs {
    /// The work, as a complete instruction that needs no chat history.
    prompt: String,
    /// When, as the user said it ("every weekday at 8", "in two hours").
    when: String,
    #[serde(default)]
    title: Option<String>,
    /// Tool names it may use without asking.
    #[serde(default)]
    tools: Vec<String>,
    /// A time missed while Sidecar was closed: run it late, ask, or skip it (default).
    #[serde(default)]
    if_missed: Option<IfMissed>,
    /// Deliver in quiet hours too (only if the user asked).
    #[serde(default)]
    always_deliver: bool,
}

pub use crate::manage::SCHEDULE_TOOL as NAME;
const DESCRIPTION: &str = "Schedule work Sidecar does on its own later or regularly (look up, summarise, check); \
not for a plain reminder (set_reminder). The user confirms it.";

impl Tool for ScheduleTask {
    fn name(&self) -> &'static str {
        NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn parameters(&self) -> Value {
        schema_of::<ScheduleArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: ScheduleArgs = parse_arguments(arguments)?;
            let catch_up = match args.if_missed {
                Some(IfMissed::Run) => CatchUp::RunNow,
                Some(IfMissed::Ask) => CatchUp::Ask,
                Some(IfMissed::Skip) | None => CatchUp::SkipOlderThan { minutes: DEFAULT_SKIP_MINUTES },
            };
            let request =
                TaskRequest { title: args.title, prompt: args.prompt, when: args.when, tools: args.tools, catch_up, always_deliver: args.always_deliver };
            let known = (self.known)();
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            let task = self.tasks.add(&request, &known, self.clock.now(), self.clock.zone(), self.lang).await.map_err(|e| ToolError::Failed(e.to_string()))?;
            let next = task.schedule.next_after(self.clock.now()).map(|at| sidecar_dates::moment_words(at.with_timezone(&self.clock.zone()), Lang::En));
            Ok(format!(
                "Task {} scheduled: \"{}\", {} (next: {}), tools: {}. Its results arrive in the Tasks conversation and as a notification; Settings → Tasks lists it.",
                task.id,
                task.title,
                when_words(&task, Lang::En),
                next.unwrap_or_else(|| "none".into()),
                if task.tools.is_empty() { "none".to_string() } else { task.tools.join(", ") }
            ))
        })
    }
    fn action(&self) -> Option<Action> {
        let definition = ToolDefinition { name: NAME.into(), description: DESCRIPTION.into(), input_schema: self.parameters(), read_only: false };
        let asking = sidecar_tools::Asking { en: "Sidecar wants to schedule a task", es: "Sidecar quiere programar una tarea" };
        Some(Action { server: sidecar_tools::SIDECAR.into(), identity: "sidecar tasks".into(), definition, called_as: NAME.into(), asking: Some(asking) })
    }
}
