//! The agent: one turn of the conversation and everything it reads. The turn state
//! machine (`turn`), the driver that performs its effects (`driver`), the prompt builder,
//! and the claim-versus-action check; the context a turn is given (`context`), the
//! intents read before the model (`intent`), the conversation that runs turns one at a
//! time (`conversation`) with its inbox (`inbox`) and the control commands (`slash`,
//! `control`); the plan tool and the per-turn choice of tools (`plan_tool`, `chooser`);
//! and the words of commands, plans and intents in both languages.

pub mod chats;
pub mod chooser;
pub(crate) mod claims;
pub mod complexity;
pub mod context;
pub(crate) mod control;
pub mod conversation;
pub mod driver;
pub mod error;
pub mod events;
pub(crate) mod inbox;
pub mod intent;
pub mod last_turn;
pub mod plan_tool;
pub(crate) mod plan_watch;
pub(crate) mod prompt;
pub mod slash;
pub mod turn;
pub mod words;
