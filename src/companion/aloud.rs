//! Replies said aloud as they stream, followed step by step: this core's own turns (its
//! event bus), or, on a computer attached to a home core, the home's turns this computer
//! asked for (`home`), said by this computer's speakers. What the steps leave out (a
//! conversation's own switch, a reply that arrived whole) is read where the reply lives.

use futures_util::future::BoxFuture;

use super::Companion;
use sidecar_agent::ChatEvent;
use sidecar_agent::Notice;
use sidecar_proactive::Channel;
use sidecar_settings::SpeakReplies;

/// The conversation whose replies are said aloud, until the next turn starts.
pub(crate) struct Aloud {
    conversation: i64,
    /// The narrator has begun a reply of it and not ended it.
    pub(super) open: bool,
    /// Words of this reply were streamed (an answer Sidecar gave itself is not).
    said_any: bool,
}

/// One step of a reply, as the narrator follows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ReplyStep {
    /// A turn started; `here`: asked for from this computer's window (only those are said).
    Started {
        conversation: i64,
        here: bool,
    },
    Piece {
        conversation: i64,
        text: String,
    },
    /// The answer so far claimed what was not done and is replaced.
    Corrected {
        conversation: i64,
    },
    Finished {
        conversation: i64,
        message_id: i64,
    },
    Failed {
        conversation: i64,
    },
}

impl ReplyStep {
    /// The step a chat event of this core is, if any: its window's turns are "here".
    pub(crate) fn of(event: ChatEvent) -> Option<Self> {
        Some(match event {
            ChatEvent::TurnStarted { conversation_id, channel, .. } => Self::Started { conversation: conversation_id, here: channel == Channel::Desktop },
            ChatEvent::Delta { conversation_id, text } => Self::Piece { conversation: conversation_id, text },
            ChatEvent::Notice { conversation_id, notice: Notice::Corrected { .. } } => Self::Corrected { conversation: conversation_id },
            ChatEvent::TurnFinished { conversation_id, message_id, .. } => Self::Finished { conversation: conversation_id, message_id },
            ChatEvent::TurnFailed { conversation_id, .. } => Self::Failed { conversation: conversation_id },
            _ => return None,
        })
    }
}

/// Where a reply's words that its steps leave out are read.
pub(crate) trait ReplyTexts: Send + Sync {
    /// The conversation's own switch for saying replies aloud (None: Settings → Voice decides).
    fn speaks(&self, conversation: i64) -> BoxFuture<'_, Option<bool>>;
    /// A reply that arrived whole, never streamed.
    fn text(&self, message_id: i64) -> BoxFuture<'_, Option<String>>;
}

impl ReplyTexts for sidecar_store::Store {
    fn speaks(&self, conversation: i64) -> BoxFuture<'_, Option<bool>> {
        Box::pin(async move {
            self.conversations().conversation_speaks(conversation).await.unwrap_or_else(|error| {
                tracing::warn!(%error, "whether this conversation speaks is unknown: Settings → Voice decides");
                None
            })
        })
    }

    fn text(&self, message_id: i64) -> BoxFuture<'_, Option<String>> {
        Box::pin(async move { self.conversations().message(message_id).await.ok().flatten().map(|message| message.content) })
    }
}

impl Companion {
    /// One step of a turn; `saying` is the conversation whose replies are being said.
    pub(crate) async fn follow_reply(&self, step: ReplyStep, saying: &mut Option<Aloud>, texts: &dyn ReplyTexts) {
        let narrator = self.talk.narrator();
        let (lang, voicing) = (self.preferences.lang(), self.voicing());
        match step {
            ReplyStep::Started { conversation, here } => {
                // Only the window's own turn answers what its microphone heard.
                let spoken = here && self.talk.take_spoken_turn();
                let aloud = match (texts.speaks(conversation).await, self.models.settings().voice.speak_replies) {
                    (Some(false), _) | (None, SpeakReplies::Off) => false,
                    (None, SpeakReplies::VoiceOnly) => spoken,
                    (Some(true), _) | (None, SpeakReplies::Always) => here,
                };
                *saying = aloud.then_some(Aloud { conversation, open: true, said_any: false });
                if aloud {
                    narrator.begin(lang, voicing);
                }
            }
            ReplyStep::Piece { conversation, text } => {
                if let Some(aloud) = saying.as_mut().filter(|a| a.conversation == conversation) {
                    // The model's reply after an answer Sidecar gave itself (a reminder
                    // set, then the model told): the same turn, said on.
                    if !aloud.open {
                        narrator.begin(lang, voicing);
                    }
                    (aloud.open, aloud.said_any) = (true, true);
                    narrator.delta(&text);
                }
            }
            // What was said of a replaced answer stops, and the new one is said from its start.
            ReplyStep::Corrected { conversation } if saying.as_ref().is_some_and(|a| a.conversation == conversation) => {
                narrator.stop();
                narrator.begin(lang, voicing);
            }
            ReplyStep::Finished { conversation, message_id } => {
                let Some(aloud) = saying.as_mut().filter(|a| a.conversation == conversation) else { return };
                if !aloud.said_any {
                    // An answer Sidecar gave itself arrives whole, never streamed.
                    if let Some(text) = texts.text(message_id).await {
                        if !aloud.open {
                            narrator.begin(lang, voicing);
                        }
                        narrator.delta(&text);
                    }
                }
                narrator.end();
                (aloud.open, aloud.said_any) = (false, false);
            }
            ReplyStep::Failed { conversation } if saying.as_ref().is_some_and(|a| a.conversation == conversation) => {
                narrator.end();
                *saying = None;
            }
            ReplyStep::Corrected { .. } | ReplyStep::Failed { .. } => {}
        }
    }
}
