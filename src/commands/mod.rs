//! The window's commands, in one table the desktop's IPC and the link to other devices
//! both serve: a command added here works from this computer's window, from a second
//! computer attached to this core and from a phone's browser. Each is a few lines
//! calling the core; its arguments arrive as the window sends them (camelCase JSON).
//!
//! What belongs to the device the user sits at (its microphone, hotkeys, windows, the
//! character, the files it attaches, its own updates) is not here: `DEVICE_LOCAL` names
//! those, which the shell serves itself.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde::Serialize;
use serde_json::Value;

use crate::words::Lang;
use crate::{Companion, CompanionError};

/// The command modules, named once: their tables make `table()`, their types the UI's.
macro_rules! command_modules {
    ($($module:ident),* $(,)?) => {
        $(mod $module;)*

        /// Every command of the table.
        pub fn table() -> impl Iterator<Item = &'static Command> {
            [$($module::COMMANDS),*].into_iter().flatten()
        }

        /// Visits every command's answer and argument types (see `commands!`).
        #[cfg(test)]
        pub(crate) fn visit_types(visitor: &mut impl ts_rs::TypeVisitor) {
            $($module::visit_types(visitor);)*
        }
    };
}

command_modules!(
    calendar,
    channels,
    chats,
    connections,
    conversation,
    devices,
    mail,
    memory,
    messages,
    models,
    preferences,
    proactive,
    providers,
    reminders,
    tasks,
    tools,
);

/// An error as the window receives it: what to show, and whether Retry makes sense.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct CommandError {
    pub message: String,
    pub retryable: bool,
    /// A queued message was cancelled before its turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub cancelled: bool,
}

impl CommandError {
    /// A core error said in `lang`, with whether Retry makes sense.
    pub fn said(error: impl Into<CompanionError>, lang: Lang) -> Self {
        let error = error.into();
        Self { cancelled: error.is_cancelled_queue(), retryable: error.is_retryable(), message: sidecar_domain::said_whole(&error, lang) }
    }

    /// Arguments the command cannot read (a window of another version).
    fn arguments(name: &str, error: &serde_json::Error) -> Self {
        Self { message: format!("the command {name} could not read its arguments: {error}"), retryable: false, cancelled: false }
    }
}

/// A recording that gave no words: its words for the user, with nothing to retry.
impl From<sidecar_voice::Unheard> for CommandError {
    fn from(unheard: sidecar_voice::Unheard) -> Self {
        Self { message: unheard.0, retryable: false, cancelled: false }
    }
}

/// The core's errors for the window: `.said(&core)` says one in the language the user
/// has chosen now, read from the core's preferences at that moment.
pub trait SaidBy<T> {
    fn said(self, core: &Companion) -> Result<T, CommandError>;
}

impl<T, E: Into<CompanionError>> SaidBy<T> for Result<T, E> {
    fn said(self, core: &Companion) -> Result<T, CommandError> {
        self.map_err(|error| CommandError::said(error, core.preferences().lang()))
    }
}

/// A command's answer as JSON, or its error as JSON (each command keeps its own error
/// shape: most a `CommandError`, a hotkey's refusal its own).
pub type Answer = Result<Value, Value>;

/// One command: its name as the window calls it, and how it runs.
pub struct Command {
    pub name: &'static str,
    pub(crate) run: fn(Arc<Companion>, Value) -> BoxFuture<'static, Answer>,
}

/// Whether `name` is a command of the table (else the device keeps it).
pub fn in_table(name: &str) -> bool {
    table().any(|c| c.name == name)
}

/// Runs `name` with `args`; `None` when no such command is in the table.
pub fn dispatch(core: Arc<Companion>, name: &str, args: Value) -> Option<BoxFuture<'static, Answer>> {
    table().find(|c| c.name == name).map(|c| (c.run)(core, args))
}

/// Work that blocks (files, the keychain, settings.toml) on tokio's blocking pool, off the
/// threads that serve the window.
pub async fn blocking<T: Send + 'static>(core: &Arc<Companion>, work: impl FnOnce(&Companion) -> T + Send + 'static) -> T {
    let core = core.clone();
    tokio::task::spawn_blocking(move || work(&core)).await.expect("core work does not panic")
}

/// Runs `name` for this computer's window: here, or at the home core this computer
/// uses (`Companion::attach_home`); `None` when the device keeps it for itself.
pub fn dispatch_for_window(core: Arc<Companion>, name: &str, args: Value) -> Option<BoxFuture<'static, Answer>> {
    if !in_table(name) {
        return None;
    }
    if core.app_lock().is_locked() && !OPEN_WHEN_LOCKED.contains(&name) {
        let refused: Result<(), CompanionError> = Err(sidecar_desktop_features::LockError::Locked.into());
        return Some(Box::pin(async move { answer(refused.said(&core)) }));
    }
    match core.home().client() {
        Some(home) => Some(core.call_home(home, name.to_string(), args)),
        None => {
            if crate::companion::devices::is_input(name) {
                core.device_link().input_here();
            }
            dispatch(core, name, args)
        }
    }
}

