//! What Settings → Connections says about the MCP endpoint.

use super::Lang;

/// The endpoint is on, but its port could not be used.
pub fn port_unusable(port: u16, error: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Port {port} on this computer could not be used ({error}); close the program using it, or pick another port in settings.toml ([connections] http_port)."),
        Lang::Es => format!("No se pudo usar el puerto {port} de este equipo ({error}); cierra el programa que lo usa o elige otro puerto en settings.toml ([connections] http_port)."),
    }
}
