//! Text cut to fit: a line for a bubble, a string with an ellipsis, a long text with its
//! middle taken out. Plain helpers every layer uses; nothing here knows who asks.

/// How long a speech bubble's line may be, in characters.
const FIRST_LINE_CHARS: usize = 140;

/// The first line that says something, cut to a bubble's length: what the character
/// on the desktop shows of a message.
pub fn first_line(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or_default();
    if line.chars().count() <= FIRST_LINE_CHARS {
        return line.to_string();
    }
    shorten(line, FIRST_LINE_CHARS - 1)
}

/// Text from outside (a title, a prompt) as one line that is safe to print: line breaks
/// and tabs become spaces; other control characters (an escape sequence's ESC, BEL) and
/// the marks that reorder text (bidi overrides and isolates) are dropped, so a title can
/// neither drive a terminal nor disguise what follows it.
pub fn one_line(text: &str) -> String {
    let bidi = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}');
    let folded: String = text
        .chars()
        .filter_map(|c| {
            if matches!(c, '\n' | '\r' | '\t') {
                Some(' ')
            } else if c.is_control() || bidi(c) {
                None
            } else {
                Some(c)
            }
        })
        .collect();
    folded.split(' ').filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
}

/// `s` cut to `chars` characters, with "…" when something was cut.
pub fn shorten(s: &str, chars: usize) -> String {
    match s.char_indices().nth(chars) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// Keeps about two thirds of the limit from the start and one third from the end.
pub fn truncate_middle(text: &str, max_tokens: usize, count: &dyn Fn(&str) -> usize) -> String {
    let tokens = count(text);
    if tokens <= max_tokens {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    // Start from the text's own characters-per-token ratio, then tighten until it fits.
    let mut keep = (chars.len() * max_tokens / tokens.max(1)).saturating_sub(24);
    loop {
        let head = keep * 2 / 3;
        let tail = keep - head;
        let marker = format!("\n[… about {} tokens cut here to fit the context; the full text is stored …]\n", tokens.saturating_sub(max_tokens));
        let candidate: String = chars[..head].iter().chain(marker.chars().collect::<Vec<_>>().iter()).chain(chars[chars.len() - tail..].iter()).collect();
        if count(&candidate) <= max_tokens || keep == 0 {
            return candidate;
        }
        keep = keep * 4 / 5;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_line_drops_escapes_bells_and_bidi_marks_and_folds_breaks() {
        assert_eq!(super::one_line("Stand-up\u{1b}[2J\u{7}\nnow\u{202e}txt.exe"), "Stand-up[2J nowtxt.exe");
        assert_eq!(super::one_line("  a\tb\r\n c "), "a b c");
    }

    #[test]
    fn a_first_line_skips_blank_lines_and_is_cut_to_a_bubble() {
        assert_eq!(super::first_line("\n  \n ⏰ Call Ana \nat five"), "⏰ Call Ana");
        let long = "ñ".repeat(300);
        let cut = super::first_line(&long);
        assert_eq!(cut.chars().count(), super::FIRST_LINE_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(super::first_line(""), "");
    }
}
