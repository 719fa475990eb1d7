//! Sidecar reads mail (issue 73): one IMAP account, read only, on the user's computer.
//! Folders are examined, never selected, and bodies fetched with `BODY.PEEK`, so Sidecar
//! never marks, moves, deletes or sends anything. Every mail is a stranger's words: kept
//! as data, bounded, and never an instruction.
//!
//! - `server`: where a mailbox is, filled in from the address for the usual providers;
//! - `connection`: a logged-in session (TLS, STARTTLS, or plain to this computer only);
//! - `sync`: one folder brought up to date by UIDVALIDITY, UIDNEXT and the count, each
//!   new mail fetched up to [`MAX_FETCH_BYTES`];
//! - `parse`: one mail's bytes to what is kept (`mail-parser`): text parts or HTML as
//!   text, attachments named, not read, within [`MAX_TEXT_CHARS`];
//! - `rows`, `people`, `find`: the tables, who matters, mails by words or by time;
//! - `asks`: a question in a mail that names a moment, for the brief and speaking first;
//! - `in_recall`: the mails of people who matter, put in reach of recall;
//! - `suggest`: senders the user already talks about, offered for who matters;
//! - `service`: [`MailService`], what the assembly and the tools call;
//! - `tool`: `search_mail`, the model's read-only search, its results quoted as data;
//! - `watch`: IDLE on the Inbox while the app runs, a poll otherwise;
//! - `words`: a mail's line in the brief and what Sidecar says first about one that asks.

mod asks;
mod connection;
mod error;
mod find;
mod in_recall;
mod parse;
mod people;
mod rows;
mod server;
mod service;
mod suggest;
mod sync;
mod tool;
mod watch;
mod words;

// The face: what the assembly, the tools and the tests name.
pub use asks::{ask_in, MailAsk};
pub use error::MailError;
pub use find::MailHit;
pub use parse::{parse, Cut, Parsed, MAX_TEXT_CHARS};
pub use people::{matters, normalized};
pub use rows::{MailAccount, MailFolder};
pub use server::{preset, MailSecurity, MailServer};
pub use service::{Connect, MailService, MailView};
pub use suggest::{suggest, SenderSuggestion};
pub use sync::{FolderSync, MAX_FETCH_BYTES};
pub use tool::SearchMail;
pub use watch::{Woke, POLL_EVERY};
pub use words::{ask_words, brief_line};
