//! From what was said to an instant: the components of a date expression, read at
//! `now` in the user's zone. The seed's rules live here: an hour with no day and no
//! am/pm is a question; "hoy a las 3" after 3 in the morning means the afternoon; a
//! weekday is the next one, never today; a time alone that has passed today is
//! tomorrow's (and the reading says so); a date alone is all day at the default hour.
//! A local time skipped by a DST change moves forward by the gap; one that happens
//! twice is the first.

use chrono::{DateTime, Datelike, Duration, LocalResult, Months, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc, Weekday};
use chrono_tz::Tz;

use super::lexicon::DayPart;
use super::parts::{Component, Day, Hour, Offset, Repeat};
use super::Reading;
use crate::words::{self as words, DateErrorKind};
use sidecar_domain::Lang;

/// What a date expression said, slot by slot.
#[derive(Debug, Default, Clone)]
pub(crate) struct Parts {
    pub offset: Option<Offset>,
    pub day: Option<Day>,
    pub hour: Option<Hour>,
    pub part: Option<DayPart>,
    pub repeat: Option<Repeat>,
    pub until: Option<Day>,
    pub count: Option<u32>,
    /// A weekday said beside a date ("viernes 15 de junio"): the date must fall on it.
    pub weekday: Option<Weekday>,
}

impl Parts {
    /// Gathers components; two of the same kind that disagree are two dates.
    pub(crate) fn gather(components: &[Component]) -> Result<Self, DateErrorKind> {
        let mut parts = Parts::default();
        for c in components {
            let clash = match c {
                Component::Offset(o) => parts.offset.replace(*o).is_some(),
                Component::Day(date @ (Day::Calendar { .. } | Day::OfMonth(_))) if matches!(parts.day, Some(Day::Weekday { next_week: false, .. })) => {
                    // "Wednesday, September 16, 2020", "Tuesday the 19th": the weekday
                    // only checks the date.
                    if let Some(Day::Weekday { weekday, .. }) = parts.day.replace(*date) {
                        parts.weekday = Some(weekday);
                    }
                    false
                }
                // "el próximo viernes …, el viernes 27": the day that settles which week.
                Component::Day(date @ Day::WeekdayOfMonth { weekday, .. }) if matches!(parts.day, Some(Day::Weekday { weekday: w, next_week: false, .. }) if w == *weekday) =>
                {
                    parts.day = Some(*date);
                    false
                }
                // "el próximo viernes, viernes 20 de noviembre": one weekday said twice.
                Component::Day(Day::Weekday { weekday, next_week: false, .. }) if matches!(parts.day, Some(Day::Weekday { weekday: w, next_week: false, .. }) if w == *weekday) => {
                    false
                }
                // "Jul 18, Fri": the same, after the date.
                Component::Day(Day::Weekday { next_week: false, weekday, .. }) if matches!(parts.day, Some(Day::Calendar { .. } | Day::OfMonth(_))) => {
                    parts.weekday = Some(*weekday);
                    false
                }
                Component::Day(d) => parts.day.replace(*d).is_some_and(|old| old != *d),
                Component::Hour(h) => parts.hour.replace(*h).is_some_and(|old| old != *h),
                Component::Part(p) => parts.part.replace(*p).is_some_and(|old| old != *p),
                Component::TodayPart(p) => {
                    parts.part.replace(*p).is_some_and(|old| old != *p) || parts.day.replace(Day::Today).is_some_and(|old| old != Day::Today)
                }
                Component::Repeat(r) => parts.repeat.replace(r.clone()).is_some_and(|old| old != *r),
                Component::Until(d) => parts.until.replace(*d).is_some(),
                Component::Count(n) => parts.count.replace(*n).is_some(),
                // A time meant, its hour unsaid: asked, never guessed.
                Component::EndOfDay => return Err(DateErrorKind::VagueHour),
            };
            if clash {
                return Err(DateErrorKind::TwoDates);
            }
        }
        Ok(parts)
    }
}

