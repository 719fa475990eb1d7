//! The one door every tool that acts goes through: the policy decides from standing
//! grants, the user is asked when it cannot, and their answer is kept as they chose.

use crate::permissions::rows::GrantsStore;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use serde_json::Value;

use super::asking::{either, Answer, Asker, AskingTime, Nobody};
use super::grant::{Choice, Grant, Pinned};
use super::policy::{decide, Standing, Verdict};
use super::question::Question;
use sidecar_domain::Clock;
use sidecar_settings::Change;
use sidecar_settings::SettingsFileError;
use sidecar_settings::SettingsOwner;
use sidecar_store::Store;
use sidecar_store::StoreError;
use sidecar_tools::Action;
use sidecar_tools::CallScope;

/// Why a tool did not run. The model reads this; the outcome names the tool.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("the user denied {tool}; do not call it again for this request, and tell the user it was not done")]
    Denied { tool: String },
    #[error("{tool} is denied in Sidecar's settings (Settings → Permissions); tell the user it was not done")]
    StandingDenial { tool: String },
    #[error("permission to run {tool} was not given: nobody answered the question in time; tell the user it was not done")]
    NoAnswer { tool: String },
    #[error("{}", sidecar_tools::no_one_to_ask(tool))]
    NoOneToAsk { tool: String },
    #[error("permission for {tool} could not be checked ({reason}), so it did not run")]
    Unchecked { tool: String, reason: String },
}

pub struct PermissionGate {
    store: Store,
    clock: Clock,
    asker: RwLock<Arc<dyn Asker>>,
    /// Asks on the phone a turn came from (Telegram, WhatsApp), beside `asker`.
    phone: RwLock<Option<Arc<dyn Asker>>>,
    asking: AskingTime,
    /// What was allowed "in this chat", by chat; kept until Sidecar quits.
    in_chat: Mutex<HashMap<i64, Vec<String>>>,
    /// Holds `[tools] auto_allow_read_only`, read at each call (no copy kept here).
    settings: Arc<SettingsOwner>,
}

impl PermissionGate {
    /// A gate with no one to ask until a front-end sets its asker.
    pub fn new(store: Store, clock: Clock, settings: Arc<SettingsOwner>) -> Self {
        Self {
            store,
            clock,
            asker: RwLock::new(Arc::new(Nobody)),
            phone: RwLock::default(),
            asking: AskingTime::default(),
            in_chat: Mutex::default(),
            settings,
        }
    }

    pub fn set_asker(&self, asker: Arc<dyn Asker>) {
        *self.asker.write().expect("asker lock") = asker;
    }

    /// Questions from turns that came from a phone are asked there too.
    pub fn set_phone_asker(&self, asker: Arc<dyn Asker>) {
        *self.phone.write().expect("asker lock") = Some(asker);
    }

    /// How long the user has been asked, in all (a turn's limit pauses meanwhile).
    pub(crate) fn asking_time(&self) -> std::time::Duration {
        self.asking.total()
    }

    /// Settings' switch: tools the server marks read-only run without asking. Saved in
    /// settings.toml; a write that fails changes nothing.
    pub fn set_auto_read_only(&self, on: bool) -> Result<(), SettingsFileError> {
        self.settings.change(Change::AutoAllowReadOnly(on)).map(drop)
    }

    pub fn auto_read_only(&self) -> bool {
        self.settings.current().tools.auto_allow_read_only
    }

    /// Runs the policy; asks when it must. `Ok` means the call may run now.
    #[tracing::instrument(skip_all, fields(server = %action.server, tool = %action.definition.name))]
    pub(crate) async fn check(&self, action: &Action, arguments: &Value, scope: CallScope) -> Result<(), Refusal> {
        let tool = action.display_name();
        let unchecked = |e: StoreError| Refusal::Unchecked { tool: tool.clone(), reason: e.to_string() };
        let changed = match self.verdict(action, scope.conversation_id).await.map_err(unchecked)? {
            Verdict::Allowed => {
                self.remember_definition(action, false).await.map_err(unchecked)?;
                return Ok(());
            }
            Verdict::Denied => return Err(Refusal::StandingDenial { tool }),
            Verdict::Ask { changed } => changed,
        };
        let changed = changed.iter().map(|c| c.to_string()).collect();
        let choice = match self.ask(question(action, arguments, scope, changed, false), scope).await {
            Answer::Chose(choice) => choice,
            Answer::NoAnswer => return Err(Refusal::NoAnswer { tool }),
            Answer::NoOneToAsk => return Err(Refusal::NoOneToAsk { tool }),
        };
        tracing::info!(?choice, "the user answered");
        self.keep(action, choice, scope.conversation_id).await.map_err(unchecked)?;
        if choice.allows() {
            Ok(())
        } else {
            Err(Refusal::Denied { tool })
        }
    }

    /// Asks the user about a call made after the turn read a stranger's words: no
    /// standing grant, read-only hint or "in this chat" answer lets it through, and the
    /// answer is kept for this call only.
    #[tracing::instrument(skip_all, fields(server = %action.server, tool = %action.definition.name))]
    pub(crate) async fn confirm(&self, action: &Action, arguments: &Value, scope: CallScope) -> Result<(), Refusal> {
        let tool = action.display_name();
        match self.ask(question(action, arguments, scope, Vec::new(), true), scope).await {
            Answer::Chose(choice) if choice.allows() => {
                tracing::info!(?choice, "the user allowed a call after a stranger's words, this once");
                Ok(())
            }
            Answer::Chose(_) => Err(Refusal::Denied { tool }),
            Answer::NoAnswer => Err(Refusal::NoAnswer { tool }),
            Answer::NoOneToAsk => Err(Refusal::NoOneToAsk { tool }),
        }
    }

