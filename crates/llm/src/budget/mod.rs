//! The budget: limits on what model calls may cost, per day and month, overall, per
//! provider, and for background work. Before each call its worst case (the prompt's
//! tokens and `max_tokens` at the model's price) is reserved; the real cost settles
//! the reservation. A call that would cross a limit is not made: chat moves to the
//! offline model and background work waits, until the user allows more today.
//! At 80% and 100% of a limit the user is told once ([`BudgetEvent::BudgetReached`]).

// Whether the process that wrote a hold still runs (elsewhere than Linux, holds only expire).
use crate::budget::rows::BudgetStore;
use sidecar_domain::process::alive;
pub(crate) mod admin;
pub(crate) mod events;
pub(crate) mod limits;
pub(crate) mod rows;
pub(crate) mod tally;
pub(crate) mod usage;
pub(crate) mod words;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, RwLock, Weak};

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use crate::budget::events::BudgetEvent;
use crate::budget::rows::{NewHold, Spending};
use crate::pricing::PriceTable;
use sidecar_domain::Clock;
use sidecar_domain::Emitter;
use sidecar_settings::BudgetSettings;
use sidecar_settings::Settings;
use sidecar_store::Store;
use sidecar_store::StoreError;
pub use tally::OverBudget;
use tally::{Costs, Limit, Period, Standing, Tally};

/// Reply length assumed for the worst case when a request sets none.
pub(crate) const WORST_REPLY_TOKENS: u32 = 4_096;
/// The one click past a limit offers this share of the limit more.
pub(crate) const MORE_SHARE: f64 = 0.25;

/// The budget as Settings and `sidecar budget` show it.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct BudgetView {
    pub limits: Vec<Standing>,
    /// The share of a limit (in percent) at which the user is warned.
    pub warn_percent: u8,
    pub allowance_usd: f64,
    pub currency: String,
    pub usd_rate: f64,
    pub allow_unpriced: bool,
}

/// How long an unsettled hold lasts if its process neither settles nor releases it
/// (longer than any call; a process that died loses its holds at once on Linux).
const HOLD_LIFETIME: chrono::Duration = chrono::Duration::minutes(30);
/// How long a settled hold waits for its call's usage row (written right after).
const SETTLED_LIFETIME: chrono::Duration = chrono::Duration::minutes(5);

/// A reservation for one call in flight, held in the store: settle it with the real
/// cost; dropped unsettled (the call failed or was stopped), it only lets its hold go.
pub struct Reservation {
    budget: Weak<Budget>,
    id: i64,
}

impl Reservation {
    /// The call ended: `provider` answered, at a cost of `usd` (`None`: unknown).
    pub async fn settle(mut self, provider: &str, usd: Option<f64>) {
        let id = std::mem::take(&mut self.id);
        if let Some(budget) = self.budget.upgrade() {
            budget.settled(id, provider, usd.unwrap_or(0.0)).await;
        }
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let (id, budget) = (self.id, self.budget.upgrade());
        if let (true, Some(budget), Ok(runtime)) = (id != 0, budget, tokio::runtime::Handle::try_current()) {
            runtime.spawn(async move {
                if let Err(error) = budget.store.budget().release_hold(id).await {
                    tracing::warn!(%error, "a budget hold could not be let go; it expires on its own");
                }
            });
        }
    }
}

pub struct Budget {
    store: Store,
    clock: Clock,
    events: Emitter<BudgetEvent>,
    settings: RwLock<(Arc<BudgetSettings>, PriceTable)>,
    /// Warnings this process gave, so each is said once.
    warned: Mutex<BTreeSet<String>>,
    me: Weak<Budget>,
    lang: sidecar_domain::Lang,
}

impl Budget {
    pub fn new(store: Store, clock: Clock, events: Emitter<BudgetEvent>, settings: &Settings, lang: sidecar_domain::Lang) -> Arc<Self> {
        Arc::new_cyclic(|me| Self {
            store,
            clock,
            events,
            settings: RwLock::new((Arc::new(settings.budget.clone()), PriceTable::new(settings.prices.clone()))),
            warned: Mutex::default(),
            me: me.clone(),
            lang,
        })
    }

    pub(crate) fn replace_settings(&self, settings: &Settings) {
        *self.settings.write().expect("budget settings") = (Arc::new(settings.budget.clone()), PriceTable::new(settings.prices.clone()));
    }

    fn limits(&self) -> (Arc<BudgetSettings>, Vec<Limit>) {
        let settings = self.settings.read().expect("budget settings").0.clone();
        let limits = tally::limits(&settings);
        (settings, limits)
    }

    /// Where the month and the day begin, as the store writes instants, and today.
    fn period(&self) -> (String, String, NaiveDate) {
        let today = self.clock.local_today();
        let month_start = sidecar_store::utc(self.clock.start_of(today.with_day(1).expect("day 1 exists")));
        (month_start, sidecar_store::utc(self.clock.start_of(today)), today)
    }

