//! The grammar of dates: small matchers over tokens, each reading one component (an
//! offset, a day, an hour, a part of the day, an end) and saying where it stopped.
//! `scan` chains them (with `repeat_words`) into date expressions; nothing here knows
//! what "now" is (`resolve` does).
//!
//! Over 400 lines: the matchers hand one token cursor along `scan`'s chain, each saying
//! where it stopped; apart they would pass it across files.

use super::lexicon::{self as lex, DayPart, Tok, Tongue, Unit};
use super::parts::{Component, Day, Offset};

pub(crate) struct Grammar<'a> {
    toks: &'a [Tok],
    /// Decides D/M against M/D in numeric dates.
    pub(super) tongue: Tongue,
}

pub(super) type Found<T> = Option<(T, usize)>;

impl<'a> Grammar<'a> {
    pub(crate) fn new(toks: &'a [Tok], tongue: Tongue) -> Self {
        Self { toks, tongue }
    }

    pub(super) fn word(&self, i: usize) -> Option<&str> {
        self.toks.get(i).map(|t| t.text.as_str())
    }

    /// The words of `phrase` from `i`; where they end.
    fn phrase(&self, i: usize, phrase: &str) -> Option<usize> {
        let mut at = i;
        for w in phrase.split(' ') {
            if self.word(at)? != w {
                return None;
            }
            at += 1;
        }
        Some(at)
    }

    /// The longest of `phrases` from `i`.
    pub(super) fn any(&self, i: usize, phrases: &[&str]) -> Option<usize> {
        phrases.iter().filter_map(|p| self.phrase(i, p)).max()
    }

    // ---- offsets ----

    pub(super) fn offset(&self, i: usize) -> Found<Offset> {
        if let Some(found) = self.next_unit(i) {
            return Some(found);
        }
        // A timer is a reminder in that long: "set a timer for 5 minutes".
        let timer = self.any(i, lex::TIMERS);
        let lead = timer.or_else(|| {
            self.any(
                i,
                &[
                    "in",
                    "within",
                    "after",
                    "en",
                    "dentro de",
                    "despues de",
                    "luego de",
                    "de aqui a",
                    "pasados",
                    "pasadas",
                    "now +",
                    "now plus",
                    "ahora +",
                    "ahora mas",
                    "+",
                ],
            )
        });
        if lead.is_none() && self.phrase(i, "medio dia").is_some() {
            return None; // noon ("mediodía" in two words), not half a day
        }
        let start = lead.unwrap_or(i);
        let (mut offset, mut at) = self.amount(start, lead.is_some())?;
        while let Some((more, end)) = self.any(at, &["and", "y"]).and_then(|a| self.amount(a, false)).or_else(|| self.amount(at, false)) {
            offset.months += more.months;
            offset.days += more.days;
            offset.seconds += more.seconds;
            at = end;
        }
        let counted_from_an_hour = [
            "past",
            "to",
            "before",
            "para las",
            "para la",
            "antes de las",
            "antes de la",
            "pasadas las",
            "pasada la",
            "pasadas de las",
            "despues de las",
            "despues de la",
        ];
        if lead.is_none() && self.any(at, &counted_from_an_hour).is_some() {
            return None; // "20 minutes to 2pm", "tres minutos para las cinco" are hours
        }
        let trail = self.any(at, &["later", "from now", "after", "hence", "despues", "mas tarde", "a partir de ahora", "desde ahora"]);
        // "3 días a partir de hoy", "4 months from tomorrow": counted from that day.
        let from_day = self.any(at, FROM_TODAY).map(|e| (0, e)).or_else(|| self.any(at, FROM_TOMORROW).map(|e| (1, e)));
        if let Some((days, _)) = from_day.filter(|_| offset.seconds == 0) {
            offset.days += days;
        }
        let trail = from_day.filter(|_| offset.seconds == 0).map(|(_, e)| e).or(trail);
        // "2 días a partir del viernes", "3 days after January 12th": counted from a day that follows, read on its own.
        let from_weekday = self
            .any(at, FROM_A_DAY)
            .filter(|&e| offset.seconds == 0 && from_day.is_none() && self.day(e).is_some() && (offset.days != 0 || offset.months != 0));
        if let Some(e) = from_weekday {
            offset.from_day = true;
            offset.marked = true;
            return Some((offset, e));
        }
        offset.marked = lead.is_some() || trail.is_some();
        if !offset.marked && at == i + 1 && self.word(i).is_some_and(|w| w.ends_with('h')) {
            // "15h" alone is an hour of the day (Spanish usage), not fifteen hours.
            return None;
        }
        Some((offset, trail.unwrap_or(at)))
    }

