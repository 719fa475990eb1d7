//! What the control commands (`/checkpoint`, `/quiet`, `/reminders`, `/status`, `/stop`,
//! `/clear`, `/proactive …`, "be quiet") do. They are answered by the core itself, never
//! sent to the model; their words are in `words::commands`.

use chrono::{DateTime, Utc};

use super::slash::{Command, ProactiveCommand, Quiet};
use crate::context::service::ContextService;
use crate::error::TurnError;
use crate::words::{
    self,
    commands::{CommandWords, StatusFacts},
};
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_proactive::ProactiveService;
use sidecar_proactive::TickMode;
use sidecar_reminders::ReminderService;
use sidecar_reminders::ReminderState;

/// The services a command may act on.
pub(crate) struct Control<'a> {
    pub context: &'a ContextService,
    pub reminders: &'a ReminderService,
    pub proactive: &'a ProactiveService,
    /// Which model answers, for `/status`.
    pub models: &'a sidecar_llm::Models,
    pub clock: &'a Clock,
    pub lang: Lang,
    /// Where the command was said (`/quiet here` silences that channel).
    pub channel: sidecar_domain::Channel,
    /// Stops the reply being written; whether there was one.
    pub stop_turn: &'a (dyn Fn() -> bool + Sync),
}

impl Control<'_> {
    fn local_hm(&self, at: DateTime<Utc>) -> String {
        at.with_timezone(&self.clock.zone()).format("%H:%M").to_string()
    }

    /// What the command did, in the user's language.
    pub(crate) async fn answer(&self, command: Command) -> Result<String, TurnError> {
        let w = CommandWords(self.lang);
        Ok(match command {
            Command::Checkpoint => {
                let c = self.context.checkpoint_now("manual").await?;
                w.checkpoint_saved(c.id, &c.body.title)
            }
            Command::CloseCheckpoint(status) => match self.context.close_current_checkpoint(status).await? {
                Some(c) => w.checkpoint_closed(c.id, status),
                None => w.no_open_checkpoint(),
            },
            Command::ListCheckpoints => {
                let list = self.context.checkpoints().await?;
                if list.is_empty() {
                    w.no_checkpoints()
                } else {
                    let lines = list.iter().take(10).map(|c| format!("- #{} {} ({})", c.id, c.body.title, c.status.as_str().replace('_', " ")));
                    lines.collect::<Vec<_>>().join("\n")
                }
            }
            Command::ExportCheckpoints => match self.context.export_checkpoints().await? {
                (count, Some(path)) => w.checkpoints_exported(count, &path),
                (_, None) => w.no_checkpoints(),
            },
            Command::Quiet(Quiet::Off) => {
                self.proactive.set_quiet(None, None).await?;
                w.quiet_lifted()
            }
            Command::Quiet(quiet) => {
                let (minutes, here) = match quiet {
                    Quiet::For(m) => (m, false),
                    _ => (60, true),
                };
                let state = self.proactive.set_quiet(Some(minutes), here.then_some(self.channel)).await?;
                w.quiet_until(&self.local_hm(state.quiet_until.expect("just set")), here)
            }
            Command::Hush => w.hushed(&self.local_hm(self.proactive.hush().await?)),
            Command::Fewer | Command::More => {
                let (before, after) = self.proactive.step_level(command == Command::More).await?;
                w.level_changed(before, after)
            }
            Command::Reminders => {
                let overview = self.reminders.overview().await?;
                let pending: Vec<_> = overview.upcoming.iter().chain(overview.recurring.iter()).collect();
                if pending.is_empty() {
                    w.no_pending_reminders()
                } else {
                    pending.iter().map(|r| format!("- {}", self.reminders.for_people(&r.reminder))).collect::<Vec<_>>().join("\n")
                }
            }
            Command::ClearReminders => w.reminders_cancelled(self.reminders.clear().await?),
            Command::LostReminders => {
                let overview = self.reminders.overview().await?;
                let stuck = overview.upcoming.iter().chain(overview.recurring.iter()).filter(|r| r.reminder.state == ReminderState::Attempting);
                let lines: Vec<String> = overview
                    .late
                    .iter()
                    .map(|r| format!("- {} ({})", self.reminders.for_people(&r.reminder), w.delivered_late()))
                    .chain(stuck.map(|r| format!("- {} ({})", self.reminders.for_people(&r.reminder), w.delivery_in_progress())))
                    .collect();
                if lines.is_empty() {
                    w.nothing_lost()
                } else {
                    lines.join("\n")
                }
            }
            Command::Status | Command::Proactive(ProactiveCommand::Status) => self.status_text(w).await?,
            Command::Help => words::command_table::help_text(self.lang),
            Command::Stop => w.stopped((self.stop_turn)()),
            Command::Clear => {
                self.context.new_conversation().await?;
                w.fresh_conversation()
            }
            Command::Incognito => {
                self.context.new_incognito().await?;
                w.incognito_started()
            }
            // Debugging commands change or reveal the spontaneous loop: not from a phone.
            Command::Proactive(_) if self.channel.is_phone() => w.proactive_desk_only(),
            Command::Proactive(ProactiveCommand::Reset) => {
                self.proactive.reset().await?;
                w.proactive_reset()
            }
            Command::Proactive(ProactiveCommand::Context) => {
                let context = self.proactive.spontaneous_context().await?;
                let messages = sidecar_proactive::decision_prompt(&context, self.lang);
                let tokens: usize = messages.iter().map(|m| sidecar_llm::tokens::count(&m.content)).sum();
                format!("{}\n\n({tokens} tokens)", messages[1].content)
            }
            Command::Proactive(ProactiveCommand::Tick) => sidecar_proactive::describe_tick(&self.proactive.tick(TickMode::Send).await?, self.lang),
            Command::Proactive(ProactiveCommand::Decide) => sidecar_proactive::describe_tick(&self.proactive.tick(TickMode::DecideOnly).await?, self.lang),
        })
    }

    async fn status_text(&self, w: CommandWords) -> Result<String, TurnError> {
        let status = self.proactive.status().await?;
        let (s, c) = (&status.state, &status.config);
        let now = self.clock.now();
        // Only where the user lets Sidecar's messages go.
        let outlets =
            status.sinks.iter().filter(|(id, _, _)| c.sinks.of(*id) != sidecar_proactive::SinkPreference::None).map(|(id, _, up)| (*id, *up)).collect();
        let overview = self.reminders.overview().await?;
        let model = self.models.status();
        Ok(w.status(&StatusFacts {
            model: &model,
            level: c.level,
            quiet_until: status.quiet_until.map(|t| self.local_hm(t)),
            quiet_hours: (c.quiet_hours.start.format("%H:%M").to_string(), c.quiet_hours.end.format("%H:%M").to_string()),
            zone: &status.zone,
            count_today: s.count_today,
            max_today: status.max_today,
            paused_until: s.circuit_open_until.filter(|t| *t > now).map(|t| self.local_hm(t)),
            pending_reminders: overview.upcoming.len() + overview.recurring.len(),
            outlets,
        }))
    }
}
