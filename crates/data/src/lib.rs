//! The user's data, whole: backups and their restore (`backup`), chats and facts
//! exported as Markdown or JSON (`export`, `chat_exports`), history imported from other
//! apps (`history_import`), and the service the faces call for all of them
//! (`data_service`). `words` is what an export says, in both languages.

pub mod backup;
pub mod chat_exports;
pub mod data_service;
pub mod export;
pub mod history_import;
pub mod retention;
pub mod words;
