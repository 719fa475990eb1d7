//! The calendar's tools, thin adapters over [`CalendarService`]: `list_events`,
//! `find_free_time` (they read: no question asked), `create_event`, `move_event` and
//! `delete_event` (they write: the permission gate asks first, showing what would be
//! written). Times are read by the dates crate, as the reminders' are; every answer says
//! local times and the zone.

use std::sync::Arc;

use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_tools::parse_arguments;
use sidecar_tools::schema_of;
use sidecar_tools::Action;
use sidecar_tools::Asking;
use sidecar_tools::Tool;
use sidecar_tools::ToolDefinition;
use sidecar_tools::ToolError;
use sidecar_tools::ToolFuture;

use crate::service::{CalendarService, Occurrence};

/// The most days one listing covers.
const MAX_DAYS: i64 = 31;

/// What every calendar tool holds.
#[derive(Clone)]
pub struct ToolServices {
    pub calendar: Arc<CalendarService>,
    pub clock: Clock,
    pub lang: Lang,
}

/// The five tools, offered while a calendar is connected (none cost the model tokens
/// otherwise).
pub fn tools(services: ToolServices) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(ListEvents(services.clone())),
        Arc::new(FindFreeTime(services.clone())),
        Arc::new(Write { services: services.clone(), kind: WriteKind::Create }),
        Arc::new(Write { services: services.clone(), kind: WriteKind::Move }),
        Arc::new(Write { services, kind: WriteKind::Delete }),
    ]
}

/// Which of `all` (as [`tools`] made them) the model is offered: all five with an
/// account; only reading (the first two) with subscribed feeds alone; none otherwise.
pub fn offered(view: &crate::service::CalendarView, all: &[Arc<dyn Tool>]) -> Vec<Arc<dyn Tool>> {
    match (&view.account, view.calendars.is_empty()) {
        (Some(_), _) => all.to_vec(),
        (None, false) => all.iter().take(2).cloned().collect(),
        (None, true) => Vec::new(),
    }
}

fn failed(e: impl std::fmt::Display) -> ToolError {
    ToolError::Failed(e.to_string())
}

impl ToolServices {
    /// The local day `words` name: "today", "mañana", "2026-12-01", or any date the
    /// reminders understand ("next Monday").
    fn day(&self, words: Option<&str>) -> Result<NaiveDate, ToolError> {
        let today = self.clock.local_today();
        let Some(words) = words.map(str::trim).filter(|w| !w.is_empty()) else { return Ok(today) };
        match words.to_lowercase().as_str() {
            "today" | "hoy" => return Ok(today),
            "tomorrow" | "mañana" | "manana" => return Ok(today + Duration::days(1)),
            _ => {}
        }
        if let Ok(date) = NaiveDate::parse_from_str(words, "%Y-%m-%d") {
            return Ok(date);
        }
        let reading = sidecar_dates::parse(words, self.clock.now(), self.clock.zone(), sidecar_dates::Options::new(self.lang)).map_err(failed)?;
        Ok(reading.at.with_timezone(&self.clock.zone()).date_naive())
    }

    fn line(&self, o: &Occurrence) -> String {
        let zone = self.clock.zone();
        let (start, end) = (o.start.with_timezone(&zone), o.end.with_timezone(&zone));
        let when = if o.all_day {
            format!("{} (all day)", start.format("%a %Y-%m-%d"))
        } else {
            format!("{}–{}", start.format("%a %Y-%m-%d %H:%M"), end.format("%H:%M"))
        };
        let free = if o.busy { "" } else { " (free)" };
        let place = o.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
        format!("- {when} {}{place}{free} [uid {}]", o.summary, o.uid)
    }

    /// The instant words name, and an end `minutes` later.
    fn span(&self, when: &str, minutes: Option<u32>) -> Result<(DateTime<Utc>, DateTime<Utc>), ToolError> {
        let reading = sidecar_dates::parse(when, self.clock.now(), self.clock.zone(), sidecar_dates::Options::new(self.lang)).map_err(failed)?;
        let minutes = i64::from(minutes.unwrap_or(60).clamp(5, 24 * 60));
        Ok((reading.at, reading.at + Duration::minutes(minutes)))
    }
}