    /// Asks in the window (and on the phone the turn came from); the time asking is
    /// not the turn's.
    async fn ask(&self, question: Question, scope: CallScope) -> Answer {
        let asker = self.asker.read().expect("asker lock").clone();
        let phone = self.phone.read().expect("asker lock").clone().filter(|_| scope.channel.is_some_and(|c| c.is_phone()));
        let _open = self.asking.open();
        match phone {
            Some(phone) => either(asker.as_ref(), phone.as_ref(), question).await,
            None => asker.ask(question).await,
        }
    }

    /// What the policy says now, without asking.
    pub async fn verdict(&self, action: &Action, conversation_id: Option<i64>) -> Result<Verdict, StoreError> {
        let grants = self.store.grants().list().await?;
        let pins = self.store.grants().pins(&action.server).await?;
        let chat_keys = conversation_id.and_then(|c| self.in_chat.lock().expect("chat grants lock").get(&c).cloned()).unwrap_or_default();
        let standing = Standing { grants: &grants, pins: &pins, chat_keys: &chat_keys, auto_read_only: self.auto_read_only() };
        Ok(decide(action, &standing))
    }

    async fn keep(&self, action: &Action, choice: Choice, conversation_id: Option<i64>) -> Result<(), StoreError> {
        let now = self.clock.now();
        let grants = self.store.grants();
        match choice {
            Choice::Deny | Choice::AllowOnce => {}
            Choice::AllowInChat => {
                if let Some(chat) = conversation_id {
                    self.in_chat.lock().expect("chat grants lock").entry(chat).or_default().push(action.chat_key());
                }
            }
            Choice::AlwaysTool => grants.put(&action.server, &action.identity, Some(&action.definition.name), true, now).await?,
            Choice::AlwaysServer => grants.put(&action.server, &action.identity, None, true, now).await?,
        }
        if choice.allows() {
            // The user saw this definition (and what changed in it) and allowed it.
            self.remember_definition(action, true).await?;
        }
        Ok(())
    }

    /// Records the definition a call ran with: the first one seen under a grant, or
    /// (`approved`) the one the user just allowed.
    async fn remember_definition(&self, action: &Action, approved: bool) -> Result<(), StoreError> {
        if !approved {
            let pins = self.store.grants().pins(&action.server).await?;
            if pins.iter().any(|p| p.tool == action.definition.name && p.identity == action.identity) {
                return Ok(());
            }
        }
        let pinned = Pinned {
            identity: action.identity.clone(),
            tool: action.definition.name.clone(),
            pin: action.definition.pin(),
            definition: action.definition.clone(),
        };
        self.store.grants().approve(&action.server, &pinned, self.clock.now()).await
    }

    pub async fn grants(&self) -> Result<Vec<Grant>, StoreError> {
        self.store.grants().list().await
    }

    /// The CLI's and Settings' standing answers.
    pub async fn set_standing(&self, server: &str, identity: &str, tool: Option<&str>, allow: bool) -> Result<(), StoreError> {
        self.store.grants().put(server, identity, tool, allow, self.clock.now()).await
    }

    pub async fn revoke(&self, server: &str, tool: Option<&str>) -> Result<u64, StoreError> {
        let prefix = format!("{server}\n");
        self.in_chat.lock().expect("chat grants lock").values_mut().for_each(|keys| keys.retain(|k| !k.starts_with(&prefix)));
        self.store.grants().revoke(server, tool).await
    }
}

/// The question about `action` called with `arguments`.
fn question(action: &Action, arguments: &Value, scope: CallScope, changed: Vec<String>, after_strangers: bool) -> Question {
    Question {
        id: 0,
        title: String::new(),
        asking: action.asking,
        server: action.server.clone(),
        tool: action.definition.name.clone(),
        called_as: action.called_as.clone(),
        description: action.definition.description.clone(),
        arguments: arguments.clone(),
        changed,
        conversation_id: scope.conversation_id,
        channel: scope.channel,
        after_strangers,
        choices: match after_strangers {
            true => vec![Choice::AllowOnce, Choice::Deny],
            false => Choice::ALL.to_vec(),
        },
    }
}

impl sidecar_tools::Guard for PermissionGate {
    fn check<'a>(
        &'a self,
        action: &'a Action,
        arguments: &'a Value,
        scope: CallScope,
    ) -> futures_util::future::BoxFuture<'a, Result<(), sidecar_tools::NotAllowed>> {
        Box::pin(async move { PermissionGate::check(self, action, arguments, scope).await.map_err(|refusal| sidecar_tools::NotAllowed(refusal.to_string())) })
    }

    fn confirm<'a>(
        &'a self,
        action: &'a Action,
        arguments: &'a Value,
        scope: CallScope,
    ) -> futures_util::future::BoxFuture<'a, Result<(), sidecar_tools::NotAllowed>> {
        Box::pin(async move { PermissionGate::confirm(self, action, arguments, scope).await.map_err(|refusal| sidecar_tools::NotAllowed(refusal.to_string())) })
    }

    fn asking_time(&self) -> std::time::Duration {
        PermissionGate::asking_time(self)
    }
}
