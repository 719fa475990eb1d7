//! Passages embedded in as few calls as the embedder answers in time. A batch that a
//! loaded machine or a slow model cannot embed within the request's limit would fail
//! the same way on every pass and stop the indexing for good; it is embedded in halves
//! instead, down to one text a call (issue 68: EmbeddingGemma on two busy cores).

use std::future::Future;

use super::EmbedError;

/// `texts` embedded through `call`, in order: whole, or, each time a call misses its
/// limit, in calls half as large from where the last answered one ended.
pub(crate) async fn in_calls_that_answer<F, Fut>(texts: &[String], mut call: F) -> Result<Vec<Vec<f32>>, EmbedError>
where
    F: FnMut(Vec<String>) -> Fut,
    Fut: Future<Output = Result<Vec<Vec<f32>>, EmbedError>>,
{
    let mut vectors = Vec::with_capacity(texts.len());
    let mut size = texts.len().max(1);
    while vectors.len() < texts.len() {
        let from = vectors.len();
        let chunk = &texts[from..(from + size).min(texts.len())];
        match call(chunk.to_vec()).await {
            Ok(answered) => vectors.extend(answered),
            Err(EmbedError::Slow(why)) if size > 1 => {
                size /= 2;
                tracing::info!(%why, size, "a batch of passages took too long; embedding smaller ones");
            }
            Err(e) => return Err(e),
        }
    }
    Ok(vectors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    fn texts(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("text {i}")).collect()
    }

    /// An embedder that misses its limit on more than `most` texts at once.
    async fn answer(chunk: Vec<String>, most: usize, calls: &RefCell<Vec<usize>>) -> Result<Vec<Vec<f32>>, EmbedError> {
        calls.borrow_mut().push(chunk.len());
        if chunk.len() > most {
            return Err(EmbedError::Slow("did not answer in time".into()));
        }
        Ok(chunk.iter().map(|t| vec![t.len() as f32, t.chars().last().and_then(|c| c.to_digit(10)).unwrap_or(0) as f32]).collect())
    }

    #[tokio::test]
    async fn a_batch_too_slow_whole_is_embedded_in_halves_in_order() {
        let calls = RefCell::new(Vec::new());
        let all = texts(16);
        let vectors = in_calls_that_answer(&all, |c| answer(c, 5, &calls)).await.unwrap();
        assert_eq!(vectors.len(), 16);
        let last_digits: Vec<f32> = vectors.iter().map(|v| v[1]).collect();
        assert_eq!(last_digits[..10], [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0], "each text keeps its vector");
        assert_eq!(*calls.borrow(), [16, 8, 4, 4, 4, 4], "whole, then halves until one answers, then that size");
    }

    #[tokio::test]
    async fn one_text_too_slow_and_other_errors_are_said() {
        let calls = RefCell::new(Vec::new());
        let slow = in_calls_that_answer(&texts(3), |c| answer(c, 0, &calls)).await;
        assert!(matches!(slow, Err(EmbedError::Slow(_))));
        assert_eq!(*calls.borrow(), [3, 1], "halved down to one text, then the error");
        let down = in_calls_that_answer(&texts(4), |_| async { Err(EmbedError::Unavailable("nothing answers there".into())) }).await;
        assert!(matches!(down, Err(EmbedError::Unavailable(_))), "only slowness is retried");
        assert!(in_calls_that_answer(&[], |c| answer(c, 1, &calls)).await.unwrap().is_empty());
    }
}