struct ListEvents(ToolServices);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    /// The first day: "today", "tomorrow", "2026-12-01", "next Monday" (default today).
    #[serde(default)]
    day: Option<String>,
    /// How many days from it (1 to 31, default 1).
    #[serde(default)]
    days: Option<i64>,
}

impl Tool for ListEvents {
    fn name(&self) -> &'static str {
        "list_events"
    }
    fn local_read(&self) -> bool {
        true
    }
    fn description(&self) -> &'static str {
        "List the events of the user's calendar on a day or a few days, with their local times."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Read the calendar", "Leer el calendario").into()
    }
    fn parameters(&self) -> Value {
        schema_of::<ListArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: ListArgs = parse_arguments(arguments)?;
            let services = &self.0;
            let first = services.day(args.day.as_deref())?;
            let days = args.days.unwrap_or(1).clamp(1, MAX_DAYS);
            let from = services.clock.start_of(first);
            let to = services.clock.start_of(first + Duration::days(days));
            let found = services.calendar.between(from, to).await.map_err(failed)?;
            let zone = services.clock.zone();
            if found.is_empty() {
                return Ok(format!("No events from {first} for {days} day(s) ({}).", zone.name()));
            }
            let lines: Vec<String> = found.iter().map(|o| services.line(o)).collect();
            // The titles are anyone's who can send an invitation: data, never instructions.
            Ok(sidecar_tools::untrusted("calendar", &format!("Events ({}, times in {}):\n{}", found.len(), zone.name(), lines.join("\n"))))
        })
    }
}

struct FindFreeTime(ToolServices);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FreeArgs {
    /// The day: "today", "tomorrow", "2026-12-01", "next Monday" (default today).
    #[serde(default)]
    day: Option<String>,
    /// The length needed, in minutes (default 30).
    #[serde(default)]
    minutes: Option<i64>,
    /// The hours to look in, local (default 9 to 18).
    #[serde(default)]
    from_hour: Option<u32>,
    #[serde(default)]
    to_hour: Option<u32>,
}

impl Tool for FindFreeTime {
    fn name(&self) -> &'static str {
        "find_free_time"
    }
    fn local_read(&self) -> bool {
        true
    }
    fn description(&self) -> &'static str {
        "Find free stretches in the user's calendar on a day, between busy events, of at least some minutes."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Find free time in the calendar", "Buscar huecos libres en el calendario").into()
    }
    fn parameters(&self) -> Value {
        schema_of::<FreeArgs>()
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: FreeArgs = parse_arguments(arguments)?;
            let services = &self.0;
            let day = services.day(args.day.as_deref())?;
            let hour = |h: u32| NaiveTime::from_hms_opt(h.min(23), 0, 0).unwrap_or(NaiveTime::MIN);
            let zone = services.clock.zone();
            let at = |h: u32| sidecar_dates::instant(day, hour(h), zone, services.lang).0;
            let (from, to) = (at(args.from_hour.unwrap_or(9)), at(args.to_hour.unwrap_or(18)));
            let minutes = args.minutes.unwrap_or(30).clamp(5, 24 * 60);
            let free = services.calendar.free(from.max(services.clock.now()), to, minutes).await.map_err(failed)?;
            if free.is_empty() {
                return Ok(format!("No free stretch of {minutes} minutes on {day} between those hours ({}).", zone.name()));
            }
            let lines: Vec<String> =
                free.iter().map(|(s, e)| format!("- {}–{}", s.with_timezone(&zone).format("%H:%M"), e.with_timezone(&zone).format("%H:%M"))).collect();
            Ok(format!("Free on {day} ({}):\n{}", zone.name(), lines.join("\n")))
        })
    }
}

