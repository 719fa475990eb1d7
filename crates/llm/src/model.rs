//! Which models answer: the configured providers in routing order, or the offline
//! local server when none is configured. The local server is started on first need
//! and kept for the life of the process; with providers configured it is the last link
//! of the automatic chain (`route`), started only when they all failed.
//!
//! The status the header shows is checked, never assumed: a probe of the first
//! provider when providers change or the app starts (`check`), then what each chat
//! call found (`route`).
//!
//! Over 400 lines: which model answers (the providers in order, the offline server, its
//! start and its status) is one state the chain and the header read together.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex, RwLock};
use std::time::Duration;

use tokio::sync::Mutex;

use crate::fallback::{self, RetryPolicy, RouteError, RouteNotice, Routed};
use crate::local_models::LocalChoice;
use crate::local_server::{LocalServer, LocalServerError, LOCAL_MODEL_NAME};
use crate::provider::Provider;
use crate::status::{ModelEvent, ModelStatus};
use crate::ChatRequest;
use crate::{CallOnceError, ModelUnavailable};
use sidecar_domain::Emitter;
use sidecar_domain::Secrets;
use sidecar_settings::ProviderSettings;
use sidecar_settings::Purpose;
use sidecar_settings::Settings;
use sidecar_settings::SettingsOwner;
use sidecar_store::Store;

pub(crate) use crate::chain::LOCAL_PROVIDER_ID;
pub use crate::chain::{Chain, Room};

pub struct Models {
    /// The settings' one owner: what is held now, and every change.
    settings: Arc<SettingsOwner>,
    configured: RwLock<Vec<Provider>>,
    /// Background purposes routed to providers of their own.
    routed: RwLock<HashMap<Purpose, Vec<Provider>>>,
    /// How many times the providers were built (they read the keychain).
    builds: AtomicU64,
    local: Mutex<Option<Provider>>,
    /// What the local server runs, read from the model's header once per settings
    /// change (not on every window lookup).
    local_choice: RwLock<Arc<LocalChoice>>,
    log_dir: PathBuf,
    events: Emitter<ModelEvent>,
    status: StdMutex<ModelStatus>,
    /// The language status messages are said in.
    lang: sidecar_domain::Lang,
    secrets: Arc<Secrets>,
    /// Where every call's usage is recorded.
    store: Store,
    /// What calls may still cost.
    budget: Arc<crate::budget::Budget>,
}

/// A chain cut to what the budget allows, and the hold for the call.
pub struct Admitted {
    pub chain: Chain,
    pub reservation: Option<crate::budget::Reservation>,
    /// Why the first link was left out, when it was (said to the user).
    pub held_back: Option<String>,
}

impl Models {
    pub fn new(
        owner: Arc<SettingsOwner>,
        secrets: Arc<Secrets>,
        log_dir: PathBuf,
        events: Emitter<ModelEvent>,
        store: Store,
        budget: Arc<crate::budget::Budget>,
        lang: sidecar_domain::Lang,
    ) -> Self {
        let settings = owner.current();
        let configured = build_configured(&settings, &secrets);
        let routed = build_routed(&settings, &secrets);
        Self {
            budget,
            routed: RwLock::new(routed),
            builds: AtomicU64::new(1),
            store,
            secrets,
            local_choice: RwLock::new(Arc::new(LocalChoice::from_settings(&settings.local_model))),
            settings: owner,
            configured: RwLock::new(configured),
            local: Mutex::new(None),
            log_dir,
            events,
            status: StdMutex::new(ModelStatus::Idle),
            lang,
        }
    }

    pub fn settings(&self) -> Arc<Settings> {
        self.settings.current()
    }

    /// The settings' owner, through which every change is made.
    pub fn settings_owner(&self) -> &Arc<SettingsOwner> {
        &self.settings
    }

    /// Applies a change of the providers or the local model (from the Settings view,
    /// made through the owner) to the next call. The status goes back to unknown
    /// until `check` has looked.
    pub(crate) fn providers_changed(&self) {
        let settings = self.settings();
        self.set_status(ModelStatus::Idle);
        *self.configured.write().expect("providers lock") = build_configured(&settings, &self.secrets);
        *self.routed.write().expect("providers lock") = build_routed(&settings, &self.secrets);
        self.builds.fetch_add(1, Ordering::Relaxed);
        *self.local_choice.write().expect("settings lock") = Arc::new(LocalChoice::from_settings(&settings.local_model));
        self.budget.replace_settings(&settings);
    }

