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
    pub zone: Tz,
    /// Notified on every change, so the scheduler re-arms.
    pub changed: Arc<Notify>,
}

impl ReminderDesk {
    /// "[id:3] "call mum" — Thursday 2026-11-19 09:00 (Europe/Madrid), repeats FREQ=…"
    fn describe(&self, r: &Reminder) -> String {
        let zone: Tz = r.zone.parse().unwrap_or(self.zone);
        let local = r.due().with_timezone(&zone).format("%A %Y-%m-%d %H:%M");
        let repeats = r.rrule.as_deref().map(|rule| format!(", repeats {rule}")).unwrap_or_default();
        format!("[id:{}] \"{}\" — {local} ({}){repeats}", r.id, r.message, zone.name())
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
            if args.message.trim().is_empty() {
                return Err(ToolError::InvalidArguments("the message is empty".into()));
            }
            let parsed = when::parse(&args.when, (desk.clock)(), desk.zone).map_err(failed)?;
            let repeat = parsed.repeat.map(|r| serde_json::to_string(&r).expect("a repeat rule serializes"));
            let rrule = parsed.repeat.map(|r| r.rrule());
            let stored = desk
                .store
                .add_reminder(NewReminder {
                    message: args.message.trim(),
                    due_at: parsed.at,
                    zone: desk.zone.name(),
                    repeat: repeat.as_deref(),
                    rrule: rrule.as_deref(),
                })
                .await
                .map_err(failed)?;
            desk.changed.notify_one();
            let note = parsed.note.map(|n| format!(" Note: {n}.")).unwrap_or_default();
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
            let all = self.0.store.reminders().await.map_err(failed)?;
            let pending: Vec<Reminder> = all.into_iter().filter(|r| r.state == "pending").collect();
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
            let reminder = desk.store.reminder(args.id).await.map_err(failed)?;
            if !desk.store.cancel_reminder(args.id).await.map_err(failed)? {
                return Err(failed(format!("there is no pending reminder with id {}; list_reminders shows them", args.id)));
            }
            desk.changed.notify_one();
            Ok(format!("Cancelled: {}.", reminder.map(|r| desk.describe(&r)).unwrap_or_default()))
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
            if args.minutes == 0 || args.minutes > MAX_SNOOZE_MINUTES {
                return Err(ToolError::InvalidArguments(format!("minutes must be from 1 to {MAX_SNOOZE_MINUTES}")));
            }
            let desk = &self.0;
            let until = (desk.clock)() + chrono::Duration::minutes(i64::from(args.minutes));
            if !desk.store.snooze_reminder(args.id, until).await.map_err(failed)? {
                return Err(failed(format!("there is no reminder with id {} to snooze", args.id)));
            }
            desk.changed.notify_one();
            let reminder = desk.store.reminder(args.id).await.map_err(failed)?.expect("it was just updated");
            Ok(format!("Snoozed: {}.", desk.describe(&reminder)))
        })
    }
}