    /// "next hour", "within the next hour", "la próxima hora": one hour (or minute) on.
    fn next_unit(&self, i: usize) -> Found<Offset> {
        let at = self.any(i, &["next", "the next", "within the next", "in the next", "la proxima", "en la proxima", "dentro de la proxima", "la siguiente"])?;
        let (unit, _) = lex::unit(self.word(at)?)?;
        if !matches!(unit, Unit::Hour | Unit::Minute) || self.word(at).is_some_and(|w| w.ends_with('s')) {
            // "next week", "next month" name no day; they are read elsewhere.
            return None;
        }
        let mut offset = scale(1.0, unit)?;
        offset.marked = true;
        Some((offset, at + 1))
    }

    /// One quantity and unit: "2 hours", "media hora", "a couple of days", "1d", "una
    /// hora y media", "half an hour".
    fn amount(&self, i: usize, bare_unit: bool) -> Found<Offset> {
        if let Some(found) = self.compact(i) {
            return Some(found);
        }
        // "en hora y media": a unit with no number, only right after "in"/"en".
        let (n, at) = match self.quantity(i) {
            Some(found) => found,
            None if bare_unit => (1.0, i),
            None => return None,
        };
        let (unit, _) = lex::unit(self.word(at)?)?;
        let mut end = at + 1;
        let mut n = n;
        if let Some(e) = self.any(end, &["y media", "and a half", "y cuarto", "and a quarter", "y tres cuartos", "y 3 cuartos"]) {
            n += match self.word(end + 1) {
                Some("media" | "a") if self.word(end + 2) != Some("quarter") => 0.5,
                Some("tres" | "3") => 0.75,
                _ => 0.25,
            };
            end = e;
        }
        Some((scale(n, unit)?, end))
    }

    /// "1d", "2hr", "5min", "90m", "1.5h", "2hour", "40minutes".
    fn compact(&self, i: usize) -> Found<Offset> {
        let w = self.word(i)?;
        let split = w.find(|c: char| c.is_ascii_alphabetic())?;
        let (n, u) = w.split_at(split);
        let n = lex::digits(n)?;
        let unit = match u {
            "d" => Unit::Day,
            "h" | "hr" | "hrs" => Unit::Hour,
            "m" | "min" | "mins" => Unit::Minute,
            "w" | "wk" => Unit::Week,
            "s" | "sec" => Unit::Second,
            // A whole unit word run into its number.
            _ => lex::unit(u).map(|(unit, _)| unit)?,
        };
        Some((scale(n, unit)?, i + 1))
    }

    fn quantity(&self, i: usize) -> Found<f64> {
        let i = self
            .any(i, &["about", "around", "roughly", "approximately", "unos", "unas", "como", "aproximadamente"])
            .filter(|&n| self.quantity_core(n).is_some())
            .unwrap_or(i);
        self.quantity_core(i)
    }

