//! The chat commands Sidecar answers itself, with a line on what each does: `/help`
//! prints them and the window's `/` palette lists them, so both read the same table.

use serde::Serialize;

use super::Lang;

/// One command as a person sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandHelp {
    /// What to type ("/quiet").
    pub command: &'static str,
    /// Its arguments, if any ("30m | 2h | off | here").
    pub arguments: &'static str,
    pub description: &'static str,
}

const fn help(command: &'static str, arguments: &'static str, description: &'static str) -> CommandHelp {
    CommandHelp { command, arguments, description }
}

/// Every command, in the order `/help` shows them.
pub fn command_table(lang: Lang) -> Vec<CommandHelp> {
    match lang {
        Lang::Es => vec![
            help("/help", "", "Esta lista de comandos"),
            help("/status", "", "Estado de Sidecar: proactividad, silencio, recordatorios y canales"),
            help("/reminders", "clear | lost", "Recordatorios pendientes; clear los cancela, lost muestra los que llegaron tarde"),
            help("/quiet", "30m | 2h | off | here", "Sin mensajes espontáneos un rato (1 h si no dices cuánto); here, solo en este canal"),
            help("/checkpoint", "done | abandon | list", "Guarda el estado del trabajo actual, o lo cierra"),
            help("/clear", "", "Empieza una conversación nueva (nada se borra)"),
            help("/stop", "", "Detiene la respuesta que se está escribiendo"),
            help("/proactive", "status | tick | context | decide | reset", "Mira y prueba la proactividad"),
        ],
        Lang::En => vec![
            help("/help", "", "This list of commands"),
            help("/status", "", "Sidecar's state: proactivity, quiet, reminders and channels"),
            help("/reminders", "clear | lost", "Pending reminders; clear cancels them, lost shows the ones that came late"),
            help("/quiet", "30m | 2h | off | here", "No spontaneous messages for a while (1 h unless you say); here: this channel only"),
            help("/checkpoint", "done | abandon | list", "Save the state of the current work, or close it"),
            help("/clear", "", "Start a fresh conversation (nothing is deleted)"),
            help("/stop", "", "Stop the reply being written"),
            help("/proactive", "status | tick | context | decide | reset", "Look at and try proactivity"),
        ],
    }
}

/// `/help`'s answer: the table as a Markdown list.
pub fn help_text(lang: Lang) -> String {
    let heading = match lang {
        Lang::Es => "Comandos (los responde Sidecar, sin el modelo):",
        Lang::En => "Commands (Sidecar answers them itself, without the model):",
    };
    let lines = command_table(lang).into_iter().map(|c| {
        let usage = if c.arguments.is_empty() { c.command.to_string() } else { format!("{} {}", c.command, c.arguments) };
        format!("- `{usage}` — {}", c.description)
    });
    std::iter::once(heading.to_string()).chain(lines).collect::<Vec<_>>().join("\n")
}
