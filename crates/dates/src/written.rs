//! The grammar's dates written with numbers: "31/05/2024", "5/31", "2024-05-31",
//! "6-jul-2018", "sep/23/2020", "9 de 8 de 1971", "el 21 del 3", and years in digits or
//! in words ("de mil novecientos noventa y dos", "del dos mil treinta y dos"). Part of
//! `Grammar`, in a file of its own for its size.

use super::grammar::{Found, Grammar};
use super::lexicon::{self as lex, Tongue};
use super::parts::Day;

impl Grammar<'_> {
    /// A year after a day and month: "2027", "de 2027", "de dos mil veintisiete".
    pub(super) fn year(&self, i: usize) -> (Option<i32>, usize) {
        let at = self.any(i, &["de", "del", "of"]).unwrap_or(i);
        match self.word(at) {
            Some(w) if w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()) => (w.parse().ok(), at + 1),
            _ => match self.spoken_year(at) {
                Some((year, end)) => (Some(year), end),
                None => (None, i),
            },
        }
    }

    /// "mil novecientos noventa y dos", "dos mil dieciocho", "dos mil treinta y dos".
    fn spoken_year(&self, i: usize) -> Found<i32> {
        let (thousands, mut at) = match self.any(i, &["dos mil", "mil"]) {
            Some(end) if self.word(i) == Some("dos") => (2000, end),
            Some(end) => (1000, end),
            None => return None,
        };
        let hundreds = self.word(at).and_then(hundreds);
        if hundreds.is_some() {
            at += 1;
        }
        let (rest, end) = self.spoken_below_hundred(at).unwrap_or((0, at));
        Some((thousands + hundreds.unwrap_or(0) + rest as i32, end))
    }

    /// 1 to 99 in Spanish words: "dieciocho", "treinta y dos", "noventa".
    fn spoken_below_hundred(&self, i: usize) -> Found<u32> {
        let n = self.word(i).filter(|w| !w.bytes().any(|b| b.is_ascii_digit())).and_then(|w| lex::whole(w, 99)).or_else(|| self.word(i).and_then(tens))?;
        if n >= 30 && n % 10 == 0 {
            if let Some(units) = self.any(i + 1, &["y"]).and_then(|a| self.word(a)).and_then(|w| lex::whole(w, 9)).filter(|u| *u > 0) {
                return Some((n + units, i + 3));
            }
        }
        Some((n, i + 1))
    }

    /// "31/05/2024", "5/31", "2024-05-31", "31-05-24", "31.05.2024", "6-jul-2018",
    /// "23/sep/2020", "sep-23-2020", "2019/sep/01".
    pub(super) fn numeric(&self, i: usize) -> Found<Day> {
        let at = self.any(i, &["el", "on", "the"]).filter(|&n| self.word(n).is_some_and(|w| w.contains(['/', '-', '.']))).unwrap_or(i);
        let w = self.word(at)?;
        let sep = if w.contains('/') {
            '/'
        } else if w.contains('-') {
            '-'
        } else {
            '.'
        };
        let parts: Vec<&str> = w.split(sep).collect();
        if !(2..=3).contains(&parts.len()) || parts.iter().any(|p| p.is_empty() || p.len() > 10) {
            return None;
        }
        if let Some(day) = named_month(&parts) {
            return Some((day, at + 1));
        }
        if parts.iter().any(|p| p.len() > 4 || !p.bytes().all(|b| b.is_ascii_digit())) {
            return None;
        }
        if sep == '.' && parts.len() == 2 {
            return None; // a decimal number
        }
        let n: Vec<u32> = parts.iter().map(|p| p.parse().unwrap_or(0)).collect();
        let (day, month, year) = if parts[0].len() == 4 {
            (*n.get(2)?, n[1], Some(n[0] as i32))
        } else {
            // Two digits are a year of a century the reader picks ("05/05/71" is 1971).
            let year = n.get(2).map(|&y| y as i32);
            let month_first = self.tongue == Tongue::En && n[1] <= 31 && n[0] <= 12 || n[0] <= 12 && n[1] > 12;
            if month_first {
                (n[1], n[0], year)
            } else {
                (n[0], n[1], year)
            }
        };
        Some((Day::Calendar { day, month, year }, at + 1))
    }

    /// "9 de 8 de 1971", "el 21 del 3": a day and a month in digits. A year or "del"
    /// is required: "9 de 10 invitados" is no date.
    pub(super) fn day_of_numbered_month(&self, i: usize) -> Found<Day> {
        let i = self.any(i, &["el dia", "el", "del", "para el"]).unwrap_or(i);
        let day = self.word(i).filter(|w| w.bytes().all(|b| b.is_ascii_digit())).and_then(lex::ordinal_day)?;
        let at = self.any(i + 1, &["de", "del"])?;
        let month = self
            .word(at)
            .filter(|w| w.len() <= 2 && w.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|w| w.parse::<u32>().ok())
            .filter(|m| (1..=12).contains(m))?;
        let (year, end) = self.year(at + 1);
        (year.is_some() || self.word(i + 1) == Some("del")).then_some((Day::Calendar { day, month, year }, end.max(at + 1)))
    }
}

/// A numeric date with its month named: the named part is the month, a part of four
/// digits (or the last of two) the year, the other the day.
fn named_month(parts: &[&str]) -> Option<Day> {
    let named: Vec<usize> = (0..parts.len()).filter(|&k| !parts[k].bytes().all(|b| b.is_ascii_digit())).collect();
    let [m] = named.as_slice() else { return None };
    let (month, _) = lex::month(parts[*m])?;
    let numbers: Vec<&str> = parts.iter().enumerate().filter(|(k, _)| k != m).map(|(_, p)| *p).collect();
    let (day, year) = match numbers.as_slice() {
        [d] => (*d, None),
        [a, b] if a.len() == 4 => (*b, Some(*a)),
        [a, b] if b.len() == 4 || *m == 1 => (*a, Some(*b)),
        _ => return None,
    };
    let day = lex::ordinal_day(day)?;
    let year = match year {
        Some(y) if y.len() == 4 || y.len() == 2 => Some(y.parse().ok()?),
        Some(_) => return None,
        None => None,
    };
    Some(Day::Calendar { day, month, year })
}

fn hundreds(word: &str) -> Option<i32> {
    Some(match word {
        "cien" | "ciento" => 100,
        "doscientos" => 200,
        "trescientos" => 300,
        "cuatrocientos" => 400,
        "quinientos" => 500,
        "seiscientos" => 600,
        "setecientos" => 700,
        "ochocientos" => 800,
        "novecientos" => 900,
        _ => return None,
    })
}

fn tens(word: &str) -> Option<u32> {
    Some(match word {
        "sesenta" => 60,
        "setenta" => 70,
        "ochenta" => 80,
        "noventa" => 90,
        _ => return None,
    })
}
