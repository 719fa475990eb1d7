//! What the control commands answer (`/checkpoint`, `/quiet`, `/reminders`, `/status`,
//! `/stop`, `/clear`, `/proactive …`, "be quiet").

use crate::context::checkpoint::CheckpointStatus;
use sidecar_domain::Lang;

/// The facts `/status` reports, already formatted where they are times.
pub(crate) struct StatusFacts<'a> {
    /// Which model answers and whether it is well.
    pub model: &'a sidecar_llm::ModelStatus,
    pub level: sidecar_proactive::Level,
    /// "13:00" while quiet.
    pub quiet_until: Option<String>,
    pub quiet_hours: (String, String),
    pub zone: &'a str,
    pub count_today: u32,
    pub max_today: u32,
    /// "13:00" while Sidecar holds back after too many messages in a row.
    pub paused_until: Option<String>,
    pub pending_reminders: usize,
    /// Where Sidecar's own messages go, and whether each is reachable now.
    pub outlets: Vec<(sidecar_proactive::SinkId, bool)>,
}

/// The replies, in one language.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CommandWords(pub Lang);

impl CommandWords {
    fn es(self) -> bool {
        self.0 == Lang::Es
    }

    pub(crate) fn checkpoint_saved(self, id: i64, title: &str) -> String {
        if self.es() {
            format!("Punto de control #{id} guardado: {title}. Lo verás en Memoria → Puntos de control.")
        } else {
            format!("Checkpoint #{id} saved: {title}. It is listed under Memory → Checkpoints.")
        }
    }

    pub(crate) fn checkpoint_closed(self, id: i64, status: CheckpointStatus) -> String {
        if self.es() {
            let done = if status == CheckpointStatus::Completed { "completado" } else { "abandonado" };
            format!("Punto de control #{id} marcado como {done}.")
        } else {
            format!("Checkpoint #{id} marked {}.", status.as_str())
        }
    }

    pub(crate) fn no_open_checkpoint(self) -> String {
        if self.es() { "Esta conversación no tiene un punto de control abierto." } else { "This conversation has no open checkpoint." }.into()
    }

    /// Said when the user continues a checkpoint: which, and what is pending.
    pub(crate) fn resuming(self, id: i64, title: &str, pending: &[String]) -> String {
        let title = if title.trim().is_empty() { format!("#{id}") } else { format!("#{id}, {}", title.trim()) };
        let mut out = if self.es() { format!("Retomo el punto de control {title}.") } else { format!("Continuing from checkpoint {title}.") };
        if !pending.is_empty() {
            out.push_str(if self.es() { " Pendiente: " } else { " Pending: " });
            out.push_str(&pending.join("; "));
            out.push('.');
        }
        out
    }

    pub(crate) fn nothing_to_resume(self) -> String {
        if self.es() {
            "No hay ningún punto de control abierto para retomar. Escribe /checkpoint para guardar uno; Memoria → Puntos de control lista todos."
        } else {
            "There is no open checkpoint to continue. Type /checkpoint to save one; Memory → Checkpoints lists them all."
        }
        .into()
    }

    /// Said when "continue from checkpoint" finds open work only from before the last
    /// week: which, and how to pick it up anyway.
    pub(crate) fn only_older_checkpoint(self, id: i64, title: &str, updated: &str) -> String {
        let day = updated.get(..10).unwrap_or(updated);
        let title = if title.trim().is_empty() { String::new() } else { format!(" ({})", title.trim()) };
        if self.es() {
            format!(
                "No hay puntos de control abiertos de la última semana. El más reciente es el #{id}{title}, del {day}: escribe \"continuar desde el punto de control {id}\" para retomarlo."
            )
        } else {
            format!(
                "There is no open checkpoint from the last week. The newest is #{id}{title}, from {day}: say \"continue from checkpoint {id}\" to pick it up."
            )
        }
    }

    /// Said after `/memory-export`.
    pub(crate) fn checkpoints_exported(self, count: usize, path: &std::path::Path) -> String {
        let path = path.display();
        match (self.es(), count) {
            (true, 1) => format!("Exporté el punto de control a {path}."),
            (true, _) => format!("Exporté los {count} puntos de control a {path}."),
            (false, 1) => format!("Exported the checkpoint to {path}."),
            (false, _) => format!("Exported all {count} checkpoints to {path}."),
        }
    }

    pub(crate) fn no_checkpoints(self) -> String {
        if self.es() { "Aún no hay puntos de control. Escribe /checkpoint para guardar uno." } else { "No checkpoints yet. Type /checkpoint to save one." }
            .into()
    }

    pub(crate) fn quiet_lifted(self) -> String {
        if self.es() { "Listo: vuelvo a hablar cuando tenga algo que valga la pena." } else { "Done: I may speak first again when it is worth it." }.into()
    }

