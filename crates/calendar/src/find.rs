//! An event found by the words a person uses for it ("my 10:00 with Ana", "el
//! dentista", "the 16:30"): its local start time when one is said, and words of its
//! title; the soonest upcoming event that matches best. This is what reminders set
//! before an event use ([`sidecar_reminders::EventTimes`]).

use chrono::{DateTime, Duration, NaiveTime, Utc};
use sidecar_domain::word_overlap::significant;
use sidecar_reminders::CalendarUnread;
use sidecar_reminders::DayEvent;
use sidecar_reminders::EventTime;
use sidecar_reminders::EventTimes;
use sidecar_reminders::Found;

use crate::error::CalendarError;
use crate::rows::CalendarStore;
use crate::service::{CalendarService, Occurrence};

/// How far ahead an event named in words is looked for.
pub(crate) const LOOK_AHEAD_DAYS: i64 = 14;
/// How far ahead a followed event's next start is looked for.
const FOLLOW_DAYS: i64 = 400;

/// A time said as a word: "10:00", "9.30", "10h", "10am", "6pm"; `None` otherwise.
fn time_word(word: &str) -> Option<NaiveTime> {
    let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != ':' && c != '.');
    let (digits, suffix) = word.split_at(word.find(|c: char| !c.is_ascii_digit() && c != ':' && c != '.').unwrap_or(word.len()));
    let (hour, minute) = match digits.split_once([':', '.']) {
        Some((h, m)) => (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?),
        None => (digits.parse::<u32>().ok()?, 0),
    };
    let hour = match suffix {
        "" | "h" | "hs" => hour,
        "am" if hour == 12 => 0,
        "am" => hour,
        "pm" if hour < 12 => hour + 12,
        "pm" => hour,
        _ => return None,
    };
    // A bare number is a time only after "at" / "las" (see `said`); here it needs a mark.
    if suffix.is_empty() && !digits.contains([':', '.']) {
        return None;
    }
    NaiveTime::from_hms_opt(hour, minute, 0)
}

/// The local time the words say, and the rest of them.
fn said(words: &str) -> (Option<NaiveTime>, String) {
    let lower = words.to_lowercase();
    let tokens: Vec<&str> = lower.split_whitespace().collect();
    let mut time = None;
    let mut rest = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let after_at = i > 0 && matches!(tokens[i - 1], "at" | "las" | "la");
        let bare = token.parse::<u32>().ok().filter(|h| after_at && *h < 24).and_then(|h| NaiveTime::from_hms_opt(h, 0, 0));
        match time_word(token).or(bare) {
            Some(found) if time.is_none() => time = Some(found),
            _ => rest.push(*token),
        }
    }
    (time, rest.join(" "))
}

impl CalendarService {
    /// The soonest event starting within [`LOOK_AHEAD_DAYS`] of `from` that `words`
    /// name: at the local time said (if one is), sharing the most words with its title
    /// (at least one, if any were said). Whole-day events are not times to be before.
    pub async fn find_event(&self, words: &str, from: DateTime<Utc>) -> Result<Option<Occurrence>, CalendarError> {
        let (time, rest) = said(words);
        let wanted = significant(&rest);
        if time.is_none() && wanted.is_empty() {
            return Ok(None);
        }
        let zone = self.zone();
        let best = self
            .between(from, from + Duration::days(LOOK_AHEAD_DAYS))
            .await?
            .into_iter()
            .filter(|o| o.start >= from && !o.all_day)
            .filter(|o| time.is_none_or(|t| o.start.with_timezone(&zone).time() == t))
            .map(|o| (significant(&o.summary).intersection(&wanted).count(), o))
            .filter(|(shared, _)| wanted.is_empty() || *shared > 0)
            .max_by(|(a, x), (b, y)| a.cmp(b).then(y.start.cmp(&x.start)));
        Ok(best.map(|(_, o)| o))
    }

    /// When the event `uid` next starts from `from`; `None` when it is gone.
    pub async fn next_start(&self, uid: &str, from: DateTime<Utc>) -> Result<Option<DateTime<Utc>>, CalendarError> {
        let events = self.store().calendar_table().events_with_uid(uid).await?;
        Ok(crate::blocking::off_workers(move || {
            events.iter().filter_map(|e| e.occurrences(from, from + Duration::days(FOLLOW_DAYS)).into_iter().map(|(start, _)| start).find(|s| *s >= from)).min()
        })
        .await)
    }
}

impl EventTimes for CalendarService {
    fn any<'a>(&'a self) -> Found<'a, bool> {
        Box::pin(async move { Ok(self.store().calendar_table().all().await.map_err(CalendarUnread::of)?.iter().any(|c| c.read)) })
    }

    fn find<'a>(&'a self, words: &'a str, from: DateTime<Utc>) -> Found<'a, Option<EventTime>> {
        Box::pin(async move {
            let found = self.find_event(words, from).await.map_err(CalendarUnread::of)?;
            Ok(found.map(|o| EventTime { uid: o.uid, summary: o.summary, start: o.start }))
        })
    }

    fn next_start<'a>(&'a self, uid: &'a str, from: DateTime<Utc>) -> Found<'a, Option<DateTime<Utc>>> {
        Box::pin(async move { CalendarService::next_start(self, uid, from).await.map_err(CalendarUnread::of) })
    }

    fn between<'a>(&'a self, from: DateTime<Utc>, to: DateTime<Utc>) -> Found<'a, Vec<DayEvent>> {
        Box::pin(async move {
            let found = CalendarService::between(self, from, to).await.map_err(CalendarUnread::of)?;
            Ok(found.into_iter().map(|o| DayEvent { summary: o.summary, start: o.start, end: o.end, all_day: o.all_day }).collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_found_in_the_words_and_the_rest_kept() {
        let t = |h, m| Some(NaiveTime::from_hms_opt(h, m, 0).unwrap());
        assert_eq!(said("10:00 with ana"), (t(10, 0), "with ana".into()));
        assert_eq!(said("meeting at 4pm"), (t(16, 0), "meeting at".into()));
        assert_eq!(said("reunión de las 9.30"), (t(9, 30), "reunión de las".into()));
        assert_eq!(said("cita a las 17"), (t(17, 0), "cita a las".into()));
        assert_eq!(said("dentista"), (None, "dentista".into()));
        assert_eq!(said("room 101"), (None, "room 101".into()), "a bare number is not a time");
    }
}
