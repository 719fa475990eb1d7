//! The checks a loaded settings file must pass before anything uses it: every number
//! inside the range the code can honour, every name pointing at something defined. A
//! value TOML can hold but Sidecar cannot use is refused here, naming the key, so no
//! later code path has to guard against it (or panics on it, as `Duration` does on a
//! negative or infinite number of seconds).

use std::ops::RangeInclusive;
use std::path::Path;

use super::{Purpose, Refusal, Settings, SettingsError};

/// Seconds a network timeout may be set to: above zero, at most a day.
const TIMEOUT_SECS: RangeInclusive<f64> = 0.001..=86_400.0;
/// Seconds a whole turn may run: one second to a day.
const TURN_SECS: RangeInclusive<f64> = 1.0..=86_400.0;
/// Longest wait before a retry: none to an hour.
const RETRY_MAX_SECS: RangeInclusive<f64> = 0.0..=3_600.0;
/// A model's context window, in tokens.
const WINDOW_TOKENS: RangeInclusive<u32> = 256..=100_000_000;

impl Settings {
    /// Refuses values no code path can use, naming the key and the file.
    pub(super) fn validate(&self, path: &Path) -> Result<(), SettingsError> {
        let invalid = |refusal: Refusal| SettingsError::Invalid { path: path.to_path_buf(), refusal };
        self.check_numbers().map_err(invalid)?;
        self.check_names().map_err(invalid)
    }

    fn check_numbers(&self) -> Result<(), Refusal> {
        let llm = &self.llm;
        seconds("llm.connect_timeout_secs", llm.connect_timeout_secs, TIMEOUT_SECS)?;
        seconds("llm.response_timeout_secs", llm.response_timeout_secs, TIMEOUT_SECS)?;
        seconds("llm.idle_timeout_secs", llm.idle_timeout_secs, TIMEOUT_SECS)?;
        seconds("llm.turn_timeout_secs", llm.turn_timeout_secs, TURN_SECS)?;
        seconds("llm.retry_max_secs", llm.retry_max_secs, RETRY_MAX_SECS)?;
        whole("llm.retry_base_ms", llm.retry_base_ms, 0..=3_600_000)?;
        whole("llm.max_retries", llm.max_retries.into(), 0..=10)?;
        whole("llm.max_iterations", llm.max_iterations.into(), 1..=100)?;
        whole("llm.max_continuations", llm.max_continuations.into(), 0..=10)?;
        if let Some(max) = llm.max_tokens {
            whole("llm.max_tokens", max.into(), 1..=1_000_000)?;
        }
        for (key, value, range) in self.retention.limits() {
            if let Some(value) = value {
                whole(key, value.into(), u64::from(*range.start())..=u64::from(*range.end()))?;
            }
        }
        let context = &self.context;
        whole("context.threshold_percent", context.threshold_percent.into(), 10..=100)?;
        whole("context.target_percent", context.target_percent.into(), 5..=u64::from(context.threshold_percent))?;
        whole("context.min_turns_to_keep", context.min_turns_to_keep as u64, 0..=1_000)?;
        if let Some(turns) = context.max_history_turns {
            whole("context.max_history_turns", turns as u64, 1..=100_000)?;
            if turns < context.min_turns_to_keep {
                return Err(Refusal::HistoryBelowKept { turns, keep: context.min_turns_to_keep });
            }
        }
        whole("context.keep_tool_results", context.keep_tool_results as u64, 0..=1_000)?;
        whole("context.max_tool_result_tokens", context.max_tool_result_tokens as u64, 50..=1_000_000)?;
        if let Some(tokens) = self.local_model.context_tokens {
            whole("local_model.context_tokens", tokens.into(), (*WINDOW_TOKENS.start()).into()..=1_048_576)?;
        }
        for p in &self.providers {
            if let Some(window) = p.context_window {
                let key = format!("providers \"{}\": context_window", p.id);
                whole(&key, window.into(), (*WINDOW_TOKENS.start()).into()..=(*WINDOW_TOKENS.end()).into())?;
            }
        }
        let read_url = &self.tools.read_url;
        whole("tools.read_url.max_bytes", read_url.max_bytes as u64, 1_000..=1_000_000_000)?;
        whole("tools.read_url.max_chars", read_url.max_chars as u64, 100..=100_000_000)?;
        if let Some(telegram) = &self.channels.telegram {
            whole("channels.telegram.poll_timeout_secs", telegram.poll_timeout_secs.into(), 1..=600)?;
            if url::Url::parse(&telegram.api_url).is_err() {
                return Err(Refusal::TelegramUrl(telegram.api_url.clone()));
            }
        }
        if let Some(whatsapp) = &self.channels.whatsapp {
            seconds("channels.whatsapp.min_send_interval_secs", whatsapp.min_send_interval_secs, 0.0..=3_600.0)?;
            whole("channels.whatsapp.max_sends_per_hour", whatsapp.max_sends_per_hour.into(), 1..=10_000)?;
        }
        let budget = &self.budget;
        let mut amounts: Vec<(String, Option<f64>)> = vec![
            ("budget.daily_usd".into(), budget.daily_usd),
            ("budget.monthly_usd".into(), budget.monthly_usd),
            ("budget.background_daily_usd".into(), budget.background_daily_usd),
        ];
        for (id, limits) in &budget.providers {
            amounts.push((format!("budget.providers.\"{id}\".daily_usd"), limits.daily_usd));
            amounts.push((format!("budget.providers.\"{id}\".monthly_usd"), limits.monthly_usd));
        }
        for (key, value) in amounts {
            if let Some(value) = value.filter(|v| !super::budget::is_amount(*v)) {
                return Err(Refusal::Amount { key, value });
            }
        }
        if !super::budget::is_rate(budget.usd_rate) {
            return Err(Refusal::Rate { currency: budget.currency.clone(), value: budget.usd_rate });
        }
        if !super::budget::is_currency_code(&budget.currency) {
            return Err(Refusal::Currency(budget.currency.clone()));
        }
        for (model, price) in &self.prices {
            for (field, value) in
                [("input_per_mtok", Some(price.input_per_mtok)), ("output_per_mtok", Some(price.output_per_mtok)), ("cached_per_mtok", price.cached_per_mtok)]
            {
                if let Some(value) = value.filter(|v| !super::budget::is_amount(*v)) {
                    return Err(Refusal::Price { model: model.clone(), field, value });
                }
            }
        }
        Ok(())
    }