    pub(crate) fn quiet_until(self, until: &str, here: bool) -> String {
        match (here, self.es()) {
            (false, true) => format!("En silencio hasta las {until}: no te escribo por mi cuenta. Los recordatorios siguen llegando. /quiet off lo desactiva."),
            (false, false) => format!("Quiet until {until}: I won't speak first. Reminders still arrive. /quiet off lifts it."),
            (true, true) => format!("En silencio en este canal hasta las {until}. Los recordatorios siguen llegando."),
            (true, false) => format!("Quiet on this channel until {until}. Reminders still arrive."),
        }
    }

    /// The level moved (or could not move further) after "not so much" / "more often".
    pub(crate) fn level_changed(self, before: sidecar_proactive::Level, after: sidecar_proactive::Level) -> String {
        let max = after.max_per_day();
        match (self.es(), before == after, max) {
            (true, true, 0) => "Ya estoy en el mínimo: no te escribo primero, solo llegan los recordatorios.".into(),
            (true, true, _) => format!("Ya estoy en el máximo: hasta {max} mensajes al día."),
            (true, false, 0) => "Entendido: ya no te escribo primero; los recordatorios siguen llegando. «Escribime más» lo deshace.".into(),
            (true, false, _) => format!("Entendido: ahora te escribo como mucho {max} veces al día. Lo cambias en Ajustes → Proactividad."),
            (false, true, 0) => "I'm already at the least: I don't write first, only reminders arrive.".into(),
            (false, true, _) => format!("I'm already at the most: up to {max} messages a day."),
            (false, false, 0) => "Understood: I won't write first any more; reminders still arrive. \"More often\" undoes it.".into(),
            (false, false, _) => format!("Understood: I'll write at most {max} times a day now. Settings → Proactivity changes it."),
        }
    }

    pub(crate) fn hushed(self, until: &str) -> String {
        if self.es() {
            format!("Entendido, me callo hasta las {until}. Los recordatorios siguen llegando; /quiet off si quieres que vuelva antes.")
        } else {
            format!("Understood, I'll stay quiet until {until}. Reminders still arrive; /quiet off brings me back sooner.")
        }
    }

    pub(crate) fn no_pending_reminders(self) -> String {
        if self.es() { "No hay recordatorios pendientes." } else { "No pending reminders." }.into()
    }

    pub(crate) fn reminders_cancelled(self, n: usize) -> String {
        if self.es() {
            format!("Cancelados {n} recordatorios pendientes.")
        } else {
            format!("Cancelled {n} pending reminders.")
        }
    }

