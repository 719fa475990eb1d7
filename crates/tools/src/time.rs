//! `get_current_time`: the date and time in the user's zone (or another one asked for).

use chrono_tz::Tz;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{parse_arguments, schema_of, Tool, ToolError, ToolFuture};
use sidecar_domain::Clock;

pub struct GetCurrentTime {
    pub clock: Clock,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// IANA time zone to report instead of the user's own, e.g. "Asia/Tokyo".
    #[serde(default)]
    timezone: Option<String>,
}

impl Tool for GetCurrentTime {
    fn name(&self) -> &'static str {
        "get_current_time"
    }
    fn local_read(&self) -> bool {
        true
    }

    fn description(&self) -> &'static str {
        "Current date and time in the user's time zone, or in another IANA time zone if given."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Date and time", "Fecha y hora").into()
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            let zone = match args.timezone.as_deref() {
                None | Some("") => self.clock.zone(),
                Some(name) => name.parse::<Tz>().map_err(|_| ToolError::Failed(format!("\"{name}\" is not an IANA time zone (like \"Europe/Madrid\")")))?,
            };
            let now = self.clock.now();
            let local = now.with_timezone(&zone);
            Ok(json!({
                "timezone": zone.name(),
                "local": local.to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
                "utc": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                "weekday": local.format("%A").to_string(),
                "readable": local.format("%A %-d %B %Y, %H:%M").to_string(),
            })
            .to_string())
        })
    }
}
