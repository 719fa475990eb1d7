//! The agent: one turn of the conversation and everything it reads.
//!
//! A [`Turn`] is a state machine: fed [`TurnEvent`]s (the model's stream, a tool's
//! result), it returns [`Effect`]s (call the model, run a tool, save a message) that the
//! driver performs, until a [`TurnEnd`]; the claim-versus-action check reads the reply
//! before it is shown. The [`ConversationService`] runs turns one at a time from its
//! inbox, with the control commands ([`parse_command`]) and the intents read before the
//! model ([`detect_intent`]). What a turn is given, the window's [`ContextLimits`] filled
//! by [`fit_context`], the [`Checkpoint`]s written when old turns fold and the
//! [`PlanBoard`] a long task keeps, belongs to the [`ContextService`]. The tools offered
//! per turn are chosen by the [`ToolChooser`]. [`Chats`] lists, renames and deletes
//! conversations. Words of commands, plans and intents come in both languages.

mod chats;
mod chooser;
pub(crate) mod claims;
mod complexity;
mod context;
pub(crate) mod control;
mod conversation;
mod driver;
mod error;
mod events;
pub(crate) mod inbox;
mod intent;
mod last_turn;
mod plan_tool;
pub(crate) mod plan_watch;
pub(crate) mod prompt;
mod slash;
mod turn;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use chats::{ChatListView, Chats, UNDO_SECONDS};
pub use chooser::{FindTools, ToolChooser};
pub use complexity::PLAN_HINT;
pub use context::checkpoint::{Checkpoint, CheckpointBody, CheckpointStatus};
pub use context::compact::Compactions;
pub use context::decision::Decision;
pub use context::engine::{ContextMeter, MeterLevel};
pub use context::fit::{fit as fit_context, total_tokens as context_tokens, Limits as ContextLimits};
pub use context::idle::ClosedChat;
pub use context::plan::{is_open as plan_is_open, progress as plan_progress, ItemStatus, PlanBoard, PlanItem};
pub use context::rows::ContextStore;
pub use context::scratchpad_tool::WriteScratchpad;
pub use context::service::ContextService;
pub use conversation::{ConversationParts, ConversationService, TaskReply, TurnOutcome};
pub use driver::TurnTimings;
pub use error::TurnError;
pub use events::{ChatEvent, Notice};
pub use intent::{detect as detect_intent, Intent};
pub use plan_tool::UpdatePlan;
pub use slash::parse as parse_command;
pub use turn::{Effect, ToolResult, Turn, TurnEnd, TurnEvent, TurnLimits, TurnNote, CONTINUE_PROMPT};
pub use words::command_table::{command_table, CommandHelp};
pub use words::plans::working as working_on_plan;
