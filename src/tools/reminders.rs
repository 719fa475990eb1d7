//! The reminder tools: `set_reminder`, `list_reminders`, `find_reminder`,
//! `cancel_reminder`, `snooze_reminder`. Times are read by `reminders::when` (no
//! model), and every answer states the local time and the zone, so the model can
//! confirm exactly what was set. A change wakes the scheduler.

use std::sync::Arc;

use chrono_tz::Tz;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::Notify;

use super::{parse_arguments, schema_of, Tool, ToolError, ToolFuture, ToolRegistry};
use crate::clock::Clock;
use crate::reminders::when;
use crate::store::reminders::{NewReminder, Reminder};
use crate::store::Store;

/// Longest snooze, so a typo does not hide a reminder for years.
const MAX_SNOOZE_MINUTES: u32 = 7 * 24 * 60;

/// What the reminder tools share.
pub struct ReminderDesk {
    pub store: Store,
    pub clock: Clock,
    pub zone: crate::clock::ZoneCell,
    /// Notified on every change, so the scheduler re-arms.
    pub changed: Arc<Notify>,
    /// Told of every change, so lists of reminders refresh.
    pub events: crate::events::EventBus,
}

impl ReminderDesk {
    /// "[id:3] "call mum" — Thursday 2026-11-19 09:00 (Europe/Madrid), repeats FREQ=…"
    pub fn describe(&self, r: &Reminder) -> String {
        let zone: Tz = r.zone.parse().unwrap_or_else(|_| self.zone.get());
        let local = r.due().with_timezone(&zone).format("%A %Y-%m-%d %H:%M");
        let repeats = r.rrule.as_deref().map(|rule| format!(", repeats {rule}")).unwrap_or_default();
        format!("[id:{}] \"{}\" — {local} ({}){repeats}", r.id, r.message, zone.name())
    }

    /// Sets a reminder from the user's words for when; returns it and any note about
    /// how the time was read (a DST shift, an ambiguous hour).
    pub async fn set(&self, message: &str, when_text: &str) -> Result<(Reminder, Option<String>), String> {
        if message.trim().is_empty() {
            return Err("the message is empty".into());
        }
        let zone = self.zone.get();
        let parsed = when::parse(when_text, (self.clock)(), zone).map_err(|e| e.to_string())?;
        let repeat = parsed.repeat.map(|r| serde_json::to_string(&r).expect("a repeat rule serializes"));
        let rrule = parsed.repeat.map(|r| r.rrule());
        let stored = self
            .store
            .add_reminder(NewReminder {
                message: message.trim(),
                due_at: parsed.at,
                zone: zone.name(),
                repeat: repeat.as_deref(),
                rrule: rrule.as_deref(),
            })
            .await
            .map_err(|e| e.to_string())?;
        self.changed();
        Ok((stored, parsed.note))
    }

    /// Cancels a pending reminder; the error says why not.
    pub async fn cancel(&self, id: i64) -> Result<Reminder, String> {
        let reminder = self.store.reminder(id).await.map_err(|e| e.to_string())?;
        if !self.store.cancel_reminder(id).await.map_err(|e| e.to_string())? {
            return Err(format!("there is no pending reminder with id {id}; list_reminders shows them"));
        }
        self.changed();
        reminder.ok_or_else(|| format!("reminder {id} disappeared"))
    }

    /// Shows a reminder again `minutes` from now. A repeating one keeps its series: the
    /// snooze is a one-off copy, so the next regular occurrence still comes.
    pub async fn snooze(&self, id: i64, minutes: u32) -> Result<Reminder, String> {
        if minutes == 0 || minutes > MAX_SNOOZE_MINUTES {
            return Err(format!("minutes must be from 1 to {MAX_SNOOZE_MINUTES}"));
        }
        let until = (self.clock)() + chrono::Duration::minutes(i64::from(minutes));
        let Some(reminder) = self.store.reminder(id).await.map_err(|e| e.to_string())? else {
            return Err(format!("there is no reminder with id {id} to snooze"));
        };
        let snoozed = if reminder.repeat.is_some() {
            self.store
                .add_reminder(NewReminder { message: &reminder.message, due_at: until, zone: &reminder.zone, repeat: None, rrule: None })
                .await
                .map_err(|e| e.to_string())?
        } else {
            if !self.store.snooze_reminder(id, until).await.map_err(|e| e.to_string())? {
                return Err(format!("reminder {id} was cancelled; it cannot be snoozed"));
            }
            self.store.reminder(id).await.map_err(|e| e.to_string())?.ok_or_else(|| format!("reminder {id} disappeared"))?
        };
        self.changed();
        Ok(snoozed)
    }

    fn changed(&self) {
        self.changed.notify_one();
        self.events.publish(crate::events::CoreEvent::RemindersChanged);
    }

