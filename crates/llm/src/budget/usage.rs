//! Usage over the last 30 days, a day at a time (the user's days), per model and per
//! purpose, with this month's projection: the Usage page's chart and `sidecar usage`.

use std::collections::BTreeMap;

use chrono::{Datelike, Days, NaiveDate};
use serde::Serialize;

use crate::budget::rows::CallCost;

/// Days the report covers.
pub(crate) const REPORT_DAYS: u64 = 30;

/// Spending and tokens of a group (a model, a purpose) over a span.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct Spend {
    pub cost_usd: f64,
    pub calls: u64,
    pub input_tokens: i64,
    pub output_tokens: i64,
    /// Calls whose model has no known price (not in `cost_usd`).
    pub unpriced_calls: u64,
}

impl Spend {
    fn add(&mut self, call: &CallCost) {
        self.cost_usd += call.cost_usd.unwrap_or(0.0);
        self.calls += 1;
        self.input_tokens += call.input_tokens;
        self.output_tokens += call.output_tokens;
        self.unpriced_calls += u64::from(call.cost_usd.is_none());
    }
}

/// One day.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct Day {
    /// YYYY-MM-DD, the user's date.
    pub day: String,
    pub total: Spend,
    pub by_model: BTreeMap<String, Spend>,
    pub by_purpose: BTreeMap<String, Spend>,
}

/// A span's totals.
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
pub struct Span {
    pub total: Spend,
    pub by_model: BTreeMap<String, Spend>,
    pub by_purpose: BTreeMap<String, Spend>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct UsageHistory {
    /// The last 30 days, oldest first, including days with nothing.
    pub days: Vec<Day>,
    pub last_7_days: Span,
    pub last_30_days: Span,
    pub month_to_date_usd: f64,
    /// This month's spending if the rest of it goes as it went so far.
    pub month_projection_usd: f64,
    pub currency: String,
    pub usd_rate: f64,
}

/// Buckets `calls` by the user's day (`local_day` of each call's UTC time).
pub(crate) fn report(calls: &[CallCost], today: NaiveDate, local_day: impl Fn(&str) -> Option<NaiveDate>, currency: &str, usd_rate: f64) -> UsageHistory {
    let first = today - Days::new(REPORT_DAYS - 1);
    let mut days: Vec<Day> = (0..REPORT_DAYS).map(|i| Day { day: (first + Days::new(i)).to_string(), ..Day::default() }).collect();
    let (mut week, mut month_span) = (Span::default(), Span::default());
    let week_start = today - Days::new(6);
    let month_start = today.with_day(1).expect("day 1 exists");
    let mut month_to_date = 0.0;
    for call in calls {
        let Some(day) = local_day(&call.created_at) else { continue };
        if day >= month_start && day <= today {
            month_to_date += call.cost_usd.unwrap_or(0.0);
        }
        if day < first || day > today {
            continue;
        }
        let bucket = &mut days[(day - first).num_days() as usize];
        bucket.total.add(call);
        bucket.by_model.entry(call.model.clone()).or_default().add(call);
        bucket.by_purpose.entry(call.purpose.clone()).or_default().add(call);
        let spans: &mut [&mut Span] = if day >= week_start { &mut [&mut week, &mut month_span] } else { &mut [&mut month_span] };
        for span in spans.iter_mut() {
            span.total.add(call);
            span.by_model.entry(call.model.clone()).or_default().add(call);
            span.by_purpose.entry(call.purpose.clone()).or_default().add(call);
        }
    }
    let elapsed = f64::from(today.day());
    let length = f64::from(days_in_month(today));
    UsageHistory {
        days,
        last_7_days: week,
        last_30_days: month_span,
        month_to_date_usd: month_to_date,
        month_projection_usd: month_to_date / elapsed * length,
        currency: currency.to_string(),
        usd_rate,
    }
}

fn days_in_month(day: NaiveDate) -> u32 {
    let first = day.with_day(1).expect("day 1 exists");
    let next = first.checked_add_months(chrono::Months::new(1)).expect("a next month");
    (next - first).num_days() as u32
}
