//! A model as the judge of a pair of facts the words did not settle: close in meaning
//! (at least `BORDERLINE_COSINE`), yet neither confirmed as one nor told as a change.
//! Only the `extract` route is asked, so nothing is sent anywhere unless the user
//! routed a model there; its answer is one word, and anything else leaves the words
//! to decide.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::knowledge::meaning::{FactJudge, SameFact};
use sidecar_llm::ChatMessage;
use sidecar_llm::ChatRequest;
use sidecar_llm::Models;
use sidecar_settings::Purpose;

/// A judgement is a few tokens; a model slower than this is not waited for.
const JUDGE_TIMEOUT: Duration = Duration::from_secs(20);

const INSTRUCTIONS: &str = "You compare two facts a personal assistant keeps about its user. \
Answer with one word: SAME if the second says the same thing as the first in other words, \
REPLACES if the second says the first no longer holds, DIFFERENT otherwise.";

/// The model's one word, read leniently (case, punctuation, a word before it).
pub(crate) fn read(answer: &str) -> Option<SameFact> {
    let upper = answer.to_uppercase();
    let words: Vec<&str> = upper.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).collect();
    match words.as_slice() {
        [.., "REPLACES"] | ["REPLACES", ..] => Some(SameFact::Replaces),
        [.., "SAME"] | ["SAME", ..] => Some(SameFact::Same),
        [.., "DIFFERENT"] | ["DIFFERENT", ..] => Some(SameFact::Different),
        _ => None,
    }
}

pub struct ModelJudge(pub Arc<Models>);

impl FactJudge for ModelJudge {
    fn available(&self) -> bool {
        self.0.routed(Purpose::Extract).is_some()
    }

    fn judge<'a>(&'a self, existing: &'a str, new: &'a str) -> Pin<Box<dyn Future<Output = Option<SameFact>> + Send + 'a>> {
        Box::pin(async move {
            let chain = self.0.routed(Purpose::Extract)?;
            let request = ChatRequest {
                messages: vec![ChatMessage::system(INSTRUCTIONS), ChatMessage::user(format!("First: {existing}\nSecond: {new}"))],
                tools: Vec::new(),
                max_tokens: Some(8),
                general_cap: false,
            };
            match self.0.call_once(&chain, request, Purpose::Extract, None, JUDGE_TIMEOUT).await {
                Ok(answer) => read(&answer).or_else(|| {
                    tracing::info!(answer = %answer.chars().take(40).collect::<String>(), "the model's judgement of two facts was not one word; the words decide");
                    None
                }),
                Err(error) => {
                    tracing::info!(%error, "no model judgement of two facts; the words decide");
                    None
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_word_is_read_leniently_and_anything_else_is_no_judgement() {
        assert_eq!(read("SAME"), Some(SameFact::Same));
        assert_eq!(read("same."), Some(SameFact::Same));
        assert_eq!(read("Answer: REPLACES"), Some(SameFact::Replaces));
        assert_eq!(read("Different\n"), Some(SameFact::Different));
        assert_eq!(read("I think they are similar"), None);
        assert_eq!(read(""), None);
    }
}
