//! The reminder tools, thin adapters over the reminder service: `set_reminder`, `list_reminders`, `find_reminder`,
//! `cancel_reminder`, `snooze_reminder`. Times are read by `sidecar_dates` (no
//! model), and every answer states the local time and the zone, so the model can
//! confirm exactly what was set. A change wakes the scheduler.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::rows::Reminder;
use crate::service::ReminderService;
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::CallScope;
use sidecar_tools::Tool;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;
use sidecar_tools::ToolRegistry;

fn listing(service: &ReminderService, heading: &str, found: &[Reminder]) -> String {
    let mut out = format!("{heading} ({}):", found.len());
    for (n, r) in found.iter().enumerate() {
        out.push_str(&format!("\n{}. {}", n + 1, service.describe(r)));
    }
    out
}

fn failed(e: impl std::fmt::Display) -> ToolError {
    ToolError::Failed(e.to_string())
}

/// Registers the five tools on `registry`.
pub fn register(registry: &mut ToolRegistry, service: Arc<ReminderService>) {
    registry.register(SetReminder(service.clone()));
    registry.register(ListReminders(service.clone()));
    registry.register(FindReminder(service.clone()));
    registry.register(CancelReminder(service.clone()));
    registry.register(SnoozeReminder(service));
}

struct SetReminder(Arc<ReminderService>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SetArgs {
    /// What to remind the user of, in their words.
    message: String,
    /// When, as the user said it: "en 30 minutos", "mañana a las 9", "tomorrow at 9",
    /// "next Monday at 10:30", "every weekday at 8", "el primer lunes de cada mes",
    /// "every year on March 3", "15 minutes before my 10:00 with Ana" (a calendar
    /// event), or ISO 8601.
    when: String,
}

impl Tool for SetReminder {
    fn name(&self) -> &'static str {
        "set_reminder"
    }
    fn description(&self) -> &'static str {
        "Set a reminder, one-off or repeating. Pass the time as the user said it; if it is unclear the error says what to ask."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Set reminders", "Poner recordatorios").into()
    }
    fn parameters(&self) -> Value {
        schema_of::<SetArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        self.run_in(arguments, CallScope::default())
    }
    fn run_in(&self, arguments: Value, scope: CallScope) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: SetArgs = parse_arguments(arguments)?;
            let desk = &self.0;
            let set = desk.set_asked(&args.message, &args.when, scope.asked_in).await.map_err(failed)?;
            if set.already_set {
                return Ok(format!(
                    "ALREADY SET: Sidecar had already set this reminder for the user's message: {}. Nothing new was stored; do not set it again.",
                    desk.describe(&set.reminder)
                ));
            }
            let note = match (set.note, set.event.is_some()) {
                // The event's title comes from the calendar: data, never instructions.
                (Some(n), true) => format!(" Note:\n{}\n", sidecar_tools::untrusted("calendar", &n)),
                (Some(n), false) => format!(" Note: {n}."),
                (None, _) => String::new(),
            };
            let twin = set
                .twin
                .map(|t| format!(" An identical pending reminder already existed ({}); both are kept: tell the user, who may cancel one.", desk.describe(&t)))
                .unwrap_or_default();
            Ok(format!("Reminder set: {}.{note}{twin}", desk.describe(&set.reminder)))
        })
    }
}

struct ListReminders(Arc<ReminderService>);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

impl Tool for ListReminders {
    fn name(&self) -> &'static str {
        "list_reminders"
    }
    fn local_read(&self) -> bool {
        true
    }
    fn description(&self) -> &'static str {
        "List the pending reminders with their ids, local times and zones."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("List reminders", "Ver los recordatorios").into()
    }
    fn parameters(&self) -> Value {
        schema_of::<NoArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let _: NoArgs = parse_arguments(arguments)?;
            let pending = self.0.pending().await.map_err(failed)?;
            if pending.is_empty() {
                return Ok("NONE: there are no pending reminders.".into());
            }
            Ok(listing(&self.0, "Pending reminders", &pending))
        })
    }
}

struct FindReminder(Arc<ReminderService>);

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
    fn local_read(&self) -> bool {
        true
    }
    fn description(&self) -> &'static str {
        "Find pending reminders whose message contains the words, to get the id for cancel or snooze. If several match, ask the user which one."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Find a reminder", "Buscar un recordatorio").into()
    }
    fn parameters(&self) -> Value {
        schema_of::<FindArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: FindArgs = parse_arguments(arguments)?;
            let found = self.0.find(&args.query).await.map_err(failed)?;
            Ok(match found.len() {
                0 => format!("No pending reminder mentions \"{}\".", args.query),
                1 => format!("Exactly one match: {}", self.0.describe(&found[0])),
                _ => listing(&self.0, "Several match; ask which one", &found),
            })
        })
    }
}

struct CancelReminder(Arc<ReminderService>);

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
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Cancel reminders", "Cancelar recordatorios").into()
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

struct SnoozeReminder(Arc<ReminderService>);

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
        "Show a reminder again a number of minutes from now. A reminder not due yet keeps its own time (the snooze is an extra one-off)."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Snooze reminders", "Posponer recordatorios").into()
    }
    fn parameters(&self) -> Value {
        schema_of::<SnoozeArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: SnoozeArgs = parse_arguments(arguments)?;
            let desk = &self.0;
            let snoozed = desk.snooze(args.id, args.minutes).await.map_err(failed)?;
            let also = if snoozed.original_kept { " (the original stays at its own time)" } else { "" };
            Ok(format!("Snoozed: {}{also}.", desk.describe(&snoozed.reminder)))
        })
    }
}
