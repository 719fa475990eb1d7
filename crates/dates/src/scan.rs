//! Chains components that follow each other ("tomorrow" "at 9", "every Monday" "at 9"
//! "until June 30") into one date expression, trying the repeat reader first.

use super::grammar::{Found, Grammar};
use super::parts::{Component, Span};
use super::repeat_words;

impl Grammar<'_> {
    /// Components one after another from `i` ("and"/"y" between them allowed).
    pub(crate) fn span(&self, i: usize) -> Option<Span> {
        let mut components = Vec::new();
        let mut at = i;
        loop {
            let next = if components.is_empty() { at } else { self.any_of(at, &["and", "y", "e"]).unwrap_or(at) };
            match self.component(next) {
                Some((c, end)) => {
                    components.push(c);
                    at = end;
                }
                None => break,
            }
        }
        (!components.is_empty()).then_some(Span { components, from: i, to: at })
    }

    fn component(&self, i: usize) -> Found<Component> {
        if let Some((r, end)) = repeat_words::read(self, i) {
            return Some((Component::Repeat(r), end));
        }
        if let Some(found) = self.until_or_count(i) {
            return Some(found);
        }
        if let Some((o, end)) = self.offset(i) {
            return Some((Component::Offset(o), end));
        }
        if let Some(((), end)) = self.end_of_day(i) {
            return Some((Component::EndOfDay, end));
        }
        if let Some(found) = self.today_part(i) {
            return Some(found);
        }
        if let Some((d, end)) = self.day(i) {
            return Some((Component::Day(d), end));
        }
        if let Some((h, end)) = self.hour(i) {
            return Some((Component::Hour(h), end));
        }
        self.part(i).map(|(p, end)| (Component::Part(p), end))
    }
}
