//! The chat commands Sidecar answers itself, with a line on what each does: `/help`
//! prints them and the window's `/` palette lists them, so both read the same table.

use serde::Serialize;

use super::Lang;

/// One command as a person sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
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

/// Every command with its arguments and its line in English and Spanish, in the
/// order `/help` shows them.
const TABLE: &[(&str, &str, &str, &str)] = &[
    ("/help", "", "This list of commands", "Esta lista de comandos"),
    ("/status", "", "Sidecar's state: proactivity, quiet, reminders and channels", "Estado de Sidecar: proactividad, silencio, recordatorios y canales"),
    (
        "/reminders",
        "clear | lost",
        "Pending reminders; clear cancels them, lost shows the ones that came late",
        "Recordatorios pendientes; clear los cancela, lost muestra los que llegaron tarde",
    ),
    (
        "/quiet",
        "30m | 2h | off | here",
        "No spontaneous messages for a while (1 h unless you say); here: this channel only",
        "Sin mensajes espontáneos un rato (1 h si no dices cuánto); here, solo en este canal",
    ),
    ("/checkpoint", "done | abandon | list", "Save the state of the current work, or close it", "Guarda el estado del trabajo actual, o lo cierra"),
    ("/memory-export", "", "Every checkpoint in one Markdown file", "Todos los puntos de control en un archivo Markdown"),
    ("/clear", "", "Start a fresh conversation (nothing is deleted)", "Empieza una conversación nueva (nada se borra)"),
    (
        "/incognito",
        "",
        "Start an incognito chat: nothing said in it is remembered, and it is gone once you leave it",
        "Empieza un chat de incógnito: nada de lo que digas se recuerda, y desaparece al salir",
    ),
    ("/stop", "", "Stop the reply being written", "Detiene la respuesta que se está escribiendo"),
    ("/proactive", "status | tick | context | decide | reset", "Look at and try proactivity", "Mira y prueba la proactividad"),
];

/// Every command, in the order `/help` shows them.
pub fn command_table(lang: Lang) -> Vec<CommandHelp> {
    TABLE
        .iter()
        .map(|&(command, arguments, en, es)| {
            help(
                command,
                arguments,
                match lang {
                    Lang::En => en,
                    Lang::Es => es,
                },
            )
        })
        .collect()
}

/// `/help`'s answer: the table as a Markdown list.
pub(crate) fn help_text(lang: Lang) -> String {
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
