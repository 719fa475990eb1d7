//! How the user is asked: each process sets the front-end it has. The window shows a
//! card (and the answer comes back through [`WindowQuestions::answer`]); the terminal
//! asks on stdin; a process with no one to ask ([`Nobody`]) never allows.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::oneshot;

use super::grant::Choice;
use super::question::Question;
use crate::permissions::events::PermissionEvent;
use sidecar_domain::Emitter;

/// How long a question waits before it counts as Deny.
pub const PATIENCE: Duration = Duration::from_secs(5 * 60);

/// What came back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Chose(Choice),
    /// Nobody answered within [`PATIENCE`].
    NoAnswer,
    /// This process has no one to ask (`sidecar ask` with no terminal).
    NoOneToAsk,
}

pub type AnswerFuture<'a> = Pin<Box<dyn Future<Output = Answer> + Send + 'a>>;

pub trait Asker: Send + Sync {
    fn ask(&self, question: Question) -> AnswerFuture<'_>;
}

/// Asks `first` and `second` at once; the first answer wins and takes the other's
/// question down. One with no one to ask leaves it to the other.
pub(crate) async fn either(first: &dyn Asker, second: &dyn Asker, question: Question) -> Answer {
    let (mut one, mut other) = (first.ask(question.clone()), second.ask(question));
    tokio::select! {
        answer = &mut one => match answer {
            Answer::NoOneToAsk => other.await,
            answer => answer,
        },
        answer = &mut other => match answer {
            Answer::NoOneToAsk => one.await,
            answer => answer,
        },
    }
}

/// How long the user has been asked, in all: a turn's time limit does not run while
/// it waits for them.
#[derive(Debug, Default)]
pub(crate) struct AskingTime {
    state: Mutex<(usize, Option<std::time::Instant>, Duration)>,
}

impl AskingTime {
    /// Time with at least one question open, up to now.
    pub(crate) fn total(&self) -> Duration {
        let (_, since, done) = *self.state.lock().expect("asking time lock");
        done + since.map(|s| s.elapsed()).unwrap_or_default()
    }

    /// Counts from now until the returned guard is dropped.
    pub(crate) fn open(&self) -> OpenQuestion<'_> {
        let mut state = self.state.lock().expect("asking time lock");
        if state.0 == 0 {
            state.1 = Some(std::time::Instant::now());
        }
        state.0 += 1;
        OpenQuestion(self)
    }
}

pub(crate) struct OpenQuestion<'a>(&'a AskingTime);

impl Drop for OpenQuestion<'_> {
    fn drop(&mut self) {
        let mut state = self.0.state.lock().expect("asking time lock");
        state.0 -= 1;
        if state.0 == 0 {
            if let Some(since) = state.1.take() {
                state.2 += since.elapsed();
            }
        }
    }
}

/// A process with no one to ask: nothing that needs permission runs.
pub(crate) struct Nobody;

impl Asker for Nobody {
    fn ask(&self, _question: Question) -> AnswerFuture<'_> {
        Box::pin(async { Answer::NoOneToAsk })
    }
}

/// Questions shown in the window as cards, waiting for the user's click.
pub struct WindowQuestions {
    events: Emitter<PermissionEvent>,
    next_id: AtomicU64,
    waiting: Mutex<BTreeMap<u64, (Question, oneshot::Sender<Choice>)>>,
    patience: Duration,
    /// The language the cards are titled in.
    lang: sidecar_domain::Lang,
}

impl WindowQuestions {
    pub fn new(events: Emitter<PermissionEvent>, lang: sidecar_domain::Lang) -> Self {
        Self { events, next_id: AtomicU64::new(1), waiting: Mutex::default(), patience: PATIENCE, lang }
    }

    /// Questions still waiting (a window opened late shows them).
    pub fn waiting(&self) -> Vec<Question> {
        self.waiting.lock().expect("questions lock").values().map(|(q, _)| q.clone()).collect()
    }

    /// The user's click. False when the question is no longer waiting.
    pub fn answer(&self, id: u64, choice: Choice) -> bool {
        let sender = self.waiting.lock().expect("questions lock").remove(&id);
        let answered = sender.is_some_and(|(_, sender)| sender.send(choice).is_ok());
        if answered {
            self.events.publish(PermissionEvent::PermissionSettled { id });
        }
        answered
    }
}

impl Asker for WindowQuestions {
    fn ask(&self, mut question: Question) -> AnswerFuture<'_> {
        question.id = self.next_id.fetch_add(1, Ordering::Relaxed);
        question.title = super::words::title(&question, self.lang);
        let id = question.id;
        let (sender, receiver) = oneshot::channel();
        self.waiting.lock().expect("questions lock").insert(id, (question.clone(), sender));
        self.events.publish(PermissionEvent::PermissionAsked { question: Box::new(question) });
        Box::pin(async move {
            // A turn stopped while asking drops this future: the card goes with it.
            let _card = Card { questions: self, id };
            match tokio::time::timeout(self.patience, receiver).await {
                Ok(Ok(choice)) => Answer::Chose(choice),
                _ => Answer::NoAnswer,
            }
        })
    }
}

/// Takes a question's card down when its wait ends, however it ends.
struct Card<'a> {
    questions: &'a WindowQuestions,
    id: u64,
}

impl Drop for Card<'_> {
    fn drop(&mut self) {
        if self.questions.waiting.lock().expect("questions lock").remove(&self.id).is_some() {
            self.questions.events.publish(PermissionEvent::PermissionSettled { id: self.id });
        }
    }
}
