//! What Settings → Connections says about the MCP endpoint.

use sidecar_domain::Lang;

/// The endpoint is on, but its port could not be used.
pub(crate) fn port_unusable(port: u16, error: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Port {port} on this computer could not be used ({error}); close the program using it, or pick another port in settings.toml ([connections] http_port)."),
        Lang::Es => format!("No se pudo usar el puerto {port} de este equipo ({error}); cierra el programa que lo usa o elige otro puerto en settings.toml ([connections] http_port)."),
    }
}

/// The notification when a program waits to be allowed.
pub(crate) fn waiting(name: &str, lang: Lang) -> (String, String) {
    match lang {
        Lang::En => ("A program wants to use Sidecar".into(), format!("\"{name}\" connected and gets nothing until you allow it in Settings → Connections.")),
        Lang::Es => ("Un programa quiere usar Sidecar".into(), format!("«{name}» se conectó y no recibe nada hasta que lo permitas en Ajustes → Conexiones.")),
    }
}

/// A note a connected program posted for the user (`send_message`): the notification's
/// title, and the line in the chat.
pub(crate) fn note_from(name: &str, text: &str, lang: Lang) -> (String, String) {
    match lang {
        Lang::En => (format!("From {name}"), format!("📨 From {name}: {text}")),
        Lang::Es => (format!("De {name}"), format!("📨 De {name}: {text}")),
    }
}
