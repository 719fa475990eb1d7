//! `get_weather`: current conditions and a short forecast from Open-Meteo (no key),
//! after geocoding the place name.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

use super::web_search::get_json;
use super::{parse_arguments, schema_of, Tool, ToolError, ToolFuture};
use sidecar_settings::WeatherSettings;

pub struct GetWeather {
    pub http: reqwest::Client,
    pub settings: WeatherSettings,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    /// A place name, e.g. "Buenos Aires" or "Madrid, Spain".
    location: String,
    /// Days of forecast, 1 to 7 (default 3).
    #[serde(default)]
    days: Option<u8>,
}

impl Tool for GetWeather {
    fn name(&self) -> &'static str {
        "get_weather"
    }

    fn description(&self) -> &'static str {
        "Current weather and a daily forecast for a place (temperatures in °C, wind in km/h)."
    }
    fn title(&self, lang: sidecar_domain::Lang) -> String {
        lang.pick("Weather", "El tiempo").into()
    }

    fn parameters(&self) -> Value {
        schema_of::<Args>()
    }

    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let args: Args = parse_arguments(arguments)?;
            let days = args.days.unwrap_or(3).clamp(1, 7);
            // "Madrid, Spain": the geocoder wants the name alone.
            let name = args.location.split(',').next().unwrap_or_default().trim();
            if name.is_empty() {
                return Err(ToolError::InvalidArguments("location is empty".into()));
            }
            let places = get_json(self.http.get(&self.settings.geocoding_url).query(&[("name", name), ("count", "1"), ("format", "json")])).await?;
            let place = places["results"].get(0).ok_or_else(|| ToolError::Failed(format!("no place called \"{}\" was found", args.location)))?;
            let (lat, lon) = (place["latitude"].as_f64(), place["longitude"].as_f64());
            let (Some(lat), Some(lon)) = (lat, lon) else {
                return Err(ToolError::Failed("the geocoder gave no coordinates".into()));
            };
            let forecast = get_json(self.http.get(&self.settings.forecast_url).query(&[
                ("latitude", lat.to_string()),
                ("longitude", lon.to_string()),
                ("current", "temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m".into()),
                ("daily", "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max".into()),
                ("timezone", "auto".into()),
                ("forecast_days", days.to_string()),
            ]))
            .await?;
            Ok(summarize(place, &forecast).to_string())
        })
    }
}

fn summarize(place: &Value, forecast: &Value) -> Value {
    let current = &forecast["current"];
    let daily = &forecast["daily"];
    let dates = daily["time"].as_array().cloned().unwrap_or_default();
    let days: Vec<Value> = dates
        .iter()
        .enumerate()
        .map(|(i, date)| {
            json!({
                "date": date,
                "conditions": describe_code(daily["weather_code"][i].as_i64()),
                "max_c": daily["temperature_2m_max"][i],
                "min_c": daily["temperature_2m_min"][i],
                "precipitation_chance_pct": daily["precipitation_probability_max"][i],
            })
        })
        .collect();
    json!({
        "place": place["name"],
        "region": place["admin1"],
        "country": place["country"],
        "timezone": forecast["timezone"],
        "current": {
            "time": current["time"],
            "temperature_c": current["temperature_2m"],
            "feels_like_c": current["apparent_temperature"],
            "humidity_pct": current["relative_humidity_2m"],
            "wind_kmh": current["wind_speed_10m"],
            "conditions": describe_code(current["weather_code"].as_i64()),
        },
        "daily": days,
    })
}

/// WMO weather interpretation codes, as Open-Meteo documents them.
fn describe_code(code: Option<i64>) -> &'static str {
    match code {
        Some(0) => "clear sky",
        Some(1) => "mainly clear",
        Some(2) => "partly cloudy",
        Some(3) => "overcast",
        Some(45 | 48) => "fog",
        Some(51 | 53 | 55) => "drizzle",
        Some(56 | 57) => "freezing drizzle",
        Some(61) => "light rain",
        Some(63) => "rain",
        Some(65) => "heavy rain",
        Some(66 | 67) => "freezing rain",
        Some(71 | 73 | 75 | 77) => "snow",
        Some(80..=82) => "rain showers",
        Some(85 | 86) => "snow showers",
        Some(95) => "thunderstorm",
        Some(96 | 99) => "thunderstorm with hail",
        _ => "unknown",
    }
}
