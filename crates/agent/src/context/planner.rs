//! A plan made in a request of its own, before the first step (agent mode 2.4 and 10): a
//! request of several steps is first put to the model alone, with no tools, to be broken
//! into steps of at most [`MAX_STEP_ACTIONS`] tool calls each; the plan is saved and shown
//! before any step runs, and the turn works through it. When planning fails (the model
//! errs, answers with no readable plan, or with one step) the request runs as one plain
//! task, as it did before: the model may still plan as it goes.

use serde::Deserialize;

use super::plan::{validate, PlanBoard, MAX_ITEMS};
use super::plan_item::{ItemStatus, PlanItem};

/// Tool calls one step should take at most: the batch a step is (the seed's
/// `maxActionsPerBatch`, its `max_tools=8`). A step that needs more is two steps.
pub(crate) const MAX_STEP_ACTIONS: usize = 8;

/// Longest the planning request may take before the request runs unplanned.
pub(crate) const PLANNING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Most tokens of the planner's answer.
pub(crate) const PLANNING_MAX_TOKENS: u32 = 600;

/// What the planner is asked, before the user's request.
pub(crate) fn instructions(tools: &[&str]) -> String {
    format!(
        "You plan a request before anyone works on it. Break the user's request below into the steps it takes, in order: \
each step one thing done with at most {MAX_STEP_ACTIONS} tool calls (split a bigger one), at most {MAX_ITEMS} steps, none that only talks. \
Write each step in the user's language. Answer with ONE JSON object and nothing else:\n\
{{\"steps\": [{{\"text\": \"the step\", \"after\": [the numbers of earlier steps whose results it needs]}}]}}\n\
The tools there will be: {}. Do not do any step now.",
        tools.join(", ")
    )
}

#[derive(Deserialize)]
struct Answer {
    steps: Vec<Step>,
}

#[derive(Deserialize)]
struct Step {
    text: String,
    #[serde(default)]
    after: Vec<usize>,
}

/// Why a request runs unplanned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unplanned {
    #[error("the planning request failed: {0}")]
    Failed(String),
    #[error("the planner's answer holds no plan")]
    NoPlan,
    #[error("the planner found one step: the request is one task")]
    OneStep,
    #[error("the planner's plan was refused: {0}")]
    Refused(String),
}

/// The plan in the planner's `answer`: its steps, the first in progress.
pub(crate) fn read(answer: &str) -> Result<Vec<PlanItem>, Unplanned> {
    let (Some(start), Some(end)) = (answer.find('{'), answer.rfind('}')) else { return Err(Unplanned::NoPlan) };
    let parsed: Answer = serde_json::from_str(answer.get(start..=end).ok_or(Unplanned::NoPlan)?).map_err(|_| Unplanned::NoPlan)?;
    let items: Vec<PlanItem> = parsed
        .steps
        .into_iter()
        .filter(|s| !s.text.trim().is_empty())
        .enumerate()
        .map(|(n, s)| PlanItem { after: s.after, ..PlanItem::new(s.text.trim(), if n == 0 { ItemStatus::InProgress } else { ItemStatus::Pending }) })
        .collect();
    match items.len() {
        0 => return Err(Unplanned::NoPlan),
        1 => return Err(Unplanned::OneStep),
        _ => {}
    }
    validate(&items).map_err(|refusal| Unplanned::Refused(refusal.to_string()))?;
    Ok(items)
}

/// Plans `request` in a request of its own and saves the plan before the first step:
/// how many steps it has, or why the request runs as one plain task.
pub(crate) async fn plan_before(
    models: &sidecar_llm::Models,
    plans: &PlanBoard,
    chain: &sidecar_llm::Chain,
    conversation_id: i64,
    request: &str,
    tools: &[&str],
) -> Result<usize, Unplanned> {
    let ask = sidecar_llm::ChatRequest {
        messages: vec![sidecar_llm::ChatMessage::system(instructions(tools)), sidecar_llm::ChatMessage::user(format!("The request:\n{request}"))],
        tools: Vec::new(),
        max_tokens: Some(PLANNING_MAX_TOKENS),
        general_cap: false,
    };
    let answer = models
        .call_once(chain, ask, sidecar_settings::Purpose::Chat, Some(conversation_id), PLANNING_TIMEOUT)
        .await
        .map_err(|error| Unplanned::Failed(error.to_string()))?;
    let items = read(&answer)?;
    let steps = items.len();
    plans.replace(items).await.map_err(|refusal| Unplanned::Refused(refusal.to_string()))?;
    plans.made_this_turn();
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_is_read_and_a_bad_one_is_no_plan() {
        let plan = read(r#"Here: {"steps": [{"text": "Find flights"}, {"text": "Book the cheapest", "after": [1]}]}"#).unwrap();
        assert_eq!((plan[0].status, plan[1].status, plan[1].after.as_slice()), (ItemStatus::InProgress, ItemStatus::Pending, &[1][..]));
        assert_eq!(read("I'll just do it."), Err(Unplanned::NoPlan));
        assert_eq!(read(r#"{"steps": [{"text": "Do it all"}]}"#), Err(Unplanned::OneStep));
        assert!(matches!(read(r#"{"steps": [{"text": "a", "after": [2]}, {"text": "b"}]}"#), Err(Unplanned::Refused(_))));
        let many: Vec<String> = (0..=MAX_ITEMS).map(|n| format!(r#"{{"text": "step {n}"}}"#)).collect();
        assert!(matches!(read(&format!(r#"{{"steps": [{}]}}"#, many.join(","))), Err(Unplanned::Refused(_))));
        assert!(instructions(&["web_search"]).contains(&format!("at most {MAX_STEP_ACTIONS} tool calls")));
        // The scripted models of the tests know the planning request by how it begins.
        assert!(instructions(&[]).starts_with(sidecar_testkit::PLANNING_STARTS));
    }
}