    /// Applies new limits (made through the owner) to the next call.
    pub(crate) fn budget_changed(&self) {
        self.budget.replace_settings(&self.settings());
    }

    pub fn budget(&self) -> &Arc<crate::budget::Budget> {
        &self.budget
    }

    /// `chain` as the budget allows it for `request`: the worst case of the first
    /// provider that fits is reserved; a later paid link stays only if it would fit
    /// too; free (local) links always stay.
    pub async fn admit(&self, chain: &Chain, request: &ChatRequest, background: bool) -> Admitted {
        // No limit, nothing to hold: the prompt is not even counted.
        if !self.settings().budget.limits_anything() {
            return Admitted { chain: chain.clone(), reservation: None, held_back: None };
        }
        let prompt = request.messages.iter().map(|m| crate::tokens::count_cached(&m.content)).sum::<usize>()
            + if request.tools.is_empty() { 0 } else { crate::tokens::count_cached(&serde_json::to_string(&request.tools).unwrap_or_default()) };
        let (mut kept, mut reservation, mut held, mut held_back) = (Vec::new(), None, false, None);
        for provider in &chain.providers {
            if provider.is_local() || crate::demo::is_demo(provider) {
                kept.push(provider.clone());
                continue;
            }
            match self.budget.reserve(&provider.id, provider.model(), background, prompt, request.max_tokens).await {
                Ok(hold) if !held => {
                    (reservation, held) = (hold, true);
                    kept.push(provider.clone());
                }
                // Only a check: the call holds one reservation.
                Ok(_) => kept.push(provider.clone()),
                Err(over) => {
                    let settings = self.settings();
                    held_back.get_or_insert_with(|| crate::budget::words::held_back(&over, &settings.budget.currency, settings.budget.usd_rate, self.lang));
                }
            }
        }
        Admitted { chain: Chain { providers: kept, ..chain.clone() }, reservation, held_back }
    }

    /// Settles the call's hold with what it cost.
    pub async fn settle(&self, admitted: Admitted, routed: &Result<Routed, RouteError>) {
        if let (Some(reservation), Ok(routed)) = (admitted.reservation, routed) {
            let prices = crate::pricing::PriceTable::new(self.settings().prices.clone());
            reservation.settle(&routed.provider_id, admitted.chain.cost_of(routed, &prices)).await;
        }
    }

    /// The chat chain: the pinned provider alone, or the routing order, or the
    /// offline model (started now if needed).
    pub async fn chat_chain(&self, pinned: Option<&str>) -> Result<Chain, ModelUnavailable> {
        let configured = self.configured.read().expect("providers lock").clone();
        if let Some(id) = pinned {
            if id == LOCAL_PROVIDER_ID {
                return Ok(Chain::new(vec![self.local().await?], true));
            }
            let provider = configured
                .iter()
                .find(|p| p.id == id)
                .cloned()
                .ok_or_else(|| ModelUnavailable(format!("this conversation uses provider \"{id}\", which is no longer configured; pick another model")))?;
            return Ok(Chain::new(vec![provider], true));
        }
        if configured.is_empty() {
            return Ok(Chain::new(vec![self.local().await?], false));
        }
        Ok(self.automatic(configured))
    }

    /// The configured providers in order, with the offline model's window while it
    /// stands in for them.
    fn automatic(&self, configured: Vec<Provider>) -> Chain {
        let standing_in = matches!(self.status(), ModelStatus::StandingIn { .. });
        let stand_in_window = standing_in.then(|| self.local_choice.read().expect("settings lock").context_tokens);
        Chain { stand_in_window, ..Chain::new(configured, false) }
    }

