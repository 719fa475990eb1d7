//! What recall shows of a found text: the whole of a short one, else a window around
//! the first matched word, with the query's words in [brackets] (the Memory view
//! highlights them).

use crate::knowledge::words::fold;

/// Longest excerpt, in characters.
pub(crate) const MAX_CHARS: usize = 360;

/// The query's words worth marking: folded, lower-case, two letters or more.
pub fn marks(query: &str) -> Vec<String> {
    fold(&query.to_lowercase()).split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() > 1).map(str::to_string).collect()
}

fn marked(word: &str, marks: &[String]) -> bool {
    let folded = fold(&word.to_lowercase());
    !folded.is_empty() && marks.iter().any(|m| folded.starts_with(m.as_str()))
}

/// The share of the query's marks that `text` contains (as word prefixes, like the
/// search by words): how much of the question a match by words answers.
pub(crate) fn coverage(text: &str, marks: &[String]) -> f64 {
    let words: Vec<String> = fold(&text.to_lowercase()).split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect();
    let asked: Vec<&String> = marks.iter().filter(|m| !crate::knowledge::words::significant(m).is_empty()).collect();
    if asked.is_empty() {
        return 1.0;
    }
    let hit = asked.iter().filter(|m| words.iter().any(|w| w.starts_with(m.as_str()))).count();
    hit as f64 / asked.len() as f64
}

/// `text` cut to [`MAX_CHARS`] around the first marked word, marks in brackets.
pub(crate) fn excerpt(text: &str, marks: &[String]) -> String {
    excerpt_within(text, marks, MAX_CHARS)
}

/// [`excerpt`] cut to `max_chars` (a list's one line).
pub fn excerpt_within(text: &str, marks: &[String], max_chars: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let first = words.iter().position(|w| marked(w.trim_matches(|c: char| !c.is_alphanumeric()), marks)).unwrap_or(0);
    // Start a few words before the first match so it reads in context.
    let mut start = first.saturating_sub(if max_chars < MAX_CHARS { 3 } else { 8 });
    let total: usize = words.iter().map(|w| w.chars().count() + 1).sum();
    if total <= max_chars {
        start = 0;
    }
    let mut out = String::new();
    let mut used = 0;
    let mut cut = false;
    for word in &words[start..] {
        let length = word.chars().count() + 1;
        if used + length > max_chars {
            cut = true;
            break;
        }
        used += length;
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&bracket(word, marks));
    }
    if start > 0 {
        out.insert(0, '…');
    }
    if cut {
        out.push('…');
    }
    out
}

/// Brackets the alphanumeric core of a marked word ("(peanuts)," → "([peanuts]),").
fn bracket(word: &str, marks: &[String]) -> String {
    let core = word.trim_matches(|c: char| !c.is_alphanumeric());
    if core.is_empty() || !marked(core, marks) {
        return word.to_string();
    }
    let at = word.find(core).expect("core is inside the word");
    format!("{}[{}]{}", &word[..at], core, &word[at + core.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_prefixes_accent_insensitively_and_keeps_punctuation_outside() {
        let marks = marks("rosario peanut");
        assert_eq!(excerpt("Vivo en Rosário, y odio (peanuts).", &marks), "Vivo en [Rosário], y odio ([peanuts]).");
    }

    #[test]
    fn a_short_excerpt_starts_a_few_words_before_the_match() {
        let text = "We talked for ages about the garden and then, at last, about the dentist on Friday.";
        let shown = excerpt_within(text, &marks("dentist"), 40);
        assert!(shown.starts_with("…last, about the [dentist]"), "{shown}");
        assert!(shown.chars().count() <= 42);
    }

    #[test]
    fn a_long_text_is_cut_around_the_first_match() {
        let text = format!("{} the dentist is on Friday {}", "filler ".repeat(100), "more ".repeat(100));
        let shown = excerpt(&text, &marks("dentist"));
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert!(shown.contains("[dentist]"));
        assert!(shown.chars().count() <= MAX_CHARS + 2);
    }
}
