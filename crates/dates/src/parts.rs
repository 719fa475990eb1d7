//! What a date expression says, component by component, before it is read at a
//! moment in a zone: offsets, days, hours, parts of the day, repeats and their ends.

use chrono::Weekday;

use super::lexicon::DayPart;

/// A length of time: calendar months and days, and exact seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Offset {
    pub months: i64,
    pub days: i64,
    pub seconds: i64,
    /// Said with "in", "within", "later", "dentro de"…; a bare "2 hours" is a date only
    /// when it is the whole text.
    pub marked: bool,
    /// Counted from the day said after it ("2 días a partir del viernes", "two weeks
    /// after next Friday"), not from today.
    pub from_day: bool,
}

/// A day, as said.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Day {
    Yesterday,
    Today,
    Tomorrow,
    AfterTomorrow,
    /// The next such weekday (never today); `next_week` picks the one in next week.
    /// `said_next`: "next Friday", "el próximo viernes", "el viernes que viene", which
    /// some mean as this week's and some as next week's.
    Weekday {
        weekday: Weekday,
        next_week: bool,
        said_next: bool,
        /// "este sábado", "this Saturday": today, when today is that weekday.
        said_this: bool,
    },
    /// "el martes 6", "Fri 14th": the next day of the month so numbered that falls on
    /// that weekday.
    WeekdayOfMonth {
        weekday: Weekday,
        day: u32,
    },
    /// A weekday already gone: "el miércoles pasado", "last Sunday".
    Gone,
    /// The weekday of this week (Monday to Sunday), today or already gone included:
    /// "el martes de esta semana", "Thursday of this week".
    ThisWeek(Weekday),
    Weekend,
    /// A day of a month, with or without a year (two digits: the century is the
    /// reader's choice).
    Calendar {
        day: u32,
        month: u32,
        year: Option<i32>,
    },
    /// "el 15", "the 15th": this month's, or next month's if it has passed.
    OfMonth(u32),
    /// "el primer viernes de julio", "the last Monday of May": the next such day.
    /// `position` counts from the month's start (1 to 4) or, negative, from its end.
    NthWeekday {
        position: i32,
        weekday: Weekday,
        month: u32,
    },
}

/// An hour, as said.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Hour {
    pub hour: u32,
    pub minute: u32,
    /// Some(true) for pm, Some(false) for am.
    pub pm: Option<bool>,
    pub part: Option<DayPart>,
    /// noon, midnight, o'clock with a part, 24-hour forms: nothing left to guess.
    pub settled: bool,
    /// The minutes were said before the next hour ("la una menos cuarto", "quarter to
    /// five"): `hour` is already the hour before, and the part of the day said belongs
    /// to the next ("la una menos cuarto de la tarde" is 12:45).
    pub to_hour: bool,
    /// Said as a bound ("after 4pm", "antes de las 9"): reminded at the hour itself,
    /// and the reading says so.
    pub bound: Option<Bound>,
}

/// "after" or "before" an hour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    After,
    Before,
}

/// A repeat rule, as said; `recurrence` turns it into an RRULE.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Repeat {
    Minutes(u32),
    Hours(u32),
    Days(u32),
    Weeks {
        interval: u32,
        days: Vec<Weekday>,
    },
    MonthDay {
        interval: u32,
        day: i32,
    },
    MonthPosition {
        position: i32,
        weekday: Weekday,
    },
    /// Every `interval` years on a day (month 0: the first occurrence's day).
    Yearly {
        interval: u32,
        month: u32,
        day: u32,
    },
}

/// One component of a date expression.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Component {
    Offset(Offset),
    Day(Day),
    Hour(Hour),
    Part(DayPart),
    /// "tonight", "esta tarde": today, in that part of the day.
    TodayPart(DayPart),
    Repeat(Repeat),
    Until(Day),
    Count(u32),
    /// "al final del día", "end of day": a time, but no hour said.
    EndOfDay,
}

/// A date expression found in the tokens: its components and token range.
#[derive(Debug, Clone)]
pub(crate) struct Span {
    pub components: Vec<Component>,
    pub from: usize,
    pub to: usize,
}
