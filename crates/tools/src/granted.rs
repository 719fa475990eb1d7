//! A scheduled task's grants: the tools the user gave it when they made it run without
//! asking; any other call that acts goes through the gate as every call does (the user
//! is asked, or it waits).

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;

use crate::action::Action;
use crate::guard::{no_one_to_ask, Guard, NotAllowed};
use crate::CallScope;

pub(crate) struct Granted {
    /// Tool names as the model calls them (`mcp__files__read_file`, `write_note`).
    pub granted: Arc<BTreeSet<String>>,
    /// The gate for everything else; `None`: there is no one to ask.
    pub gate: Option<Arc<dyn Guard>>,
}

impl Guard for Granted {
    fn check<'a>(&'a self, action: &'a Action, arguments: &'a Value, scope: CallScope) -> BoxFuture<'a, Result<(), NotAllowed>> {
        if self.granted.contains(&action.called_as) {
            tracing::info!(tool = %action.called_as, "granted to the task when it was made");
            return Box::pin(async { Ok(()) });
        }
        match &self.gate {
            Some(gate) => gate.check(action, arguments, scope),
            None => Box::pin(async { Err(no_one_to_ask(&action.display_name())) }),
        }
    }

    /// A task's grants do not hold once it read a stranger's words: the user is asked.
    fn confirm<'a>(&'a self, action: &'a Action, arguments: &'a Value, scope: CallScope) -> BoxFuture<'a, Result<(), NotAllowed>> {
        match &self.gate {
            Some(gate) => gate.confirm(action, arguments, scope),
            None => Box::pin(async { Err(no_one_to_ask(&action.display_name())) }),
        }
    }

    fn asking_time(&self) -> Duration {
        self.gate.as_ref().map(|gate| gate.asking_time()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::definition::ToolDefinition;
    use crate::{Tool, ToolCall, ToolFuture, ToolRegistry};

    /// A tool that acts (writes), as an MCP server's or the notes folder's.
    struct Writes(&'static str);

    impl Tool for Writes {
        fn name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &str {
            "writes"
        }
        fn parameters(&self) -> Value {
            serde_json::json!({ "type": "object" })
        }
        fn run(&self, _arguments: Value) -> ToolFuture<'_> {
            Box::pin(async { Ok("written".to_string()) })
        }
        fn action(&self) -> Option<Action> {
            let definition = ToolDefinition { name: self.0.into(), description: "writes".into(), input_schema: serde_json::json!({}), read_only: false };
            Some(Action { server: "files".into(), identity: "files-server".into(), definition, called_as: self.0.into(), asking: None })
        }
    }

    /// A gate that says no, and remembers what it was asked.
    #[derive(Default)]
    struct Refuses(Mutex<Vec<String>>);

    impl Guard for Refuses {
        fn check<'a>(&'a self, action: &'a Action, _: &'a Value, _: CallScope) -> BoxFuture<'a, Result<(), NotAllowed>> {
            self.0.lock().unwrap().push(action.called_as.clone());
            Box::pin(async { Err(NotAllowed("the user denied it".into())) })
        }
        fn confirm<'a>(&'a self, action: &'a Action, arguments: &'a Value, scope: CallScope) -> BoxFuture<'a, Result<(), NotAllowed>> {
            self.check(action, arguments, scope)
        }
        fn asking_time(&self) -> Duration {
            Duration::ZERO
        }
    }

    #[tokio::test]
    async fn a_granted_tool_runs_without_asking_and_any_other_asks_the_gate() {
        let gate = Arc::new(Refuses::default());
        let mut registry = ToolRegistry::new();
        registry.register(Writes("write_file"));
        registry.register(Writes("delete_file"));
        let registry = registry.guarded_by(gate.clone());
        let task = registry.granting(&["write_file".to_string(), "no_such_tool".to_string()]);
        assert_eq!(task.names(), ["write_file"], "only what was granted (and exists) is offered");
        let call = |name: &str| ToolCall { id: "1".into(), name: name.into(), arguments: "{}".into() };
        let granted = task.run(&call("write_file"), CallScope::default()).await;
        assert_eq!((granted.content.as_str(), granted.denied), ("written", false));
        let other = task.run(&call("delete_file"), CallScope::default()).await;
        assert!(other.denied, "{other:?}");
        assert_eq!(*gate.0.lock().unwrap(), ["delete_file"], "the gate was asked about the other only");
        // The registry it came from is not changed: there the granted tool asks too.
        assert!(registry.run(&call("write_file"), CallScope::default()).await.denied);
    }
}
