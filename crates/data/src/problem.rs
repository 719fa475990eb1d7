//! Why a line of a history, or a conversation of another assistant's export, was not
//! imported whole, and why a whole export was refused: said in English (`Display`, the
//! CLI's words) and Spanish ([`Worded`]); an import's report says them in the window's
//! language.

use sidecar_domain::Worded;

/// The JSON reader's words for a list that is neither app's export.
pub(crate) const NEITHER: &str =
    "this JSON list is neither a ChatGPT export (conversations with a \"mapping\") nor a Claude export (conversations with \"chat_messages\")";

/// A file that is no export Sidecar reads: nothing of it is imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAnExport {
    /// The JSON reader's own words.
    #[error("this is not a conversations.json from ChatGPT or Claude (a JSON list of conversations was expected: {0})")]
    NotAList(String),
    #[error("{}", NEITHER)]
    Neither,
}

impl Worded for NotAnExport {
    fn spanish(&self) -> String {
        match self {
            NotAnExport::NotAList(why) => {
                format!("esto no es un conversations.json de ChatGPT ni de Claude (se esperaba una lista JSON de conversaciones: {why})")
            }
            NotAnExport::Neither => {
                "esta lista JSON no es una exportación de ChatGPT (conversaciones con \"mapping\") ni de Claude (conversaciones con \"chat_messages\")".into()
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportProblem {
    #[error("not UTF-8 text: byte 0x{byte:02X} at column {column}")]
    NotUtf8 { byte: u8, column: usize },
    /// The JSON reader's own words (they name the line's column).
    #[error("{0}")]
    NotJson(String),
    #[error("role must be user, assistant or system")]
    Role,
    #[error("timestamp \"{0}\" is not a time like 2026-11-20T10:00:00Z")]
    UnreadableTime(String),
    #[error("timestamp \"{0}\" is not between 1970 and now")]
    TimeOutOfRange(String),
    #[error("unreadable {app} conversation: {why}")]
    UnreadableConversation { app: &'static str, why: String },
    #[error("it has no current message")]
    NoCurrentMessage,
    #[error("its messages loop back on themselves")]
    Loop,
    #[error("\"{title}\": {count} message(s) without readable text left out")]
    LeftOut { title: String, count: usize },
    #[error("\"{title}\": {count} message time(s) not between 1970 and now; those messages are kept, dated at the import")]
    Undated { title: String, count: usize },
}

impl Worded for ImportProblem {
    fn spanish(&self) -> String {
        match self {
            ImportProblem::NotUtf8 { byte, column } => format!("no es texto UTF-8: byte 0x{byte:02X} en la columna {column}"),
            ImportProblem::NotJson(why) => format!("no es JSON: {why}"),
            ImportProblem::Role => "el rol debe ser user, assistant o system".into(),
            ImportProblem::UnreadableTime(t) => format!("la marca de tiempo \"{t}\" no es una hora como 2026-11-20T10:00:00Z"),
            ImportProblem::TimeOutOfRange(t) => format!("la marca de tiempo \"{t}\" no está entre 1970 y ahora"),
            ImportProblem::UnreadableConversation { app, why } => format!("conversación de {app} ilegible: {why}"),
            ImportProblem::NoCurrentMessage => "no tiene mensaje actual".into(),
            ImportProblem::Loop => "sus mensajes vuelven sobre sí mismos".into(),
            ImportProblem::LeftOut { title, count } => format!("\"{title}\": {count} mensaje(s) sin texto legible, no importados"),
            ImportProblem::Undated { title, count } => {
                format!("\"{title}\": {count} hora(s) de mensaje fuera de 1970 a hoy; esos mensajes se guardan con la fecha de la importación")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skipped_line_is_said_in_either_language() {
        let file = crate::history_import::read(b"{\"role\":\"tool\",\"content\":\"z\"}\n", chrono::Utc::now(), chrono_tz::UTC);
        let (line, problem) = &file.problems[0];
        assert_eq!((*line, problem.to_string().as_str()), (1, "role must be user, assistant or system"));
        assert_eq!(problem.said_in(sidecar_domain::Lang::Es), "el rol debe ser user, assistant o system");
    }
}