    fn quantity_core(&self, i: usize) -> Found<f64> {
        if let Some(end) = self.any(i, &["a couple of", "a couple", "couple of", "un par de", "a pair of", "pair of"]) {
            return Some((2.0, end));
        }
        if let Some(end) = self.any(i, &["a few", "few", "unos pocos", "unas pocas", "unos cuantos", "unas cuantas"]) {
            return Some((3.0, end));
        }
        if let Some(end) = self.any(i, &["un cuarto de", "a quarter of an", "a quarter of a", "quarter of an"]) {
            return Some((0.25, end));
        }
        if let Some(end) = self.any(i, &["tres cuartos de", "3 cuartos de", "three quarters of an", "three quarters of a"]) {
            return Some((0.75, end));
        }
        if let Some(end) = self.any(i, &["half an", "half a", "a half"]) {
            return Some((0.5, end));
        }
        if let Some(n) = self.word(i).and_then(written_fraction) {
            // "dentro de 3/4 de hora", "en 1/2 hora": not a date (3 April).
            let end = self.any(i + 1, &["de", "of an", "of a"]).filter(|&e| self.word(e).and_then(lex::unit).is_some()).unwrap_or(i + 1);
            return Some((n, end));
        }
        let (n, _) = lex::number_word(self.word(i)?)?;
        // "in 2 more minutes"
        let end = self.any(i + 1, &["more", "mas"]).filter(|&e| self.word(e).is_some_and(|w| lex::unit(w).is_some())).unwrap_or(i + 1);
        Some((n, end))
    }

    // ---- days ----

    pub(super) fn day(&self, i: usize) -> Found<Day> {
        if let Some(end) = self.any(
            i,
            &[
                "pasado manana",
                "el dia despues de manana",
                "dia despues de manana",
                "el dia siguiente a manana",
                "the day after tomorrow",
                "day after tomorrow",
                "the day after tmrw",
                "day after tmrw",
            ],
        ) {
            return Some((Day::AfterTomorrow, end));
        }
        if let Some(end) = self.any(i, &["el dia siguiente", "al dia siguiente", "el proximo dia", "the next day", "the following day"]) {
            return Some((Day::Tomorrow, end));
        }
        // "el día después" alone; "el día después de la reunión" names another day.
        if let Some(end) = self.any(i, &["el dia despues", "el dia de despues", "the day after"]).filter(|&e| self.any(e, &["de", "del", "of"]).is_none()) {
            return Some((Day::Tomorrow, end));
        }
        if let Some(found) = self.holiday(i) {
            return Some(found);
        }
        let simple = [
            ("hoy", Day::Today),
            ("today", Day::Today),
            ("manana", Day::Tomorrow),
            ("tomorrow", Day::Tomorrow),
            ("tmrw", Day::Tomorrow),
            ("ayer", Day::Yesterday),
            ("yesterday", Day::Yesterday),
        ];
        let i_day = self.any(i, &["for", "para", "de", "on", "by"]).filter(|&n| self.simple_day(n, &simple).is_some()).unwrap_or(i);
        if let Some(found) = self.simple_day(i_day, &simple) {
            return Some(found);
        }
        if let Some(end) = self.any(
            i,
            &[
                "el finde",
                "este finde",
                "finde",
                "el fin de semana",
                "este fin de semana",
                "this weekend",
                "the weekend",
                "on the weekend",
                "over the weekend",
                "this coming weekend",
            ],
        ) {
            return Some((Day::Weekend, end));
        }
        if let Some(found) = self.nth_weekday(i) {
            return Some(found);
        }
        if let Some(found) = self.calendar(i) {
            return Some(found);
        }
        if let Some(found) = self.numeric(i) {
            return Some(found);
        }
        if let Some(found) = self.day_of_numbered_month(i) {
            return Some(found);
        }
        if let Some(found) = self.weekday(i) {
            return Some(found);
        }
        self.month_day(i)
    }

    fn simple_day(&self, i: usize, simple: &[(&str, Day)]) -> Found<Day> {
        let w = self.word(i)?;
        let (_, day) = simple.iter().find(|(s, _)| *s == w)?;
        Some((*day, i + 1))
    }

