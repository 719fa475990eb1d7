//! What Sidecar may do in the user's world, and the question asked first.
//!
//! Tools come from MCP servers the user plugs in: an [`McpConfig`] lists them, the
//! [`McpHub`] starts each (an [`McpSession`] over an [`McpTransport`]) and offers its
//! tools under their [`mcp_tool_name`]s, and Settings edits a server as a
//! [`ServerForm`]. Every action passes the [`PermissionGate`]: a standing [`Grant`]
//! lets it through, else a [`Question`] is put to whoever can answer ([`Asker`]: the
//! window's [`WindowQuestions`], a chat, the terminal) and their [`Choice`] is kept.
//! The notes folder ([`NotesFolder`], set up as [`NotesSetup`]) is read and searched
//! ([`search_notes`]) by its own tools ([`notes_tools`]).

mod mcp;
mod notes;
mod permissions;

// The face: what the crates above, the faces and the tests name.
pub use mcp::config::{config_path as mcp_config_path, McpConfig, ServerEntry, Transport as McpTransport};
pub use mcp::events::McpEvent;
pub use mcp::form::{Field as ServerField, ServerForm};
pub use mcp::hub::{McpHub, ServerState, ServerStatus};
pub use mcp::import::{import_file as import_mcp_file, known_files as known_mcp_files, ImportReport};
pub use mcp::naming::tool_name as mcp_tool_name;
pub use mcp::session::{Session as McpSession, SessionError as McpSessionError};
pub use mcp::stderr_tail::TAIL_BYTES as STDERR_TAIL_BYTES;
pub use notes::folder::{NotesError, NotesFolder, MAX_NOTE_BYTES};
pub use notes::search::search as search_notes;
pub use notes::setup::{NotesSetup, NotesView};
pub use notes::tools::tools as notes_tools;
pub use permissions::asking::{AnswerFuture, WindowQuestions, PATIENCE};
pub use permissions::events::PermissionEvent;
pub use permissions::grant::{Choice, Grant};
pub use permissions::policy::Verdict;
pub use permissions::words::{buttons as button_words, choice as choice_words, notification as notification_words, question as question_words};
pub use permissions::{Answer, Asker, PermissionGate, Question};
