//! The companion: one object the desktop shell and the CLI drive. It owns the store,
//! the chat model and the event bus, and runs one turn at a time.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex as StdMutex};

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::events::{CoreEvent, EventBus};
use crate::llm::{ChatMessage, Completion, LlmError, Usage};
use crate::model::ModelSlot;
use crate::settings::{Settings, SettingsError};
use crate::store::{Message, MessageStatus, NewMessage, Role, Store, StoreError};

/// How many stored messages are sent as context. A plain window for now; the context
/// guard replaces it with a token budget.
const HISTORY_WINDOW: u32 = 40;

#[derive(Debug, thiserror::Error)]
pub enum CompanionError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the model is not available: {0}")]
    ModelUnavailable(String),
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("a reply is still being written; press Stop first")]
    Busy,
    #[error("there is no unanswered message to retry")]
    NothingToRetry,
    #[error("the message is empty")]
    EmptyMessage,
}

impl CompanionError {
    pub fn is_retryable(&self) -> bool {
        match self {
            CompanionError::Llm(e) => e.is_retryable(),
            CompanionError::ModelUnavailable(_) => true,
            _ => false,
        }
    }
}

/// Where the companion keeps its things.
#[derive(Debug, Clone)]
pub struct CompanionOptions {
    pub data_dir: PathBuf,
    pub settings: Settings,
}

impl CompanionOptions {
    /// Resolves the data dir and loads settings from flags, environment and defaults.
    pub fn resolve(data_dir: Option<&Path>, config: Option<&Path>) -> Result<Self, SettingsError> {
        Ok(Self {
            data_dir: crate::paths::data_dir(data_dir),
            settings: Settings::load(&crate::paths::config_file(config))?,
        })
    }
}

/// What a finished turn produced.
#[derive(Debug, Clone, Serialize)]
pub struct TurnOutcome {
    pub conversation_id: i64,
    pub message_id: i64,
    pub reply: String,
    pub status: MessageStatus,
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
}

pub struct Companion {
    store: Store,
    model: ModelSlot,
    events: EventBus,
    data_dir: PathBuf,
    active_turn: StdMutex<Option<CancellationToken>>,
}

/// Clears the active-turn slot on every exit path of a turn.
struct TurnGuard<'a>(&'a StdMutex<Option<CancellationToken>>);

impl Drop for TurnGuard<'_> {
    fn drop(&mut self) {
        *self.0.lock().expect("turn lock") = None;
    }
}

impl Companion {
    pub async fn open(options: CompanionOptions) -> Result<Arc<Self>, CompanionError> {
        let store = Store::open(&options.data_dir).await?;
        let events = EventBus::default();
        let model = ModelSlot::new(
            options.settings,
            options.data_dir.join("logs"),
            events.clone(),
        );
        Ok(Arc::new(Self {
            store,
            model,
            events,
            data_dir: options.data_dir,
            active_turn: StdMutex::new(None),
        }))
    }