/// Read at `now` in `zone`.
pub(crate) struct Context {
    pub now: DateTime<Utc>,
    pub zone: Tz,
    pub lang: Lang,
    /// The hour of an all-day reminder (a date with no time).
    pub all_day: NaiveTime,
    pub bare_hour: crate::BareHour,
}

impl Context {
    pub(crate) fn today(&self) -> NaiveDate {
        self.now.with_timezone(&self.zone).date_naive()
    }

    /// The instant of `date` at `time`, with DST gaps and overlaps said in the note.
    pub(crate) fn instant(&self, date: NaiveDate, time: NaiveTime) -> (DateTime<Utc>, Option<String>) {
        instant(date, time, self.zone, self.lang)
    }
}

/// The instant of `date` at `time` in `zone`, with DST gaps and overlaps made explicit.
pub fn instant(date: NaiveDate, time: NaiveTime, zone: Tz, lang: Lang) -> (DateTime<Utc>, Option<String>) {
    let naive = NaiveDateTime::new(date, time);
    match zone.from_local_datetime(&naive) {
        LocalResult::Single(t) => (t.with_timezone(&Utc), None),
        LocalResult::Ambiguous(first, _) => (first.with_timezone(&Utc), Some(words::doubled(naive, zone, lang))),
        LocalResult::None => {
            // Clocks jumped forward over this time: read it with the offset in force
            // just before the jump, which lands as far past the gap as it was into it.
            let before = (1..=240).map(|m| naive - Duration::minutes(m)).find_map(|n| zone.from_local_datetime(&n).earliest());
            let offset = before.map_or(0, |b| chrono::Offset::fix(b.offset()).local_minus_utc());
            let at = Utc.from_utc_datetime(&(naive - Duration::seconds(i64::from(offset))));
            let moved = at.with_timezone(&zone).format("%H:%M").to_string();
            (at, Some(words::skipped(naive, zone, &moved, lang)))
        }
    }
}

/// The hour on a 24-hour clock (24 = the midnight that ends the day), and whether it
/// is still a guess (1–11 with nothing saying morning or afternoon).
fn clock_hour(hour: &Hour, part: Option<DayPart>) -> Result<(u32, u32, bool), DateErrorKind> {
    // The hour said: "la una menos cuarto" says one, and its part of the day is one's.
    let h = if hour.to_hour { hour.hour % 24 + 1 } else { hour.hour };
    let part = hour.part.or(part);
    let h24 = match (hour.pm, part) {
        _ if h == 24 => 24,
        (Some(true), _) => {
            if h == 12 {
                12
            } else {
                h + 12
            }
        }
        (Some(false), _) => {
            if h == 12 {
                0
            } else {
                h
            }
        }
        // "esta tarde a las 07:00": the part of the day says more than a leading zero.
        (None, Some(DayPart::Afternoon | DayPart::Evening)) if hour.settled && (1..12).contains(&h) => h + 12,
        (None, _) if hour.settled || h == 0 || h > 12 => {
            if matches!(part, Some(DayPart::Morning | DayPart::EarlyMorning)) && h > 12 {
                return Err(DateErrorKind::NotUnderstood);
            }
            h
        }
        (None, Some(DayPart::Morning | DayPart::EarlyMorning)) => h,
        (None, Some(DayPart::Afternoon | DayPart::Evening)) => {
            if h == 12 {
                12
            } else {
                h + 12
            }
        }
        // "las dos de la noche" is 02:00, "las cinco de la noche" 17:00.
        (None, Some(DayPart::Night)) => match h {
            12 => 24,
            1..=4 => h,
            _ => h + 12,
        },
        (None, None) => h,
    };
    let h24 = if hour.to_hour { (h24 + 23) % 24 } else { h24 };
    // "las doce menos cuarto" is 11:45 or 23:45: as unsure as "las once y cuarto".
    let guess = hour.pm.is_none() && part.is_none() && !hour.settled && ((1..=11).contains(&h) || hour.to_hour && h == 12);
    Ok((h24, hour.minute, guess))
}

