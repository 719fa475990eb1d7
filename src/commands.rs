//! Chat commands: text starting with `/` that the core answers itself, before (and
//! instead of) the model. Neither the command nor its answer goes back to the model.

use crate::companion::{Companion, CompanionError};
use crate::context::checkpoint::Status;
use crate::locale::Lang;

/// A recognised command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `/checkpoint`: save the state of the current work now.
    Checkpoint,
    /// `/checkpoint done|abandon`: close this conversation's open checkpoint.
    CloseCheckpoint(crate::context::checkpoint::Status),
    /// `/checkpoint list` (or an unknown argument): what checkpoints there are.
    ListCheckpoints,
}

/// Reads `text` as a command; `None` for ordinary messages (including ones that just
/// start with a slash, like a path).
pub fn parse(text: &str) -> Option<Command> {
    let mut words = text.trim().split_whitespace();
    let name = words.next()?.to_ascii_lowercase();
    let argument = words.next().map(str::to_ascii_lowercase);
    if words.next().is_some() {
        return None;
    }
    match (name.as_str(), argument.as_deref()) {
        ("/checkpoint", None) => Some(Command::Checkpoint),
        ("/checkpoint", Some("done" | "complete" | "completed" | "hecho" | "terminado")) => {
            Some(Command::CloseCheckpoint(Status::Completed))
        }
        ("/checkpoint", Some("abandon" | "abandoned" | "abandonar")) => Some(Command::CloseCheckpoint(Status::Abandoned)),
        ("/checkpoint", Some(_)) => Some(Command::ListCheckpoints),
        _ => None,
    }
}

impl Companion {
    /// What the command did, in the user's language.
    pub(crate) async fn command_reply(&self, command: Command) -> Result<String, CompanionError> {
        let es = Lang::from_env() == Lang::Es;
        Ok(match command {
            Command::Checkpoint => {
                let c = self.checkpoint_now().await?;
                if es {
                    format!("Checkpoint #{} guardado: {}. Lo verás en Memoria → Checkpoints.", c.id, c.body.title)
                } else {
                    format!("Checkpoint #{} saved: {}. It is listed under Memory → Checkpoints.", c.id, c.body.title)
                }
            }
            Command::CloseCheckpoint(status) => match self.close_current_checkpoint(status).await? {
                Some(c) if es => {
                    let done = if status == Status::Completed { "completado" } else { "abandonado" };
                    format!("Checkpoint #{} marcado como {done}.", c.id)
                }
                Some(c) => format!("Checkpoint #{} marked {}.", c.id, status.as_str()),
                None if es => "Esta conversación no tiene un checkpoint abierto.".into(),
                None => "This conversation has no open checkpoint.".into(),
            },
            Command::ListCheckpoints => {
                let list = self.checkpoints().await?;
                match (list.is_empty(), es) {
                    (true, true) => "Aún no hay checkpoints. Escribe /checkpoint para guardar uno.".into(),
                    (true, false) => "No checkpoints yet. Type /checkpoint to save one.".into(),
                    _ => list
                        .iter()
                        .take(10)
                        .map(|c| format!("- #{} {} ({})", c.id, c.body.title, c.status.as_str().replace('_', " ")))
                        .collect::<Vec<_>>()
                        .join("\n"),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_checkpoint_commands_only() {
        assert_eq!(parse("/checkpoint"), Some(Command::Checkpoint));
        assert_eq!(parse("  /Checkpoint  "), Some(Command::Checkpoint));
        assert_eq!(parse("/checkpoint done"), Some(Command::CloseCheckpoint(Status::Completed)));
        assert_eq!(parse("/checkpoint abandonar"), Some(Command::CloseCheckpoint(Status::Abandoned)));
        assert_eq!(parse("/checkpoint list"), Some(Command::ListCheckpoints));
        assert_eq!(parse("/usr/bin is a folder"), None);
        assert_eq!(parse("/checkpoint this is a sentence"), None);
        assert_eq!(parse("checkpoint"), None);
    }
}
