//! The local model's sampling and context window as Settings shows and changes them:
//! what the user set, what applies when they set nothing (the catalogue's values for
//! the model, its own window), and the ranges the core accepts.

use serde::{Deserialize, Serialize};

use super::error::HubError;
use crate::sampling::{check_context, Sampling, SamplingLimits, LIMITS};

use super::choice::LocalChoice;
use super::hub::ModelHub;
use sidecar_settings::Change;

#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
pub struct TuningView {
    /// The model these apply to.
    pub model: String,
    /// What the user set; unset values follow `defaults`.
    pub sampling: Sampling,
    /// What applies to this model when nothing is set (empty: llama.cpp's own).
    pub defaults: Sampling,
    pub context_tokens: Option<u32>,
    pub context_default: u32,
    pub limits: SamplingLimits,
}

#[derive(Debug, Clone, Deserialize, ts_rs::TS)]
pub struct TuningInput {
    #[serde(default)]
    pub sampling: Sampling,
    #[serde(default)]
    pub context_tokens: Option<u32>,
}

impl ModelHub {
    pub fn tuning(&self) -> TuningView {
        let settings = self.models().settings();
        let unset = sidecar_settings::LocalModelSettings { sampling: Sampling::default(), context_tokens: None, ..settings.local_model.clone() };
        let defaults = LocalChoice::from_settings(&unset);
        TuningView {
            model: defaults.name.clone(),
            sampling: settings.local_model.sampling,
            defaults: defaults.sampling,
            context_tokens: settings.local_model.context_tokens,
            context_default: defaults.context_tokens,
            limits: LIMITS,
        }
    }

    /// Saves the local model's tuning; a new window restarts the server, since it is
    /// fixed when the server starts. Sampling applies to the next reply.
    pub async fn set_tuning(&self, input: TuningInput) -> Result<TuningView, HubError> {
        input.sampling.check()?;
        check_context(input.context_tokens)?;
        self.models().settings_owner().change(Change::LocalSampling { sampling: input.sampling, context_tokens: input.context_tokens })?;
        self.models().providers_changed();
        // A running server keeps its window, and its client its sampling, until
        // restarted; one not running starts with the new ones.
        self.models().restart_local().await?;
        Ok(self.tuning())
    }
}
