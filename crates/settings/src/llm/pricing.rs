//! What model calls cost: a price table per model (USD per million tokens), with
//! defaults for well-known models that settings can override or extend.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use sidecar_domain::Usage;

/// Prices in US dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
    /// Input tokens read from the prompt cache; defaults to the input price.
    #[serde(default)]
    pub cached_per_mtok: Option<f64>,
}

impl Price {
    const fn new(input: f64, output: f64, cached: f64) -> Self {
        Self { input_per_mtok: input, output_per_mtok: output, cached_per_mtok: Some(cached) }
    }

    /// The cost of one call's usage, in US dollars.
    pub(crate) fn cost(&self, usage: &Usage) -> f64 {
        let cached = usage.cached_tokens.min(usage.input_tokens) as f64;
        let fresh = usage.input_tokens as f64 - cached;
        (fresh * self.input_per_mtok + cached * self.cached_per_mtok.unwrap_or(self.input_per_mtok) + usage.output_tokens as f64 * self.output_per_mtok)
            / 1_000_000.0
    }
}

/// List prices of well-known models when this was written. Model names match by
/// prefix, longest first, so dated snapshots ("gpt-4o-mini-2024-07-18") find theirs.
const DEFAULTS: &[(&str, Price)] = &[
    ("gpt-4o-mini", Price::new(0.15, 0.60, 0.075)),
    ("gpt-4o", Price::new(2.50, 10.00, 1.25)),
    ("gpt-4.1-nano", Price::new(0.10, 0.40, 0.025)),
    ("gpt-4.1-mini", Price::new(0.40, 1.60, 0.10)),
    ("gpt-4.1", Price::new(2.00, 8.00, 0.50)),
    ("gpt-5-nano", Price::new(0.05, 0.40, 0.005)),
    ("gpt-5-mini", Price::new(0.25, 2.00, 0.025)),
    ("gpt-5", Price::new(1.25, 10.00, 0.125)),
    ("o4-mini", Price::new(1.10, 4.40, 0.275)),
    ("claude-opus-4", Price::new(15.00, 75.00, 1.50)),
    ("claude-sonnet-4", Price::new(3.00, 15.00, 0.30)),
    ("claude-3-7-sonnet", Price::new(3.00, 15.00, 0.30)),
    ("claude-3-5-sonnet", Price::new(3.00, 15.00, 0.30)),
    ("claude-haiku-4", Price::new(1.00, 5.00, 0.10)),
    ("claude-3-5-haiku", Price::new(0.80, 4.00, 0.08)),
    ("deepseek-chat", Price::new(0.27, 1.10, 0.07)),
    ("deepseek-reasoner", Price::new(0.55, 2.19, 0.14)),
    ("kimi-k2", Price::new(0.60, 2.50, 0.15)),
    ("moonshot-v1", Price::new(0.20, 2.00, 0.20)),
];

/// Prices by model name: the user's entries first, then the defaults.
#[derive(Debug, Clone, Default)]
pub struct PriceTable {
    custom: BTreeMap<String, Price>,
}

impl PriceTable {
    pub fn new(custom: BTreeMap<String, Price>) -> Self {
        Self { custom }
    }

    /// The price of `model`, if known. A provider's model name may carry a vendor
    /// prefix ("openai/gpt-4o" on OpenRouter); it is ignored for the lookup.
    pub fn lookup(&self, model: &str) -> Option<Price> {
        if let Some(price) = self.custom.get(model) {
            return Some(*price);
        }
        let bare = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
        let custom = self.custom.iter().map(|(name, price)| (name.as_str(), *price));
        let defaults = DEFAULTS.iter().map(|(name, price)| (*name, *price));
        custom.chain(defaults).filter(|(name, _)| bare.starts_with(&name.to_ascii_lowercase())).max_by_key(|(name, _)| name.len()).map(|(_, price)| price)
    }

    /// The cost of a call, or `None` when the model's price is unknown.
    pub fn cost(&self, model: &str, usage: &Usage) -> Option<f64> {
        self.lookup(model).map(|price| price.cost(usage))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u32, cached: u32, output: u32) -> Usage {
        Usage { input_tokens: input, output_tokens: output, cached_tokens: cached }
    }

    #[test]
    fn longest_prefix_wins_and_vendor_prefixes_are_ignored() {
        let table = PriceTable::default();
        assert_eq!(table.lookup("gpt-4o-mini-2024-07-18").unwrap().input_per_mtok, 0.15);
        assert_eq!(table.lookup("gpt-4o-2024-08-06").unwrap().input_per_mtok, 2.50);
        assert_eq!(table.lookup("openai/gpt-4o").unwrap().output_per_mtok, 10.0);
        assert!(table.lookup("SmolLM2-135M-Instruct").is_none());
    }

    #[test]
    fn cached_tokens_are_billed_at_the_cached_price() {
        let price = Price::new(2.0, 8.0, 0.5);
        // 1M input of which 400k cached, 100k output.
        let cost = price.cost(&usage(1_000_000, 400_000, 100_000));
        assert!((cost - (0.6 * 2.0 + 0.4 * 0.5 + 0.1 * 8.0)).abs() < 1e-9, "{cost}");
    }

    #[test]
    fn settings_override_defaults() {
        let mut custom = BTreeMap::new();
        custom.insert("gpt-4o".to_string(), Price { input_per_mtok: 1.0, output_per_mtok: 1.0, cached_per_mtok: None });
        custom.insert("my-local".to_string(), Price { input_per_mtok: 0.0, output_per_mtok: 0.0, cached_per_mtok: None });
        let table = PriceTable::new(custom);
        assert_eq!(table.lookup("gpt-4o").unwrap().input_per_mtok, 1.0);
        assert_eq!(table.cost("my-local", &usage(1000, 0, 1000)), Some(0.0));
        // A cached price left out falls back to the input price.
        assert_eq!(table.cost("gpt-4o", &usage(1_000_000, 1_000_000, 0)), Some(1.0));
    }
}
