//! The wire side of the Telegram channel: the long-polling loop, the gate applied to
//! each update, and sending with flood control. The next update id is kept in the
//! store and every message id is recorded once, so a restart, a reconnect or a
//! server that repeats itself never answers a message twice and never skips one.

use crate::error::PhoneError;
use crate::events::ChannelEvent;
use crate::rows::ChannelMarksStore;
use sidecar_voice::Unheard;
use std::sync::Arc;
use std::time::Duration;

use teloxide_core::net::Download;
use teloxide_core::payloads::{SendMessageSetters, SendVoiceSetters};
use teloxide_core::requests::{Request, Requester};
use teloxide_core::types::{BotCommand, ChatAction, ChatId, InlineKeyboardMarkup, InputFile, MessageReactionUpdated, UpdateKind, Voice};
use teloxide_core::{ApiError, RequestError};
use tokio_util::sync::CancellationToken;

use super::gate::{self, Verdict};
use super::guard::{WrongCode, MAX_WRONG_CODES};
use super::poll;
use super::reactions;
use super::text::{split, MAX_UNITS};
use super::Telegram;
use crate::backoff::Backoff;
use crate::source::IncomingMessage;
use crate::voice_note;
use crate::words;
use sidecar_domain::Channel;
use sidecar_domain::Redactor;

/// Telegram clears "typing…" after about 5 s; it is renewed a little sooner.
const TYPING_EVERY: Duration = Duration::from_millis(4_500);

fn backoff() -> Backoff {
    Backoff::new(Duration::from_millis(500), Duration::from_secs(30))
}

/// What a failed request means for the caller.
fn describe(error: &RequestError, redactor: &Redactor) -> String {
    match error {
        RequestError::Network(e) if e.is_connect() => match sidecar_llm::ConnectFailure::read("https://api.telegram.org", e) {
            sidecar_llm::ConnectFailure::Offline(said) => said,
            sidecar_llm::ConnectFailure::Other(_) => "cannot reach the Telegram server".into(),
        },
        RequestError::Network(e) if e.is_timeout() => "the Telegram server did not answer in time".into(),
        other => redactor.scrub(&other.to_string()).into_owned(),
    }
}

