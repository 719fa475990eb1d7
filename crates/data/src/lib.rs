//! The user's data, whole. A backup is one archive of the database, the knowledge files
//! and the settings ([`BackupInfo`]); [`restore_backup`] gives it all back, and a restore
//! asked for from the app is noted ([`schedule_restore`]) and carried out at the next
//! start before the store opens ([`apply_pending_restore`]). [`open_store`] opens the
//! database, upgrading one a newer or older Sidecar left. Chats and facts go out as
//! Markdown or JSON ([`ExportFormat`]); chats come in from other assistants' exports
//! ([`read_chat_export`], [`read_history_export`]). "Forget everything about Ana" finds
//! what names someone ([`AboutSomeone`]) and forgets what the user keeps ticked. [`DataService`] is what the faces
//! call for all of it. Its words are in both languages.

mod backup;
mod chat_exports;
mod data_service;
mod encryption;
mod error;
mod export;
mod forget_about;
mod history_import;
mod problem;
mod retention;
mod words;

// The face: what the crates above, the faces and the tests name.
pub use backup::pending::{apply as apply_pending_restore, schedule as schedule_restore, take_result as take_restore_result, RestoreNote};
pub use backup::restore::{restore as restore_backup, Restored, SettingsOutcome, WithSettings};
pub use backup::upgrade::{open_store, OpenError};
pub use backup::{is_sealed, BackupError, BackupInfo, BadBackup, Passphrase};
pub use chat_exports::read as read_chat_export;
pub use data_service::{backup_seal, BackupSeal, ChatImport, DataError, DataPlaces, DataService, HeldInBackups, JsonlImport, TidyReport, PASSPHRASE_MIN_CHARS};
pub use encryption::{account as database_key_account, DatabaseEncryption, EncryptionChange};
pub use export::ExportFormat;
pub use forget_about::{AboutSomeone, ChosenFact, ForgetChosen, ForgottenAbout};
pub use history_import::read as read_history_export;
pub use problem::{ImportProblem, NotAnExport};
pub use retention::{tidy_every, TIDY_OFTEN};
