//! What the control commands answer (`/checkpoint`, `/quiet`, `/reminders`, `/status`,
//! `/stop`, `/clear`, `/proactive …`, "be quiet").

use crate::context::checkpoint::Status;
use crate::proactive::config::MAX_PER_HOUR;
use crate::words::Lang;

/// The facts `/status` reports, already formatted where they are times.
pub struct StatusFacts<'a> {
    pub level: &'a str,
    /// "13:00" while quiet.
    pub quiet_until: Option<String>,
    pub quiet_hours: (String, String),
    pub zone: &'a str,
    pub count_today: u32,
    pub max_today: u32,
    pub count_this_hour: u32,
    /// "13:00" while the circuit breaker holds.
    pub paused_until: Option<String>,
    pub pending_reminders: usize,
    pub last_channel: &'a str,
    pub sinks: String,
    pub primary: &'a str,
}

/// The replies, in one language.
#[derive(Debug, Clone, Copy)]
pub struct CommandWords(pub Lang);

impl CommandWords {
    fn es(self) -> bool {
        self.0 == Lang::Es
    }

    pub fn checkpoint_saved(self, id: i64, title: &str) -> String {
        if self.es() {
            format!("Checkpoint #{id} guardado: {title}. Lo verás en Memoria → Checkpoints.")
        } else {
            format!("Checkpoint #{id} saved: {title}. It is listed under Memory → Checkpoints.")
        }
    }

    pub fn checkpoint_closed(self, id: i64, status: Status) -> String {
        if self.es() {
            let done = if status == Status::Completed { "completado" } else { "abandonado" };
            format!("Checkpoint #{id} marcado como {done}.")
        } else {
            format!("Checkpoint #{id} marked {}.", status.as_str())
        }
    }

    pub fn no_open_checkpoint(self) -> String {
        if self.es() { "Esta conversación no tiene un checkpoint abierto." } else { "This conversation has no open checkpoint." }.into()
    }

    pub fn no_checkpoints(self) -> String {
        if self.es() { "Aún no hay checkpoints. Escribe /checkpoint para guardar uno." } else { "No checkpoints yet. Type /checkpoint to save one." }.into()
    }

    pub fn quiet_lifted(self) -> String {
        if self.es() { "Listo: vuelvo a hablar cuando tenga algo que valga la pena." } else { "Done: I may speak first again when it is worth it." }.into()
    }

    pub fn quiet_until(self, until: &str, here: bool) -> String {
        match (here, self.es()) {
            (false, true) => format!("En silencio hasta las {until}: no te escribo por mi cuenta. Los recordatorios siguen llegando. /quiet off lo desactiva."),
            (false, false) => format!("Quiet until {until}: I won't speak first. Reminders still arrive. /quiet off lifts it."),
            (true, true) => format!("En silencio en este canal hasta las {until}. Los recordatorios siguen llegando."),
            (true, false) => format!("Quiet on this channel until {until}. Reminders still arrive."),
        }
    }

    pub fn hushed(self, until: &str) -> String {
        if self.es() {
            format!("Entendido, me callo hasta las {until}. Los recordatorios siguen llegando; /quiet off si quieres que vuelva antes.")
        } else {
            format!("Understood, I'll stay quiet until {until}. Reminders still arrive; /quiet off brings me back sooner.")
        }
    }

    pub fn no_pending_reminders(self) -> String {
        if self.es() { "No hay recordatorios pendientes." } else { "No pending reminders." }.into()
    }

    pub fn reminders_cancelled(self, n: usize) -> String {
        if self.es() { format!("Cancelados {n} recordatorios pendientes.") } else { format!("Cancelled {n} pending reminders.") }
    }

    pub fn delivered_late(self) -> &'static str {
        if self.es() { "entregado con retraso" } else { "delivered late" }
    }

    pub fn delivery_in_progress(self) -> &'static str {
        if self.es() { "entrega en curso" } else { "delivery in progress" }
    }

    pub fn nothing_lost(self) -> String {
        if self.es() { "Ningún recordatorio se perdió ni llegó tarde." } else { "No reminder was lost or late." }.into()
    }

    pub fn stopped(self, there_was_a_reply: bool) -> String {
        match (there_was_a_reply, self.es()) {
            (true, true) => "Detuve la respuesta; lo que llegó se queda.",
            (true, false) => "Stopped the reply; what arrived is kept.",
            (false, true) => "No hay ninguna respuesta en curso.",
            (false, false) => "No reply is being written.",
        }
        .into()
    }

    pub fn fresh_conversation(self) -> String {
        if self.es() {
            "Conversación nueva. La anterior no se borró: recall la sigue encontrando."
        } else {
            "A fresh conversation. The old one is not deleted: recall still finds it."
        }
        .into()
    }

    /// `/proactive tick|context|decide|reset` from a phone: they are for the desk.
    pub fn proactive_desk_only(self) -> String {
        if self.es() {
            "Los comandos de prueba de /proactive solo funcionan en el ordenador (la ventana de Sidecar o el terminal). Aquí: /status."
        } else {
            "The /proactive debugging commands work only at the computer (Sidecar's window or the terminal). Here: /status."
        }
        .into()
    }

    pub fn proactive_reset(self) -> String {
        if self.es() { "Contadores, pausa y silencio reiniciados." } else { "Counters, pause and quiet reset." }.into()
    }

    pub fn status(self, f: &StatusFacts<'_>) -> String {
        let es = self.es();
        let quiet = f.quiet_until.as_deref().map(|t| if es { format!("hasta las {t}") } else { format!("until {t}") }).unwrap_or_else(|| "no".into());
        let breaker = f.paused_until.as_deref().map(|t| if es { format!("pausado hasta las {t}") } else { format!("paused until {t}") }).unwrap_or_else(|| "ok".into());
        let (start, end) = (&f.quiet_hours.0, &f.quiet_hours.1);
        if es {
            format!(
                "Proactividad: {} · silencio: {quiet} · horas de silencio {start}–{end} ({})\n\nHoy: {} de {} mensajes espontáneos; esta hora: {} de {MAX_PER_HOUR} · disyuntor: {breaker}\n\nRecordatorios pendientes: {}\n\nCanales: último activo {}; salidas: {}; principal: {}",
                f.level, f.zone, f.count_today, f.max_today, f.count_this_hour, f.pending_reminders, f.last_channel, f.sinks, f.primary
            )
        } else {
            format!(
                "Proactivity: {} · quiet: {quiet} · quiet hours {start}–{end} ({})\n\nToday: {} of {} spontaneous messages; this hour: {} of {MAX_PER_HOUR} · circuit breaker: {breaker}\n\nPending reminders: {}\n\nChannels: last active {}; sinks: {}; primary: {}",
                f.level, f.zone, f.count_today, f.max_today, f.count_this_hour, f.pending_reminders, f.last_channel, f.sinks, f.primary
            )
        }
    }
}