    fn check_names(&self) -> Result<(), Refusal> {
        if let Some(address) = self.updates.address.as_deref().filter(|a| !a.trim().is_empty()) {
            if sidecar_domain::check_address(address).is_err() {
                return Err(Refusal::UpdatesAddress(address.to_string()));
            }
        }
        for purpose in Purpose::ALL {
            for id in self.routing.ids(purpose) {
                if !self.providers.iter().any(|p| &p.id == id) {
                    return Err(Refusal::UnknownProvider { purpose: purpose.as_str(), id: id.clone() });
                }
            }
        }
        if let Some(t) = &self.user.all_day_time {
            if chrono::NaiveTime::parse_from_str(t, "%H:%M").is_err() {
                return Err(Refusal::AllDayTime(t.clone()));
            }
        }
        let embeddings = &self.memory.embeddings;
        if embeddings.backend == super::memory::EmbeddingsBackend::Openai {
            let url = embeddings.url.as_deref().unwrap_or_default();
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(Refusal::EmbeddingsUrl(url.to_string()));
            }
            if embeddings.model.as_deref().unwrap_or_default().trim().is_empty() {
                return Err(Refusal::EmbeddingsModel);
            }
        }
        // An unknown time zone is not fatal: the clock falls back to the system's and
        // says so (`clock::resolve_zone`).
        let mut seen = std::collections::HashSet::new();
        for p in &self.providers {
            if !seen.insert(p.id.as_str()) {
                return Err(Refusal::SharedId(p.id.clone()));
            }
            if !(p.base_url.starts_with("http://") || p.base_url.starts_with("https://")) {
                return Err(Refusal::BaseUrl(p.id.clone()));
            }
        }
        Ok(())
    }
}

fn seconds(key: &str, value: f64, range: RangeInclusive<f64>) -> Result<(), Refusal> {
    if value.is_finite() && range.contains(&value) {
        return Ok(());
    }
    Err(Refusal::Seconds { key: key.into(), low: *range.start(), high: *range.end(), value })
}

fn whole(key: &str, value: u64, range: RangeInclusive<u64>) -> Result<(), Refusal> {
    if range.contains(&value) {
        return Ok(());
    }
    Err(Refusal::Whole { key: key.into(), low: *range.start(), high: *range.end(), value })
}
