//! The grammar's hours: "a las 5 y media", "half past four", "17:30", "9pm", "at noon",
//! with "after" and "before" bounds. Part of `Grammar`, in a file of its own for its size.
//!
//! Over 400 lines: the hour matchers share their word tables and their after/before
//! bounds, read together when an hour is added in one language.

use super::grammar::{Found, Grammar};
use super::lexicon::{self as lex, DayPart};
use super::parts::{Bound, Hour};

impl Grammar<'_> {
    pub(super) fn hour(&self, i: usize) -> Found<Hour> {
        let (bound, i) = match self.any(i, lex::AFTER) {
            Some(at) => (Some(Bound::After), at),
            None => match self.any(i, lex::BEFORE) {
                Some(at) => (Some(Bound::Before), at),
                None => (None, i),
            },
        };
        let (hour, end) = self.plain_hour(i)?;
        Some((Hour { bound, ..hour }, end))
    }

    fn plain_hour(&self, i: usize) -> Found<Hour> {
        let lead = self
            .any(i, &["at", "@", "a las", "a la", "sobre las", "hacia las", "para las", "tipo", "a eso de las", "around", "by", "para la", "desde las", "las"])
            // "la una" is only ever the hour.
            .or_else(|| self.any(i, &["la"]).filter(|&at| self.word(at) == Some("una")));
        let at = lead.unwrap_or(i);
        if let Some(found) = self.named_hour(at) {
            return Some(found);
        }
        // "quarter to five", "cuarto para las cinco": the minutes first, then the hour, whose
        // part of the day may follow ("… del mediodía").
        let fraction = self.english_fraction(at, lead.is_some()).or_else(|| self.spanish_fraction(i));
        let (mut hour, mut end, minutes_said) = match fraction {
            Some((hour, end)) => (hour, end, Some(end)),
            None => {
                let (mut hour, end) = self.clock(at, lead.is_some())?;
                let minutes_said = self
                    .minutes(&mut hour, end)
                    .or_else(|| self.hours_and_minutes(&mut hour, end, lead.is_some()))
                    .or_else(|| self.spaced_minutes(&mut hour, end, lead.is_some()));
                (hour, minutes_said.unwrap_or(end), minutes_said)
            }
        };
        if let Some(e) = self.any(end, &["o'clock", "oclock", "o clock", "en punto", "hs", "h", "hrs"]) {
            // "a las 9 h" may be the 24-hour clock's 9 or a loose 9 in the evening: asked.
            hour.settled |= hour.hour > 12;
            end = e;
            // "a las 22 h 10", "10 H 10 pm": two digits after the hour's "h" are its minutes.
            let minutes = self.word(e).filter(|w| w.len() == 2 && minutes_said.is_none() && matches!(self.word(e - 1), Some("h" | "hs")));
            if let Some(m) = minutes.and_then(|w| lex::whole(w, 59)).filter(|_| self.word(e + 1).is_none_or(|w| lex::unit(w).is_none())) {
                hour.minute = m;
                end = e + 1;
            }
        }
        if let Some((pm, e)) = self.meridiem(end) {
            if hour.pm.is_some() || !(1..=12).contains(&hour.hour) {
                return None;
            }
            hour.pm = Some(pm);
            end = e;
        }
        if let Some(e) = self.any(
            end,
            &[
                "de la manana",
                "del mediodia",
                "de la medianoche",
                "de la tarde",
                "de la noche",
                "de la madrugada",
                "de madrugada",
                "in the morning",
                "in the afternoon",
                "in the evening",
                "at night",
                "por la manana",
                "por la tarde",
                "por la noche",
                "en la manana",
                "en la tarde",
                "en la noche",
                "tonight",
            ],
        ) {
            let part = match self.word(e - 1) {
                Some("manana" | "morning") => DayPart::Morning,
                // "las 12 del mediodía", "las 2 del mediodía" (14:00).
                Some("tarde" | "afternoon" | "mediodia") => DayPart::Afternoon,
                Some("evening") => DayPart::Evening,
                Some("madrugada") => DayPart::EarlyMorning,
                _ => DayPart::Night,
            };
            hour.part = Some(part);
            end = e;
        }
        if minutes_said.is_none() && (hour.pm.is_some() || hour.part.is_some()) {
            // "a las 8 pm menos cuarto", "las 8 de la noche menos cuarto".
            end = self.any(end, SPANISH_FRACTIONS).and_then(|_| self.minutes(&mut hour, end)).unwrap_or(end);
        }
        let said_enough = fraction.is_some()
            || lead.is_some()
            || hour.pm.is_some()
            || hour.part.is_some()
            // "10 esta noche", "siete y media": what follows says it is an hour.
            || self.marked_hour(end)
            || hour.minute != 0 && self.word(at).is_some_and(|w| lex::whole(w, 24).is_some() && !w.bytes().all(|b| b.is_ascii_digit()))
            || self.word(at).is_some_and(|w| w.contains(':') || w.ends_with('h') || w.ends_with("hs") || lex::french_hour(w))
            || end > at + 1;
        said_enough.then_some((hour, end))
    }

    /// The minutes said after an hour ("y media", "menos cuarto", "y 10", "menos 5"),
    /// set on `hour`; where they end, if any were said.
    fn minutes(&self, hour: &mut Hour, end: usize) -> Option<usize> {
        if let Some(e) = self.any(end, SPANISH_FRACTIONS) {
            match self.word(end + 1) {
                Some("media") => hour.minute = 30,
                Some("cuarto") if self.word(end) == Some("y") => hour.minute = 15,
                Some("tres" | "3") => hour.minute = 45,
                _ => {
                    hour.hour = (hour.hour + 23) % 24;
                    hour.minute = 45;
                    hour.to_hour = true;
                }
            }
            return Some(e);
        }
        if let Some(found) = self.spoken_minutes(hour, end) {
            return Some(found);
        }
        // "a las 9 y 10", "a las 10 menos 5", "a las cinco y cuarenta y cinco", "las cuatro
        // con treinta" ("y" could also join two things: only a minutes word follows).
        let a = self.any(end, &["y", "menos", "con"])?;
        let (minutes, after) = self.minutes_in_words(a)?;
        if self.word(after).is_some_and(|w| lex::unit(w).is_some()) {
            return None;
        }
        match self.word(end) {
            Some("menos") => {
                hour.hour = (hour.hour + 23) % 24;
                hour.minute = 60 - minutes.max(1);
                hour.to_hour = true;
            }
            // "a las 5 con 2 amigos" is company: "con" only where the time ends.
            Some("con") if minutes < 10 || self.word(after).is_some() && !self.marked_hour(after) => return None,
            _ => hour.minute = minutes,
        }
        Some(after)
    }

    /// Two digits of minutes written apart from the hour's digits, as speech to text may:
    /// "a las 03 45", "a las 7 30". Only after "a las" and never before a unit ("a las
    /// 5 30 minutos" is no such time).
    fn spaced_minutes(&self, hour: &mut Hour, end: usize, led: bool) -> Option<usize> {
        let hour_word = self.word(end.checked_sub(1)?)?;
        let minutes =
            self.word(end).filter(|w| led && w.len() == 2 && w.bytes().all(|b| b.is_ascii_digit()) && hour_word.bytes().all(|b| b.is_ascii_digit()))?;
        let minute: u32 = minutes.parse().ok().filter(|m| *m <= 59)?;
        if self.word(end + 1).is_some_and(|w| lex::unit(w).is_some()) {
            return None;
        }
        hour.minute = minute;
        hour.settled |= hour_word.starts_with('0');
        Some(end + 1)
    }

    /// The hour said with its unit, and the minutes after it with theirs: "a las quince
    /// horas", "las doce horas y treinta minutos", "las once horas y cuarenta y cinco".
    /// Only after "a las"/"las": "2 horas" alone is a span.
    fn hours_and_minutes(&self, hour: &mut Hour, end: usize, led: bool) -> Option<usize> {
        let after = self.any(end, &["horas", "hora"]).filter(|_| led)?;
        hour.settled |= hour.hour > 12;
        let Some((minutes, e)) = self.any(after, &["y"]).and_then(|at| self.minutes_in_words(at)) else {
            return Some(after);
        };
        hour.minute = minutes;
        Some(self.any(e, &["minutos", "minuto"]).unwrap_or(e))
    }

    /// A number of minutes at `at`, in digits or words, tens with their units ("cuarenta
    /// y cinco"); where it ends.
    fn minutes_in_words(&self, at: usize) -> Found<u32> {
        let n = self.word(at).and_then(|w| lex::whole(w, 59))?;
        let units = self
            .any(at + 1, &["y"])
            .filter(|_| n >= 20 && n % 10 == 0)
            .and_then(|a| Some((self.word(a).and_then(|w| lex::whole(w, 9)).filter(|u| *u > 0)?, a + 1)));
        Some(units.map_or((n, at + 1), |(u, e)| (n + u, e)))
    }

    /// Minutes said as words right after an hour said as one, as speech to text writes
    /// them: "a las siete treinta", "ocho cuarenta y cinco", "seven thirty". Tens only
    /// (and their units), so "a las siete dos personas" stays no time.
    fn spoken_minutes(&self, hour: &mut Hour, end: usize) -> Option<usize> {
        let said_in_words = end > 0 && self.word(end - 1).is_some_and(|w| lex::whole(w, 24).is_some() && !w.bytes().any(|b| b.is_ascii_digit()));
        let tens = self.word(end).and_then(|w| lex::whole(w, 59)).filter(|m| said_in_words && *m >= 10 && m % 10 == 0)?;
        if self.word(end + 1).is_some_and(|w| lex::unit(w).is_some()) {
            return None;
        }
        let units = self.any(end + 1, &["y"]).and_then(|a| Some((self.word(a).and_then(|w| lex::whole(w, 9)).filter(|u| *u > 0)?, a + 1)));
        // English says the units right after the tens: "nine forty five".
        let english_units = || {
            let w = self.word(end + 1)?;
            matches!(lex::number_word(w), Some((_, Some(lex::Tongue::En)))).then(|| lex::whole(w, 9)).flatten().filter(|u| *u > 0).map(|u| (u, end + 2))
        };
        let (units, after) = units.or_else(english_units).unwrap_or((0, end + 1));
        if self.word(after).is_some_and(|w| lex::unit(w).is_some()) {
            return None;
        }
        hour.minute = tens + units;
        Some(after)
    }

    /// noon, midnight, mediodía, medianoche.
    fn named_hour(&self, i: usize) -> Found<Hour> {
        let i = self.any(i, &["al", "a", "la", "el", "the"]).filter(|&n| self.named_hour_word(n).is_some()).unwrap_or(i);
        self.named_hour_word(i)
    }

    fn named_hour_word(&self, i: usize) -> Found<Hour> {
        if let Some(end) = self.any(i, &["media noche"]) {
            return Some((Hour { hour: 24, minute: 0, pm: None, part: None, settled: true, bound: None, to_hour: false }, end));
        }
        if let Some(end) = self.any(i, &["medio dia", "mid day"]) {
            return Some((Hour { hour: 12, minute: 0, pm: None, part: None, settled: true, bound: None, to_hour: false }, end));
        }
        let hour = match self.word(i)? {
            "noon" | "midday" | "mediodia" => 12,
            "midnight" | "medianoche" => 24,
            _ => return None,
        };
        Some((Hour { hour, minute: 0, pm: None, part: None, settled: true, bound: None, to_hour: false }, i + 1))
    }

    /// "half past 3", "quarter past 9", "quarter to 5", "ten past 8", "20 minutes to
    /// 2pm", "15 past noon". Without "at" before it, a bare number needs "minutes"
    /// ("do 5 to 10 push-ups" is no time).
    fn english_fraction(&self, i: usize, led: bool) -> Found<Hour> {
        let (minutes, at) = match self.word(i)? {
            "half" => (30, i + 1),
            "quarter" => (15, i + 1),
            "a" if self.word(i + 1) == Some("quarter") => (15, i + 2),
            w => {
                let minutes = lex::whole(w, 59)?;
                match self.any(i + 1, &["minutes", "minute", "mins", "min"]) {
                    Some(end) => (minutes, end),
                    None if led => (minutes, i + 1),
                    None => return None,
                }
            }
        };
        let past = match self.word(at)? {
            "past" | "after" => true,
            "to" | "before" => false,
            _ => return None,
        };
        self.counted_from(at + 1, minutes, past)
    }

    /// The hour at `at` with `minutes` past it or to it (`past` false: "ten to nine" is
    /// 8:50, and the part of the day said is nine's), and its am/pm if said.
    fn counted_from(&self, at: usize, minutes: u32, past: bool) -> Found<Hour> {
        if minutes == 0 || minutes > 59 {
            return None;
        }
        let (mut hour, mut end) = self.named_hour_word(at).or_else(|| self.clock(at, true))?;
        // The hour may carry minutes of its own: "tres minutos para las cinco treinta",
        // "… para las cinco y media".
        end = self.minutes(&mut hour, end).unwrap_or(end);
        if past {
            hour.minute += minutes;
            if hour.minute > 59 {
                return None;
            }
        } else if hour.minute >= minutes {
            hour.minute -= minutes;
        } else {
            hour.hour = (hour.hour + 23) % 24;
            hour.minute += 60 - minutes;
            hour.to_hour = true;
        }
        let (pm, end) = self.meridiem(end).map_or((hour.pm, end), |(pm, e)| (Some(pm), e));
        hour.pm = pm;
        Some((hour, end))
    }

    /// Minutes said before the hour they count from, as Latin America says them: "cuarto
    /// para las ocho" (7:45), "a veinte para las nueve", "diez pasadas las siete", "tres
    /// minutos pasadas las 10". Before "para", only what is not a count of people ("mesa
    /// para cinco para las nueve"): a quarter, 10, 20 or 25, or minutes said as such.
    fn spanish_fraction(&self, i: usize) -> Found<Hour> {
        let i = self.any(i, &["a"]).filter(|&n| self.word(n).is_some_and(|w| w != "las" && w != "la")).unwrap_or(i);
        let (minutes, named, at) = match self.any(i, &["un cuarto", "cuarto"]) {
            Some(end) => (15, true, end),
            None => {
                let (minutes, end) = self.minutes_in_words(i)?;
                match self.any(end, &["minutos", "minuto", "min"]) {
                    Some(e) => (minutes, true, e),
                    None => (minutes, false, end),
                }
            }
        };
        let (past, hour_at) = match self.any(at, &["pasadas las", "pasadas la", "pasada la", "pasadas de las", "despues de las", "despues de la"]) {
            Some(e) => (true, e),
            None => match self.any(at, &["antes de las", "antes de la"]).filter(|_| named) {
                // "tres minutos antes de las cinco": minutes said as such, never a bare count.
                Some(e) => (false, e),
                None => (false, self.any(at, &["para las", "para la"]).filter(|_| named || matches!(minutes, 10 | 20 | 25))?),
            },
        };
        self.counted_from(hour_at, minutes, past)
    }

    /// "9", "9:30", "09.30", "8.30pm", "5pm", "5p.m.", "15h", "15hs", "9h30", "tres".
    fn clock(&self, i: usize, led: bool) -> Found<Hour> {
        let w = self.word(i)?;
        // "siete y media", "ocho menos diez de la mañana": minutes in words, then a mark.
        let minutes_then_mark = || self.any(i + 1, &["y", "menos"]).and_then(|a| self.minutes_in_words(a)).is_some_and(|(_, after)| self.marked_hour(after));
        // "una y treinta", "la una y cinco" said alone, as an answer: the hour and its
        // minutes are the whole of what is said ("entre diez y veinte" is a range).
        let minutes_then_end = || {
            self.word(i.wrapping_sub(1)) != Some("entre")
                && self.any(i + 1, &["y"]).and_then(|a| self.minutes_in_words(a)).is_some_and(|(m, after)| m >= 5 && m % 5 == 0 && self.word(after).is_none())
        };
        let words_mark = || self.marked_hour(i + 1) || self.any(i + 1, SPANISH_FRACTIONS).is_some() || minutes_then_mark() || minutes_then_end();
        if let Some(n) = lex::whole(w, 24).filter(|_| (led || words_mark()) && !w.bytes().all(|b| b.is_ascii_digit())) {
            // A number word: "a las tres", "at nine".
            return Some((Hour { hour: n, minute: 0, pm: None, part: None, settled: n == 0, bound: None, to_hour: false }, i + 1));
        }
        let digits_end = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
        if (3..=4).contains(&digits_end) && (led || self.meridiem(i + 1).is_some() || w[digits_end..].ends_with('m')) {
            // "at 1030", "330 p.m.": hours and minutes run together.
            return self.run_together(i, &w[..digits_end], &w[digits_end..]);
        }
        if digits_end == 0 || digits_end > 2 {
            return None;
        }
        let hour: u32 = w[..digits_end].parse().ok()?;
        let mut rest = &w[digits_end..];
        let mut minute = 0;
        let mut explicit_minutes = false;
        if let Some(r) = rest
            .strip_prefix(':')
            .or_else(|| rest.strip_prefix('.').filter(|r| led || r.get(2..).and_then(meridiem_suffix).flatten().is_some()))
            .or_else(|| rest.strip_prefix('h').filter(|r| r.len() == 2))
        {
            if r.len() < 2 || !r.as_bytes()[..2].iter().all(u8::is_ascii_digit) {
                return None;
            }
            minute = r[..2].parse().ok()?;
            rest = &r[2..];
            // "9:01:10 AM": seconds are read and left out.
            if let Some(seconds) = rest.strip_prefix(':').filter(|s| s.len() >= 2 && s.as_bytes()[..2].iter().all(u8::is_ascii_digit)) {
                rest = &seconds[2..];
            }
            explicit_minutes = true;
        }
        let pm = match rest {
            "h" | "hs" | "hrs" if !explicit_minutes => None,
            other => meridiem_suffix(other)?,
        };
        if hour > 24 || minute > 59 || (pm.is_some() && !(1..=12).contains(&hour)) {
            return None;
        }
        if !led && pm.is_none() && !explicit_minutes && !matches!(rest, "h" | "hs" | "hrs") && !self.marked_hour(i + 1) {
            // A bare number is a time only after "at"/"a las" or with a mark after it.
            return None;
        }
        let settled = hour == 0 || hour > 12 || (explicit_minutes && w.starts_with('0'));
        Some((Hour { hour, minute, pm, part: None, settled, bound: None, to_hour: false }, i + 1))
    }

    /// "1030", "330p": the last two digits are the minutes.
    fn run_together(&self, i: usize, digits: &str, rest: &str) -> Found<Hour> {
        let (h, m) = digits.split_at(digits.len() - 2);
        let (hour, minute): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
        let pm = meridiem_suffix(rest)?;
        if hour > 23 || minute > 59 || (pm.is_some() && !(1..=12).contains(&hour)) {
            return None;
        }
        // "a las 0600": the 24-hour clock's leading zero.
        let settled = hour == 0 || hour > 12 || digits.len() == 4 && digits.starts_with('0');
        Some((Hour { hour, minute, pm, part: None, settled, bound: None, to_hour: false }, i + 1))
    }

    /// What after a bare number makes it an hour: "pm", "o'clock", "de la tarde"; and
    /// "tonight" when the number opens the words ("11 tonight"; in "read chapter 12
    /// tonight" the number is the chapter's).
    fn marked_hour(&self, i: usize) -> bool {
        self.meridiem(i).is_some()
            || self
                .any(
                    i,
                    &[
                        "o'clock",
                        "oclock",
                        "o clock",
                        "en punto",
                        "de la manana",
                        "de la tarde",
                        "de la noche",
                        "de la madrugada",
                        "in the morning",
                        "in the afternoon",
                        "in the evening",
                        "at night",
                    ],
                )
                .is_some()
            || (i == 1 && self.any(i, &["tonight", "esta noche"]).is_some())
    }

    fn meridiem(&self, i: usize) -> Found<bool> {
        match self.word(i)? {
            "am" | "a.m." => Some((false, i + 1)),
            "pm" | "p.m." => Some((true, i + 1)),
            "a" | "p" if self.word(i + 1) == Some("m") || self.word(i + 1) == Some("m.") => Some((self.word(i) == Some("p"), i + 2)),
            _ => None,
        }
    }
}

/// What a Spanish hour's minutes may be said as: "las siete y media", "ocho menos cuarto".
const SPANISH_FRACTIONS: &[&str] = &["y media", "y cuarto", "menos cuarto", "y tres cuartos", "y 3 cuartos"];

/// What follows the digits of an hour: nothing (`Some(None)`), am or pm; `None` for
/// anything else.
fn meridiem_suffix(rest: &str) -> Option<Option<bool>> {
    match rest {
        "" => Some(None),
        "am" | "a.m." | "a" => Some(Some(false)),
        "pm" | "p.m." | "p" => Some(Some(true)),
        _ => None,
    }
}
