//! A reply that has started to repeat itself: the tiny demo model, past what it can
//! say, loops on a line ("- In", "- The", …) or a few words until the token limit. The
//! guard sees it in the streamed text and says where the repetition began, so the reply
//! can be cut there and marked. Only the demo model's replies are guarded: a real
//! model's table or code may repeat a line on purpose.

/// The same line this many times is a loop.
const SAME_LINE: usize = 3;
/// The same run of words back to back this many times is a loop.
const SAME_WORDS: usize = 4;
/// The longest run of words looked for.
const LONGEST_RUN: usize = 6;
/// Lines longer than this are sentences; a model repeats those less by accident.
const SHORT_LINE: usize = 80;

/// Watches a reply as it streams.
#[derive(Debug, Default)]
pub(crate) struct RepetitionGuard {
    text: String,
    cut: Option<usize>,
}

impl RepetitionGuard {
    /// Adds a piece of the reply; true once the reply repeats itself.
    pub(crate) fn feed(&mut self, delta: &str) -> bool {
        if self.cut.is_none() {
            self.text.push_str(delta);
            self.cut = repeats_from(&self.text);
        }
        self.cut.is_some()
    }

    /// Whether the reply has begun repeating itself.
    pub(crate) fn looped(&self) -> bool {
        self.cut.is_some()
    }

    /// The reply up to where it began repeating (all of it when it did not).
    pub(crate) fn kept(&self) -> &str {
        &self.text[..self.cut.unwrap_or(self.text.len())]
    }
}

/// Where `text` begins to repeat itself: the byte at which the second occurrence of a
/// short line seen `SAME_LINE` times starts, or where a run of words repeated
/// `SAME_WORDS` times back to back is said for the second time. `None` for a reply
/// that does not loop.
pub fn repeats_from(text: &str) -> Option<usize> {
    [repeated_line(text), repeated_words(text)].into_iter().flatten().min()
}

fn repeated_line(text: &str) -> Option<usize> {
    let mut seen: Vec<(&str, usize, Option<usize>)> = Vec::new();
    let mut start = 0;
    // Only complete lines: the last one may still be growing.
    let complete = text.rfind('\n').map_or("", |end| &text[..end]);
    for line in complete.split('\n') {
        let at = start;
        start += line.len() + 1;
        let key = line.trim();
        if key.is_empty() || key.chars().count() > SHORT_LINE {
            continue;
        }
        match seen.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, count, second)) => {
                *count += 1;
                second.get_or_insert(at);
                if *count >= SAME_LINE {
                    return *second;
                }
            }
            None => seen.push((key, 1, None)),
        }
    }
    None
}

fn repeated_words(text: &str) -> Option<usize> {
    let words: Vec<(usize, &str)> = text.split_whitespace().map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w)).collect();
    let same = |a: usize, b: usize| {
        words[a].1.trim_matches(|c: char| c.is_ascii_punctuation()).eq_ignore_ascii_case(words[b].1.trim_matches(|c: char| c.is_ascii_punctuation()))
    };
    for run in 1..=LONGEST_RUN {
        let needed = run * SAME_WORDS;
        if words.len() < needed {
            break;
        }
        // Back to back at the end: the newest words are where a loop shows.
        let from = words.len() - needed;
        if (from..words.len() - run).all(|k| same(k, k + run)) {
            // Walk back to where the run first appeared.
            let mut first = from;
            while first >= run && same(first - run, first) {
                first -= run;
            }
            return Some(words[first + run].0);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_looping_on_two_lines_is_cut_at_the_second_round() {
        let text = "Hi there friend!\n- In\n- The\n- In\n- The\n- In\n";
        let at = repeats_from(text).expect("a loop");
        assert_eq!(&text[..at], "Hi there friend!\n- In\n- The\n");
    }

    #[test]
    fn words_said_over_and_over_are_cut_after_the_first_time() {
        let text = "Sure. I am here I am here I am here I am here";
        let at = repeats_from(text).expect("a loop");
        assert_eq!(text[..at].trim_end(), "Sure. I am here");
        assert_eq!(repeats_from("the the the the"), Some(4));
    }

    #[test]
    fn an_ordinary_reply_is_left_alone() {
        for text in [
            "Hello! How can I help you today?",
            "Steps:\n1. Open the file\n2. Save it\n3. Close it\n",
            "It is very, very good.",
            "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n",
            "",
        ] {
            assert_eq!(repeats_from(text), None, "{text:?}");
        }
    }

    #[test]
    fn the_guard_keeps_what_came_before_the_loop() {
        let mut guard = RepetitionGuard::default();
        let mut looped = false;
        for piece in ["Hi in three", " words.\n- In\n", "- The\n- In\n", "- The\n- In\n", "- The\n"] {
            looped = guard.feed(piece);
        }
        assert!(looped);
        assert_eq!(guard.kept(), "Hi in three words.\n- In\n- The\n");
    }
}