    fn listing(&self, heading: &str, found: &[Reminder]) -> String {
        let mut out = format!("{heading} ({}):", found.len());
        for (n, r) in found.iter().enumerate() {
            out.push_str(&format!("\n{}. {}", n + 1, self.describe(r)));
        }
        out
    }
}

fn failed(e: impl std::fmt::Display) -> ToolError {
    ToolError::Failed(e.to_string())
}

/// Registers the five tools on `registry`.
pub fn register(registry: &mut ToolRegistry, desk: Arc<ReminderDesk>) {
    registry.register(SetReminder(desk.clone()));
    registry.register(ListReminders(desk.clone()));
    registry.register(FindReminder(desk.clone()));
    registry.register(CancelReminder(desk.clone()));
    registry.register(SnoozeReminder(desk));
}

struct SetReminder(Arc<ReminderDesk>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SetArgs {
    /// What to remind the user of, in their words.
    message: String,
    /// When, as the user said it: "en 30 minutos", "mañana a las 9", "tomorrow at 9",
    /// "next Monday at 10:30", "every day at 8", "todos los lunes a las 9", or ISO 8601.
    when: String,
}

impl Tool for SetReminder {
    fn name(&self) -> &'static str {
        "set_reminder"
    }
    fn description(&self) -> &'static str {
        "Set a reminder, one-off or repeating. Pass the time as the user said it; if it is unclear the error says what to ask."
    }
    fn parameters(&self) -> Value {
        schema_of::<SetArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: SetArgs = parse_arguments(arguments)?;
            let desk = &self.0;
            let (stored, note) = desk.set(&args.message, &args.when).await.map_err(failed)?;
            let note = note.map(|n| format!(" Note: {n}.")).unwrap_or_default();
            Ok(format!("Reminder set: {}.{note}", desk.describe(&stored)))
        })
    }
}

struct ListReminders(Arc<ReminderDesk>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

impl Tool for ListReminders {
    fn name(&self) -> &'static str {
        "list_reminders"
    }
    fn description(&self) -> &'static str {
        "List the pending reminders with their ids, local times and zones."
    }
    fn parameters(&self) -> Value {
        schema_of::<NoArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let _: NoArgs = parse_arguments(arguments)?;
            let pending = self.0.store.pending_reminders().await.map_err(failed)?;
            if pending.is_empty() {
                return Ok("NONE: there are no pending reminders.".into());
            }
            Ok(self.0.listing("Pending reminders", &pending))
        })
    }
}

struct FindReminder(Arc<ReminderDesk>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FindArgs {
    /// Words from the reminder's message, e.g. "mamá".
    query: String,
}

impl Tool for FindReminder {
    fn name(&self) -> &'static str {
        "find_reminder"
    }
    fn description(&self) -> &'static str {
        "Find pending reminders whose message contains the words, to get the id for cancel or snooze. If several match, ask the user which one."
    }
    fn parameters(&self) -> Value {
        schema_of::<FindArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: FindArgs = parse_arguments(arguments)?;
            let found = self.0.store.find_reminders(&args.query).await.map_err(failed)?;
            Ok(match found.len() {
                0 => format!("No pending reminder mentions \"{}\".", args.query),
                1 => format!("Exactly one match: {}", self.0.describe(&found[0])),
                _ => self.0.listing("Several match; ask which one", &found),
            })
        })
    }
}

struct CancelReminder(Arc<ReminderDesk>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct IdArgs {
    /// The reminder's id, from list_reminders or find_reminder.
    id: i64,
}

impl Tool for CancelReminder {
    fn name(&self) -> &'static str {
        "cancel_reminder"
    }
    fn description(&self) -> &'static str {
        "Cancel a pending reminder by id."
    }
    fn parameters(&self) -> Value {
        schema_of::<IdArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: IdArgs = parse_arguments(arguments)?;
            let desk = &self.0;
            let reminder = desk.cancel(args.id).await.map_err(failed)?;
            Ok(format!("Cancelled: {}.", desk.describe(&reminder)))
        })
    }
}

struct SnoozeReminder(Arc<ReminderDesk>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SnoozeArgs {
    /// The reminder's id.
    id: i64,
    /// Minutes from now, e.g. 5, 15 or 60.
    minutes: u32,
}

impl Tool for SnoozeReminder {
    fn name(&self) -> &'static str {
        "snooze_reminder"
    }
    fn description(&self) -> &'static str {
        "Move a pending or just-delivered reminder to a number of minutes from now."
    }
    fn parameters(&self) -> Value {
        schema_of::<SnoozeArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: SnoozeArgs = parse_arguments(arguments)?;
            let desk = &self.0;
            let reminder = desk.snooze(args.id, args.minutes).await.map_err(failed)?;
            Ok(format!("Snoozed: {}.", desk.describe(&reminder)))
        })
    }
}
