//! The budget as the user meets it: the view with what was spent, the click that
//! allows more today, the last 30 days, and the limits Settings edits (saved to
//! `settings.toml` and applied to the next call).

use crate::budget::rows::BudgetStore;
use std::sync::Arc;

use super::limits::LimitsForm;
use super::BudgetView;
use crate::model::Models;
use sidecar_domain::Clock;
use sidecar_domain::Worded;
use sidecar_settings::Change;
use sidecar_settings::SettingsFileError;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Why the budget could not be shown or changed, worded in both languages.
#[derive(Debug, thiserror::Error)]
pub enum BudgetError {
    #[error("write an amount more than zero, in {0}")]
    NotAnAmount(String),
    #[error(transparent)]
    Limits(#[from] super::limits::LimitsProblem),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    SettingsFile(#[from] SettingsFileError),
}

impl Worded for BudgetError {
    fn spanish(&self) -> String {
        match self {
            BudgetError::NotAnAmount(currency) => format!("escribe una cantidad mayor que cero, en {currency}"),
            BudgetError::Limits(e) => e.spanish(),
            BudgetError::Store(e) => e.spanish(),
            BudgetError::SettingsFile(e) => e.spanish(),
        }
    }
}

pub struct BudgetAdmin {
    models: Arc<Models>,
    store: Store,
    clock: Clock,
}

impl BudgetAdmin {
    pub fn new(models: Arc<Models>, store: Store, clock: Clock) -> Self {
        Self { models, store, clock }
    }

    /// The limits, what was spent and held against each, and today's extra.
    pub async fn view(&self) -> Result<BudgetView, BudgetError> {
        Ok(self.models.budget().view().await?)
    }

    /// The user's one click: `amount` more today, in their currency (`[budget]
    /// currency` at `usd_rate`), over every limit.
    pub async fn allow_more_today(&self, amount: f64) -> Result<BudgetView, BudgetError> {
        let settings = self.models.settings();
        if !(amount.is_finite() && amount > 0.0) {
            return Err(BudgetError::NotAnAmount(settings.budget.currency.clone()));
        }
        self.models.budget().allow_more_today(amount / settings.budget.usd_rate).await?;
        self.view().await
    }

    /// The limits as Settings edits them, with a row for each configured provider.
    pub fn limits(&self) -> LimitsForm {
        let settings = self.models.settings();
        let providers: Vec<String> = settings.providers.iter().map(|p| p.id.clone()).collect();
        LimitsForm::of(&settings.budget, &providers)
    }

    /// Saves the limits to `settings.toml` and applies them to the next call.
    pub async fn save_limits(&self, form: &LimitsForm) -> Result<BudgetView, BudgetError> {
        let budget = form.settings()?;
        self.models.settings_owner().change(Change::Budget(budget))?;
        self.models.budget_changed();
        self.view().await
    }

    /// The last 30 days a day at a time, per model and purpose, with the month's
    /// projection (the Usage page's chart, `sidecar usage`).
    pub async fn usage_history(&self) -> Result<super::usage::UsageHistory, BudgetError> {
        let today = self.clock.local_today();
        // The report's days and the whole month, read generously and bucketed by local day.
        let since = sidecar_store::utc(self.clock.now() - chrono::Duration::days(super::usage::REPORT_DAYS as i64 + 32));
        let calls = self.store.budget().calls_since(&since).await?;
        let zone = self.clock.zone();
        let local_day = |at: &str| chrono::DateTime::parse_from_rfc3339(at).ok().map(|t| t.with_timezone(&zone).date_naive());
        let settings = self.models.settings();
        Ok(super::usage::report(&calls, today, local_day, &settings.budget.currency, settings.budget.usd_rate))
    }
}
