//! Replies said aloud as they stream, followed step by step ([`ReplyStep`]): which turns
//! are said (the conversation's own switch, else `[voice] speak_replies`: never, those
//! answering words said through the microphone, or all of this window's), what a
//! correction does to what was said, and an answer that arrived whole. The steps come
//! from a core's event bus or a home core's stream; what they leave out is read where
//! the reply lives ([`ReplyTexts`]).

use futures_util::future::BoxFuture;
use sidecar_domain::Lang;
use sidecar_settings::SpeakReplies;

use crate::talk::Talk;
use crate::voicing::Voicing;

/// One step of a reply, as the narrator follows it.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplyStep {
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

/// Where a reply's words that its steps leave out are read.
pub trait ReplyTexts: Send + Sync {
    /// The conversation's own switch for saying replies aloud (None: Settings → Voice decides).
    fn speaks(&self, conversation: i64) -> BoxFuture<'_, Option<bool>>;
    /// A reply that arrived whole, never streamed.
    fn text(&self, message_id: i64) -> BoxFuture<'_, Option<String>>;
}

/// How replies are said now: the language, the voice, and `[voice] speak_replies`.
#[derive(Debug, Clone)]
pub struct Speaking {
    pub lang: Lang,
    pub voicing: Voicing,
    pub replies: SpeakReplies,
}

/// Follows one source of replies: the conversation being said aloud, until the next
/// turn starts.
#[derive(Debug, Default)]
pub struct ReplyFollower {
    saying: Option<Saying>,
}

#[derive(Debug)]
struct Saying {
    conversation: i64,
    /// The narrator has begun a reply of it and not ended it.
    open: bool,
    /// Words of this reply were streamed (an answer Sidecar gave itself is not).
    said_any: bool,
}

impl ReplyFollower {
    /// A reply is being said now (a reminder waits rather than cut into it).
    pub fn is_open(&self) -> bool {
        self.saying.as_ref().is_some_and(|s| s.open)
    }

    fn of(&mut self, conversation: i64) -> Option<&mut Saying> {
        self.saying.as_mut().filter(|s| s.conversation == conversation)
    }

    /// One step of a turn, said by `talk`'s narrator as `how` asks.
    pub async fn follow(&mut self, step: ReplyStep, talk: &Talk, how: &Speaking, texts: &dyn ReplyTexts) {
        let narrator = talk.narrator();
        let begin = || narrator.begin(how.lang, how.voicing.clone());
        match step {
            ReplyStep::Started { conversation, here } => {
                // Only the window's own turn answers what its microphone heard.
                let spoken = here && talk.take_spoken_turn();
                let aloud = match (texts.speaks(conversation).await, how.replies) {
                    (Some(false), _) | (None, SpeakReplies::Off) => false,
                    (None, SpeakReplies::VoiceOnly) => spoken,
                    (Some(true), _) | (None, SpeakReplies::Always) => here,
                };
                self.saying = aloud.then_some(Saying { conversation, open: true, said_any: false });
                if aloud {
                    begin();
                }
            }
            ReplyStep::Piece { conversation, text } => {
                if let Some(saying) = self.of(conversation) {
                    // The model's reply after an answer Sidecar gave itself (a reminder
                    // set, then the model told): the same turn, said on.
                    if !saying.open {
                        begin();
                    }
                    (saying.open, saying.said_any) = (true, true);
                    narrator.delta(&text);
                }
            }
            // What was said of a replaced answer stops, and the new one is said from its start.
            ReplyStep::Corrected { conversation } => {
                if self.of(conversation).is_some() {
                    narrator.stop();
                    begin();
                }
            }
            ReplyStep::Finished { conversation, message_id } => {
                let Some(saying) = self.of(conversation) else { return };
                if !saying.said_any {
                    // An answer Sidecar gave itself arrives whole, never streamed.
                    if let Some(text) = texts.text(message_id).await {
                        if !saying.open {
                            begin();
                        }
                        narrator.delta(&text);
                    }
                }
                narrator.end();
                (saying.open, saying.said_any) = (false, false);
            }
            ReplyStep::Failed { conversation } => {
                if self.of(conversation).is_some() {
                    narrator.end();
                    self.saying = None;
                }
            }
        }
    }
}
