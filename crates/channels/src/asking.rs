//! Permission asked on the phone: a turn that came from Telegram or WhatsApp asks in
//! the chat its message came from (the window's card shows too, and the first answer
//! wins). The user's next message there is read as the answer when it is one of the
//! words offered; anything else is a message like any other, and the question waits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;

use super::source::{IncomingMessage, MessageSource};
use sidecar_actions::Answer;
use sidecar_actions::AnswerFuture;
use sidecar_actions::Asker;
use sidecar_actions::Choice;
use sidecar_actions::Question;
use sidecar_actions::PATIENCE;
use sidecar_domain::Channel;
use sidecar_domain::Lang;

#[derive(Default)]
struct State {
    /// Where each phone channel's last message came from: its turn asks there.
    heard: HashMap<Channel, (Arc<dyn MessageSource>, IncomingMessage)>,
    /// The question waiting on each channel: its id, who wrote the message that raised
    /// it, the answers it offered, and where the answer goes.
    waiting: HashMap<Channel, (u64, String, Vec<Choice>, oneshot::Sender<Choice>)>,
    next_id: u64,
}

pub struct PhoneQuestions {
    lang: Lang,
    patience: Duration,
    state: Mutex<State>,
}

impl PhoneQuestions {
    pub(crate) fn new(lang: Lang) -> Self {
        Self::with_patience(lang, PATIENCE)
    }

    pub(crate) fn with_patience(lang: Lang, patience: Duration) -> Self {
        Self { lang, patience, state: Mutex::default() }
    }

    /// A phone message is about to be answered: a question its turn raises goes back
    /// to the chat it came from.
    pub(crate) fn heard(&self, source: &Arc<dyn MessageSource>, message: &IncomingMessage) {
        if message.channel.is_phone() {
            self.state.lock().expect("phone questions lock").heard.insert(message.channel, (source.clone(), message.clone()));
        }
    }

    /// Takes `message` as the answer to the question waiting on its channel, if it is
    /// one (from the same person, in the words offered). True when it was.
    pub(crate) fn answered(&self, message: &IncomingMessage) -> bool {
        let mut state = self.state.lock().expect("phone questions lock");
        let Some((_, asked_by, offered, _)) = state.waiting.get(&message.channel) else { return false };
        if *asked_by != message.user_id {
            return false;
        }
        let Some(choice) = sidecar_actions::choice_words(&message.content, offered, self.lang) else { return false };
        let (_, _, _, answer) = state.waiting.remove(&message.channel).expect("looked up above");
        answer.send(choice).is_ok()
    }
}

impl Asker for PhoneQuestions {
    fn ask(&self, question: Question) -> AnswerFuture<'_> {
        Box::pin(async move {
            let Some(channel) = question.channel.filter(|c| c.is_phone()) else { return Answer::NoOneToAsk };
            let Some((source, message)) = self.state.lock().expect("phone questions lock").heard.get(&channel).cloned() else {
                return Answer::NoOneToAsk;
            };
            let (sender, receiver) = oneshot::channel();
            let id = {
                let mut state = self.state.lock().expect("phone questions lock");
                state.next_id += 1;
                let id = state.next_id;
                state.waiting.insert(channel, (id, message.user_id.clone(), question.choices.clone(), sender));
                id
            };
            // However the wait ends (answered, timed out, answered in the window, the
            // turn stopped), the phone stops taking answers for it.
            let _waiting = Waiting { questions: self, channel, id };
            let text = sidecar_actions::question_words(&question, self.lang);
            if let Err(error) = source.ask(&message, &text, &sidecar_actions::button_words(&question.choices, self.lang)).await {
                tracing::warn!(%error, channel = channel.as_str(), "could not ask on the phone");
                return Answer::NoOneToAsk;
            }
            match tokio::time::timeout(self.patience, receiver).await {
                Ok(Ok(choice)) => Answer::Chose(choice),
                _ => Answer::NoAnswer,
            }
        })
    }
}

struct Waiting<'a> {
    questions: &'a PhoneQuestions,
    channel: Channel,
    id: u64,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut state = self.questions.state.lock().expect("phone questions lock");
        if state.waiting.get(&self.channel).is_some_and(|(id, _, _, _)| *id == self.id) {
            state.waiting.remove(&self.channel);
        }
    }
}
