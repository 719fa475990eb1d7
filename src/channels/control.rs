//! What the control commands (`/checkpoint`, `/quiet`, `/reminders`, `/status`,
//! `/clear`, `/proactive …`, "be quiet") do and answer, in the user's language. They
//! are answered by the core itself, never sent to the model.

use chrono::{DateTime, Utc};

use super::slash::{Command, ProactiveCommand, Quiet};
use crate::clock::Clock;
use crate::context::checkpoint::Status;
use crate::context::service::ContextService;
use crate::error::CompanionError;
use crate::locale::Lang;
use crate::proactive::config::MAX_PER_HOUR;
use crate::proactive::service::ProactiveService;
use crate::proactive::TickMode;
use crate::words;
use crate::reminders::service::ReminderService;

/// The services a command may act on.
pub struct Control<'a> {
    pub context: &'a ContextService,
    pub reminders: &'a ReminderService,
    pub proactive: &'a ProactiveService,
    pub clock: &'a Clock,
    pub lang: Lang,
    /// Stops the reply being written; whether there was one.
    pub stop_turn: &'a (dyn Fn() -> bool + Sync),
}

impl Control<'_> {
    fn local_hm(&self, at: DateTime<Utc>) -> String {
        at.with_timezone(&self.clock.zone()).format("%H:%M").to_string()
    }

    /// What the command did, in the user's language.
    pub async fn answer(&self, command: Command) -> Result<String, CompanionError> {
        let es = self.lang == Lang::Es;
        Ok(match command {
            Command::Checkpoint => {
                let c = self.context.checkpoint_now().await?;
                if es {
                    format!("Checkpoint #{} guardado: {}. Lo verás en Memoria → Checkpoints.", c.id, c.body.title)
                } else {
                    format!("Checkpoint #{} saved: {}. It is listed under Memory → Checkpoints.", c.id, c.body.title)
                }
            }
            Command::CloseCheckpoint(status) => match self.context.close_current_checkpoint(status).await? {
                Some(c) if es => {
                    let done = if status == Status::Completed { "completado" } else { "abandonado" };
                    format!("Checkpoint #{} marcado como {done}.", c.id)
                }
                Some(c) => format!("Checkpoint #{} marked {}.", c.id, status.as_str()),
                None if es => "Esta conversación no tiene un checkpoint abierto.".into(),
                None => "This conversation has no open checkpoint.".into(),
            },
            Command::ListCheckpoints => {
                let list = self.context.checkpoints().await?;
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
            other => self.proactive_reply(other, es).await?,
        })
    }

    async fn proactive_reply(&self, command: Command, es: bool) -> Result<String, CompanionError> {
        Ok(match command {
            Command::Quiet(Quiet::Off) => {
                self.proactive.set_quiet(None, false).await?;
                if es { "Listo: vuelvo a hablar cuando tenga algo que valga la pena.".into() } else { "Done: I may speak first again when it is worth it.".into() }
            }
            Command::Quiet(quiet) => {
                let (minutes, here) = match quiet {
                    Quiet::For(m) => (m, false),
                    _ => (60, true),
                };
                let state = self.proactive.set_quiet(Some(minutes), here).await?;
                let until = self.local_hm(state.quiet_until.expect("just set"));
                match (here, es) {
                    (false, true) => format!("En silencio hasta las {until}: no te escribo por mi cuenta. Los recordatorios siguen llegando. /quiet off lo desactiva."),
                    (false, false) => format!("Quiet until {until}: I won't speak first. Reminders still arrive. /quiet off lifts it."),
                    (true, true) => format!("En silencio en este canal hasta las {until}. Los recordatorios siguen llegando."),
                    (true, false) => format!("Quiet on this channel until {until}. Reminders still arrive."),
                }
            }
            Command::Hush => {
                let until = self.local_hm(self.proactive.hush().await?);
                if es {
                    format!("Entendido, me callo hasta las {until}. Los recordatorios siguen llegando; /quiet off si quieres que vuelva antes.")
                } else {
                    format!("Understood, I'll stay quiet until {until}. Reminders still arrive; /quiet off brings me back sooner.")
                }
            }
            Command::Reminders => {
                let overview = self.reminders.overview().await?;
                let pending: Vec<_> = overview.upcoming.iter().chain(overview.recurring.iter()).collect();
                if pending.is_empty() {
                    if es { "No hay recordatorios pendientes.".into() } else { "No pending reminders.".into() }
                } else {
                    pending.iter().map(|r| format!("- {}", self.reminders.describe(r))).collect::<Vec<_>>().join("\n")
                }
            }
            Command::ClearReminders => {
                let n = self.reminders.clear().await?;
                if es { format!("Cancelados {n} recordatorios pendientes.") } else { format!("Cancelled {n} pending reminders.") }
            }
            Command::LostReminders => {
                let overview = self.reminders.overview().await?;
                let stuck: Vec<_> = overview.upcoming.iter().chain(overview.recurring.iter()).filter(|r| r.state == crate::store::reminders::ReminderState::Attempting).collect();
                let lines: Vec<String> = overview
                    .late
                    .iter()
                    .map(|r| format!("- {} ({})", self.reminders.describe(r), if es { "entregado con retraso" } else { "delivered late" }))
                    .chain(stuck.iter().map(|r| format!("- {} ({})", self.reminders.describe(r), if es { "entrega en curso" } else { "delivery in progress" })))
                    .collect();
                match (lines.is_empty(), es) {
                    (true, true) => "Ningún recordatorio se perdió ni llegó tarde.".into(),
                    (true, false) => "No reminder was lost or late.".into(),
                    _ => lines.join("\n"),
                }
            }
            Command::Status => self.status_text(es).await?,
            Command::Stop => match ((self.stop_turn)(), es) {
                (true, true) => "Detuve la respuesta; lo que llegó se queda.".into(),
                (true, false) => "Stopped the reply; what arrived is kept.".into(),
                (false, true) => "No hay ninguna respuesta en curso.".into(),
                (false, false) => "No reply is being written.".into(),
            },
            Command::Clear => {
                self.context.new_conversation().await?;
                if es {
                    "Conversación nueva. La anterior no se borró: recall la sigue encontrando.".into()
                } else {
                    "A fresh conversation. The old one is not deleted: recall still finds it.".into()
                }
            }
            Command::Proactive(ProactiveCommand::Status) => self.status_text(es).await?,
            Command::Proactive(ProactiveCommand::Reset) => {
                self.proactive.reset().await?;
                if es { "Contadores, pausa y silencio reiniciados.".into() } else { "Counters, pause and quiet reset.".into() }
            }
            Command::Proactive(ProactiveCommand::Context) => {
                let context = self.proactive.spontaneous_context().await?;
                let messages = crate::proactive::decision::request(&context, self.lang);
                let tokens: usize = messages.iter().map(|m| crate::tokens::count(&m.content)).sum();
                format!("{}\n\n({tokens} tokens)", messages[1].content)
            }
            Command::Proactive(ProactiveCommand::Tick) => words::proactive::describe_tick(&self.proactive.tick(TickMode::Send).await?, self.lang),
            Command::Proactive(ProactiveCommand::Decide) => words::proactive::describe_tick(&self.proactive.tick(TickMode::DecideOnly).await?, self.lang),
            Command::Checkpoint | Command::CloseCheckpoint(_) | Command::ListCheckpoints => unreachable!("answered by answer"),
        })
    }

    async fn status_text(&self, es: bool) -> Result<String, CompanionError> {
        let status = self.proactive.status().await?;
        let (s, c) = (&status.state, &status.config);
        let now = self.clock.now();
        let when = |at: Option<DateTime<Utc>>| at.filter(|t| *t > now).map(|t| self.local_hm(t));
        let sinks = status
            .sinks
            .iter()
            .map(|(id, channel, up)| format!("{} ({}, {}{})", id.as_str(), channel.as_str(), c.sinks.of(*id).as_str(), if *up { "" } else { ", off" }))
            .collect::<Vec<_>>()
            .join(", ");
        let pending = self.reminders.overview().await?;
        let pending = pending.upcoming.len() + pending.recurring.len();
        let quiet = status.quiet_until.map(|t| self.local_hm(t)).map(|t| if es { format!("hasta las {t}") } else { format!("until {t}") }).unwrap_or_else(|| "no".into());
        let breaker = when(s.circuit_open_until).map(|t| if es { format!("pausado hasta las {t}") } else { format!("paused until {t}") }).unwrap_or_else(|| "ok".into());
        let last_channel = s.last_active_channel.map(|c| c.as_str()).unwrap_or("-");
        Ok(if es {
            format!(
                "Proactividad: {} · silencio: {} · horas de silencio {}–{} ({})\nHoy: {} de {} mensajes espontáneos; esta hora: {} de {MAX_PER_HOUR} · disyuntor: {}\nRecordatorios pendientes: {pending}\nCanales: último activo {last_channel}; salidas: {sinks}; principal: {}",
                c.level.as_str(), quiet, c.quiet_hours.start.format("%H:%M"), c.quiet_hours.end.format("%H:%M"), status.zone,
                s.count_today, status.max_today, s.count_this_hour, breaker, c.sinks.primary.as_str()
            )
        } else {
            format!(
                "Proactivity: {} · quiet: {} · quiet hours {}–{} ({})\nToday: {} of {} spontaneous messages; this hour: {} of {MAX_PER_HOUR} · circuit breaker: {}\nPending reminders: {pending}\nChannels: last active {last_channel}; sinks: {sinks}; primary: {}",
                c.level.as_str(), quiet, c.quiet_hours.start.format("%H:%M"), c.quiet_hours.end.format("%H:%M"), status.zone,
                s.count_today, status.max_today, s.count_this_hour, breaker, c.sinks.primary.as_str()
            )
        })
    }
}
