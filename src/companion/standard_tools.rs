//! The tools every companion has: the time, web search, reading a page, the weather.

use sidecar_domain::Clock;
use sidecar_settings::Settings;
use sidecar_tools::ToolRegistry;

/// The standard tools, configured from settings.
pub fn default_tools(settings: &Settings, clock: Clock) -> ToolRegistry {
    tools_searching_with(settings, clock, sidecar_tools::WebSearch::new(tool_http(), settings.tools.web_search.clone()))
}

/// How the tools reach the web.
pub(super) fn tool_http() -> reqwest::Client {
    reqwest::Client::builder().timeout(std::time::Duration::from_secs(20)).user_agent("Sidecar/0.1").build().expect("a TLS backend is compiled in")
}

/// The standard tools, web search being `search`.
pub(super) fn tools_searching_with(settings: &Settings, clock: Clock, search: sidecar_tools::WebSearch) -> ToolRegistry {
    let http = search.http.clone();
    let mut registry = ToolRegistry::new();
    registry.register(sidecar_tools::GetCurrentTime { clock });
    registry.register(search);
    registry.register(sidecar_tools::ReadUrl::new(settings.tools.read_url.clone()));
    registry.register(sidecar_tools::GetWeather { http, settings: settings.tools.weather.clone() });
    registry
}