impl Telegram {
    /// Polls until shut down: updates in, each judged and handed on once.
    pub(crate) async fn run(self: Arc<Self>) {
        self.announce_commands().await;
        if let Err(error) = self.with.store.channel_marks().forget_old().await {
            tracing::warn!(%error, "could not forget old channel marks");
        }
        let mut offset: i64 = match self.with.store.channel_marks().cursor(Channel::Telegram).await {
            Ok(cursor) => cursor.and_then(|c| c.parse().ok()).unwrap_or(0),
            Err(error) => {
                tracing::warn!(%error, "could not read Telegram's cursor; starting from what the server holds");
                0
            }
        };
        let mut waits = backoff();
        loop {
            let poll = poll::get_updates(&self.bot, offset, self.settings.poll_timeout_secs).send();
            let result = tokio::select! {
                result = poll => result,
                _ = self.stop.cancelled() => return,
            };
            let wait = match result {
                Ok(updates) => {
                    self.health.up(self.with.clock.now());
                    waits.reset();
                    let updates: Vec<poll::Polled> = updates.iter().filter_map(poll::read).collect();
                    offset = poll::next_offset(offset, &updates);
                    for update in updates {
                        match update.kind {
                            Some(kind) => self.take(kind).await,
                            None => tracing::info!(update = update.id, "Telegram update of a kind Sidecar does not read, skipped"),
                        }
                    }
                    if let Err(error) = self.with.store.channel_marks().set_cursor(Channel::Telegram, &offset.to_string()).await {
                        tracing::warn!(%error, "could not keep Telegram's cursor");
                    }
                    continue;
                }
                Err(RequestError::RetryAfter(seconds)) => seconds.duration(),
                Err(RequestError::Api(ApiError::InvalidToken)) => {
                    self.health.needs_setup("Telegram refused the bot token: paste the token @BotFather gave you in Settings → Channels");
                    Duration::from_secs(60)
                }
                Err(error) => {
                    let reason = describe(&error, &self.with.redactor);
                    tracing::warn!(%reason, "Telegram poll failed");
                    self.health.down(self.with.clock.now(), &reason);
                    waits.next_wait()
                }
            };
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = self.stop.cancelled() => return,
            }
        }
    }

    /// A paired chat's reaction on a spontaneous message Sidecar sent there teaches
    /// that message's kind, as a thumb under it in the chat would.
    async fn take_reaction(&self, reaction: MessageReactionUpdated) {
        let chat = reaction.chat.id.0;
        if reaction.user().is_none() || !self.allowed().contains(&chat) {
            return;
        }
        let Some(signal) = reactions::signal_of(&reaction.old_reaction, &reaction.new_reaction) else { return };
        let remote_id = format!("{chat}:{}", reaction.message_id.0);
        let sent = match self.with.store.channel_marks().spontaneous_sent(Channel::Telegram, &remote_id).await {
            Ok(Some(sent)) => sent,
            Ok(None) => return tracing::debug!(%remote_id, "a reaction on a message that was not spontaneous"),
            Err(error) => return tracing::warn!(%error, "could not look up a reacted Telegram message"),
        };
        let Some(proactive) = self.with.proactive.upgrade() else { return };
        if let Err(error) = proactive.feedback_sent(sent.0, Channel::Telegram, sent.1, signal).await {
            tracing::warn!(%error, "a Telegram reaction taught nothing");
        }
    }

    /// Tells Telegram the command menu (best effort: the bot works without it).
    async fn announce_commands(&self) {
        let commands = words::command_menu(self.with.lang).map(|(name, about)| BotCommand::new(name, about));
        if let Err(error) = self.bot.set_my_commands(commands).send().await {
            tracing::info!(reason = %describe(&error, &self.with.redactor), "Telegram command menu not set");
        }
    }

    /// One update: a paired chat's message goes to the conversation, `/start CODE`
    /// pairs, anyone else is told the bot is private. A message id already taken in
    /// is dropped.
    async fn take(self: &Arc<Self>, kind: UpdateKind) {
        let message = match kind {
            UpdateKind::Message(message) => message,
            UpdateKind::CallbackQuery(query) => return self.take_press(query).await,
            UpdateKind::MessageReaction(reaction) => return self.take_reaction(reaction).await,
            _ => return,
        };
        // A voice note is judged as a message with no text: only a paired chat's is heard.
        let voice = message.voice().cloned();
        let text = match (message.text(), &voice) {
            (Some(text), _) => text,
            (None, Some(_)) => "",
            (None, None) => return,
        };
        let chat = message.chat.id.0;
        let id = format!("{chat}:{}", message.id.0);
        match self.with.store.channel_marks().first_sight(Channel::Telegram, &id).await {
            Ok(true) => {}
            Ok(false) => return tracing::info!(%id, "duplicate Telegram message dropped"),
            Err(error) => return tracing::warn!(%error, %id, "could not check a Telegram message; left for the next poll"),
        }
        let now = self.with.clock.now();
        let locked = self.guard.lock().expect("guard lock").locked(now);
        let code = if locked { None } else { self.pairing_code() };
        let verdict = gate::judge(text, chat, &self.allowed(), code.as_ref(), now);
        let lang = self.with.lang;
        let reply = match verdict {
            Verdict::Pass(mut content) => {
                self.health.message_arrived(now);
                if let Some(voice) = voice {
                    match self.hear(&voice).await {
                        Ok(words) => content = words,
                        Err(Unheard(said)) => return self.answer_in_background(chat, said),
                    }
                }
                if sidecar_voice::asks_for_voice(&content) {
                    self.voice_replies.lock().expect("voice replies lock").insert(id.clone());
                }
                let incoming = IncomingMessage { id, channel: Channel::Telegram, user_id: chat.to_string(), content, received_at: now };
                self.arrivals.push(incoming);
                return;
            }
            Verdict::Pair => {
                *self.pairing.lock().expect("pairing lock") = None;
                self.guard.lock().expect("guard lock").paired(chat);
                match self.paired.add(chat) {
                    Ok(()) => {
                        tracing::info!(chat, "Telegram chat paired");
                        words::paired(lang)
                    }
                    Err(error) => return tracing::warn!(%error, "could not save the paired chat"),
                }
            }
            Verdict::Welcome => words::already_paired(lang),
            Verdict::WrongCode => {
                let mut guard = self.guard.lock().expect("guard lock");
                tracing::warn!(chat, "wrong Telegram pairing code");
                match guard.wrong_code(now) {
                    WrongCode::Tell => words::wrong_code(lang),
                    WrongCode::Locked => {
                        *self.pairing.lock().expect("pairing lock") = None;
                        tracing::warn!(chat, "pairing locked after {MAX_WRONG_CODES} wrong codes; the code is void");
                        let (title, body) = words::pairing_locked_alert(lang);
                        self.with.events.publish(ChannelEvent::ChannelWarning { channel: Channel::Telegram, title, body });
                        words::pairing_locked(lang)
                    }
                    WrongCode::WhileLocked if guard.may_answer(chat, now) => words::pairing_locked(lang),
                    WrongCode::WhileLocked => return,
                }
            }
            Verdict::Private => {
                tracing::info!(chat, "message from an unpaired Telegram chat refused");
                if !self.guard.lock().expect("guard lock").may_answer(chat, now) {
                    return;
                }
                words::private_bot(lang)
            }
        };
        self.answer_in_background(chat, reply.to_string());
    }

    /// Says `reply` off the polling loop: a slow send must not hold the next updates.
    fn answer_in_background(self: &Arc<Self>, chat: i64, reply: String) {
        let this = self.clone();
        tokio::spawn(async move {
            if let Err(error) = this.say(chat, &reply, Duration::from_secs(60)).await {
                tracing::warn!(%error, "could not answer a Telegram chat");
            }
        });
    }

    /// Sends `reply` as a voice note (said by espeak-ng, OGG/Opus as phones play them).
    pub(super) async fn say_aloud(&self, chat: i64, reply: &str) -> Result<(), PhoneError> {
        let note = crate::voice_note::answer(&self.with.settings, reply, self.with.lang).await?;
        let file = InputFile::memory(note.ogg).file_name("sidecar.ogg");
        self.bot
            .send_voice(ChatId(chat), file)
            .duration(note.seconds)
            .send()
            .await
            .map_err(|error| PhoneError::Service(describe(&error, &self.with.redactor)))?;
        self.health.up(self.with.clock.now());
        Ok(())
    }

    /// The words of a paired chat's voice note, or what to tell the chat. Awaited on the
    /// polling loop, so the note's words reach the conversation before anything the chat
    /// wrote after it.
    async fn hear(&self, voice: &Voice) -> Result<String, Unheard> {
        let lang = self.with.lang;
        voice_note::check(voice.duration.seconds(), u64::from(voice.file.size), lang)?;
        let file = self.bot.get_file(voice.file.id.clone()).send().await.map_err(|error| {
            tracing::warn!(error = %describe(&error, &self.with.redactor), "could not ask Telegram for a voice note");
            Unheard(words::voice_note_unfetched(lang).to_string())
        })?;
        voice_note::check(voice.duration.seconds(), u64::from(file.meta.size), lang)?;
        let mut bytes = Vec::new();
        if let Err(error) = self.bot.download_file(&file.path, &mut bytes).await {
            tracing::warn!(error = %self.with.redactor.scrub(&error.to_string()), "could not download a voice note");
            return Err(Unheard(words::voice_note_unfetched(lang).to_string()));
        }
        voice_note::hear(&self.with.speech, bytes, lang).await
    }

    /// Sends `text` to `chat`, cut to Telegram's length, as plain text. Flood control
    /// (`retry_after`) is waited out and network loss retried with backoff, for up to
    /// `patience`; each piece is sent once it has been accepted, never again.
    pub(super) async fn say(&self, chat: i64, text: &str, patience: Duration) -> Result<(), PhoneError> {
        self.say_with(chat, text, patience, None).await.map(drop)
    }

    /// `say`, with `buttons` under the last piece; returns the last piece's message id.
    pub(super) async fn say_with(&self, chat: i64, text: &str, patience: Duration, buttons: Option<InlineKeyboardMarkup>) -> Result<Option<i32>, PhoneError> {
        let give_up = tokio::time::Instant::now() + patience;
        let pieces = split(text, MAX_UNITS);
        let last = pieces.len().saturating_sub(1);
        let mut last_id = None;
        for (index, piece) in pieces.into_iter().enumerate() {
            let mut waits = backoff();
            loop {
                let mut sending = self.bot.send_message(ChatId(chat), &piece);
                if let Some(buttons) = buttons.as_ref().filter(|_| index == last) {
                    sending = sending.reply_markup(buttons.clone());
                }
                let wait = match sending.send().await {
                    Ok(sent) => {
                        self.health.up(self.with.clock.now());
                        last_id = Some(sent.id.0);
                        break;
                    }
                    Err(RequestError::RetryAfter(seconds)) => {
                        tracing::info!(seconds = seconds.seconds(), "Telegram asked to slow down");
                        seconds.duration()
                    }
                    Err(error @ (RequestError::Network(_) | RequestError::Io(_))) => {
                        let reason = describe(&error, &self.with.redactor);
                        self.health.down(self.with.clock.now(), &reason);
                        waits.next_wait()
                    }
                    Err(error) => return Err(PhoneError::Service(describe(&error, &self.with.redactor))),
                };
                if tokio::time::Instant::now() + wait > give_up {
                    return Err(PhoneError::TimedOut { service: "Telegram", seconds: patience.as_secs() });
                }
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = self.stop.cancelled() => return Err(PhoneError::ShuttingDown),
                }
            }
        }
        Ok(last_id)
    }

    /// Shows "typing…" in `chat` until `done`.
    pub(super) async fn keep_typing(&self, chat: i64, done: CancellationToken) {
        loop {
            if let Err(error) = self.bot.send_chat_action(ChatId(chat), ChatAction::Typing).send().await {
                tracing::debug!(reason = %describe(&error, &self.with.redactor), "typing indicator not shown");
            }
            tokio::select! {
                _ = tokio::time::sleep(TYPING_EVERY) => {}
                _ = done.cancelled() => return,
            }
        }
    }
}
