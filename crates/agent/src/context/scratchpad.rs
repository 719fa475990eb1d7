//! The scratchpad (context engineering 16, "structured note-taking"): notes the model
//! keeps for the request it works on (findings, numbers, what to check next), so a long
//! tool loop keeps its thread when old tool results are cleared. The tool is offered while
//! a plan is open (a turn without one carries no more tools than before). Within the turn
//! the latest notes are the tool's latest result, which is never cleared; from the next
//! turn on they ride in the per-turn block beside the plan. They show in the plan panel,
//! and go with the plan: at the end of the turn that closes its last step, or when it is
//! cleared.

/// The tool's name.
pub(crate) const NAME: &str = "write_scratchpad";

/// Longest the notes may be: a page, a few hundred tokens on every call of the request.
pub(crate) const MAX_CHARS: usize = 2_000;

/// The notes as the model reads them (empty when there are none).
pub(crate) fn render(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() {
        return String::new();
    }
    format!("<scratchpad>\nYour notes for the current request (write_scratchpad changes them):\n{text}\n</scratchpad>")
}
