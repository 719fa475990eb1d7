//! `[budget]`: limits on what model calls may cost, in US dollars (the `[prices]`
//! table's unit); Settings shows amounts in the user's currency at `usd_rate`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `[budget]`. Every limit is optional: none set, nothing is held back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct BudgetSettings {
    /// All model calls in one day (the user's day).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_usd: Option<f64>,
    /// All model calls in one calendar month.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monthly_usd: Option<f64>,
    /// Background work in one day: summaries, proactive decisions, extraction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background_daily_usd: Option<f64>,
    /// The currency Settings shows amounts in (ISO 4217, e.g. "EUR").
    pub currency: String,
    /// How many units of `currency` one US dollar is.
    pub usd_rate: f64,
    /// Whether a model with no known price may be called while a limit is set (its
    /// cost cannot be counted).
    pub allow_unpriced: bool,
    /// `[budget.providers.ID]`: limits of one provider.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub providers: BTreeMap<String, ProviderBudget>,
}

impl Default for BudgetSettings {
    fn default() -> Self {
        Self {
            daily_usd: None,
            monthly_usd: None,
            background_daily_usd: None,
            currency: "USD".to_string(),
            usd_rate: 1.0,
            allow_unpriced: false,
            providers: BTreeMap::new(),
        }
    }
}

/// A limit or a price: a finite amount of zero or more.
pub fn is_amount(value: f64) -> bool {
    value.is_finite() && value >= 0.0
}

/// How many units of the currency one US dollar is: finite and more than zero.
pub fn is_rate(rate: f64) -> bool {
    rate.is_finite() && rate > 0.0
}

/// A three-letter ISO 4217 code ("EUR"), spaces around it aside.
pub fn is_currency_code(code: &str) -> bool {
    let code = code.trim();
    code.len() == 3 && code.chars().all(|c| c.is_ascii_alphabetic())
}

impl BudgetSettings {
    /// Whether any limit is set.
    pub fn limits_anything(&self) -> bool {
        self.daily_usd.is_some()
            || self.monthly_usd.is_some()
            || self.background_daily_usd.is_some()
            || self.providers.values().any(|p| p.daily_usd.is_some() || p.monthly_usd.is_some())
    }
}

/// `[budget.providers.ID]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct ProviderBudget {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_usd: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monthly_usd: Option<f64>,
}