fn add_months(date: NaiveDate, months: i64) -> Option<NaiveDate> {
    date.checked_add_months(Months::new(u32::try_from(months).ok()?))
}

/// The next `weekday` after `today` (never today); in next week's Monday–Sunday when
/// `next_week`.
fn weekday_date(today: NaiveDate, weekday: Weekday, next_week: bool) -> NaiveDate {
    if next_week {
        let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
        return monday + Duration::days(7 + i64::from(weekday.num_days_from_monday()));
    }
    let ahead = (7 + weekday.num_days_from_monday() as i64 - today.weekday().num_days_from_monday() as i64 - 1) % 7 + 1;
    today + Duration::days(ahead)
}

/// The two days "next Friday" may mean when the coming Friday is in this week (Monday
/// to Sunday): that one and the one a week later. Said on Friday, "next Tuesday" is
/// the same day either way.
pub(crate) fn next_readings(today: NaiveDate, weekday: Weekday) -> Option<[NaiveDate; 2]> {
    let coming = weekday_date(today, weekday, false);
    let same_week = coming.iso_week() == today.iso_week();
    same_week.then(|| [coming, coming + Duration::days(7)])
}

/// A two-digit year in the century that puts it from 80 years back to 19 ahead
/// ("05/05/71" is 1971, "31-05-24" is 2024).
fn full_year(year: i32, today: NaiveDate) -> i32 {
    if year >= 100 {
        return year;
    }
    let this = today.year();
    let candidate = this - this % 100 + year;
    if candidate > this + 19 {
        candidate - 100
    } else {
        candidate
    }
}

/// The next day numbered `day` that falls on `weekday`, among the next two such
/// numbered days ("viernes 31" said in February is 31 May); none, and the weekday and
/// the number disagree.
fn weekday_of_month(today: NaiveDate, weekday: Weekday, day: u32) -> Result<NaiveDate, DateErrorKind> {
    let numbered = (0..24).filter_map(|m| add_months(today.with_day(1)?, m).and_then(|first| first.with_day(day))).filter(|date| *date >= today);
    numbered.take(2).find(|date| date.weekday() == weekday).ok_or(DateErrorKind::WrongWeekday)
}

/// A day as a date; calendar dates with no year are this year's or next.
pub(crate) fn day_date(day: Day, today: NaiveDate) -> Result<NaiveDate, DateErrorKind> {
    Ok(match day {
        Day::Yesterday | Day::Gone => return Err(DateErrorKind::Past),
        Day::Today => today,
        Day::Tomorrow => today + Duration::days(1),
        Day::AfterTomorrow => today + Duration::days(2),
        Day::Weekday { weekday, said_this: true, .. } if weekday == today.weekday() => today,
        Day::Weekday { weekday, said_next: true, next_week: false, .. } if next_readings(today, weekday).is_some() => return Err(DateErrorKind::AmbiguousDay),
        Day::Weekday { weekday, next_week, .. } => weekday_date(today, weekday, next_week),
        Day::ThisWeek(weekday) => {
            let day = today + Duration::days(i64::from(weekday.num_days_from_monday()) - i64::from(today.weekday().num_days_from_monday()));
            if day < today {
                return Err(DateErrorKind::Past);
            }
            day
        }
        Day::WeekdayOfMonth { weekday, day } => weekday_of_month(today, weekday, day)?,
        Day::Weekend => match today.weekday() {
            Weekday::Sat | Weekday::Sun => today,
            _ => weekday_date(today, Weekday::Sat, false),
        },
        Day::Calendar { day, month, year: Some(year) } => NaiveDate::from_ymd_opt(full_year(year, today), month, day).ok_or(DateErrorKind::InvalidDate)?,
        Day::Calendar { day, month, year: None } => {
            // 29 February waits for a leap year; 31 February never comes.
            if NaiveDate::from_ymd_opt(2000, month, day).is_none() {
                return Err(DateErrorKind::InvalidDate);
            }
            (today.year()..today.year() + 8).filter_map(|y| NaiveDate::from_ymd_opt(y, month, day)).find(|d| *d >= today).ok_or(DateErrorKind::InvalidDate)?
        }
        Day::NthWeekday { position, weekday, month } => (today.year()..today.year() + 2)
            .filter_map(|year| nth_weekday(year, month, weekday, position))
            .find(|date| *date >= today)
            .ok_or(DateErrorKind::InvalidDate)?,
        Day::OfMonth(d) => (0..24)
            .filter_map(|m| add_months(today.with_day(1)?, m).and_then(|first| first.with_day(d)))
            .find(|date| *date >= today)
            .ok_or(DateErrorKind::InvalidDate)?,
    })
}

