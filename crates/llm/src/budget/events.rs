//! What the budget says happened: a limit reached (each said once in its period).

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BudgetEvent {
    /// A budget limit reached 80% or 100% for the first time in its period (each is
    /// said once); at 100% chat moves to the offline model and background work waits.
    /// `said`: the warning in the user's language; `more_usd`: what the one click
    /// "allow more today" offers.
    BudgetReached { reached: crate::budget::tally::Reached, currency: String, usd_rate: f64, more_usd: f64, said: String },
}
