//! `sidecar budget` (limits, spent and reserved; `allow AMOUNT` more today) and
//! `sidecar usage` (the last 7 and 30 days per model and purpose, the month's
//! projection).

use clap::Subcommand;
use sidecar::Companion;
use sidecar_llm::budget_amount;
use sidecar_llm::BudgetPeriod;
use sidecar_llm::BudgetScope;
use sidecar_llm::UsageSpan;

#[derive(Subcommand)]
pub(crate) enum BudgetCommand {
    /// Allows AMOUNT more today (in the currency of `[budget] currency`), over every limit.
    Allow { amount: f64 },
}

pub(crate) async fn budget(companion: &Companion, command: Option<BudgetCommand>, json: bool) -> anyhow::Result<i32> {
    let view = match command {
        Some(BudgetCommand::Allow { amount }) => companion.budget().allow_more_today(amount).await?,
        None => companion.budget().view().await?,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&view)?);
        return Ok(0);
    }
    let money = |usd: f64| budget_amount(usd, &view.currency, view.usd_rate);
    if view.limits.is_empty() {
        println!("No budget is set: nothing is held back. Set limits under [budget] in settings.toml (daily_usd, monthly_usd, background_daily_usd).");
        return Ok(0);
    }
    for s in &view.limits {
        let scope = match &s.limit.scope {
            BudgetScope::All => "all calls".to_string(),
            BudgetScope::Background => "background work".to_string(),
            BudgetScope::Provider(id) => format!("provider {id}"),
        };
        let period = if s.limit.period == BudgetPeriod::Day { "today" } else { "this month" };
        println!("{scope:<22} {period:<11} spent {:>12}  reserved {:>12}  of {:>12}", money(s.spent_usd), money(s.reserved_usd), money(s.allowed_usd));
    }
    if view.allowance_usd > 0.0 {
        println!("Allowed today on top of every limit: {}", money(view.allowance_usd));
    }
    if !view.allow_unpriced {
        println!("Models with no known price are not called while a limit is set (budget.allow_unpriced).");
    }
    Ok(0)
}

pub(crate) async fn usage(companion: &Companion, json: bool) -> anyhow::Result<i32> {
    let history = companion.budget().usage_history().await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&history)?);
        return Ok(0);
    }
    let money = |usd: f64| budget_amount(usd, &history.currency, history.usd_rate);
    for (title, span) in [("Last 7 days", &history.last_7_days), ("Last 30 days", &history.last_30_days)] {
        print_span(title, span, &money);
    }
    println!("This month so far: {}; at this pace the month ends at {}.", money(history.month_to_date_usd), money(history.month_projection_usd));
    Ok(0)
}

fn print_span(title: &str, span: &UsageSpan, money: &dyn Fn(f64) -> String) {
    println!("{title}: {} in {} calls ({} tokens in, {} out)", money(span.total.cost_usd), span.total.calls, span.total.input_tokens, span.total.output_tokens);
    for (heading, groups) in [("by model", &span.by_model), ("by purpose", &span.by_purpose)] {
        if groups.is_empty() {
            continue;
        }
        println!("  {heading}:");
        let mut rows: Vec<_> = groups.iter().collect();
        rows.sort_by(|a, b| b.1.cost_usd.total_cmp(&a.1.cost_usd).then(b.1.calls.cmp(&a.1.calls)));
        for (name, spend) in rows {
            let unpriced = if spend.unpriced_calls > 0 { format!(", {} without a known price", spend.unpriced_calls) } else { String::new() };
            println!("    {name:<32} {:>12} {:>6} calls{unpriced}", money(spend.cost_usd), spend.calls);
        }
    }
}
