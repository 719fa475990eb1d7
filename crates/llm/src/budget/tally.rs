//! What has been spent and held against each limit, as plain data. The budget service
//! builds one from the store inside the transaction that writes a reservation, so the
//! check and the hold are one step for every process on the database, and concurrent
//! calls cannot together overshoot a limit.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use sidecar_settings::BudgetSettings;

/// What a limit covers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(tag = "scope", content = "provider", rename_all = "snake_case")]
pub enum Scope {
    All,
    Background,
    Provider(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Period {
    Day,
    Month,
}

/// One limit from `[budget]`.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Limit {
    #[serde(flatten)]
    pub scope: Scope,
    pub period: Period,
    pub usd: f64,
}

impl Limit {
    fn covers(&self, provider: &str, background: bool) -> bool {
        match &self.scope {
            Scope::All => true,
            Scope::Background => background,
            Scope::Provider(id) => id == provider,
        }
    }
}

/// Every limit the settings set.
pub(crate) fn limits(settings: &BudgetSettings) -> Vec<Limit> {
    let mut limits = Vec::new();
    let mut add = |scope: Scope, period: Period, usd: Option<f64>| {
        if let Some(usd) = usd {
            limits.push(Limit { scope, period, usd });
        }
    };
    add(Scope::All, Period::Day, settings.daily_usd);
    add(Scope::All, Period::Month, settings.monthly_usd);
    add(Scope::Background, Period::Day, settings.background_daily_usd);
    for (id, p) in &settings.providers {
        add(Scope::Provider(id.clone()), Period::Day, p.daily_usd);
        add(Scope::Provider(id.clone()), Period::Month, p.monthly_usd);
    }
    limits
}

/// A cost by provider and by whether it was background work.
#[derive(Debug, Clone, Default)]
pub(crate) struct Costs(HashMap<(String, bool), f64>);

impl Costs {
    pub(crate) fn add(&mut self, provider: &str, background: bool, usd: f64) {
        *self.0.entry((provider.to_string(), background)).or_default() += usd;
    }

    fn under(&self, limit: &Limit) -> f64 {
        self.0.iter().filter(|((p, b), _)| limit.covers(p, *b)).map(|(_, usd)| usd).sum()
    }
}

/// A cost held for a call in flight: its worst case, until the real cost is known.
#[derive(Debug, Clone)]
struct Hold {
    provider: String,
    background: bool,
    usd: f64,
}

/// A limit's standing: for Settings and `sidecar budget`, and as the limit a call
/// would cross.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Standing {
    #[serde(flatten)]
    pub limit: Limit,
    pub spent_usd: f64,
    pub reserved_usd: f64,
    /// The limit with today's extra allowance.
    pub allowed_usd: f64,
}

/// Why a call was not made.
#[derive(Debug, Clone, PartialEq, thiserror::Error, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum OverBudget {
    #[error("the budget limit would be crossed")]
    Limit(Standing),
    /// The model has no known price and the user did not allow unpriced models.
    #[error("{model} has no known price, so its cost cannot be kept within the budget")]
    Unpriced { model: String },
}

/// The share of a limit (in percent) at which the user is first warned.
pub(crate) const WARN_PERCENT: u8 = 80;

/// A limit that reached 80% or 100% for the first time in its period.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct Reached {
    #[serde(flatten)]
    pub standing: Standing,
    /// 80 or 100.
    pub percent: u8,
}

/// The period the tally counts: spending of another day or month is not in it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub today: Costs,
    pub this_month: Costs,
    holds: Vec<Hold>,
    /// Extra dollars the user allowed today, over every limit.
    pub allowance_usd: f64,
}

impl Tally {
    pub(crate) fn new(today: Costs, this_month: Costs, allowance_usd: f64) -> Self {
        Self { today, this_month, allowance_usd, holds: Vec::new() }
    }

    /// A call in flight holds `usd` until it ends.
    pub(crate) fn hold(&mut self, provider: &str, background: bool, usd: f64) {
        self.holds.push(Hold { provider: provider.to_string(), background, usd });
    }

    /// Spent today (and so this month).
    pub(crate) fn spend(&mut self, provider: &str, background: bool, usd: f64) {
        self.today.add(provider, background, usd);
        self.this_month.add(provider, background, usd);
    }

