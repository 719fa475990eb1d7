//! A date read only in part from a sentence: beside what was read stands a piece of a date
//! that was not ("8pm on 15", "the 20th of next month", "16 days from 01/02/2018",
//! "first Sunday", "Friday 7.6"). Setting the part that was read would set a wrong time
//! without a word, so the sentence is asked about instead.
//!
//! Only the words right beside what was read count, past a connector or two ("on",
//! "of", "de", "desde"): a number further away is the reminder's own ("take 2 pills").
//! A bare number or a month name beside it counts only where a date's words put it
//! ("on 15", "8pm on 15", "10, tonight", "semana de octubre"): "read chapter 12
//! tonight" and "llamar a Mayo mañana" are a chapter and a name.

use super::lexicon::{self, Tok};
use super::parts::Span;

/// Words that join a date's pieces, skipped on the way to a neighbour.
const JOINERS: &[&str] = &["on", "of", "the", "in", "from", "after", "before", "at", "de", "del", "el", "la", "los", "las", "desde", "despues", "antes", "en"];

/// Words before a month name that make it a date's ("week of October", "semana de octubre").
const BEFORE_MONTH: &[&str] = &["of", "in", "de", "del", "en"];

/// Words that make a following unit a date's ("next month", "el mes que viene" is read whole).
const RELATIVE: &[&str] = &["next", "last", "previous", "this", "proximo", "proxima", "pasado", "pasada", "siguiente", "anterior"];

/// Words after a number that make it a count, not a day ("17 times", "17 veces").
const COUNTS: &[&str] = &["times", "veces", "vez"];

/// Ordinals that are also everyday words ("el cuarto": the room; "a second").
const ORDINAL_WORDS_TOO: &[&str] = &["cuarto", "second", "segundo"];

/// The tokens (from, to) of a piece of a date beside one of `spans` that no span read,
/// in `raw`'s tokens. A bare number that says the hour read ("12 noon", "9, tonight"
/// read at 21:00) is checked by [`restates`] once the time is read.
pub(crate) fn unread_beside(raw: &str, toks: &[Tok], spans: &[Span]) -> Option<(usize, usize)> {
    let read = |i: usize| spans.iter().any(|s| (s.from..s.to).contains(&i));
    let joiner = |i: usize| JOINERS.contains(&toks[i].text.as_str());
    // A comma between two tokens: "10, tonight".
    let comma = |a: usize, b: usize| raw[toks[a].end..toks[b].start].contains(',');
    for span in spans {
        // After the span: joiners, then a piece of a date.
        let mut i = span.to;
        while i < toks.len() && i < span.to + 2 && joiner(i) {
            i += 1;
        }
        if i < toks.len() && !read(i) && !counted_by(toks, i) {
            let placed = i > span.to || comma(span.to - 1, i);
            if piece(toks, i, placed) || unit_follows(toks, i) {
                return Some((span.to, i + 1));
            }
        }
        // Before it: a piece of a date, then joiners.
        let mut j = span.from;
        while j > 0 && j + 2 > span.from && joiner(j - 1) {
            j -= 1;
        }
        if j > 0 && !read(j - 1) {
            let k = j - 1;
            let placed = (k > 0 && joiner(k - 1)) || comma(k, span.from);
            let touching = j == span.from;
            if piece(toks, k, placed) || counted_unit(toks, k) || (touching && ordinal(&toks[k].text)) {
                return Some((k, span.from));
            }
        }
    }
    None
}

/// `piece` is one number that says again the hour `hour` (0-23) was read at: "12 midnight".
pub(crate) fn restates(piece: &[Tok], hour: u32) -> bool {
    let number = |t: &Tok| t.text.parse::<u32>().ok().filter(|n| (1..=12).contains(n));
    let numbers: Vec<u32> = piece.iter().filter_map(number).collect();
    let joiners = piece.iter().filter(|t| JOINERS.contains(&t.text.as_str())).count();
    numbers.len() == 1 && numbers.len() + joiners == piece.len() && numbers[0] % 12 == hour % 12
}

/// `toks[i]` is a piece of a date: wherever it stands a number with a separator
/// ("7.6", "15:50:06"), a year, a weekday or a day with its ordinal mark ("15th");
/// where a date's words `placed` it ("on 15", "8pm on 15", "10, tonight"), a bare
/// day number; and a month name after "de"/"of" or beside a number.
fn piece(toks: &[Tok], i: usize, placed: bool) -> bool {
    let word = toks[i].text.as_str();
    let numeric = word.chars().any(|c| c.is_ascii_digit());
    let bare = !word.is_empty() && word.chars().all(|c| c.is_ascii_digit());
    let separated = numeric && word.chars().any(|c| matches!(c, '.' | ':' | '/' | '-'));
    let year = word.len() == 4 && word.parse::<u32>().is_ok_and(|y| (1900..2200).contains(&y));
    let day = lexicon::ordinal_day(word).is_some() && (!bare || placed);
    let near_number = |k: Option<usize>| k.and_then(|k| toks.get(k)).is_some_and(|t| t.text.chars().any(|c| c.is_ascii_digit()));
    // "may" is English's verb as often as the month.
    let month = lexicon::month(word).is_some()
        && word != "may"
        && (i.checked_sub(1).is_some_and(|k| BEFORE_MONTH.contains(&toks[k].text.as_str())) || near_number(i.checked_sub(1)) || near_number(Some(i + 1)));
    separated || year || day || month || lexicon::weekday(word).is_some()
}

