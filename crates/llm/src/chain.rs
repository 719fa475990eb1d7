//! One call's providers in order (`Chain`), and what the next call's prompt has to fit
//! in (`Room`): the window and whether tool definitions go along.

use crate::provider::Provider;

/// Provider id under which the offline model's usage is recorded.
pub(crate) const LOCAL_PROVIDER_ID: &str = "local";

/// What the next call's prompt has to fit in: the chain's window, and whether the
/// tool definitions take part of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    pub window: u32,
    pub tools: bool,
}

/// Providers to try for one call, in order.
#[derive(Clone)]
pub struct Chain {
    pub providers: Vec<Provider>,
    /// The user picked the first provider for this conversation: no fallback.
    pub pinned: bool,
    /// Whether the demo model may stand in when every provider failed. Not after
    /// Sidecar already answered the message itself: the demo cannot use tools and
    /// would only contradict what was done.
    pub demo_stands_in: bool,
    /// The offline model's window when it is standing in for a provider that is down:
    /// the prompt (and the context meter) follow the model that will answer.
    pub stand_in_window: Option<u32>,
}

impl Chain {
    /// A chain that may fall back on the demo and has no stand-in window yet.
    pub(crate) fn new(providers: Vec<Provider>, pinned: bool) -> Self {
        Self { providers, pinned, demo_stands_in: true, stand_in_window: None }
    }

    /// The smallest window in the chain: a prompt that fits it fits any fallback.
    pub fn context_window(&self) -> u32 {
        let chain = self.providers.iter().map(|p| p.context_window).min().unwrap_or(crate::window::DEFAULT_WINDOW);
        self.stand_in_window.map_or(chain, |offline| chain.min(offline))
    }

    /// Whether the model expected to answer is sent tool definitions: not while the
    /// offline model stands in for a provider that is down (it takes none), so the
    /// prompt's budget is not spent on definitions nobody reads (the first-hour B1).
    pub fn sends_tools(&self) -> bool {
        self.stand_in_window.is_none() && self.providers.iter().any(|p| p.supports_tools)
    }

    /// Whether only the built-in demo model is in the chain: it can use no tools, and
    /// what it writes on its own is not to be delivered as work done (issue 71, M2).
    pub fn only_demo(&self) -> bool {
        !self.providers.is_empty() && self.providers.iter().all(crate::demo::is_demo)
    }

    /// What a call answered by this chain cost in US dollars: nothing on the offline
    /// model, `None` when the model's price is unknown.
    pub fn cost_of(&self, routed: &crate::fallback::Routed, prices: &crate::pricing::PriceTable) -> Option<f64> {
        // The offline model may have stood in for the chain (it is not one of its links).
        let local = routed.provider_id == LOCAL_PROVIDER_ID || self.providers.iter().any(|p| p.id == routed.provider_id && p.is_local());
        if local {
            return Some(0.0);
        }
        routed.completion.usage.and_then(|u| prices.cost(&routed.model, &u))
    }
}