    /// The window of the chain [`Self::chat_chain`] would give for `pinned` now, and
    /// whether tool definitions go with it, without starting the offline model: the
    /// context meter's estimate before a call is made on the same terms as the call.
    pub fn next_room(&self, pinned: Option<&str>) -> Room {
        let configured = self.configured.read().expect("providers lock").clone();
        let offline = || Room { window: self.local_choice().context_tokens, tools: false };
        match pinned {
            Some(LOCAL_PROVIDER_ID) => offline(),
            Some(id) => match configured.into_iter().find(|p| p.id == id) {
                Some(provider) => Room { window: provider.context_window, tools: provider.supports_tools },
                None => offline(),
            },
            None if configured.is_empty() => offline(),
            None => {
                let chain = self.automatic(configured);
                Room { window: chain.context_window(), tools: chain.sends_tools() }
            }
        }
    }

    /// The offline model as the last link of an automatic chain whose providers all
    /// failed: `None` when it is not set up (no runtime folder) or cannot start.
    async fn offline_fallback(&self) -> Option<Provider> {
        self.settings().local_model.runtime.as_ref()?;
        match self.local().await {
            Ok(provider) => Some(provider),
            Err(error) => {
                tracing::warn!(%error, "the offline model could not stand in for a failed provider");
                None
            }
        }
    }

    /// One chat call through `chain`. When an automatic chain fails before saying
    /// anything, in a way another model might not, the offline model answers as its
    /// last link. The status then shows what answered, or why nothing did.
    pub async fn route(
        &self,
        chain: &Chain,
        policy: &RetryPolicy,
        request: &ChatRequest,
        on_delta: impl FnMut(&str),
        mut on_notice: impl FnMut(RouteNotice),
    ) -> Result<Routed, RouteError> {
        let admitted = self.admit(chain, request, false).await;
        let first = |c: &Chain| c.providers.first().map(|p| p.id.clone());
        let routed = match (&admitted.held_back, admitted.chain.providers.is_empty()) {
            (Some(reason), true) => self.over_budget(chain, reason, policy, request, on_delta, on_notice).await,
            // A provider past its own limit was left out: the reply says who answered, and why.
            (Some(reason), false) if first(chain) != first(&admitted.chain) => {
                let (from, to) = (first(chain).unwrap_or_default(), first(&admitted.chain).unwrap_or_default());
                on_notice(RouteNotice::FallingBack { from: from.clone(), to, reason: reason.clone() });
                let routed = self.route_admitted(&admitted.chain, policy, request, on_delta, on_notice).await;
                routed.map(|r| Routed { fallback_from: r.fallback_from.or(Some(from)), fallback_reason: Some(reason.clone()), ..r })
            }
            _ => self.route_admitted(&admitted.chain, policy, request, on_delta, on_notice).await,
        };
        self.settle(admitted, &routed).await;
        routed
    }

    /// Nothing the chain holds may be called: the offline model answers, saying why,
    /// or the call fails saying so.
    async fn over_budget(
        &self,
        chain: &Chain,
        reason: &str,
        policy: &RetryPolicy,
        request: &ChatRequest,
        on_delta: impl FnMut(&str),
        mut on_notice: impl FnMut(RouteNotice),
    ) -> Result<Routed, RouteError> {
        let Some(offline) = self.offline_fallback().await else {
            return Err(RouteError::OverBudget { reason: reason.to_string() });
        };
        let from = chain.providers.first().map(|p| p.id.clone()).unwrap_or_default();
        on_notice(RouteNotice::FallingBack { from: from.clone(), to: offline.id.clone(), reason: reason.to_string() });
        let answered = if crate::demo::is_demo(&offline) {
            crate::demo::complete(&offline, policy, request, on_delta, on_notice, self.lang).await
        } else {
            fallback::complete(std::slice::from_ref(&offline), true, policy, request, on_delta, on_notice).await
        };
        answered.map(|routed| Routed { fallback_from: Some(from), fallback_reason: Some(reason.to_string()), ..routed })
    }