#[derive(Clone, Copy)]
enum WriteKind {
    Create,
    Move,
    Delete,
}

struct Write {
    services: ToolServices,
    kind: WriteKind,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CreateArgs {
    /// The event's title.
    title: String,
    /// When it starts, as the user said it: "tomorrow at 10", "el viernes a las 17:30".
    when: String,
    /// How long, in minutes (default 60).
    #[serde(default)]
    minutes: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MoveArgs {
    /// The event's uid, as list_events shows it (only events Sidecar made).
    uid: String,
    /// Its title (kept, or a new one).
    title: String,
    /// When it now starts, as the user said it.
    when: String,
    #[serde(default)]
    minutes: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DeleteArgs {
    /// The event's uid, as list_events shows it (only events Sidecar made).
    uid: String,
}

impl Tool for Write {
    fn name(&self) -> &'static str {
        match self.kind {
            WriteKind::Create => "create_event",
            WriteKind::Move => "move_event",
            WriteKind::Delete => "delete_event",
        }
    }
    fn description(&self) -> &'static str {
        match self.kind {
            WriteKind::Create => "Add an event to the user's calendar (the one chosen for Sidecar in Settings). The user confirms it first.",
            WriteKind::Move => "Move an event Sidecar added to the user's calendar to another time. The user confirms it first.",
            WriteKind::Delete => "Delete an event Sidecar added to the user's calendar. The user confirms it first.",
        }
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        match self.kind {
            WriteKind::Create => lang.pick("Add calendar events", "Añadir eventos al calendario"),
            WriteKind::Move => lang.pick("Move calendar events", "Mover eventos del calendario"),
            WriteKind::Delete => lang.pick("Delete calendar events", "Borrar eventos del calendario"),
        }
        .into()
    }
    fn parameters(&self) -> Value {
        match self.kind {
            WriteKind::Create => schema_of::<CreateArgs>(),
            WriteKind::Move => schema_of::<MoveArgs>(),
            WriteKind::Delete => schema_of::<DeleteArgs>(),
        }
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let services = &self.services;
            match self.kind {
                WriteKind::Create => {
                    let args: CreateArgs = parse_arguments(arguments)?;
                    let (start, end) = services.span(&args.when, args.minutes)?;
                    let made = services.calendar.create(args.title.trim(), start, end, services.lang).await.map_err(failed)?;
                    Ok(format!("Event added:\n{}", services.line(&made)))
                }
                WriteKind::Move => {
                    let args: MoveArgs = parse_arguments(arguments)?;
                    let (start, end) = services.span(&args.when, args.minutes)?;
                    let moved = services.calendar.reschedule(&args.uid, args.title.trim(), start, end, services.lang).await.map_err(failed)?;
                    Ok(format!("Event moved:\n{}", services.line(&moved)))
                }
                WriteKind::Delete => {
                    let args: DeleteArgs = parse_arguments(arguments)?;
                    services.calendar.remove(&args.uid, services.lang).await.map_err(failed)?;
                    Ok(format!("Event {} deleted.", args.uid))
                }
            }
        })
    }
    fn action(&self) -> Option<Action> {
        let definition = ToolDefinition { name: self.name().into(), description: self.description().into(), input_schema: self.parameters(), read_only: false };
        let asking = match self.kind {
            WriteKind::Create => Asking { en: "Sidecar wants to add an event to your calendar", es: "Sidecar quiere añadir un evento a tu calendario" },
            WriteKind::Move => Asking { en: "Sidecar wants to move an event in your calendar", es: "Sidecar quiere mover un evento de tu calendario" },
            WriteKind::Delete => Asking { en: "Sidecar wants to delete an event from your calendar", es: "Sidecar quiere borrar un evento de tu calendario" },
        };
        Some(Action {
            server: sidecar_tools::SIDECAR.into(),
            identity: "sidecar calendar".into(),
            definition,
            called_as: self.name().into(),
            asking: Some(asking),
        })
    }
}