/// The `position`th `weekday` of `month` in `year` (negative: from the month's end).
fn nth_weekday(year: i32, month: u32, weekday: Weekday, position: i32) -> Option<NaiveDate> {
    let days: Vec<NaiveDate> = (1..=31).filter_map(|d| NaiveDate::from_ymd_opt(year, month, d)).filter(|d| d.weekday() == weekday).collect();
    let index = if position > 0 { position - 1 } else { days.len() as i32 + position };
    usize::try_from(index).ok().and_then(|i| days.get(i).copied())
}

/// The reading of `parts` with no repeat, or why there is none.
pub(crate) fn read(parts: &Parts, cx: &Context) -> Result<Reading, DateErrorKind> {
    if parts.until.is_some() || parts.count.is_some() {
        return Err(DateErrorKind::NotUnderstood);
    }
    let today = cx.today();
    let single = |at: DateTime<Utc>, note: Option<String>, all_day: bool| Reading { at, zone: cx.zone, rrule: None, all_day, note };
    let mut date = None;
    if let Some(offset) = parts.offset.filter(|o| o.from_day) {
        // "2 días a partir del viernes": the day said, moved on.
        let day = parts.day.ok_or(DateErrorKind::NotUnderstood)?;
        let from = day_date(day, today)?;
        let date = add_months(from, offset.months).ok_or(DateErrorKind::OutOfRange)? + Duration::days(offset.days);
        return read(&Parts { offset: None, day: Some(Day::Calendar { day: date.day(), month: date.month(), year: Some(date.year()) }), ..parts.clone() }, cx);
    }
    if let Some(offset) = parts.offset {
        if parts.day.is_some() {
            return Err(DateErrorKind::TwoDates);
        }
        let calendar = offset.months != 0 || offset.days != 0;
        if !calendar || offset.seconds != 0 {
            if parts.hour.is_some() || parts.part.is_some() {
                return Err(DateErrorKind::TwoDates);
            }
            // An exact span: the same wall-clock moment moved on, then the seconds.
            let local = cx.now.with_timezone(&cx.zone).naive_local();
            let moved = local.date().checked_add_months(Months::new(offset.months as u32)).ok_or(DateErrorKind::OutOfRange)? + Duration::days(offset.days);
            let base = if calendar { cx.instant(moved, local.time()).0 } else { cx.now };
            let at = base.checked_add_signed(Duration::seconds(offset.seconds)).ok_or(DateErrorKind::OutOfRange)?;
            return bounded(single(at, None, false), cx);
        }
        date = Some(add_months(today, offset.months).ok_or(DateErrorKind::OutOfRange)? + Duration::days(offset.days));
    }
    if let Some(day) = parts.day {
        let d = day_date(day, today)?;
        if parts.weekday.is_some_and(|w| w != d.weekday()) {
            return Err(DateErrorKind::WrongWeekday);
        }
        date = Some(d);
    }
    let explicit_year = matches!(parts.day, Some(Day::Calendar { year: Some(_), .. }));
    let (time, all_day, guess) = match (&parts.hour, parts.part) {
        (Some(hour), part) => match clock_hour(hour, part)? {
            // "a las 6" read as someone else meant it: the afternoon's, nothing to ask.
            (h, m, true) if cx.bare_hour == crate::BareHour::Afternoon => (Some((if h < 7 { h + 12 } else { h }, m)), false, false),
            (h, m, guess) => (Some((h, m)), false, guess),
        },
        (None, Some(part)) => (Some((part.default_hour(), 0)), false, false),
        (None, None) => (None, true, false),
    };
    let Some(date) = date else {
        // A time alone.
        let (h, m) = time.ok_or(DateErrorKind::NoDate)?;
        if guess {
            return Err(DateErrorKind::AmbiguousHour);
        }
        let (at, note) = at_hour(today, h, m, cx);
        if at > cx.now {
            return bounded(single(at, note, false), cx);
        }
        let (at, note) = at_hour(today + Duration::days(1), h, m, cx);
        let time = at.with_timezone(&cx.zone).time();
        return bounded(single(at, note.or(Some(words::rolled(time, cx.lang))), false), cx);
    };
    let Some((h, m)) = time else {
        let (at, note) = cx.instant(date, cx.all_day);
        if at <= cx.now && date == today {
            return Err(DateErrorKind::MissingTime);
        }
        return future(single(at, note.or(Some(words::all_day(cx.all_day, cx.lang))), true), cx);
    };
    if guess && date != today && h < 7 {
        // "el jueves a las 3": three at night is seldom meant, three in the afternoon
        // often; asked rather than set at 03:00. From seven on the morning's is taken.
        return Err(DateErrorKind::AmbiguousHour);
    }
    let (at, note) = at_hour(date, h, m, cx);
    if date == today && at <= cx.now && guess {
        // "hoy a las 3" at 10:00 means 15:00.
        let (pm, note) = at_hour(date, h + 12, m, cx);
        return future(single(pm, note, false), cx);
    }
    if !explicit_year && at <= cx.now && matches!(parts.day, Some(Day::Calendar { .. })) {
        // Earlier today on this date: next year's.
        let next = date.with_year(date.year() + 1).ok_or(DateErrorKind::InvalidDate)?;
        let (at, note) = at_hour(next, h, m, cx);
        return future(single(at, note, all_day), cx);
    }
    future(single(at, note, all_day), cx)
}

