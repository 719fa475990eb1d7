//! Token counts with tiktoken's cl100k_base: exact for OpenAI's GPT-4 family and a
//! close, consistent estimate for other models. The encoder is built once.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

fn encoder() -> &'static CoreBPE {
    static ENCODER: OnceLock<CoreBPE> = OnceLock::new();
    ENCODER.get_or_init(|| tiktoken_rs::cl100k_base().expect("the cl100k table ships inside tiktoken-rs"))
}

/// Tokens in `text`.
pub fn count(text: &str) -> usize {
    encoder().encode_ordinary(text).len()
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_like_cl100k() {
        assert_eq!(super::count(""), 0);
        assert_eq!(super::count("hello world"), 2);
        assert!(super::count("Es alérgico al maní") >= 5);
    }
}
