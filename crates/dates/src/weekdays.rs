//! The grammar's weekdays: "el viernes", "next Friday", "el domingo de la semana que
//! viene", "el martes 6", "Fri 14th", and the ones already gone ("el miércoles pasado",
//! "last Sunday"). Part of `Grammar`, in a file of its own for its size.

use super::grammar::{Found, Grammar};
use super::lexicon as lex;
use super::parts::Day;

/// Before a weekday: "next"/"próximo" may mean this week's or next week's.
const NEXT: &[&str] = &["el proximo", "el siguiente", "proximo", "next", "on next", "by next"];
const LEADS: &[&str] = &["este proximo", "este", "el", "this", "on", "this coming", "coming", "para el", "for", "by", "en"];
/// A weekday already gone, said before it ("el pasado miércoles", "last Sunday").
const GONE_BEFORE: &[&str] =
    &["el pasado", "este pasado", "pasado", "el anterior", "anterior", "el ultimo", "ultimo", "last", "on last", "last week", "la semana pasada el"];
/// … or after it ("el miércoles pasado", "el domingo de la última semana").
const GONE_AFTER: &[&str] =
    &["pasado", "anterior", "de la semana pasada", "de la ultima semana", "de la semana anterior", "la semana pasada", "of last week", "last week"];
/// … or of this week, Monday to Sunday ("el lunes de esta semana" may be gone).
const THIS_WEEK: &[&str] = &["de esta semana", "de la semana en curso", "of this week"];
const NEXT_WEEK: &[&str] = &[
    "de la semana que viene",
    "de la proxima semana",
    "de proxima semana",
    "de la semana proxima",
    "de la siguiente semana",
    "de la semana siguiente",
    "of next week",
    "next week",
    "la semana que viene",
    "la proxima semana",
];

impl Grammar<'_> {
    pub(super) fn weekday(&self, i: usize) -> Found<Day> {
        let next = self.any(i, NEXT);
        let gone = next.is_none().then(|| self.any(i, GONE_BEFORE)).flatten();
        let lead = next.or(gone).or_else(|| self.any(i, LEADS));
        let at = lead.unwrap_or(i);
        let (weekday, _) = lex::weekday(self.word(at)?)?;
        if lex::plural_weekday(self.word(at)?) && lead.is_none_or(|l| l == i + 1 && self.word(i) == Some("on")) {
            // "on mondays", "los lunes": a habit (the repeat matcher reads it).
            return None;
        }
        let end = at + 1;
        if let Some(e) = self.any(end, GONE_AFTER).filter(|_| next.is_none()) {
            return Some((Day::Gone, e));
        }
        if gone.is_some() {
            return Some((Day::Gone, end));
        }
        if let Some(e) = self.any(end, THIS_WEEK).filter(|_| next.is_none()) {
            return Some((Day::ThisWeek(weekday), e));
        }
        if let Some(e) = self.any(end, NEXT_WEEK) {
            return Some((Day::Weekday { weekday, next_week: true, said_next: false, said_this: false }, e));
        }
        if let Some((day, e)) = self.day_after_weekday(end) {
            return Some((Day::WeekdayOfMonth { weekday, day }, e));
        }
        let coming = self.any(end, &["que viene", "proximo"]);
        let said_next = next.is_some() || coming.is_some();
        let said_this = coming.is_none() && lead.is_some_and(|l| l == i + 1 && matches!(self.word(i), Some("este" | "this")));
        Some((Day::Weekday { weekday, next_week: false, said_next, said_this }, coming.unwrap_or(end)))
    }

    /// The day of the month right after a weekday: "martes 6", "lunes el veinticuatro",
    /// "miércoles el día treinta y uno", "Fri 14th", "Monday the 24th". Not when a month
    /// follows ("martes 6 de diciembre": the calendar reads it) or the number is an hour
    /// ("el lunes 6 pm").
    fn day_after_weekday(&self, i: usize) -> Found<u32> {
        let lead = self.any(i, &["el dia", "el", "dia", "the"]);
        let at = lead.unwrap_or(i);
        let w = self.word(at)?;
        // In words only after "el"/"the": "del martes, tres periodistas" counts people.
        let in_words =
            |w: &str| lead.and(lex::whole(w, 31).or_else(|| lex::ordinal_word(w))).filter(|_| !matches!(w, "a" | "an" | "un" | "una" | "uno" | "one"));
        let (day, end) = match self.any(at, &["treinta y uno"]).map(|end| (31, end)).or_else(|| self.spoken_day(at)).filter(|_| lead.is_some()) {
            Some(found) => found,
            None => (lex::ordinal_day(w).or_else(|| in_words(w)).filter(|d| *d >= 1)?, at + 1),
        };
        let month_follows =
            self.word(end).and_then(lex::month).is_some() || self.any(end, &["de", "of"]).and_then(|e| self.word(e)).and_then(lex::month).is_some();
        let unit_follows = self.word(end).and_then(lex::unit).is_some();
        let hour_follows = self.hour(at).is_some_and(|(_, e)| e > end);
        (!month_follows && !unit_follows && !hour_follows).then_some((day, end))
    }
}
