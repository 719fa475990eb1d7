//! Token counts with tiktoken's cl100k_base: exact for OpenAI's GPT-4 family and a
//! close, consistent estimate for other models. The encoder is built once, and counts
//! are cached by content so a long history is not re-encoded on every model call.
//!
//! Text is counted in pieces of at most a few kilobytes, cut where a word ends. The
//! encoder's cost grows with the square of a word's length, and its regex recursion
//! overflows the stack on a word of megabytes; pieces keep counting linear and safe
//! for any text. A run with no space longer than a piece is cut blindly: such a "word"
//! is not language, and its count only needs to be close.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

use sidecar_domain::content_key;
use sidecar_domain::Memo;

fn encoder() -> &'static CoreBPE {
    static ENCODER: OnceLock<CoreBPE> = OnceLock::new();
    ENCODER.get_or_init(|| tiktoken_rs::cl100k_base().expect("the cl100k table ships inside tiktoken-rs"))
}

/// The longest piece handed to the encoder at once, in bytes.
const PIECE_BYTES: usize = 8 * 1024;
/// How much of a run with no word end is encoded at once, in bytes.
const BLIND_CUT_BYTES: usize = 256;

/// Tokens in `text`.
pub fn count(text: &str) -> usize {
    pieces(text).map(|piece| encoder().encode_ordinary(piece).len()).sum()
}

/// `text` in pieces the encoder handles in linear time.
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = if rest.len() <= PIECE_BYTES {
            rest.len()
        } else {
            word_end(&rest[..floor_boundary(rest, PIECE_BYTES)]).unwrap_or_else(|| floor_boundary(rest, BLIND_CUT_BYTES))
        };
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

/// The last place in `text` where a space follows a non-space: the encoder starts a
/// new piece there anyway, so cutting there changes no count.
fn word_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (1..bytes.len()).rev().find(|&i| bytes[i] == b' ' && !bytes[i - 1].is_ascii_whitespace())
}

/// The largest char boundary at or below `at`, and above zero.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at.max(text.chars().next().map_or(0, char::len_utf8))
}

/// Like [`count`], remembered by content.
pub fn count_cached(text: &str) -> usize {
    // Entries kept before the cache starts over (a few MB at most).
    static COUNTS: Memo<(u64, usize), usize> = Memo::new(200_000);
    // Short texts too: a long history is mostly short messages, and encoding one costs
    // microseconds where a lookup costs tens of nanoseconds.
    if text.is_empty() {
        return 0;
    }
    let key = content_key(text);
    COUNTS.get(&key).unwrap_or_else(|| {
        let n = count(text);
        COUNTS.insert(key, n);
        n
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_like_cl100k() {
        assert_eq!(super::count(""), 0);
        assert_eq!(super::count("hello world"), 2);
        assert!(super::count("Es alérgico al maní") >= 5);
    }

    #[test]
    fn pieces_change_no_count_of_ordinary_text() {
        let text = "Mañana tengo una reunión con el equipo de diseño a las 10, y después voy al gimnasio. ".repeat(400);
        let whole = super::encoder().encode_ordinary(&text).len();
        assert!(text.len() > 4 * super::PIECE_BYTES);
        assert_eq!(super::count(&text), whole);
    }

    #[test]
    fn a_huge_word_is_counted_without_overflow_and_close() {
        let word = "ñ".repeat(1_000_000);
        let n = super::count(&word);
        let sample = super::encoder().encode_ordinary(&word[..20_000]).len() * 100;
        assert!(n.abs_diff(sample) * 10 < sample, "{n} vs about {sample}");
        assert_eq!(super::pieces(&word).map(str::len).sum::<usize>(), word.len());
    }
}
