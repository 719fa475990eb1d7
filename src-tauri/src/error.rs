//! What the shell's own windows and icons can fail at: the character's window, the tray,
//! launching at login. The window is told it as a `CommandError`.

use sidecar::commands::CommandError;

#[derive(Debug, thiserror::Error)]
pub(crate) enum ShellError {
    #[error("the character is not shown")]
    CharacterHidden,
    #[error("the character is not placed")]
    CharacterUnplaced,
    #[error("no screen")]
    NoScreen,
    #[error("the main window is gone")]
    MainWindowGone,
    #[error("the tray icon is not there")]
    NoTray,
    #[error("could not change launch at login: {0}")]
    LaunchAtLogin(String),
    #[error(transparent)]
    Window(#[from] tauri::Error),
    #[error(transparent)]
    Store(#[from] sidecar_store::StoreError),
}

impl From<ShellError> for CommandError {
    fn from(error: ShellError) -> Self {
        CommandError { message: error.to_string(), retryable: false, cancelled: false }
    }
}