    pub(crate) fn delivered_late(self) -> &'static str {
        if self.es() {
            "entregado con retraso"
        } else {
            "delivered late"
        }
    }

    pub(crate) fn delivery_in_progress(self) -> &'static str {
        if self.es() {
            "entrega en curso"
        } else {
            "delivery in progress"
        }
    }

    pub(crate) fn nothing_lost(self) -> String {
        if self.es() { "Ningún recordatorio se perdió ni llegó tarde." } else { "No reminder was lost or late." }.into()
    }

    pub(crate) fn stopped(self, there_was_a_reply: bool) -> String {
        match (there_was_a_reply, self.es()) {
            (true, true) => "Detuve la respuesta; lo que llegó se queda.",
            (true, false) => "Stopped the reply; what arrived is kept.",
            (false, true) => "No hay ninguna respuesta en curso.",
            (false, false) => "No reply is being written.",
        }
        .into()
    }

    pub(crate) fn incognito_started(self) -> String {
        if self.es() {
            "Chat de incógnito. Nada de lo que digas aquí se recuerda ni se busca, y desaparece en cuanto salgas. Los recordatorios que pidas sí se guardan."
        } else {
            "Incognito chat. Nothing you say here is remembered or searchable, and it is gone as soon as you leave it. Reminders you ask for are still kept."
        }
        .into()
    }

    /// "Remember that…" in an incognito chat: nothing is saved there.
    pub(crate) fn incognito_remembers_nothing(self) -> String {
        if self.es() {
            "Esto es un chat de incógnito: no guardo nada de lo que digas aquí. Si quieres que lo recuerde, dímelo fuera del incógnito."
        } else {
            "This is an incognito chat: I keep nothing you say here. If you want me to remember it, tell me outside incognito."
        }
        .into()
    }

    pub(crate) fn fresh_conversation(self) -> String {
        if self.es() {
            "Conversación nueva. La anterior no se borró: recall la sigue encontrando."
        } else {
            "A fresh conversation. The old one is not deleted: recall still finds it."
        }
        .into()
    }

    /// `/proactive tick|context|decide|reset` from a phone: they are for the desk.
    pub(crate) fn proactive_desk_only(self) -> String {
        if self.es() {
            "Los comandos de prueba de /proactive solo funcionan en el ordenador (la ventana de Sidecar o el terminal). Aquí: /status."
        } else {
            "The /proactive debugging commands work only at the computer (Sidecar's window or the terminal). Here: /status."
        }
        .into()
    }

    pub(crate) fn proactive_reset(self) -> String {
        if self.es() { "Contadores, pausa y silencio reiniciados." } else { "Counters, pause and quiet reset." }.into()
    }

    pub(crate) fn status(self, f: &StatusFacts<'_>) -> String {
        use sidecar_llm::ModelStatus;
        use sidecar_proactive::Level;
        use sidecar_proactive::SinkId;
        let es = self.es();
        let model = match (f.model, es) {
            (ModelStatus::Ready { demo: true, model, .. }, false) => format!("the built-in demo model ({model}), answering; it cannot use tools"),
            (ModelStatus::Ready { demo: true, model, .. }, true) => {
                format!("el modelo de demostración incluido ({model}), respondiendo; no puede usar herramientas")
            }
            (ModelStatus::Ready { provider, model, .. }, false) => format!("{model} ({provider}), answering"),
            (ModelStatus::Ready { provider, model, .. }, true) => format!("{model} ({provider}), respondiendo"),
            (ModelStatus::StandingIn { down, .. }, false) => format!("{down} is not answering; the offline model answers meanwhile"),
            (ModelStatus::StandingIn { down, .. }, true) => format!("{down} no responde; mientras tanto responde el modelo sin conexión"),
            (ModelStatus::Unavailable { message }, false) => format!("none can answer now: {message}"),
            (ModelStatus::Unavailable { message }, true) => format!("ninguno puede responder ahora: {message}"),
            (ModelStatus::Starting, false) => "the offline model is starting".into(),
            (ModelStatus::Starting, true) => "el modelo sin conexión se está iniciando".into(),
            (ModelStatus::Idle, false) => "not started yet (it starts with your first message)".into(),
            (ModelStatus::Idle, true) => "aún sin iniciar (arranca con tu primer mensaje)".into(),
        };
        let level = match (f.level, es) {
            (Level::Low, false) => "rarely",
            (Level::Medium, false) => "sometimes",
            (Level::High, false) => "often",
            (Level::Low, true) => "rara vez",
            (Level::Medium, true) => "a veces",
            (Level::High, true) => "a menudo",
        };
        let outlet = |id: SinkId| match (id, es) {
            (SinkId::Chat, false) => "the chat",
            (SinkId::Chat, true) => "el chat",
            (SinkId::Notification, false) => "notifications",
            (SinkId::Notification, true) => "notificaciones",
            (SinkId::Tray, false) => "the tray icon",
            (SinkId::Tray, true) => "el icono de la bandeja",
            (SinkId::Console, false) => "the terminal",
            (SinkId::Console, true) => "el terminal",
            (SinkId::Telegram, _) => "Telegram",
            (SinkId::Whatsapp, _) => "WhatsApp",
            (SinkId::Devices, false) => "your other devices",
            (SinkId::Devices, true) => "tus otros dispositivos",
        };
        let off = if es { " (sin conexión)" } else { " (not reachable now)" };
        let outlets = f.outlets.iter().map(|(id, up)| format!("{}{}", outlet(*id), if *up { "" } else { off })).collect::<Vec<_>>().join(", ");
        let quiet = f.quiet_until.as_deref().map(|t| if es { format!("en silencio hasta las {t}") } else { format!("quiet until {t}") });
        let paused = f.paused_until.as_deref().map(|t| {
            if es {
                format!("; en pausa hasta las {t} tras varios mensajes seguidos")
            } else {
                format!("; holding back until {t} after several in a row")
            }
        });
        let (start, end) = (&f.quiet_hours.0, &f.quiet_hours.1);
        if es {
            format!(
                "Modelo: {model}\n\nHablo primero {level}: hoy {} de {} mensajes{}{} · horas de silencio {start}–{end} ({})\n\nRecordatorios pendientes: {}\n\nMis mensajes llegan a: {outlets}",
                f.count_today, f.max_today, paused.unwrap_or_default(), quiet.map(|q| format!(" · {q}")).unwrap_or_default(), f.zone, f.pending_reminders
            )
        } else {
            format!(
                "Model: {model}\n\nI speak first {level}: {} of {} messages today{}{} · quiet hours {start}–{end} ({})\n\nPending reminders: {}\n\nMy messages reach you in: {outlets}",
                f.count_today, f.max_today, paused.unwrap_or_default(), quiet.map(|q| format!(" · {q}")).unwrap_or_default(), f.zone, f.pending_reminders
            )
        }
    }
}
