//! How a model samples its reply, per model: temperature, top-p, repetition penalty
//! and the longest reply. Unset values are left to the server (or to the catalogue's
//! defaults for a local model), so a provider that rejects a parameter it does not
//! know is never sent one the user did not set.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A value out of its range, named as settings.toml names it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name} must be from {low} to {high}")]
pub struct OutOfRange {
    pub name: &'static str,
    pub low: String,
    pub high: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema, ts_rs::TS)]
#[serde(default)]
pub struct Sampling {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub temperature: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub top_p: Option<f32>,
    /// llama.cpp's `repeat_penalty` (1 = off); only OpenAI-compatible local servers take it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub repeat_penalty: Option<f32>,
    /// The longest reply, in tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_tokens: Option<u32>,
}

/// The ranges each value may take, as the form and the check use them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ts_rs::TS)]
pub struct SamplingLimits {
    pub temperature: (f32, f32),
    pub top_p: (f32, f32),
    pub repeat_penalty: (f32, f32),
    pub max_tokens: (u32, u32),
}

/// The context windows a model may be given, in tokens.
pub(crate) const CONTEXT_RANGE: (u32, u32) = (512, 2_000_000);

/// Refuses a context window out of [`CONTEXT_RANGE`].
pub fn check_context(window: Option<u32>) -> Result<(), OutOfRange> {
    match window {
        Some(w) if !(CONTEXT_RANGE.0..=CONTEXT_RANGE.1).contains(&w) => {
            Err(OutOfRange { name: "context", low: CONTEXT_RANGE.0.to_string(), high: CONTEXT_RANGE.1.to_string() })
        }
        _ => Ok(()),
    }
}

pub const LIMITS: SamplingLimits = SamplingLimits { temperature: (0.0, 2.0), top_p: (0.01, 1.0), repeat_penalty: (1.0, 2.0), max_tokens: (16, 32_768) };

impl Sampling {
    pub fn is_unset(&self) -> bool {
        *self == Self::default()
    }

    /// These values, with `defaults` where these are unset.
    pub fn or(self, defaults: Sampling) -> Sampling {
        Sampling {
            temperature: self.temperature.or(defaults.temperature),
            top_p: self.top_p.or(defaults.top_p),
            repeat_penalty: self.repeat_penalty.or(defaults.repeat_penalty),
            max_tokens: self.max_tokens.or(defaults.max_tokens),
        }
    }

    /// The reply cap for a request that asked for `asked`: a caller's own cap (a short
    /// summary, a decision) is kept when smaller; the user's general reply length
    /// (`general`) gives way to this model's own.
    pub fn reply_cap(&self, asked: Option<u32>, general: bool) -> Option<u32> {
        match (asked, self.max_tokens) {
            (Some(_), Some(own)) if general => Some(own),
            (Some(asked), Some(own)) => Some(asked.min(own)),
            (asked, own) => asked.or(own),
        }
    }

    /// Refuses a value out of its range, naming it.
    pub fn check(&self) -> Result<(), OutOfRange> {
        let within = |value: Option<f32>, (low, high): (f32, f32), name: &'static str| match value {
            Some(v) if !(low..=high).contains(&v) || v.is_nan() => Err(OutOfRange { name, low: low.to_string(), high: high.to_string() }),
            _ => Ok(()),
        };
        within(self.temperature, LIMITS.temperature, "temperature")?;
        within(self.top_p, LIMITS.top_p, "top_p")?;
        within(self.repeat_penalty, LIMITS.repeat_penalty, "repeat_penalty")?;
        within(self.max_tokens.map(|m| m as f32), (LIMITS.max_tokens.0 as f32, LIMITS.max_tokens.1 as f32), "max_tokens")
    }
}

impl sidecar_domain::Worded for OutOfRange {
    fn spanish(&self) -> String {
        let name = match self.name {
            "temperature" => "la temperatura",
            "top_p" => "top-p",
            "repeat_penalty" => "la penalización por repetición",
            "max_tokens" => "la longitud máxima de respuesta",
            "context" => "el contexto",
            other => other,
        };
        format!("{name} debe ir de {} a {}", self.low, self.high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_cap_replaces_the_general_one_but_not_a_callers_smaller_one() {
        let own = Sampling { max_tokens: Some(4096), ..Sampling::default() };
        assert_eq!(own.reply_cap(Some(1024), true), Some(4096));
        assert_eq!(own.reply_cap(Some(5), false), Some(5));
        assert_eq!(Sampling::default().reply_cap(Some(1024), true), Some(1024));
        assert_eq!(own.reply_cap(None, false), Some(4096));
    }

    #[test]
    fn values_out_of_range_are_refused_by_name() {
        assert!(Sampling { temperature: Some(0.7), top_p: Some(0.9), repeat_penalty: Some(1.1), max_tokens: Some(2048) }.check().is_ok());
        let hot = Sampling { temperature: Some(3.0), ..Sampling::default() }.check().unwrap_err();
        assert_eq!(hot.to_string(), "temperature must be from 0 to 2");
        assert!(Sampling { max_tokens: Some(1), ..Sampling::default() }.check().is_err());
        assert!(Sampling { top_p: Some(f32::NAN), ..Sampling::default() }.check().is_err());
    }
}