    async fn route_admitted(
        &self,
        chain: &Chain,
        policy: &RetryPolicy,
        request: &ChatRequest,
        mut on_delta: impl FnMut(&str),
        mut on_notice: impl FnMut(RouteNotice),
    ) -> Result<Routed, RouteError> {
        let first = match chain.providers.as_slice() {
            [only] if crate::demo::is_demo(only) => crate::demo::complete(only, policy, request, &mut on_delta, &mut on_notice, self.lang).await,
            providers => fallback::complete(providers, chain.pinned, policy, request, &mut on_delta, &mut on_notice).await,
        };
        let mut stand_in_reason = None;
        let routed = match first {
            Err(RouteError::Failed { provider_id, error, streamed: false })
                if !chain.pinned && fallback::worth_falling_back(&error) && !chain.providers.iter().any(Provider::is_local) =>
            {
                // The header's words are the user's language's.
                let reason = sidecar_domain::Worded::said_in(&error, self.lang);
                stand_in_reason = Some(reason.clone());
                if !chain.demo_stands_in && self.local_choice.read().expect("settings lock").is_demo() && self.settings().local_model.runtime.is_some() {
                    // Not started to add nothing; the header still says who answers next.
                    self.set_status(self.offline_standing_in(&provider_id, &reason));
                    return Err(RouteError::Failed { provider_id, error, streamed: false });
                }
                match self.offline_fallback().await {
                    Some(offline) => {
                        on_notice(RouteNotice::FallingBack { from: provider_id, to: offline.id.clone(), reason: error.to_string() });
                        let second = if crate::demo::is_demo(&offline) {
                            crate::demo::complete(&offline, policy, request, on_delta, on_notice, self.lang).await
                        } else {
                            fallback::complete(std::slice::from_ref(&offline), true, policy, request, on_delta, on_notice).await
                        };
                        second.map(|routed| Routed { fallback_from: chain.providers.first().map(|p| p.id.clone()), ..routed })
                    }
                    None => Err(RouteError::Failed { provider_id, error, streamed: false }),
                }
            }
            other => other,
        };
        self.set_status(match &routed {
            Ok(Routed { fallback_from: Some(down), provider_id, model, .. }) if provider_id == LOCAL_PROVIDER_ID => ModelStatus::StandingIn {
                down: down.clone(),
                reason: stand_in_reason.unwrap_or_default(),
                model: model.clone(),
                demo: is_demo_reply(provider_id, model),
            },
            Ok(routed) => ready(&routed.provider_id, &routed.model),
            Err(error) => ModelStatus::Unavailable { message: sidecar_domain::Worded::said_in(error, self.lang) },
        });
        routed
    }

    /// Checks the first provider of the automatic chain with a cheap request (its
    /// model list) and sets the status from what came back.
    pub async fn check(&self) -> ModelStatus {
        let first = self.configured.read().expect("providers lock").first().cloned();
        let Some(first) = first else {
            // The offline model: ready once started, nothing to probe before.
            let local = self.local.lock().await.clone();
            let status = match local {
                Some(p) => ready(&p.id, p.model()),
                None => ModelStatus::Idle,
            };
            self.set_status(status.clone());
            return status;
        };
        let offline = self.settings().local_model.runtime.is_some();
        let status = match first.probe().await {
            Ok(()) => ready(&first.id, first.model()),
            Err(problem) if offline => self.offline_standing_in(&first.id, &sidecar_domain::Worded::said_in(&problem, self.lang)),
            Err(problem) => ModelStatus::Unavailable {
                message: crate::outcomes::provider_down(&first.id, &sidecar_domain::Worded::said_in(&problem, self.lang), self.lang),
            },
        };
        self.set_status(status.clone());
        status
    }

    /// The offline model as chosen, answering while `down` does not (`reason`).
    fn offline_standing_in(&self, down: &str, reason: &str) -> ModelStatus {
        let choice = self.local_choice.read().expect("settings lock");
        ModelStatus::StandingIn { down: down.to_string(), reason: reason.to_string(), model: choice.name.clone(), demo: choice.is_demo() }
    }

    /// The language the core's own words were fixed in at start.
    pub fn lang(&self) -> sidecar_domain::Lang {
        self.lang
    }

    /// No provider is configured: replies come from the offline demo model.
    pub fn configured_is_empty(&self) -> bool {
        self.configured.read().expect("providers lock").is_empty()
    }

    /// Only the built-in demo model answers (no provider, no larger offline model
    /// chosen), known without starting it: tasks cannot run (issue 71, M2).
    pub fn only_demo(&self) -> bool {
        self.configured_is_empty() && self.local_choice().is_demo()
    }

