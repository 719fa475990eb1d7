//! Telegram's message length: a reply longer than one message is cut into several,
//! at a paragraph, a line or a word where one is near, never inside a character.
//! Sent as plain text, so nothing in a reply can break Telegram's Markdown parsing.

/// Telegram's limit for one message, counted in UTF-16 units (as Telegram counts).
pub(crate) const MAX_UNITS: usize = 4096;

/// `text` in pieces of at most `max` UTF-16 units, in order; joined they give the
/// text back up to the whitespace at the cuts. Empty text gives no piece.
pub(crate) fn split(text: &str, max: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let fits = prefix_within(rest, max);
        if fits == rest.len() {
            pieces.push(rest.to_string());
            break;
        }
        // Prefer a paragraph, then a line, then a word, in the second half of the piece.
        let window = &rest[..fits];
        let floor = fits / 2;
        let cut = ["\n\n", "\n", " "].iter().find_map(|sep| window.rfind(sep).filter(|at| *at > floor)).unwrap_or(fits);
        pieces.push(rest[..cut].trim_end().to_string());
        rest = rest[cut..].trim_start();
    }
    pieces
}

/// The longest byte prefix of `text` whose UTF-16 length is at most `max`.
fn prefix_within(text: &str, max: usize) -> usize {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return at;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn units(text: &str) -> usize {
        text.encode_utf16().count()
    }

    #[test]
    fn short_text_is_one_piece_and_long_text_breaks_at_paragraphs() {
        assert_eq!(split("hola", MAX_UNITS), ["hola"]);
        assert!(split("   ", MAX_UNITS).is_empty());
        let paragraph = "palabra ".repeat(300);
        let text = format!("{}\n\n{}", paragraph.trim(), paragraph.trim());
        let pieces = split(&text, MAX_UNITS);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0], paragraph.trim());
    }

    #[test]
    fn emoji_count_as_two_units_and_are_never_cut() {
        let text = "😀".repeat(3000);
        let pieces = split(&text, MAX_UNITS);
        assert!(pieces.iter().all(|p| units(p) <= MAX_UNITS));
        assert_eq!(pieces.concat(), text);
    }

    proptest! {
        #[test]
        fn pieces_fit_and_keep_every_word(words in proptest::collection::vec("[a-zñé😀]{1,30}", 0..400), max in 40usize..200) {
            let text = words.join(" ");
            let pieces = split(&text, max);
            prop_assert!(pieces.iter().all(|p| units(p) <= max && !p.is_empty()));
            let back: Vec<&str> = pieces.iter().flat_map(|p| p.split_whitespace()).collect();
            let words_in: Vec<&str> = text.split_whitespace().collect();
            // A word longer than a piece is cut; otherwise words come back as they were.
            prop_assert_eq!(back.concat(), words_in.concat());
        }
    }
}
