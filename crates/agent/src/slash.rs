//! Chat commands: text starting with `/` that the core answers itself, before (and
//! instead of) the model. Neither the command nor its answer goes back to the model.

use crate::context::checkpoint::CheckpointStatus;

/// A recognised command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `/checkpoint`: save the state of the current work now.
    Checkpoint,
    /// `/checkpoint done|abandon`: close this conversation's open checkpoint.
    CloseCheckpoint(crate::context::checkpoint::CheckpointStatus),
    /// `/checkpoint list` (or an unknown argument): what checkpoints there are.
    ListCheckpoints,
    /// `/memory-export`: every checkpoint into one Markdown file.
    ExportCheckpoints,
    /// `/quiet [30m|2h|off|here]`: no spontaneous messages for a while.
    Quiet(Quiet),
    /// `/reminders`: the pending reminders.
    Reminders,
    /// `/reminders clear`: cancel every pending one.
    ClearReminders,
    /// `/reminders lost`: the ones delivered late or stuck mid-delivery (P12).
    LostReminders,
    /// `/status`: channels, sinks, quiet, counts.
    Status,
    /// `/help`: the commands, from the one command table.
    Help,
    /// `/clear`: start a fresh conversation (nothing is deleted; recall still finds it).
    Clear,
    /// `/incognito`: start a chat nothing is remembered from.
    Incognito,
    /// `/stop`: stop the reply being written (what arrived is kept).
    Stop,
    /// `/proactive status|tick|context|decide|reset`.
    Proactive(ProactiveCommand),
    /// "Be quiet", "cállate", "basta": quiet for a while, said in words.
    Hush,
    /// "Stop messaging me so much", "no me escribas tanto": the level goes down one.
    Fewer,
    /// "Message me more often", "escribime más": the level goes up one.
    More,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quiet {
    /// Silenced for this many minutes, everywhere.
    For(i64),
    /// Silenced for an hour on this channel only.
    Here,
    Off,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProactiveCommand {
    Status,
    Tick,
    Context,
    Decide,
    Reset,
}

/// Whole messages that ask Sidecar to stop speaking first (P9).
const HUSH_PHRASES: [&str; 10] = ["callate", "cállate", "basta", "silencio", "be quiet", "shut up", "quiet please", "stop talking", "no molestes", "hush"];

/// Whole messages that ask Sidecar to speak first less often, or more.
const FEWER_PHRASES: [&str; 10] = [
    "no me escribas tanto",
    "no me escribas tan seguido",
    "escribime menos",
    "escríbeme menos",
    "menos mensajes",
    "stop messaging me so much",
    "stop messaging me",
    "message me less",
    "fewer messages",
    "less often",
];
const MORE_PHRASES: [&str; 8] = [
    "escribime más",
    "escríbeme más",
    "escribime más seguido",
    "escríbeme más seguido",
    "more often",
    "message me more",
    "message me more often",
    "write to me more often",
];

/// "30m", "2h", "90" (minutes), "1h30m".
fn duration_minutes(text: &str) -> Option<i64> {
    let text = text.trim().to_ascii_lowercase();
    if let Ok(minutes) = text.parse::<i64>() {
        return (minutes > 0).then_some(minutes);
    }
    let (mut total, mut number) = (0i64, String::new());
    for c in text.chars() {
        match c {
            '0'..='9' => number.push(c),
            'h' => total += number.drain(..).as_str().parse::<i64>().ok()? * 60,
            'm' => total += number.drain(..).as_str().parse::<i64>().ok()?,
            _ => return None,
        }
    }
    (number.is_empty() && total > 0 && total <= 7 * 24 * 60).then_some(total)
}

/// Reads `text` as a command; `None` for ordinary messages (including ones that just
/// start with a slash, like a path).
pub fn parse(text: &str) -> Option<Command> {
    let plain = text.trim().trim_end_matches(['.', '!']).trim_start_matches('¡').to_lowercase();
    if HUSH_PHRASES.contains(&plain.as_str()) {
        return Some(Command::Hush);
    }
    if FEWER_PHRASES.contains(&plain.as_str()) {
        return Some(Command::Fewer);
    }
    if MORE_PHRASES.contains(&plain.as_str()) {
        return Some(Command::More);
    }
    let mut words = text.split_whitespace();
    let name = words.next()?.to_ascii_lowercase();
    let argument = words.next().map(str::to_ascii_lowercase);
    if words.next().is_some() {
        return None;
    }
    match (name.as_str(), argument.as_deref()) {
        ("/checkpoint", None) => Some(Command::Checkpoint),
        ("/checkpoint", Some("done" | "complete" | "completed" | "hecho" | "terminado")) => Some(Command::CloseCheckpoint(CheckpointStatus::Completed)),
        ("/checkpoint", Some("abandon" | "abandoned" | "abandonar")) => Some(Command::CloseCheckpoint(CheckpointStatus::Abandoned)),
        ("/checkpoint", Some(_)) => Some(Command::ListCheckpoints),
        ("/memory-export", None) => Some(Command::ExportCheckpoints),
        ("/quiet", None) => Some(Command::Quiet(Quiet::For(60))),
        ("/quiet", Some("off")) => Some(Command::Quiet(Quiet::Off)),
        ("/quiet", Some("here")) => Some(Command::Quiet(Quiet::Here)),
        ("/quiet", Some(duration)) => duration_minutes(duration).map(|m| Command::Quiet(Quiet::For(m))),
        ("/reminders", None) => Some(Command::Reminders),
        ("/reminders", Some("clear")) => Some(Command::ClearReminders),
        ("/reminders", Some("lost")) => Some(Command::LostReminders),
        ("/status", None) => Some(Command::Status),
        ("/help" | "/ayuda", None) => Some(Command::Help),
        ("/clear", None) => Some(Command::Clear),
        ("/incognito" | "/incógnito", None) => Some(Command::Incognito),
        ("/stop", None) => Some(Command::Stop),
        ("/proactive", Some("status") | None) => Some(Command::Proactive(ProactiveCommand::Status)),
        ("/proactive", Some("tick")) => Some(Command::Proactive(ProactiveCommand::Tick)),
        ("/proactive", Some("context")) => Some(Command::Proactive(ProactiveCommand::Context)),
        ("/proactive", Some("decide")) => Some(Command::Proactive(ProactiveCommand::Decide)),
        ("/proactive", Some("reset")) => Some(Command::Proactive(ProactiveCommand::Reset)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_checkpoint_commands_only() {
        assert_eq!(parse("/checkpoint"), Some(Command::Checkpoint));
        assert_eq!(parse("  /Checkpoint  "), Some(Command::Checkpoint));
        assert_eq!(parse("/checkpoint done"), Some(Command::CloseCheckpoint(CheckpointStatus::Completed)));
        assert_eq!(parse("/checkpoint abandonar"), Some(Command::CloseCheckpoint(CheckpointStatus::Abandoned)));
        assert_eq!(parse("/checkpoint list"), Some(Command::ListCheckpoints));
        assert_eq!(parse("/memory-export"), Some(Command::ExportCheckpoints));
        assert_eq!(parse("/usr/bin is a folder"), None);
        assert_eq!(parse("/checkpoint this is a sentence"), None);
        assert_eq!(parse("checkpoint"), None);
    }

    #[test]
    fn recognises_quiet_reminders_status_and_proactive_commands() {
        assert_eq!(parse("/quiet"), Some(Command::Quiet(Quiet::For(60))));
        assert_eq!(parse("/quiet 30m"), Some(Command::Quiet(Quiet::For(30))));
        assert_eq!(parse("/quiet 2h"), Some(Command::Quiet(Quiet::For(120))));
        assert_eq!(parse("/quiet 1h30m"), Some(Command::Quiet(Quiet::For(90))));
        assert_eq!(parse("/quiet off"), Some(Command::Quiet(Quiet::Off)));
        assert_eq!(parse("/quiet here"), Some(Command::Quiet(Quiet::Here)));
        assert_eq!(parse("/quiet forever"), None);
        assert_eq!(parse("/reminders"), Some(Command::Reminders));
        assert_eq!(parse("/reminders clear"), Some(Command::ClearReminders));
        assert_eq!(parse("/reminders lost"), Some(Command::LostReminders));
        assert_eq!(parse("/status"), Some(Command::Status));
        assert_eq!(parse("/help"), Some(Command::Help));
        assert_eq!(parse("/ayuda"), Some(Command::Help));
        assert_eq!(parse("/clear"), Some(Command::Clear));
        assert_eq!(parse("/incognito"), Some(Command::Incognito));
        assert_eq!(parse("/Incógnito"), Some(Command::Incognito));
        assert_eq!(parse("/stop"), Some(Command::Stop));
        assert_eq!(parse("/proactive tick"), Some(Command::Proactive(ProactiveCommand::Tick)));
        assert_eq!(parse("/proactive decide"), Some(Command::Proactive(ProactiveCommand::Decide)));
    }

    #[test]
    fn hush_only_when_it_is_the_whole_message() {
        for text in ["cállate", "Callate.", "¡Basta!", "be quiet", "Shut up"] {
            assert_eq!(parse(text), Some(Command::Hush), "{text}");
        }
        for text in ["No me escribas tanto.", "Stop messaging me so much!", "less often"] {
            assert_eq!(parse(text), Some(Command::Fewer), "{text}");
        }
        for text in ["Escribime más seguido", "More often!"] {
            assert_eq!(parse(text), Some(Command::More), "{text}");
        }
        assert_eq!(parse("be quiet during the meeting, please remind me later"), None);
        assert_eq!(parse("silencio en la biblioteca es importante"), None);
    }

    #[test]
    fn every_command_and_argument_in_the_help_table_is_understood() {
        for lang in [sidecar_domain::Lang::En, sidecar_domain::Lang::Es] {
            for entry in crate::words::command_table::command_table(lang) {
                assert!(parse(entry.command).is_some(), "{}", entry.command);
                for argument in entry.arguments.split(" | ").filter(|a| !a.is_empty()) {
                    let typed = format!("{} {argument}", entry.command);
                    assert!(parse(&typed).is_some(), "{typed}");
                }
            }
        }
    }
}
