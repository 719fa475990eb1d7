//! The budget's limits as Settings edits them: amounts in the user's currency, every
//! configured provider listed. The file keeps US dollars (the `[prices]` table's unit);
//! this is the one place that converts, so the form never restates a rate.

use serde::{Deserialize, Serialize};

use sidecar_settings::is_amount;
use sidecar_settings::is_currency_code;
use sidecar_settings::is_rate;
use sidecar_settings::BudgetSettings;
use sidecar_settings::ProviderBudget;

/// One provider's limits, in the user's currency; `None` is no limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct ProviderLimits {
    pub id: String,
    pub daily: Option<f64>,
    pub monthly: Option<f64>,
}

/// `[budget]` in the user's currency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct LimitsForm {
    pub daily: Option<f64>,
    pub monthly: Option<f64>,
    pub background_daily: Option<f64>,
    /// ISO 4217 code ("EUR").
    pub currency: String,
    /// Units of `currency` one US dollar is.
    pub usd_rate: f64,
    pub allow_unpriced: bool,
    pub providers: Vec<ProviderLimits>,
}

/// What is wrong with a form, said in the user's words (its `Worded` words).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LimitsProblem {
    #[error("a limit must be an amount of zero or more, in {0}")]
    NotAnAmount(String),
    #[error("the rate must be how many {0} one US dollar is, more than zero")]
    BadRate(String),
    #[error("the currency must be a three-letter code like EUR or USD, not \"{0}\"")]
    BadCurrency(String),
}

/// Cents are what a person types; the stored dollars are exact enough to come back.
fn shown(usd: Option<f64>, rate: f64) -> Option<f64> {
    usd.map(|usd| (usd * rate * 100.0).round() / 100.0)
}

impl LimitsForm {
    /// The form for `settings`, with a row for each of `providers` (configured ones
    /// first, then any the file limits that is no longer configured).
    pub(crate) fn of(settings: &BudgetSettings, providers: &[String]) -> Self {
        let rate = settings.usd_rate;
        let mut ids: Vec<String> = providers.to_vec();
        ids.extend(settings.providers.keys().filter(|id| !providers.contains(id)).cloned());
        Self {
            daily: shown(settings.daily_usd, rate),
            monthly: shown(settings.monthly_usd, rate),
            background_daily: shown(settings.background_daily_usd, rate),
            currency: settings.currency.clone(),
            usd_rate: rate,
            allow_unpriced: settings.allow_unpriced,
            providers: ids
                .into_iter()
                .map(|id| {
                    let limits = settings.providers.get(&id).cloned().unwrap_or_default();
                    ProviderLimits { daily: shown(limits.daily_usd, rate), monthly: shown(limits.monthly_usd, rate), id }
                })
                .collect(),
        }
    }

    /// The settings this form says, in US dollars.
    pub(crate) fn settings(&self) -> Result<BudgetSettings, LimitsProblem> {
        if !is_currency_code(&self.currency) {
            return Err(LimitsProblem::BadCurrency(self.currency.clone()));
        }
        let currency = self.currency.trim().to_uppercase();
        if !is_rate(self.usd_rate) {
            return Err(LimitsProblem::BadRate(currency));
        }
        let amounts = [self.daily, self.monthly, self.background_daily].into_iter().chain(self.providers.iter().flat_map(|p| [p.daily, p.monthly]));
        if amounts.flatten().any(|a| !is_amount(a)) {
            return Err(LimitsProblem::NotAnAmount(currency));
        }
        let usd = |amount: Option<f64>| amount.map(|a| a / self.usd_rate);
        Ok(BudgetSettings {
            daily_usd: usd(self.daily),
            monthly_usd: usd(self.monthly),
            background_daily_usd: usd(self.background_daily),
            currency,
            usd_rate: self.usd_rate,
            allow_unpriced: self.allow_unpriced,
            providers: self
                .providers
                .iter()
                .filter(|p| p.daily.is_some() || p.monthly.is_some())
                .map(|p| (p.id.clone(), ProviderBudget { daily_usd: usd(p.daily), monthly_usd: usd(p.monthly) }))
                .collect(),
        })
    }
}

impl sidecar_domain::Worded for LimitsProblem {
    fn spanish(&self) -> String {
        match self {
            LimitsProblem::NotAnAmount(currency) => format!("un límite es una cantidad de cero o más, en {currency}"),
            LimitsProblem::BadRate(currency) => format!("el cambio es cuántos {currency} vale un dólar estadounidense, más que cero"),
            LimitsProblem::BadCurrency(code) => format!("la moneda es un código de tres letras como EUR o USD, no «{code}»"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn euros() -> BudgetSettings {
        let mut settings = BudgetSettings { daily_usd: Some(2.0), currency: "EUR".into(), usd_rate: 0.92, ..BudgetSettings::default() };
        settings.providers.insert("gone".into(), ProviderBudget { monthly_usd: Some(10.0), daily_usd: None });
        settings
    }

    #[test]
    fn amounts_show_in_the_users_currency_and_go_back_as_dollars() {
        let form = LimitsForm::of(&euros(), &["openai".into()]);
        assert_eq!(form.daily, Some(1.84));
        assert_eq!(form.providers.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(), ["openai", "gone"], "configured first, then the file's");
        assert_eq!(form.providers[1].monthly, Some(9.2));
        let mut edited = form.clone();
        edited.monthly = Some(46.0);
        edited.providers[0].daily = Some(0.92);
        let settings = edited.settings().unwrap();
        assert!((settings.monthly_usd.unwrap() - 50.0).abs() < 1e-9);
        assert!((settings.providers["openai"].daily_usd.unwrap() - 1.0).abs() < 1e-9);
        assert_eq!(LimitsForm::of(&settings, &["openai".into()]).daily, Some(1.84), "the same amount comes back");
    }

    #[test]
    fn a_provider_row_left_empty_is_no_limit_and_bad_values_are_refused() {
        let mut form = LimitsForm::of(&euros(), &[]);
        form.providers[0].monthly = None;
        assert!(form.settings().unwrap().providers.is_empty());
        form.currency = " eur ".into();
        assert_eq!(form.settings().unwrap().currency, "EUR");
        let refused = |change: fn(&mut LimitsForm)| {
            let mut bad = LimitsForm::of(&euros(), &[]);
            change(&mut bad);
            bad.settings().unwrap_err()
        };
        assert_eq!(refused(|f| f.daily = Some(-1.0)), LimitsProblem::NotAnAmount("EUR".into()));
        assert_eq!(refused(|f| f.providers[0].daily = Some(f64::NAN)), LimitsProblem::NotAnAmount("EUR".into()));
        assert_eq!(refused(|f| f.usd_rate = 0.0), LimitsProblem::BadRate("EUR".into()));
        assert_eq!(refused(|f| f.currency = "euro".into()), LimitsProblem::BadCurrency("euro".into()));
    }
}
