//! The budget: limits on what model calls may cost, per day and month, overall, per
//! provider, and for background work. Before each call its worst case (the prompt's
//! tokens and `max_tokens` at the model's price) is reserved; the real cost settles
//! the reservation. A call that would cross a limit is not made: chat moves to the
//! offline model and background work waits, until the user allows more today.
//! At 80% and 100% of a limit the user is told once ([`CoreEvent::BudgetReached`]).

pub mod admin;
pub mod limits;
pub mod tally;
pub mod usage;

use std::sync::{Arc, Mutex, RwLock, Weak};

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use crate::clock::Clock;
use crate::events::{CoreEvent, EventBus};
use crate::llm::pricing::PriceTable;
use crate::settings::budget::BudgetSettings;
use crate::settings::Settings;
use crate::store::{Store, StoreError};
pub use tally::OverBudget;
use tally::{Costs, Limit, Period, Standing, Tally};

/// Reply length assumed for the worst case when a request sets none.
pub const WORST_REPLY_TOKENS: u32 = 4_096;
/// The one click past a limit offers this share of the limit more.
pub const MORE_SHARE: f64 = 0.25;

/// The budget as Settings and `sidecar budget` show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BudgetView {
    pub limits: Vec<Standing>,
    /// The share of a limit (in percent) at which the user is warned.
    pub warn_percent: u8,
    pub allowance_usd: f64,
    pub currency: String,
    pub usd_rate: f64,
    pub allow_unpriced: bool,
}

/// A reservation for one call in flight: settle it with the real cost; dropped
/// unsettled (the call failed or was stopped), it only lets its hold go.
pub struct Reservation {
    budget: Weak<Budget>,
    id: u64,
}

impl Reservation {
    /// The call ended: `provider` answered, at a cost of `usd` (`None`: unknown).
    pub fn settle(mut self, provider: &str, usd: Option<f64>) {
        self.finish(Some(provider), usd.unwrap_or(0.0));
    }

    fn finish(&mut self, provider: Option<&str>, usd: f64) {
        if let Some(budget) = self.budget.upgrade() {
            budget.settled(std::mem::take(&mut self.id), provider, usd);
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        if self.id != 0 {
            self.finish(None, 0.0);
        }
    }
}

/// The tally, the day and month it counts, and the store's spending mark it read.
struct Counted {
    day: NaiveDate,
    mark: (i64, f64),
    tally: Tally,
}

pub struct Budget {
    store: Store,
    clock: Clock,
    events: EventBus,
    settings: RwLock<(Arc<BudgetSettings>, PriceTable)>,
    counted: Mutex<Option<Counted>>,
    me: Weak<Budget>,
    lang: crate::words::Lang,
}

impl Budget {
    pub fn new(store: Store, clock: Clock, events: EventBus, settings: &Settings, lang: crate::words::Lang) -> Arc<Self> {
        Arc::new_cyclic(|me| Self {
            store,
            clock,
            events,
            settings: RwLock::new((Arc::new(settings.budget.clone()), PriceTable::new(settings.prices.clone()))),
            counted: Mutex::new(None),
            me: me.clone(),
            lang,
        })
    }

    pub fn replace_settings(&self, settings: &Settings) {
        *self.settings.write().expect("budget settings") = (Arc::new(settings.budget.clone()), PriceTable::new(settings.prices.clone()));
    }

    fn limits(&self) -> (Arc<BudgetSettings>, Vec<Limit>) {
        let settings = self.settings.read().expect("budget settings").0.clone();
        let limits = tally::limits(&settings);
        (settings, limits)
    }

    /// Reads today's and this month's spending from the store when the day changed,
    /// on first use, or when a call or an allowance was recorded since (by this
    /// process or another: the CLI, the daemon); calls in flight keep their holds.
    async fn count(&self) -> Result<(), StoreError> {
        let today = self.clock.local_today();
        let mark = self.store.budget().spending_mark(&today.to_string()).await?;
        let unchanged = |c: &Counted| c.day == today && c.mark == mark;
        if self.counted.lock().expect("budget tally").as_ref().is_some_and(unchanged) {
            return Ok(());
        }
        let month_start = crate::store::utc(self.clock.start_of(today.with_day(1).expect("day 1 exists")));
        let day_start = crate::store::utc(self.clock.start_of(today));
        let (mut day, mut month) = (Costs::default(), Costs::default());
        for call in self.store.budget().calls_since(&month_start).await? {
            let background = call.purpose != crate::settings::Purpose::Chat.as_str();
            let usd = call.cost_usd.unwrap_or(0.0);
            month.add(&call.provider, background, usd);
            if call.created_at >= day_start {
                day.add(&call.provider, background, usd);
            }
        }
        // The mark read today's extra allowance already.
        let allowance = mark.1;
        let mut counted = self.counted.lock().expect("budget tally");
        if counted.as_ref().is_some_and(unchanged) {
            return Ok(()); // another call counted meanwhile
        }
        let mut tally = Tally::new(day, month, allowance);
        if let Some(old) = counted.as_ref() {
            tally.carry_from(&old.tally);
        }
        *counted = Some(Counted { day: today, mark, tally });
        Ok(())
    }