    /// The chain for `purpose`: its own routing when configured, else the chat chain
    /// (never pinned: background calls follow the user's routing, not a conversation's
    /// pick).
    pub async fn chain_for(&self, purpose: Purpose) -> Result<Chain, ModelUnavailable> {
        match self.routed(purpose) {
            Some(chain) => Ok(chain),
            None => self.chat_chain(None).await,
        }
    }

    /// The providers routed to `purpose` of its own, if any.
    pub fn routed(&self, purpose: Purpose) -> Option<Chain> {
        let routed = self.routed.read().expect("providers lock").get(&purpose).cloned();
        routed.filter(|p| !p.is_empty()).map(|providers| Chain::new(providers, false))
    }

    /// How many times providers were built from settings (each build reads keys).
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Relaxed)
    }

    /// Whether the model that answers a conversation pinned to `pinned` (else the first
    /// of the chain) takes images. The offline model does not.
    pub fn sees_images(&self, pinned: Option<&str>) -> bool {
        let configured = self.configured.read().expect("providers lock");
        match pinned {
            Some(id) => configured.iter().find(|p| p.id == id).is_some_and(|p| p.supports_images),
            None => configured.first().is_some_and(|p| p.supports_images),
        }
    }

    /// Resolves the chat chain now, so the first message does not wait for the
    /// offline server to load; with providers configured, checks the first one.
    pub async fn warm_up(&self) -> Result<(), ModelUnavailable> {
        if self.configured_is_empty() {
            return self.chat_chain(None).await.map(|_| ());
        }
        self.check().await;
        Ok(())
    }

    async fn local(&self) -> Result<Provider, ModelUnavailable> {
        let mut slot = self.local.lock().await;
        if let Some(provider) = slot.as_ref() {
            // The model runs in a process of its own: when it crashed (or was killed), the
            // next call starts it again instead of failing until the app restarts.
            match provider.local.as_ref().and_then(|server| server.exited()) {
                None => return Ok(provider.clone()),
                Some(status) => {
                    tracing::warn!(%status, "the offline model stopped; starting it again");
                    *slot = None;
                }
            }
        }
        let settings = self.settings();
        let runtime = settings
            .local_model
            .runtime
            .clone()
            .ok_or_else(|| ModelUnavailable(LocalServerError::NotConfigured.to_string()))
            .inspect_err(|why| self.set_local_status(ModelStatus::Unavailable { message: why.0.clone() }))?;
        self.set_status(ModelStatus::Starting);
        let choice = self.local_choice();
        let server = LocalServer::start(
            &runtime,
            choice.model.as_deref(),
            choice.context_tokens,
            &self.log_dir.join("local-model.log"),
            // A multi-gigabyte model takes longer to map than the demo one.
            Duration::from_secs(if choice.is_demo() { 90 } else { 300 }),
        )
        .await
        .map_err(|e| ModelUnavailable(e.to_string()))
        .inspect_err(|why| self.set_local_status(ModelStatus::Unavailable { message: why.0.clone() }))?;
        let provider = Provider::local(LOCAL_PROVIDER_ID, server, &choice.name, choice.context_tokens, choice.sampling, settings.llm.timeouts());
        self.set_local_status(ready(LOCAL_PROVIDER_ID, &choice.name));
        *slot = Some(provider.clone());
        Ok(provider)
    }

    /// The offline model's process id while it runs.
    pub async fn local_pid(&self) -> Option<u32> {
        self.local.lock().await.as_ref()?.local.as_ref()?.pid()
    }

    /// Stops the local server and, if it was running, starts it again on the model
    /// the settings now name; says how long the restart took.
    pub(crate) async fn restart_local(&self) -> Result<Option<Duration>, ModelUnavailable> {
        let was_running = self.local.lock().await.take().is_some();
        if !was_running {
            self.set_status(ModelStatus::Idle);
            return Ok(None);
        }
        let started = std::time::Instant::now();
        self.local().await?;
        Ok(Some(started.elapsed()))
    }

    /// The model the local server runs (or would run) and its window.
    pub(crate) fn local_choice(&self) -> Arc<LocalChoice> {
        self.local_choice.read().expect("settings lock").clone()
    }

    /// The latest known status, for a subscriber that joined late.
    pub fn status(&self) -> ModelStatus {
        self.status.lock().expect("status lock").clone()
    }

    /// The offline server's own news is the header's only while it is the chat model:
    /// a start begun at launch that ends after a provider was added must not say
    /// "Demo model" over the provider (`route` reports a fallback's outcome itself).
    fn set_local_status(&self, status: ModelStatus) {
        if self.configured_is_empty() {
            self.set_status(status);
        }
    }

    fn set_status(&self, status: ModelStatus) {
        let mut current = self.status.lock().expect("status lock");
        if *current != status {
            *current = status.clone();
            self.events.publish(ModelEvent::ModelStatus(status));
        }
    }

    /// One model call outside a turn (a summary, a decision): no streaming, no tools;
    /// its usage is recorded under `purpose`. The error says why, for the caller's log.
    pub async fn call_once(
        &self,
        chain: &Chain,
        request: crate::ChatRequest,
        purpose: Purpose,
        conversation_id: Option<i64>,
        timeout: Duration,
    ) -> Result<String, CallOnceError> {
        let settings = self.settings();
        let policy = settings.llm.retry_policy();
        let admitted = self.admit(chain, &request, purpose != Purpose::Chat).await;
        if let (Some(reason), true) = (&admitted.held_back, admitted.chain.providers.is_empty()) {
            return Err(CallOnceError::HeldBack(reason.to_string()));
        }
        let call = crate::fallback::complete(&admitted.chain.providers, admitted.chain.pinned, &policy, &request, |_| {}, |_| {});
        let routed = tokio::time::timeout(timeout, call).await.map_err(|_| CallOnceError::TimedOut(timeout.as_secs()))?;
        self.settle(admitted, &routed).await;
        let routed = routed?;
        let record = sidecar_store::UsageRecord {
            conversation_id,
            message_id: None,
            provider: &routed.provider_id,
            model: &routed.model,
            purpose: purpose.as_str(),
            usage: routed.completion.usage,
            cost_usd: chain.cost_of(&routed, &crate::pricing::PriceTable::new(settings.prices.clone())),
        };
        if let Err(error) = self.store.usage().record_usage(record).await {
            tracing::warn!(%error, purpose = purpose.as_str(), "could not record a model call's usage");
        }
        Ok(routed.completion.text)
    }

    /// Stops the offline server, if one was started.
    pub async fn shutdown(&self) {
        self.local.lock().await.take();
    }
}