/// What the window may still ask while it is locked: the lock itself, and the look it
/// is drawn in.
const OPEN_WHEN_LOCKED: &[&str] = &["lock_view", "lock_app", "unlock_app", "preferences"];

/// Runs `name` for another of the user's devices: as `dispatch`, but a message it sends
/// is said on "device" (this computer's window shows it as said elsewhere).
pub fn dispatch_for_device(core: Arc<Companion>, name: &str, args: Value) -> Option<BoxFuture<'static, Answer>> {
    if name != "send_message" {
        return dispatch(core, name, args);
    }
    Some(Box::pin(async move {
        #[derive(serde::Deserialize)]
        struct Args {
            text: String,
        }
        let Args { text } = read_arguments("send_message", args)?;
        answer(core.send_from_device(&text).await.said(&core))
    }))
}

/// The commands the shell serves on the device itself, never over the link: the
/// device's microphone and speakers, its hotkeys, windows and character, the files it
/// attaches, starting with the system, its logs and its own updates.
pub const DEVICE_LOCAL: &[&str] = &[
    "attach_file",
    "voice_start",
    "voice_finish",
    "voice_cancel",
    "voice_hush",
    "voice_view",
    "set_speak_replies",
    "set_voice_switch",
    "speaks_here",
    "set_speaks_here",
    "set_input_device",
    "set_output_device",
    "set_voicing",
    "set_talk_hotkey",
    "voice_test_microphone",
    "voice_test_speaking",
    "set_hotkey",
    "launch_at_login",
    "set_launch_at_login",
    "send_test_notification",
    "open_logs_folder",
    "reveal_path",
    "restore_at_restart",
    "home_view",
    "attach_home",
    "leave_home",
    "connection_http_config",
    "connection_endpoint",
    "set_connection_endpoint",
    "character_start",
    "set_character",
    "character_transparent",
    "set_character_hotkey",
    "character_fit",
    "character_drag",
    "character_drop",
    "character_open",
    "character_settings",
    "quiet_for_an_hour",
    "quiet_now",
    "user_typing",
    "updates",
    "look_for_update",
    "install_update",
    "set_update_address",
    "set_daily_updates",
    "restart_app",
];

#[doc(hidden)]
pub fn read_arguments<T: serde::de::DeserializeOwned>(name: &str, args: Value) -> Result<T, Value> {
    let args = if args.is_null() { Value::Object(Default::default()) } else { args };
    serde_json::from_value(args).map_err(|e| to_value(CommandError::arguments(name, &e)))
}

#[doc(hidden)]
pub fn answer<T: Serialize, E: Serialize>(result: Result<T, E>) -> Answer {
    match result {
        Ok(value) => Ok(to_value(value)),
        Err(error) => Err(to_value(error)),
    }
}

fn to_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| Value::String(format!("an answer that is not JSON: {e}")))
}

/// Defines commands and their table: each `async fn name(core, arg: Type, …) -> Result<…>`
/// becomes a function of the module and a `Command` of `COMMANDS`.
macro_rules! commands {
    ($( $(#[$meta:meta])* async fn $name:ident($core:ident $(, $arg:ident : $ty:ty)* $(,)?) -> $ret:ty $body:block )*) => {
        $(
            $(#[$meta])*
            pub(crate) async fn $name($core: std::sync::Arc<crate::Companion> $(, $arg: $ty)*) -> $ret $body
        )*

        pub(super) const COMMANDS: &[crate::commands::Command] = &[$(
            crate::commands::Command {
                name: stringify!($name),
                run: |core, args| Box::pin(async move {
                    #[derive(serde::Deserialize)]
                    #[serde(rename_all = "camelCase")]
                    struct Args { $($arg: $ty),* }
                    let Args { $($arg),* } = crate::commands::read_arguments(stringify!($name), args)?;
                    crate::commands::answer($name(core $(, $arg)*).await)
                }),
            }
        ),*];

        /// Visits each command's answer and argument types: the UI's types are generated
        /// from them (`crate::ui_types`).
        #[cfg(test)]
        pub(super) fn visit_types(visitor: &mut impl ts_rs::TypeVisitor) {
            $(
                visitor.visit::<<$ret as crate::commands::Answered>::Ok>();
                $( visitor.visit::<$ty>(); )*
            )*
        }
    };
}
pub(crate) use commands;

/// What a command answers with when it succeeds.
#[cfg(test)]
pub(crate) trait Answered {
    type Ok;
}

#[cfg(test)]
impl<T, E> Answered for Result<T, E> {
    type Ok = T;
}