    /// The tally of `spending`: calls by day and month, settled holds as spent (their
    /// usage row is on its way), the rest as held.
    fn tally(spending: &Spending, day_start: &str) -> Tally {
        let (mut day, mut month) = (Costs::default(), Costs::default());
        for call in &spending.calls {
            let background = call.purpose != sidecar_settings::Purpose::Chat.as_str();
            let usd = call.cost_usd.unwrap_or(0.0);
            month.add(&call.provider, background, usd);
            if call.created_at.as_str() >= day_start {
                day.add(&call.provider, background, usd);
            }
        }
        let mut tally = Tally::new(day, month, spending.allowance_usd);
        for hold in &spending.holds {
            if hold.settled {
                tally.spend(&hold.provider, hold.background, hold.usd);
            } else {
                tally.hold(&hold.provider, hold.background, hold.usd);
            }
        }
        tally
    }

    /// What was spent and is held now, by every process on the store.
    async fn current(&self) -> Result<Tally, StoreError> {
        let (month_start, day_start, today) = self.period();
        let spending = self.store.budget().spending(&month_start, &today.to_string(), &alive).await?;
        Ok(Self::tally(&spending, &day_start))
    }

    /// Reserves the worst case of a call to `model` on `provider`: `prompt_tokens` in
    /// and `max_tokens` (or [`WORST_REPLY_TOKENS`]) out. `None` when nothing needs
    /// holding (no limit set, or a model the user allowed without a price). The check
    /// and the hold are one transaction of the store, so the app, the daemon and every
    /// `sidecar ask` share the limits.
    pub async fn reserve(
        &self,
        provider: &str,
        model: &str,
        background: bool,
        prompt_tokens: usize,
        max_tokens: Option<u32>,
    ) -> Result<Option<Reservation>, OverBudget> {
        let (settings, limits) = self.limits();
        if limits.is_empty() {
            return Ok(None);
        }
        let price = self.settings.read().expect("budget settings").1.lookup(model);
        let Some(price) = price else {
            return if settings.allow_unpriced { Ok(None) } else { Err(OverBudget::Unpriced { model: model.to_string() }) };
        };
        let worst = (prompt_tokens as f64 * price.input_per_mtok + f64::from(max_tokens.unwrap_or(WORST_REPLY_TOKENS)) * price.output_per_mtok) / 1e6;
        let (month_start, day_start, today) = self.period();
        let expires_at = sidecar_store::utc(self.clock.now() + HOLD_LIFETIME);
        let hold = NewHold { provider, background, usd: worst, expires_at: &expires_at };
        let admit = |spending: &Spending| Self::tally(spending, &day_start).check(&limits, provider, background, worst);
        match self.store.budget().reserve(&month_start, &today.to_string(), hold, &alive, admit).await {
            Ok(Ok(id)) => Ok(Some(Reservation { budget: self.me.clone(), id })),
            Ok(Err(crossed)) => {
                tracing::info!(provider, model, worst, limit = crossed.limit.usd, "a call would cross the budget; not made");
                self.tell_reached().await;
                Err(OverBudget::Limit(crossed))
            }
            Err(error) => {
                tracing::warn!(%error, "the budget could not read what was spent; the call is held back");
                Err(OverBudget::Limit(Standing { limit: limits[0].clone(), spent_usd: 0.0, reserved_usd: 0.0, allowed_usd: 0.0 }))
            }
        }
    }

    async fn settled(&self, id: i64, provider: &str, usd: f64) {
        let expires_at = sidecar_store::utc(self.clock.now() + SETTLED_LIFETIME);
        if let Err(error) = self.store.budget().settle_hold(id, provider, usd, &expires_at).await {
            tracing::warn!(%error, "a budget hold could not be settled; it expires on its own");
        }
        self.tell_reached().await;
    }

    /// Says each limit that reached 80% or 100% for the first time.
    async fn tell_reached(&self) {
        let (settings, limits) = self.limits();
        let tally = match self.current().await {
            Ok(tally) => tally,
            Err(error) => return tracing::warn!(%error, "the budget could not read what was spent"),
        };
        let today = self.clock.local_today();
        let key = |period: Period| match period {
            Period::Day => today.to_string(),
            Period::Month => format!("{}-{:02}", today.year(), today.month()),
        };
        let reached = tally.newly_reached(&limits, &key, &mut self.warned.lock().expect("budget warnings"));
        for r in reached {
            tracing::info!(percent = r.percent, spent = r.standing.spent_usd, limit = r.standing.allowed_usd, "a budget limit was reached");
            let s = &r.standing;
            let said = crate::budget::words::reached(s, r.percent, &settings.currency, settings.usd_rate, self.lang);
            let more_usd = ((s.limit.usd * MORE_SHARE * 100.0).ceil() / 100.0).max(0.01);
            self.events.publish(BudgetEvent::BudgetReached { reached: r, currency: settings.currency.clone(), usd_rate: settings.usd_rate, more_usd, said });
        }
    }

    /// Allows `usd` more today over every limit (the user's one click); returns today's
    /// total extra.
    pub(crate) async fn allow_more_today(&self, usd: f64) -> Result<f64, StoreError> {
        let today = self.clock.local_today();
        let total = self.store.budget().allow_more(&today.to_string(), usd.max(0.0)).await?;
        tracing::info!(usd, total, "the user allowed more spending today");
        Ok(total)
    }

    /// Limits, what was spent and held against each, and today's extra.
    pub(crate) async fn view(&self) -> Result<BudgetView, StoreError> {
        let tally = self.current().await?;
        let (settings, limits) = self.limits();
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