    pub fn events(&self) -> &EventBus {
        &self.events
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// Starts the chat model now rather than at the first message, so the first reply
    /// does not wait for the offline server to load.
    pub async fn warm_up(&self) -> Result<(), CompanionError> {
        self.model
            .get()
            .await
            .map(|_| ())
            .map_err(CompanionError::ModelUnavailable)
    }

    pub fn model_status(&self) -> crate::events::ModelStatus {
        self.model.status()
    }

    /// The current conversation's last `limit` messages, oldest first.
    pub async fn history(&self, limit: u32) -> Result<Vec<Message>, CompanionError> {
        let conversation = self.store.current_conversation().await?;
        Ok(self.store.recent_messages(conversation, limit).await?)
    }

    /// Stores the user's message and produces a reply, streaming it as events.
    pub async fn send(&self, text: &str) -> Result<TurnOutcome, CompanionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(CompanionError::EmptyMessage);
        }
        let (cancel, _guard) = self.begin_turn()?;
        let conversation_id = self.store.current_conversation().await?;
        let user_message_id = self
            .store
            .add_message(NewMessage {
                conversation_id,
                role: Role::User,
                content: text,
                status: MessageStatus::Complete,
                finish_reason: None,
            })
            .await?;
        self.events.publish(CoreEvent::TurnStarted {
            conversation_id,
            user_message_id,
        });
        self.reply(conversation_id, cancel).await
    }

    /// Answers the last user message again after a failed turn, without storing it twice.
    pub async fn retry(&self) -> Result<TurnOutcome, CompanionError> {
        let (cancel, _guard) = self.begin_turn()?;
        let conversation_id = self.store.current_conversation().await?;
        let recent = self.store.recent_messages(conversation_id, 8).await?;
        let last = recent
            .iter()
            .rev()
            .find(|m| counts_as_context(m))
            .ok_or(CompanionError::NothingToRetry)?;
        if last.role != Role::User {
            return Err(CompanionError::NothingToRetry);
        }
        self.events.publish(CoreEvent::TurnStarted {
            conversation_id,
            user_message_id: last.id,
        });
        self.reply(conversation_id, cancel).await
    }

    /// Stops the turn in progress, if any. What was streamed so far is kept.
    pub fn stop(&self) -> bool {
        match self.active_turn.lock().expect("turn lock").as_ref() {
            Some(token) => {
                token.cancel();
                true
            }
            None => false,
        }
    }

    pub async fn shutdown(&self) {
        self.stop();
        self.model.shutdown().await;
        self.store.close().await;
    }

    fn begin_turn(&self) -> Result<(CancellationToken, TurnGuard<'_>), CompanionError> {
        let mut slot = self.active_turn.lock().expect("turn lock");
        if slot.is_some() {
            return Err(CompanionError::Busy);
        }
        let token = CancellationToken::new();
        *slot = Some(token.clone());
        Ok((token, TurnGuard(&self.active_turn)))
    }

    async fn reply(
        &self,
        conversation_id: i64,
        cancel: CancellationToken,
    ) -> Result<TurnOutcome, CompanionError> {
        let result = self.stream_reply(conversation_id, &cancel).await;
        if let Err(error) = &result {
            tracing::warn!(conversation_id, %error, "turn failed");
            self.events.publish(CoreEvent::TurnFailed {
                conversation_id,
                message: error.to_string(),
                retryable: error.is_retryable(),
            });
        }
        result
    }

    async fn stream_reply(
        &self,
        conversation_id: i64,
        cancel: &CancellationToken,
    ) -> Result<TurnOutcome, CompanionError> {
        let model = tokio::select! {
            model = self.model.get() => model.map_err(CompanionError::ModelUnavailable)?,
            _ = cancel.cancelled() => {
                return self.finish(conversation_id, "", MessageStatus::Stopped, Completion::default()).await;
            }
        };
        let history = self
            .store
            .recent_messages(conversation_id, HISTORY_WINDOW)
            .await?;
        let prompt = build_prompt(&history);

        let mut partial = String::new();
        let events = &self.events;
        let call = model.client.stream_chat(
            &prompt,
            self.model.settings().llm.max_tokens,
            |text| {
                partial.push_str(text);
                events.publish(CoreEvent::Delta {
                    conversation_id,
                    text: text.to_string(),
                });
            },
        );
        let outcome = tokio::select! {
            outcome = call => Some(outcome),
            _ = cancel.cancelled() => None,
        };
        match outcome {
            Some(Ok(completion)) => {
                let text = completion.text.clone();
                let outcome = self
                    .finish(conversation_id, &text, MessageStatus::Complete, completion)
                    .await?;
                self.store
                    .record_usage(
                        conversation_id,
                        Some(outcome.message_id),
                        &model.provider_id,
                        model.client.model(),
                        "chat",
                        outcome.usage,
                    )
                    .await?;
                Ok(outcome)
            }
            None => {
                self.finish(conversation_id, &partial, MessageStatus::Stopped, Completion::default())
                    .await
            }
            Some(Err(error)) => {
                if !partial.is_empty() {
                    self.store
                        .add_message(NewMessage {
                            conversation_id,
                            role: Role::Assistant,
                            content: &partial,
                            status: MessageStatus::Interrupted,
                            finish_reason: None,
                        })
                        .await?;
                }
                Err(error.into())
            }
        }
    }

    async fn finish(
        &self,
        conversation_id: i64,
        text: &str,
        status: MessageStatus,
        completion: Completion,
    ) -> Result<TurnOutcome, CompanionError> {
        let message_id = self
            .store
            .add_message(NewMessage {
                conversation_id,
                role: Role::Assistant,
                content: text,
                status,
                finish_reason: completion.finish_reason.as_deref(),
            })
            .await?;
        self.events.publish(CoreEvent::TurnFinished {
            conversation_id,
            message_id,
            status: status.as_str().to_string(),
            finish_reason: completion.finish_reason.clone(),
            usage: completion.usage,
        });
        Ok(TurnOutcome {
            conversation_id,
            message_id,
            reply: text.to_string(),
            status,
            finish_reason: completion.finish_reason,
            usage: completion.usage,
        })
    }
}

/// Messages that go back to the model: a reply that broke off mid-stream is kept for
/// the user to read but not fed back, so Retry answers the question afresh.
fn counts_as_context(message: &Message) -> bool {
    matches!(message.role, Role::User | Role::Assistant)
        && matches!(message.status, MessageStatus::Complete | MessageStatus::Stopped)
        && !message.content.is_empty()
}

fn build_prompt(history: &[Message]) -> Vec<ChatMessage> {
    let now = chrono::Local::now();
    let system = format!(
        "You are Sidecar, a warm and concise personal companion on the user's desktop. \
         Answer in the user's language. Current local time: {}.",
        now.format("%A %Y-%m-%d %H:%M %Z")
    );
    std::iter::once(ChatMessage::new("system", system))
        .chain(
            history
                .iter()
                .filter(|m| counts_as_context(m))
                .map(|m| ChatMessage::new(m.role.as_str(), m.content.clone())),
        )
        .collect()
}
