//! What Sidecar says about the budget: why a call was held back, the warnings at 80%
//! and 100%, and amounts in the user's currency.

use crate::budget::tally::{OverBudget, Period, Scope, Standing};
use sidecar_domain::Lang;

/// `usd` in the user's currency ("4.20 EUR").
pub fn amount(usd: f64, currency: &str, usd_rate: f64) -> String {
    // A sum of nothing is -0.0 in Rust; it reads "0.00".
    format!("{:.2} {currency}", usd * usd_rate + 0.0)
}

fn limit_name(scope: &Scope, period: Period, lang: Lang) -> String {
    let period = match (period, lang) {
        (Period::Day, Lang::En) => "today's",
        (Period::Month, Lang::En) => "this month's",
        (Period::Day, Lang::Es) => "de hoy",
        (Period::Month, Lang::Es) => "de este mes",
    };
    match (scope, lang) {
        (Scope::All, Lang::En) => format!("{period} budget"),
        (Scope::Background, Lang::En) => format!("{period} budget for background work"),
        (Scope::Provider(id), Lang::En) => format!("{period} budget for {id}"),
        (Scope::All, Lang::Es) => format!("el presupuesto {period}"),
        (Scope::Background, Lang::Es) => format!("el presupuesto {period} para el trabajo en segundo plano"),
        (Scope::Provider(id), Lang::Es) => format!("el presupuesto {period} para {id}"),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Why a call was not made, and what to do.
pub(crate) fn held_back(over: &OverBudget, currency: &str, usd_rate: f64, lang: Lang) -> String {
    match over {
        OverBudget::Limit(crossed) => {
            let name = limit_name(&crossed.limit.scope, crossed.limit.period, lang);
            let used = crossed.spent_usd + crossed.reserved_usd;
            let spent = amount(used, currency, usd_rate);
            let allowed = amount(crossed.allowed_usd, currency, usd_rate);
            // Not yet reached, the limit still has too little left for this call's worst case.
            let reached = used >= crossed.allowed_usd;
            match lang {
                Lang::En if reached => format!("{name} is spent ({spent} of {allowed}); allow more today under Usage, or `sidecar budget allow AMOUNT`"),
                Lang::En => format!("{name} has too little left for this reply ({spent} of {allowed} used); allow more today under Usage, or `sidecar budget allow AMOUNT`"),
                Lang::Es => {
                    let name = capitalized(&name);
                    if reached {
                        format!("{name} está gastado ({spent} de {allowed}); permite más hoy en Uso, o con `sidecar budget allow CANTIDAD`")
                    } else {
                        format!("{name} no alcanza para esta respuesta ({spent} de {allowed} usados); permite más hoy en Uso, o con `sidecar budget allow CANTIDAD`")
                    }
                }
            }
        }
        OverBudget::Unpriced { model } => match lang {
            Lang::En => format!("{model} has no known price, so a budget cannot count it; add its price under [prices] or allow unpriced models in Settings → Budget"),
            Lang::Es => format!("{model} no tiene un precio conocido, así que el presupuesto no puede contarlo; añade su precio en [prices] o permite modelos sin precio en Ajustes → Presupuesto"),
        },
    }
}

/// The warning when a limit reaches 80% or 100%.
pub(crate) fn reached(standing: &Standing, percent: u8, currency: &str, usd_rate: f64, lang: Lang) -> String {
    let name = limit_name(&standing.limit.scope, standing.limit.period, lang);
    let (spent, allowed) = (amount(standing.spent_usd, currency, usd_rate), amount(standing.allowed_usd, currency, usd_rate));
    match (percent >= 100, lang) {
        (false, Lang::En) => format!("{percent}% of {name} is spent ({spent} of {allowed})."),
        (true, Lang::En) => {
            format!("{} is spent ({spent} of {allowed}): chat uses the offline model and background work waits until you allow more.", capitalized(&name))
        }
        (false, Lang::Es) => format!("Se gastó el {percent}% de {name} ({spent} de {allowed})."),
        (true, Lang::Es) => {
            format!("Se gastó {name} ({spent} de {allowed}): el chat usa el modelo sin conexión y el trabajo en segundo plano espera hasta que permitas más.")
        }
    }
}

/// The title of the desktop notification a budget warning comes with.
pub fn notification_title(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Sidecar's budget",
        Lang::Es => "Presupuesto de Sidecar",
    }
}