/// `date` at `h:m`, where 24:00 is the next day's midnight, said as such: "at
/// midnight on 12 August" is the night between the 12th and the 13th.
fn at_hour(date: NaiveDate, h: u32, m: u32, cx: &Context) -> (DateTime<Utc>, Option<String>) {
    if h >= 24 {
        // "las doce y media de la noche": half an hour past that midnight.
        let (at, dst) = cx.instant(date + Duration::days(1), NaiveTime::from_hms_opt(0, m, 0).unwrap_or(NaiveTime::MIN));
        let between = words::midnight_between(date, cx.lang);
        return (at, Some(dst.map_or(between.clone(), |dst| format!("{between}; {dst}"))));
    }
    cx.instant(date, NaiveTime::from_hms_opt(h, m, 0).unwrap_or(NaiveTime::MIN))
}

fn future(reading: Reading, cx: &Context) -> Result<Reading, DateErrorKind> {
    if reading.at <= cx.now {
        return Err(DateErrorKind::Past);
    }
    bounded(reading, cx)
}

/// From 1970 to 100 years ahead.
pub(crate) fn bounded(reading: Reading, cx: &Context) -> Result<Reading, DateErrorKind> {
    let limit = cx.now.checked_add_signed(Duration::days(36_525)).unwrap_or(cx.now);
    if reading.at.year() < 1970 || reading.at > limit {
        return Err(DateErrorKind::OutOfRange);
    }
    Ok(reading)
}
