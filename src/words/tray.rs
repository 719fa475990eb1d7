//! The tray menu's labels and its test notification.

use crate::words::Lang;

use sidecar_proactive::QUIET_FOR_MINUTES;

pub struct TrayLabels {
    pub open: &'static str,
    pub quiet: String,
    pub test: &'static str,
    /// Clears the tray's alert without opening the window.
    pub dismiss: &'static str,
    pub quit: &'static str,
    pub test_summary: &'static str,
    pub test_body: &'static str,
}

pub fn labels(lang: Lang) -> TrayLabels {
    let hours = QUIET_FOR_MINUTES / 60;
    match lang {
        Lang::En => TrayLabels {
            open: "Open Sidecar",
            quiet: if hours == 1 { "Quiet for 1 hour".into() } else { format!("Quiet for {hours} hours") },
            test: "Send test notification",
            dismiss: "Dismiss the new message",
            quit: "Quit",
            test_summary: "Sidecar",
            test_body: "Notifications work. Click to open Sidecar.",
        },
        Lang::Es => TrayLabels {
            open: "Abrir Sidecar",
            quiet: if hours == 1 { "Silencio durante 1 hora".into() } else { format!("Silencio durante {hours} horas") },
            test: "Enviar notificación de prueba",
            dismiss: "Descartar el mensaje nuevo",
            quit: "Salir",
            test_summary: "Sidecar",
            test_body: "Las notificaciones funcionan. Haz clic para abrir Sidecar.",
        },
    }
}