    fn spent(&self, limit: &Limit) -> f64 {
        match limit.period {
            Period::Day => self.today.under(limit),
            Period::Month => self.this_month.under(limit),
        }
    }

    fn held(&self, limit: &Limit) -> f64 {
        self.holds.iter().filter(|h| limit.covers(&h.provider, h.background)).map(|h| h.usd).sum()
    }

    fn standing(&self, limit: &Limit) -> Standing {
        Standing { limit: limit.clone(), spent_usd: self.spent(limit), reserved_usd: self.held(limit), allowed_usd: limit.usd + self.allowance_usd }
    }

    /// Whether a call to `provider` may hold `usd` more: the first limit it would
    /// cross, if any.
    pub(crate) fn check(&self, limits: &[Limit], provider: &str, background: bool, usd: f64) -> Result<(), Standing> {
        for limit in limits.iter().filter(|l| l.covers(provider, background)) {
            let s = self.standing(limit);
            if s.spent_usd + s.reserved_usd + usd > s.allowed_usd + 1e-12 {
                return Err(s);
            }
        }
        Ok(())
    }

    pub(crate) fn standings(&self, limits: &[Limit]) -> Vec<Standing> {
        limits.iter().map(|l| self.standing(l)).collect()
    }

    /// Limits that reached 80% or 100% and are not yet in `warned` (each once per
    /// level, period and allowance).
    pub(crate) fn newly_reached(&self, limits: &[Limit], period_key: &dyn Fn(Period) -> String, warned: &mut BTreeSet<String>) -> Vec<Reached> {
        let mut reached = Vec::new();
        for limit in limits {
            let s = self.standing(limit);
            let share = if s.allowed_usd > 0.0 { s.spent_usd / s.allowed_usd } else { f64::INFINITY };
            for percent in [100u8, WARN_PERCENT] {
                if share >= f64::from(percent) / 100.0 {
                    let key = format!("{:?}/{:?}/{}/{percent}/{}", limit.scope, limit.period, period_key(limit.period), self.allowance_usd);
                    if warned.insert(key) {
                        reached.push(Reached { standing: s.clone(), percent });
                    }
                    break;
                }
            }
        }
        reached
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(toml: &str) -> Vec<Limit> {
        limits(&toml::from_str::<BudgetSettings>(toml).unwrap())
    }

    #[test]
    fn holds_count_against_every_limit_they_fall_under_and_the_allowance_raises_every_limit() {
        let limits = settings("daily_usd = 1.0\n[providers.openai]\nmonthly_usd = 5.0\n");
        let mut tally = Tally::default();
        tally.check(&limits, "openai", false, 0.6).unwrap();
        tally.hold("openai", false, 0.6);
        let crossed = tally.check(&limits, "openai", false, 0.6).unwrap_err();
        assert_eq!((crossed.limit.period, crossed.reserved_usd), (Period::Day, 0.6));
        let mut tally = Tally::default();
        tally.spend("anthropic", false, 0.95);
        assert!(tally.check(&limits, "openai", false, 0.1).is_err(), "0.95 spent");
        tally.allowance_usd = 0.5;
        assert!(tally.check(&limits, "openai", false, 0.1).is_ok());
    }

    #[test]
    fn background_limits_leave_chat_alone_and_warnings_are_said_once() {
        let limits = settings("background_daily_usd = 0.10\n");
        let mut tally = Tally::default();
        tally.spend("openai", true, 0.085);
        assert!(tally.check(&limits, "openai", true, 0.02).is_err());
        assert!(tally.check(&limits, "openai", false, 5.0).is_ok(), "chat is not background work");
        let key = |_: Period| "2026-11-26".to_string();
        let mut warned = BTreeSet::new();
        let first = tally.newly_reached(&limits, &key, &mut warned);
        assert_eq!(first.iter().map(|r| r.percent).collect::<Vec<_>>(), [80]);
        assert!(tally.newly_reached(&limits, &key, &mut warned).is_empty());
        tally.spend("openai", true, 0.02);
        assert_eq!(tally.newly_reached(&limits, &key, &mut warned)[0].percent, 100);
    }
}
