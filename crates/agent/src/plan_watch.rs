//! Whether a turn goes on after a reply in words: a plan the turn wrote or changed
//! that still has open steps is carried on while it makes progress. Pure: the driver
//! tells it the plan after each round of tools, and the turn asks it what to do.
//!
//! A plan left over from an earlier turn that this turn does not touch is the model's
//! to pick up or not; only a plan this turn worked on keeps the turn going.

use std::collections::HashSet;

use crate::context::plan_item::{is_open, PlanItem};
use sidecar_llm::ToolCall;

/// Rounds without a change to the plan after which the turn stops carrying it on.
const STILL_ROUNDS: u32 = 2;

/// What to do after a reply in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum AfterWords {
    /// No plan this turn worked on, or nothing to add: the reply stands.
    Stand,
    /// Steps are open and the plan moved lately: ask the model to go on.
    GoOn,
    /// Every step of the plan this turn worked on is closed: sum it up.
    Finished(Vec<PlanItem>),
    /// Steps are open but the plan stopped moving: say what is done and what is left.
    Stuck(Vec<PlanItem>),
}

#[derive(Debug, Clone, Default)]
pub(crate) struct PlanWatch {
    items: Vec<PlanItem>,
    /// The plan changed during this turn.
    touched: bool,
    /// Model rounds since the plan last changed.
    still_rounds: u32,
    /// Calls that succeeded this turn, by name and arguments.
    succeeded: HashSet<(String, String)>,
    /// The model was told to go on and has not changed the plan since.
    nudged: bool,
}

impl PlanWatch {
    pub(crate) fn new(items: Vec<PlanItem>) -> Self {
        Self { items, ..Self::default() }
    }

    /// A plan made for this turn before its first call: the turn's own from the start.
    pub(crate) fn made_for_this_turn(items: Vec<PlanItem>) -> Self {
        Self { items, touched: true, ..Self::default() }
    }

    /// The plan as it stands after a round of tools.
    pub(crate) fn observe(&mut self, items: Vec<PlanItem>) {
        if items != self.items {
            self.items = items;
            self.touched = true;
            self.still_rounds = 0;
            self.nudged = false;
        } else {
            self.still_rounds += 1;
        }
    }

    /// The plan this turn works on has open steps.
    pub(crate) fn working(&self) -> bool {
        self.touched && is_open(&self.items)
    }

    /// Notes a call that succeeded.
    pub(crate) fn succeeded(&mut self, call: &ToolCall) {
        self.succeeded.insert(key(call));
    }

    /// The model asks again for a call that already succeeded while the plan has open
    /// steps: it is going round in circles.
    pub(crate) fn repeats(&self, calls: &[ToolCall]) -> bool {
        self.working() && calls.iter().any(|c| self.succeeded.contains(&key(c)))
    }

    /// After a reply in words; `can_go_on` is whether another call with tools is allowed.
    pub(crate) fn after_words(&mut self, can_go_on: bool) -> AfterWords {
        if !self.touched {
            return AfterWords::Stand;
        }
        if !is_open(&self.items) {
            // Summed up once: a later reply in the same turn stands as it is.
            self.touched = false;
            return if self.items.len() >= 2 { AfterWords::Finished(self.items.clone()) } else { AfterWords::Stand };
        }
        let moving = self.still_rounds < STILL_ROUNDS && !self.nudged;
        self.still_rounds += 1;
        if moving && can_go_on {
            self.nudged = true;
            AfterWords::GoOn
        } else {
            AfterWords::Stuck(self.items.clone())
        }
    }

    pub(crate) fn items(&self) -> &[PlanItem] {
        &self.items
    }
}

/// A call by name and arguments, compared by value, not by spacing or key order.
fn key(call: &ToolCall) -> (String, String) {
    let arguments = serde_json::from_str::<serde_json::Value>(&call.arguments).map(|v| v.to_string()).unwrap_or_else(|_| call.arguments.trim().to_string());
    (call.name.clone(), arguments)
}

/// What the model is told when it answered in words with steps still open.
pub(crate) fn go_on_prompt(items: &[PlanItem]) -> String {
    let open: Vec<String> = items.iter().filter(|i| !i.status.is_closed()).map(|i| format!("- {}", i.text.trim())).collect();
    format!(
        "Your plan still has open steps:\n{}\nGo on with the next one now, with your tools. Do not redo steps that are done. Mark each step done (or failed) with update_plan, with a short result.",
        open.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::plan_item::ItemStatus::*;

    fn plan(states: &[crate::context::plan_item::ItemStatus]) -> Vec<PlanItem> {
        states.iter().enumerate().map(|(n, s)| PlanItem::new(format!("step {n}"), *s)).collect()
    }

    #[test]
    fn goes_on_while_the_plan_moves_and_stops_when_it_does_not() {
        let mut watch = PlanWatch::new(plan(&[Pending, Pending]));
        // An untouched plan from an earlier turn does not keep this one going.
        assert_eq!(watch.after_words(true), AfterWords::Stand);
        watch.observe(plan(&[Done, Pending]));
        assert_eq!(watch.after_words(true), AfterWords::GoOn);
        assert_eq!(watch.after_words(true), AfterWords::Stuck(plan(&[Done, Pending])), "told to go on, and nothing moved");
        watch.observe(plan(&[Done, InProgress]));
        watch.observe(plan(&[Done, InProgress]));
        watch.observe(plan(&[Done, InProgress]));
        assert!(matches!(watch.after_words(true), AfterWords::Stuck(_)), "two rounds of tools without a change");
        watch.observe(plan(&[Done, Done]));
        assert_eq!(watch.after_words(true), AfterWords::Finished(plan(&[Done, Done])));
        assert_eq!(watch.after_words(true), AfterWords::Stand, "summed up once");
    }

    #[test]
    fn the_step_cap_and_a_repeated_call_end_the_carrying_on() {
        let mut watch = PlanWatch::new(Vec::new());
        watch.observe(plan(&[InProgress, Pending]));
        assert_eq!(watch.after_words(false), AfterWords::Stuck(plan(&[InProgress, Pending])));
        let call = ToolCall { id: "1".into(), name: "web_search".into(), arguments: r#"{"q": "x", "n": 1}"#.into() };
        assert!(!watch.repeats(std::slice::from_ref(&call)));
        watch.succeeded(&call);
        let again = ToolCall { id: "2".into(), arguments: r#"{"n":1,"q":"x"}"#.into(), ..call };
        assert!(watch.repeats(std::slice::from_ref(&again)), "the same call, spaced and ordered differently");
        // Without a plan being worked on, calls may repeat as they always could.
        let mut idle = PlanWatch::new(plan(&[Pending]));
        idle.succeeded(&again);
        assert!(!idle.repeats(&[again]));
    }
}