    /// "el primer viernes de julio", "the last Monday of May", "the second Tuesday in
    /// March". Of a month named: "el primer lunes de cada mes" is a repeat's.
    fn nth_weekday(&self, i: usize) -> Found<Day> {
        let at = self.any(i, &["el", "the", "on the"]).filter(|&n| self.word(n).and_then(lex::position).is_some()).unwrap_or(i);
        let position = lex::position(self.word(at)?)?;
        let (weekday, _) = lex::weekday(self.word(at + 1)?)?;
        let of = self.any(at + 2, &["de", "del mes de", "of", "in"])?;
        let (month, _) = lex::month(self.word(of)?)?;
        Some((Day::NthWeekday { position, weekday, month }, of + 1))
    }

    /// "24 de octubre", "el 1º de mayo de 2027", "October 24th, 2026", "24th of October".
    fn calendar(&self, i: usize) -> Found<Day> {
        let i = self
            .any(i, &["el dia", "el", "the", "on the", "on", "del", "dia", "by", "by the", "para el"])
            .filter(|&n| self.calendar_core(n).is_some())
            .unwrap_or(i);
        self.calendar_core(i)
    }

    fn calendar_core(&self, i: usize) -> Found<Day> {
        let day_word = |at: usize| self.spoken_day(at).or_else(|| self.word(at).and_then(lex::ordinal_day).map(|d| (d, at + 1)));
        // Day first: "24 de octubre", "24th of october", "24 october", "cinco de mayo".
        let spelled =
            |at: usize| self.word(at).and_then(|w| lex::whole(w, 31)).filter(|&d| d >= 1 && self.any(at + 1, &["de", "of"]).is_some()).map(|d| (d, at + 1));
        if let Some((day, after)) = day_word(i).or_else(|| spelled(i)) {
            // "el 3º día de octubre", "the third day of October".
            let at = self.any(after, &["dia de", "day of", "de", "of"]).unwrap_or(after);
            if let Some((month, _)) = self.word(at).and_then(lex::month) {
                let (year, end) = self.year(at + 1);
                return Some((Day::Calendar { day, month, year }, end));
            }
        }
        // Month first: "october 24", "september 16, 2020", "oct 24th", "May twenty one".
        let (month, _) = lex::month(self.word(i)?)?;
        let at = self.any(i + 1, &["the"]).unwrap_or(i + 1);
        let (day, after) = day_word(at)?;
        let (year, end) = self.year(after);
        Some((Day::Calendar { day, month, year }, end))
    }

    /// A day of the month said as an ordinal in words, in one word or two: "first",
    /// "fifteenth", "twenty second", "twenty-one" (English tens and units), "vigésimo
    /// segundo"; where it ends.
    pub(super) fn spoken_day(&self, at: usize) -> Found<u32> {
        let w = self.word(at)?;
        let tens = match w {
            "twenty" | "vigesimo" => 20,
            "thirty" | "trigesimo" => 30,
            _ => return lex::ordinal_word(w).map(|d| (d, at + 1)),
        };
        let unit = self.word(at + 1).and_then(|u| lex::ordinal_word(u).or_else(|| lex::whole(u, 9).filter(|_| tens == 20 || u == "one" || u == "first")));
        // "twenty" alone is a number, not an ordinal: only "the twenty" reads it.
        unit.filter(|u| (1..=9).contains(u) && tens + u <= 31).map(|u| (tens + u, at + 2))
    }

    /// "el 15", "el día 15", "del 15" (after an hour: "a las 8 del 15"), "the 15th",
    /// "on the 1st".
    fn month_day(&self, i: usize) -> Found<Day> {
        let at = self.any(i, &["el dia", "del dia", "dia", "el", "del", "the", "on the"])?;
        let w = self.word(at)?;
        let spanish = matches!(self.word(i), Some("el" | "del" | "dia"));
        let Some(day) = lex::ordinal_day(w) else {
            return self.month_day_in_words(at).filter(|_| spanish).map(|(day, end)| (Day::OfMonth(day), end));
        };
        // "the 15" is not a date in English; "the 15th" is.
        if !spanish && w.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some((Day::OfMonth(day), at + 1))
    }