/// `toks[i]` is a count of units that a date is counted in, or "next" before one:
/// "16 days", "next month".
fn unit_follows(toks: &[Tok], i: usize) -> bool {
    let word = toks[i].text.as_str();
    toks.get(i + 1).is_some_and(|t| day_or_longer(&t.text)) && (RELATIVE.contains(&word) || counted(word))
}

/// `toks[i]` is a unit after a count: "16 days" (from 01/02/2018).
fn counted_unit(toks: &[Tok], i: usize) -> bool {
    day_or_longer(&toks[i].text) && i > 0 && counted(&toks[i - 1].text)
}

/// A number followed by "times"/"veces": a count, not a day.
fn counted_by(toks: &[Tok], i: usize) -> bool {
    toks.get(i + 1).is_some_and(|t| COUNTS.contains(&t.text.as_str()))
}

/// An ordinal that is no everyday word: "first", "third", "primera" (Sunday).
fn ordinal(word: &str) -> bool {
    (lexicon::ordinal_word(word).is_some() || lexicon::position(word).is_some()) && !ORDINAL_WORDS_TOO.contains(&word)
}

/// A count of units: digits or a number in words above one ("a"/"un" are everyday words).
fn counted(word: &str) -> bool {
    lexicon::number_word(word).is_some_and(|(n, _)| n >= 2.0)
}

/// Days, weeks, months or years: the units a date is counted in.
fn day_or_longer(word: &str) -> bool {
    use lexicon::Unit::*;
    lexicon::unit(word).is_some_and(|(u, _)| matches!(u, Day | Week | Month | Year))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Grammar;
    use crate::lexicon::{tokens, Tongue};

    /// The unread piece beside what the grammar reads in `text`, as written.
    fn unread(text: &str, tongue: Tongue) -> Option<String> {
        let toks = tokens(text);
        let grammar = Grammar::new(&toks, tongue);
        let mut spans = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            match grammar.span(i).filter(crate::strong) {
                Some(span) => {
                    i = span.to;
                    spans.push(span);
                }
                None => i += 1,
            }
        }
        unread_beside(text, &toks, &spans).map(|(from, to)| text[toks[from].start..toks[to - 1].end].to_string())
    }

    #[test]
    fn a_piece_of_a_date_beside_what_was_read_is_found() {
        assert_eq!(unread("I'll go back 8pm on the 15", Tongue::En).as_deref(), Some("on the 15"));
        // Counted from the day that follows: read whole, nothing left beside it.
        assert_eq!(unread("It will happen 16 days from 01/02/2018", Tongue::En), None);
        assert_eq!(unread("El evento ocurrió en dos años desde 2011", Tongue::Es).as_deref(), Some("desde 2011"));
        assert_eq!(unread("Primera semana de octubre el viernes", Tongue::Es).as_deref(), Some("octubre"));
        assert_eq!(unread("I'll go back third Tuesday", Tongue::En).as_deref(), Some("third"));
        assert_eq!(unread("I'll go back on 15, 8pm", Tongue::En).as_deref(), Some("15"));
        assert_eq!(unread("I'll go back 10, tonight", Tongue::En).as_deref(), Some("10"));
    }

    #[test]
    fn a_number_that_says_the_hour_again_is_no_other_piece() {
        let piece = |text: &str| tokens(text);
        assert!(restates(&piece("12"), 0));
        assert!(restates(&piece("12"), 12));
        assert!(restates(&piece("9"), 21));
        assert!(!restates(&piece("10"), 21));
        assert!(!restates(&piece("on the 15"), 15));
    }

    #[test]
    fn the_reminders_own_words_are_not_a_date() {
        for (text, tongue) in [
            ("Recuérdame limpiar el cuarto mañana a las 9", Tongue::Es),
            ("Recuérdame tomar 2 pastillas mañana a las 9", Tongue::Es),
            ("llamar a Ana el viernes a las 10 para hablar de los 3 informes", Tongue::Es),
            ("call mum tomorrow at 9 about the 2 tickets", Tongue::En),
            ("tomorrow at 9 may be too early", Tongue::En),
            ("first call the bank tomorrow at 9", Tongue::En),
            ("I'll go back July 1st, 17th times", Tongue::En),
            ("llamar a Mayo mañana a las 9", Tongue::Es),
            ("read chapter 12 tonight", Tongue::En),
            ("read chapter 12 on Friday", Tongue::En),
        ] {
            assert_eq!(unread(text, tongue), None, "{text}");
        }
    }
}
