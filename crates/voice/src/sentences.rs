//! A reply as it streams, cut into sentences to say one by one, without what is for the
//! eye only: code blocks are skipped, Markdown's marks and links' addresses dropped.

/// The end of a sentence: a mark followed by a space or a line's end.
const ENDS: &[char] = &['.', '!', '?', '…', ':', ';'];
/// Shorter pieces wait for more ("Dr." alone is not a sentence to say).
const MIN_CHARS: usize = 12;

#[derive(Debug, Default)]
pub(crate) struct Sentences {
    pending: String,
    in_code: bool,
}

impl Sentences {
    /// Takes more of the reply; the sentences it completes, ready to say.
    pub(crate) fn push(&mut self, delta: &str) -> Vec<String> {
        self.pending.push_str(delta);
        let mut out = Vec::new();
        while let Some(end) = self.next_end() {
            let piece: String = self.pending.drain(..end).collect();
            out.extend(self.speakable(&piece));
        }
        out
    }

    /// The rest once the reply is complete.
    pub(crate) fn finish(&mut self) -> Option<String> {
        let rest = std::mem::take(&mut self.pending);
        let said = self.speakable(&rest);
        self.in_code = false;
        said
    }

    fn next_end(&self) -> Option<usize> {
        let text = &self.pending;
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let next = chars.peek().map(|(_, n)| *n);
            let at_end = (ENDS.contains(&c) && next.is_some_and(char::is_whitespace)) || c == '\n';
            let end = i + c.len_utf8();
            if at_end && (text[..end].trim().chars().count() >= MIN_CHARS || c == '\n') {
                return Some(end);
            }
        }
        None
    }

    /// What of `piece` is said: nothing inside a code block, no Markdown marks.
    fn speakable(&mut self, piece: &str) -> Option<String> {
        let mut said = String::new();
        for line in piece.split_inclusive('\n') {
            if line.trim_start().starts_with("```") {
                self.in_code = !self.in_code;
                continue;
            }
            if !self.in_code {
                said.push_str(line);
            }
        }
        let said = without_links(&said).replace(['*', '#', '`', '_', '>', '|'], "");
        let said = said.split_whitespace().collect::<Vec<_>>().join(" ");
        (said.chars().any(char::is_alphanumeric)).then_some(said)
    }
}

/// `[words](address)` as its words.
fn without_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("](") {
        let Some(close) = rest[open..].find(')') else { break };
        out.push_str(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out.replace('[', "")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(deltas: &[&str]) -> Vec<String> {
        let mut cut = Sentences::default();
        let mut out: Vec<String> = deltas.iter().flat_map(|d| cut.push(d)).collect();
        out.extend(cut.finish());
        out
    }

    #[test]
    fn a_streamed_reply_is_said_sentence_by_sentence_as_it_completes() {
        let mut cut = Sentences::default();
        assert!(cut.push("Claro, te lo recuerdo").is_empty());
        assert_eq!(cut.push(" mañana a las 9. Y otra"), ["Claro, te lo recuerdo mañana a las 9."]);
        assert_eq!(cut.push(" cosa: "), ["Y otra cosa:"]);
        assert_eq!(cut.finish(), None);
    }

    #[test]
    fn code_marks_and_addresses_are_for_the_eye_only() {
        let said = all(&["Here is **the** plan:\n", "```rust\nfn main() {}\n```\n", "See [the docs](https://x.org/a.b). Done!"]);
        assert_eq!(said, ["Here is the plan:", "See the docs.", "Done!"]);
    }

    #[test]
    fn short_abbreviations_wait_for_the_rest_of_the_sentence() {
        assert_eq!(all(&["Dr. Ana Pérez llega a las 5. ", "Ok"]), ["Dr. Ana Pérez llega a las 5.", "Ok"]);
    }
}