    /// "el dieciséis", "el día dos", "el treinta y uno": a Spanish day of the month in
    /// words at `at`. "Uno" only after "día" ("el uno" is rather someone).
    fn month_day_in_words(&self, at: usize) -> Found<u32> {
        let w = self.word(at)?;
        let n = lex::whole(w, 31).filter(|_| !w.bytes().any(|b| b.is_ascii_digit()))?;
        let units = self.any(at + 1, &["y"]).filter(|_| n == 20 || n == 30).and_then(|a| Some((self.word(a).and_then(|u| lex::whole(u, 9))?, a + 1)));
        let (day, end) = units.map_or((n, at + 1), |(u, e)| (n + u, e));
        let after_dia = at > 0 && self.word(at - 1) == Some("dia");
        ((2..=31).contains(&day) || day == 1 && after_dia).then_some((day, end))
    }

    /// The holidays of a fixed date, said as when: "en Navidad", "el día de Nochevieja",
    /// "on Christmas Eve", or alone. Not "la cena de Navidad", "Christmas shopping".
    fn holiday(&self, i: usize) -> Found<Day> {
        let lead = self.any(i, &["el dia de", "en", "para", "on", "for", "at"]);
        let article = self.any(i, &["la", "el"]).filter(|_| lead.is_none());
        let at = lead.or(article).unwrap_or(i);
        let (day, month, end) = HOLIDAYS.iter().find_map(|&(words, day, month)| self.any(at, &[words]).map(|end| (day, month, end)))?;
        // Alone, with or without its article: "Navidad", "la Navidad".
        let alone = i == 0 && self.word(end).is_none();
        (lead.is_some() || alone).then_some((Day::Calendar { day, month, year: None }, end))
    }

    // ---- parts of the day ----

    /// "al final del día", "al finalizar el domingo", "al fin del lunes", "end of (the) day", "eod": a
    /// moment with no hour said (the day, if any, is read on its own after it).
    pub(super) fn end_of_day(&self, i: usize) -> Found<()> {
        let end = self.any(
            i,
            &[
                "al final del dia",
                "al finalizar el dia",
                "al fin del dia",
                "al fin de",
                "al fin del",
                "hacia el fin de dia",
                "hacia el final del dia",
                "a fin de dia",
                "al final de",
                "al final del",
                "al finalizar el",
                "al finalizar",
                "end of the day",
                "end of day",
                "end of the",
                "end of",
                "at the end of the day",
                "by the end of the day",
                "by end of day",
                "at the eod",
                "by eod",
                "eod",
                "at the end of",
                "by the end of",
            ],
        )?;
        // "al final de" alone only before a day: "al final de la reunión" is no date.
        let names_day = self.word(end - 1).is_some_and(|w| matches!(w, "dia" | "day" | "eod"));
        (names_day || self.day(end).is_some()).then_some(((), end))
    }

    /// "tonight", "esta noche", "this afternoon".
    pub(super) fn today_part(&self, i: usize) -> Found<Component> {
        let parts = [
            ("tonight", DayPart::Night),
            ("esta noche", DayPart::Night),
            ("esta tarde", DayPart::Afternoon),
            ("esta manana", DayPart::Morning),
            ("this morning", DayPart::Morning),
            ("this afternoon", DayPart::Afternoon),
            ("this evening", DayPart::Evening),
            ("later today", DayPart::Evening),
            ("esta madrugada", DayPart::EarlyMorning),
        ];
        parts.iter().find_map(|(p, part)| self.phrase(i, p).map(|end| (Component::TodayPart(*part), end)))
    }

    /// "in the morning", "por la tarde", "at night", "de madrugada", or after a day:
    /// "tomorrow morning", "el lunes en la noche".
    pub(super) fn part(&self, i: usize) -> Found<DayPart> {
        let lead = self.any(i, &["in the", "por la", "en la", "a la", "de la", "at", "de", "por la", "during the"]);
        let at = lead.unwrap_or(i);
        let part = lex::day_part(self.word(at)?)?;
        // A bare part of the day only after a day or a repeat ("tomorrow morning",
        // "every night", "todas las noches"): "good morning" is no date, and a bare
        // "mañana" is tomorrow.
        let after_day = i > 0
            && self.word(i - 1).is_some_and(|w| {
                matches!(w, "tomorrow" | "today" | "tmrw" | "every" | "each" | "cada" | "las" | "los" | "yesterday") || lex::weekday(w).is_some()
            });
        if lead.is_none() && !after_day {
            return None;
        }
        Some((part, at + 1))
    }

