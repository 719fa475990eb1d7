//! Chat commands: text starting with `/` that the core answers itself, before (and
//! instead of) the model. Neither the command nor its answer goes back to the model.

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
    use crate::context::checkpoint::Status;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::checkpoint::Status;

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