    /// Reserves the worst case of a call to `model` on `provider`: `prompt_tokens` in
    /// and `max_tokens` (or [`WORST_REPLY_TOKENS`]) out. `None` when nothing needs
    /// holding (no limit set, or a model the user allowed without a price).
    pub async fn reserve(&self, provider: &str, model: &str, background: bool, prompt_tokens: usize, max_tokens: Option<u32>) -> Result<Option<Reservation>, OverBudget> {
        let (settings, limits) = self.limits();
        if limits.is_empty() {
            return Ok(None);
        }
        let price = self.settings.read().expect("budget settings").1.lookup(model);
        let Some(price) = price else {
            return if settings.allow_unpriced { Ok(None) } else { Err(OverBudget::Unpriced { model: model.to_string() }) };
        };
        let worst = (prompt_tokens as f64 * price.input_per_mtok + f64::from(max_tokens.unwrap_or(WORST_REPLY_TOKENS)) * price.output_per_mtok) / 1e6;
        if let Err(error) = self.count().await {
            tracing::warn!(%error, "the budget could not read what was spent; the call is held back");
            return Err(OverBudget::Limit(Standing { limit: limits[0].clone(), spent_usd: 0.0, reserved_usd: 0.0, allowed_usd: 0.0 }));
        }
        let reserved = {
            let mut counted = self.counted.lock().expect("budget tally");
            let tally = &mut counted.as_mut().expect("counted above").tally;
            tally.reserve(&limits, provider, background, worst)
        };
        match reserved {
            Ok(id) => Ok(Some(Reservation { budget: self.me.clone(), id })),
            Err(crossed) => {
                tracing::info!(provider, model, worst, limit = crossed.limit.usd, "a call would cross the budget; not made");
                self.tell_reached();
                Err(OverBudget::Limit(crossed))
            }
        }
    }

    fn settled(&self, id: u64, provider: Option<&str>, usd: f64) {
        if let Some(counted) = self.counted.lock().expect("budget tally").as_mut() {
            counted.tally.settle(id, provider, usd);
        }
        self.tell_reached();
    }

    /// Says each limit that reached 80% or 100% for the first time.
    fn tell_reached(&self) {
        let (settings, limits) = self.limits();
        let today = self.clock.local_today();
        let key = |period: Period| match period {
            Period::Day => today.to_string(),
            Period::Month => format!("{}-{:02}", today.year(), today.month()),
        };
        let reached = match self.counted.lock().expect("budget tally").as_mut() {
            Some(counted) => counted.tally.newly_reached(&limits, &key),
            None => return,
        };
        for r in reached {
            tracing::info!(percent = r.percent, spent = r.standing.spent_usd, limit = r.standing.allowed_usd, "a budget limit was reached");
            let s = &r.standing;
            let said = crate::words::budget::reached(&s.limit.scope, s.limit.period, r.percent, s.spent_usd, s.allowed_usd, &settings.currency, settings.usd_rate, self.lang);
            let more_usd = ((s.limit.usd * MORE_SHARE * 100.0).ceil() / 100.0).max(0.01);
            self.events.publish(CoreEvent::BudgetReached { reached: r, currency: settings.currency.clone(), usd_rate: settings.usd_rate, more_usd, said });
        }
    }

    /// Allows `usd` more today over every limit (the user's one click); returns today's
    /// total extra.
    pub async fn allow_more_today(&self, usd: f64) -> Result<f64, StoreError> {
        let today = self.clock.local_today();
        let total = self.store.budget().allow_more(&today.to_string(), usd.max(0.0)).await?;
        self.count().await?;
        if let Some(counted) = self.counted.lock().expect("budget tally").as_mut() {
            counted.tally.allowance_usd = total;
        }
        tracing::info!(usd, total, "the user allowed more spending today");
        Ok(total)
    }

    /// Limits, what was spent and held against each, and today's extra.
    pub async fn view(&self) -> Result<BudgetView, StoreError> {
        self.count().await?;
        let (settings, limits) = self.limits();
        let counted = self.counted.lock().expect("budget tally");
        let tally = &counted.as_ref().expect("counted above").tally;
        Ok(BudgetView {
            limits: tally.standings(&limits),
            warn_percent: tally::WARN_PERCENT,
            allowance_usd: tally.allowance_usd,
            currency: settings.currency.clone(),
            usd_rate: settings.usd_rate,
            allow_unpriced: settings.allow_unpriced,
        })
    }
}