    // ---- repeats and their ends ----

    pub(super) fn until_or_count(&self, i: usize) -> Found<Component> {
        if let Some(at) = self.any(i, &["until", "till", "hasta", "hasta el", "through"]) {
            let (day, end) = self.day(at)?;
            return Some((Component::Until(day), end));
        }
        let at = self.any(i, &["for", "durante", "un total de"]).unwrap_or(i);
        let n = lex::whole(self.word(at)?, 10_000)?;
        let end = self.any(at + 1, &["times", "veces", "occurrences", "ocasiones"])?;
        Some((Component::Count(n), end))
    }

    // Accessors the repeat reader needs.
    pub(super) fn w(&self, i: usize) -> Option<&str> {
        self.word(i)
    }
    pub(super) fn any_of(&self, i: usize, phrases: &[&str]) -> Option<usize> {
        self.any(i, phrases)
    }
    pub(super) fn day_at(&self, i: usize) -> Found<Day> {
        self.day(i)
    }
}

/// Before a day an offset counts from ("2 días a partir del viernes", "3 days after January 12th").
const FROM_A_DAY: &[&str] = &["a partir del", "despues del", "desde el", "after", "from"];
const FROM_TODAY: &[&str] = &["a partir de hoy", "desde hoy", "despues de hoy", "contando desde hoy", "from today", "after today"];
const FROM_TOMORROW: &[&str] = &["a partir de manana", "desde manana", "despues de manana", "from tomorrow", "from tmrw", "after tomorrow"];

/// `n` of `unit` as an offset; `None` when it is absurdly large.
/// Holidays on the same date every year, longest first (day, month).
const HOLIDAYS: [(&str, u32, u32); 10] = [
    ("christmas eve", 24, 12),
    ("christmas day", 25, 12),
    ("christmas", 25, 12),
    ("navidad", 25, 12),
    ("nochebuena", 24, 12),
    ("nochevieja", 31, 12),
    ("ano nuevo", 1, 1),
    ("new years eve", 31, 12),
    ("new years day", 1, 1),
    ("new year's day", 1, 1),
];

/// A fraction written with a slash that a span of time is said in: "1/2", "1/4", "3/4".
fn written_fraction(word: &str) -> Option<f64> {
    match word {
        "1/2" => Some(0.5),
        "1/4" => Some(0.25),
        "3/4" => Some(0.75),
        _ => None,
    }
}

fn scale(n: f64, unit: Unit) -> Option<Offset> {
    if !n.is_finite() || n <= 0.0 || n > 1.0e6 {
        return None;
    }
    let whole = n.fract() == 0.0;
    let (months, days, seconds) = match unit {
        Unit::Second => (0.0, 0.0, n),
        Unit::Minute => (0.0, 0.0, n * 60.0),
        Unit::Hour => (0.0, 0.0, n * 3600.0),
        Unit::Day if whole => (0.0, n, 0.0),
        Unit::Day => (0.0, 0.0, n * 86_400.0),
        Unit::Week if whole => (0.0, n * 7.0, 0.0),
        Unit::Week => (0.0, (n * 7.0).round(), 0.0),
        Unit::Month if whole => (n, 0.0, 0.0),
        Unit::Month => (0.0, (n * 30.0).round(), 0.0),
        Unit::Year if whole => (n * 12.0, 0.0, 0.0),
        Unit::Year => (0.0, (n * 365.0).round(), 0.0),
    };
    Some(Offset { months: months as i64, days: days as i64, seconds: seconds.round() as i64, marked: false, from_day: false })
}