/// The key a provider sends: a run-time override, the named environment variable,
/// or what the keychain (or this session) holds for it.
pub(crate) fn provider_key(provider: &ProviderSettings, secrets: &Secrets) -> Option<String> {
    provider.resolved_api_key().or_else(|| secrets.get(&provider.id))
}

fn build_configured(settings: &Settings, secrets: &Secrets) -> Vec<Provider> {
    build(settings.chat_chain(), settings, secrets)
}

fn build_routed(settings: &Settings, secrets: &Secrets) -> HashMap<Purpose, Vec<Provider>> {
    Purpose::ALL.into_iter().filter_map(|purpose| Some((purpose, build(settings.routed_chain(purpose)?, settings, secrets)))).collect()
}

fn build(chain: Vec<&ProviderSettings>, settings: &Settings, secrets: &Secrets) -> Vec<Provider> {
    let timeouts = settings.llm.timeouts();
    chain
        .into_iter()
        .map(|p| {
            let with_key = ProviderSettings { api_key: provider_key(p, secrets), ..p.clone() };
            Provider::from_settings(&with_key, timeouts, secrets.redactor())
        })
        .collect()
}

/// "Ready" for `provider`; the built-in offline model is marked as the demo it is
/// (a model chosen in the model manager runs on the same server and is not).
fn ready(provider: &str, model: &str) -> ModelStatus {
    ModelStatus::Ready { provider: provider.to_string(), model: model.to_string(), demo: is_demo_reply(provider, model) }
}

/// Whether a reply came from the built-in demo model, which cannot use tools.
pub fn is_demo_reply(provider: &str, model: &str) -> bool {
    provider == LOCAL_PROVIDER_ID && model == LOCAL_MODEL_NAME
}
