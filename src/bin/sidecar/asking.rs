//! `sidecar chat` asks for permission on the terminal, reading the answer from the
//! same lines the messages come from (no message is read while a reply is written).

use std::sync::Arc;

use sidecar_actions::Answer;
use sidecar_actions::AnswerFuture;
use sidecar_actions::Asker;
use sidecar_actions::Question;
use sidecar_actions::PATIENCE;
use tokio::sync::{mpsc::Receiver, Mutex};

pub(crate) struct TerminalAsker {
    pub lines: Arc<Mutex<Receiver<String>>>,
    pub lang: sidecar_domain::Lang,
}

impl Asker for TerminalAsker {
    fn ask(&self, question: Question) -> AnswerFuture<'_> {
        Box::pin(async move {
            eprintln!("\n{}", sidecar_actions::question_words(&question, self.lang));
            let mut lines = self.lines.lock().await;
            let read = async {
                loop {
                    eprint!("? ");
                    let Some(line) = lines.recv().await else { return Answer::NoAnswer };
                    if let Some(choice) = sidecar_actions::choice_words(&line, &question.choices, self.lang) {
                        return Answer::Chose(choice);
                    }
                }
            };
            tokio::time::timeout(PATIENCE, read).await.unwrap_or(Answer::NoAnswer)
        })
    }
}
