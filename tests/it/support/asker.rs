//! A user answering permission questions from a script, and every question asked.

use std::collections::VecDeque;
use std::sync::Mutex;

use sidecar_actions::Answer;
use sidecar_actions::Asker;
use sidecar_actions::Choice;
use sidecar_actions::Question;

#[derive(Default)]
pub(crate) struct ScriptedAsker {
    /// Answers in order; with none left, nobody answers.
    pub answers: Mutex<VecDeque<Answer>>,
    pub asked: Mutex<Vec<Question>>,
}

impl ScriptedAsker {
    pub(crate) fn will(&self, choice: Choice) {
        self.answers.lock().unwrap().push_back(Answer::Chose(choice));
    }

    pub(crate) fn questions(&self) -> usize {
        self.asked.lock().unwrap().len()
    }

    pub(crate) fn last(&self) -> Question {
        self.asked.lock().unwrap().last().cloned().expect("a question was asked")
    }
}

impl Asker for ScriptedAsker {
    fn ask(&self, question: Question) -> sidecar_actions::AnswerFuture<'_> {
        self.asked.lock().unwrap().push(question);
        let answer = self.answers.lock().unwrap().pop_front().unwrap_or(Answer::NoAnswer);
        Box::pin(async move { answer })
    }
}
