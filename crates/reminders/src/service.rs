//! The reminder service: sets, cancels, snoozes, lists and finds reminders, and runs
//! the scheduler that delivers them through the message router. The chat tools, the
//! Reminders page and the CLI all come here; every change wakes the scheduler and
//! tells the lists to refresh.
//!
//! Over 400 lines: the one door to the reminders (tools, page, CLI): many short methods
//! that each change a reminder and wake the scheduler.

use crate::rows::RemindersStore;
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Notify;

use super::anchor::{AnchorWords, EventTimes};
use super::delivery::RoutedReminders;
use super::error::ReminderError;
use super::events::ReminderEvent;
use super::scheduler::{Scheduler, SchedulerLock, StoreReminders};
use super::{Overview, ReminderView, Setting, Snoozed, WhenPreview};
use crate::rows::{NewReminder, Reminder, ReminderState};
use crate::words as reminder_words;
use sidecar_dates as dates;
use sidecar_dates::Options;
use sidecar_dates::Reading;
use sidecar_domain::CannotWrite;
use sidecar_domain::Clock;
use sidecar_domain::Emitter;
use sidecar_domain::EmptyMessage;
use sidecar_domain::Lang;
use sidecar_domain::Worded;

mod edits;
use sidecar_outbox::MessageRouter;
use sidecar_store::Store;

/// A calendar import reports its progress every this many events.
const IMPORT_PROGRESS_EVERY: usize = 250;

/// Longest snooze, so a typo does not hide a reminder for years.
const MAX_SNOOZE_MINUTES: u32 = 7 * 24 * 60;

/// The snooze choices offered everywhere (a notification's buttons, the Reminders
/// page), in minutes.
pub const SNOOZE_CHOICES: [u32; 3] = [5, 15, 60];

/// Reminders: set, cancel, snooze, list and find them, and the scheduler that
/// delivers them through the message router.
pub struct ReminderService {
    store: Store,
    clock: Clock,
    /// Notified on every change, so the scheduler re-arms.
    changed: Arc<Notify>,
    /// Told of every change, so lists of reminders refresh.
    events: Emitter<ReminderEvent>,
    router: MessageRouter,
    data_dir: PathBuf,
    lang: Lang,
    /// The hour the user chose for a date said with no hour; `None`: the user is asked
    /// (the plans: "Falta la hora: 'el martes a las 10'"), as a silent 09:00 may be
    /// hours off what they meant.
    all_day: Option<chrono::NaiveTime>,
    /// Stops the calendar import under way.
    import_stop: std::sync::Mutex<Option<tokio_util::sync::CancellationToken>>,
    /// The calendar, for reminders set before an event (given once one is there).
    event_times: std::sync::RwLock<Option<Arc<dyn EventTimes>>>,
}

/// How far apart two readings of one chat message may fall and still be the same
/// reminder (Sidecar read "in a few seconds", the model wrote an ISO time).
const SAME_REQUEST_SLACK: chrono::Duration = chrono::Duration::minutes(2);

impl ReminderService {
    pub fn new(
        store: Store,
        clock: Clock,
        events: Emitter<ReminderEvent>,
        router: MessageRouter,
        data_dir: PathBuf,
        lang: Lang,
        all_day: Option<chrono::NaiveTime>,
    ) -> Self {
        Self {
            store,
            clock,
            changed: Arc::new(Notify::new()),
            events,
            router,
            data_dir,
            lang,
            all_day,
            import_stop: Default::default(),
            event_times: Default::default(),
        }
    }

    /// The language the service speaks in.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    fn options(&self) -> Options {
        Options { all_day: self.all_day.unwrap_or(dates::DEFAULT_ALL_DAY), ..Options::new(self.lang) }
    }

    /// Reads `text` as a time, now, in the user's zone.
    pub fn read(&self, text: &str) -> Result<Reading, dates::DateError> {
        dates::parse(text, self.clock.now(), self.clock.zone(), self.options())
    }

    /// Finds the time in a sentence ("call mum tomorrow at 9").
    pub fn split(&self, sentence: &str) -> Result<dates::Split, dates::DateError> {
        dates::extract(sentence, self.clock.now(), self.clock.zone(), self.options())
    }

    /// "[id:3] "call mum" — Thursday 19 November 2026, 09:00 (Europe/Madrid), every day at 09:00"
    pub fn describe(&self, r: &Reminder) -> String {
        let local = reminder_words::due(r, self.lang);
        let repeats = reminder_words::rule(r, self.lang).map(|rule| format!(", {rule}")).unwrap_or_default();
        format!("[id:{}] \"{}\" — {local} ({}){repeats}", r.id, r.message, r.zone.0.name())
    }

    /// The same for a person: no id (nothing a person types uses it), the zone only
    /// when it is not theirs now. "\"call mum\" — Thursday 19 November 2026, 09:00,
    /// every day at 09:00"
    pub fn for_people(&self, r: &Reminder) -> String {
        self.for_people_in(r, self.lang)
    }

    /// `for_people` in `lang` (the language a message was written in).
    pub fn for_people_in(&self, r: &Reminder, lang: Lang) -> String {
        self.people_words(r, lang, r.zone.0 != self.clock.zone())
    }

    /// `for_people` with the zone always named, for the terminal (where no page says
    /// which zone times are in).
    pub fn with_zone(&self, r: &Reminder) -> String {
        self.people_words(r, self.lang, true)
    }

    fn people_words(&self, r: &Reminder, lang: Lang, name_zone: bool) -> String {
        let local = reminder_words::due(r, lang);
        let repeats = reminder_words::rule(r, lang).map(|rule| format!(", {rule}")).unwrap_or_default();
        let zone = if name_zone { format!(" ({})", sidecar_dates::zone_words(r.zone.0, lang)) } else { String::new() };
        format!("\"{}\" — {local}{zone}{repeats}", r.message)
    }

    /// A reminder with its rule in words and its next occurrences, as lists show it.
    pub fn view(&self, reminder: Reminder) -> ReminderView {
        // The due occurrence and the two after it.
        let next = match reminder.rrule.as_deref() {
            Some(rule) => {
                let start = reminder.series_start.unwrap_or(reminder.due_at);
                dates::upcoming(rule, start, reminder.zone.0, reminder.due_at - chrono::Duration::seconds(1), 3)
            }
            None => Vec::new(),
        };
        let zone_words = dates::zone_words(reminder.zone.0, self.lang);
        ReminderView { rule_words: reminder_words::rule(&reminder, self.lang), reminder, next, zone_words }
    }

    /// Sets a reminder from the user's words for when: always a new one (the CLI, the
    /// Reminders page); the answer says when an identical one was already there.
    pub async fn set(&self, message: &str, when_text: &str) -> Result<Setting, ReminderError> {
        self.set_asked(message, when_text, None).await
    }

    /// Sets a reminder for the model's tool call answering the chat message `asked_in`
    /// (`None` out of a chat turn): what Sidecar already set for that same message is
    /// returned instead of stored twice.
    pub(crate) async fn set_asked(&self, message: &str, when_text: &str, asked_in: Option<i64>) -> Result<Setting, ReminderError> {
        if message.trim().is_empty() {
            return Err(EmptyMessage.into());
        }
        let reading = match (crate::anchor::read(when_text), self.read(when_text)) {
            // Words the dates read keep their reading ("the 3rd before 9" is a date).
            (_, Ok(reading)) => reading,
            (Some(words), Err(_)) => return self.set_before_event(message.trim(), &words, asked_in).await,
            (None, Err(e)) => {
                unread(when_text, &e);
                return Err(e.into());
            }
        };
        self.store_reading(message.trim(), &reading, asked_in).await
    }

    /// Lets reminders be set before an event of `calendar` ("15 minutes before my
    /// 10:00 with Ana").
    pub fn watch_events(&self, calendar: Arc<dyn EventTimes>) {
        *self.event_times.write().expect("event times lock") = Some(calendar);
    }

    fn event_times(&self) -> Option<Arc<dyn EventTimes>> {
        self.event_times.read().expect("event times lock").clone()
    }

    /// The events of the user's day `day`, soonest first; `None` when no calendar is
    /// connected (Sidecar's own answer to "what's on my calendar tomorrow?").
    pub async fn agenda(&self, day: chrono::NaiveDate) -> Result<Option<Vec<crate::anchor::DayEvent>>, ReminderError> {
        let Some(calendar) = self.event_times() else { return Ok(None) };
        if !calendar.any().await? {
            return Ok(None);
        }
        let (from, to) = (self.clock.start_of(day), self.clock.start_of(day + chrono::Duration::days(1)));
        Ok(Some(calendar.between(from, to).await?))
    }

    /// A reminder `words.minutes_before` before the event the words name, kept tied
    /// to it; one whose time is already past is set for now.
    async fn set_before_event(&self, message: &str, words: &AnchorWords, asked_in: Option<i64>) -> Result<Setting, ReminderError> {
        let (reading, event) = self.before_event(words).await?;
        let setting = self.tie(message, &reading, words, &event.uid, asked_in).await?;
        Ok(Setting { event: Some(event.summary), ..setting })
    }

    /// The time `words` name ("15 minutes before my 10:00 with Ana") and the event.
    async fn before_event(&self, words: &AnchorWords) -> Result<(Reading, crate::anchor::EventTime), ReminderError> {
        let calendar = self.event_times().ok_or(ReminderError::NoCalendar)?;
        if !calendar.any().await? {
            return Err(ReminderError::NoCalendar);
        }
        let now = self.clock.now();
        let event = calendar.find(&words.event, now).await?.ok_or_else(|| ReminderError::NoSuchEvent(words.event.clone()))?;
        let zone = self.clock.zone();
        let at = (event.start - chrono::Duration::minutes(words.minutes_before)).max(now);
        let note = Some(reminder_words::before_event(words.minutes_before, &event.summary, event.start.with_timezone(&zone), self.lang));
        Ok((Reading { at, zone, rrule: None, all_day: false, note }, event))
    }

    /// Moves the pending reminders tied to an event to where their event is now (after
    /// the calendar synced); how many moved. One whose event is gone stays as it was.
    pub async fn follow_events(&self) -> Result<usize, ReminderError> {
        let Some(calendar) = self.event_times() else { return Ok(0) };
        let now = self.clock.now();
        let mut moved = 0;
        for (id, uid, minutes, due_at) in self.store.reminder_table().tied_to_events().await? {
            let before = chrono::Duration::minutes(minutes);
            // The occurrence the reminder was for may have begun already.
            let Some(start) = calendar.next_start(&uid, (due_at + before).min(now)).await? else { continue };
            // The event did not move (a late reminder keeps its time, and says it is late).
            if start - before == due_at {
                continue;
            }
            let at = (start - before).max(now);
            if at != due_at && self.store.reminder_table().move_tied(id, at).await? {
                moved += 1;
            }
        }
        if moved > 0 {
            tracing::info!(moved, "reminders followed their events");
            self.changed();
        }
        Ok(moved)
    }

    /// A sentence's reminder before a calendar event ("Bring the book 15 minutes before
    /// my 10:00 with Ana"): what, the time and the anchor. `None` when the sentence says
    /// no amount before an event, or the event is not found and the dates read the
    /// sentence on their own; the event's error when neither reads it.
    async fn before_event_in(&self, sentence: &str) -> Option<Result<(String, Reading, AnchorWords, crate::anchor::EventTime), ReminderError>> {
        let (what, words) = crate::anchor::split(sentence)?;
        match self.before_event(&words).await {
            Ok((reading, event)) => Some(Ok((what, reading, words, event))),
            Err(_) if self.split(sentence).is_ok() => None,
            Err(error) => Some(Err(error)),
        }
    }

    /// Sets the reminder a sentence asks for before a calendar event, tied to it (the
    /// Reminders page's sentence box, the chat); `None` when it asks for none.
    pub async fn set_before_event_in(&self, sentence: &str, asked_in: Option<i64>) -> Option<Result<Setting, ReminderError>> {
        let (what, reading, words, event) = match self.before_event_in(sentence).await? {
            Ok(found) => found,
            Err(error) => return Some(Err(error)),
        };
        Some(self.tie(&what, &reading, &words, &event.uid, asked_in).await.map(|set| Setting { event: Some(event.summary), ..set }))
    }

    async fn tie(&self, message: &str, reading: &Reading, words: &AnchorWords, uid: &str, asked_in: Option<i64>) -> Result<Setting, ReminderError> {
        if message.trim().is_empty() {
            return Err(EmptyMessage.into());
        }
        let setting = self.store_reading(message.trim(), reading, asked_in).await?;
        self.store.reminder_table().tie_to_event(setting.reminder.id, uid, words.minutes_before).await?;
        Ok(setting)
    }

    /// Sets a reminder from one sentence: the time found in it (or before the event it
    /// names), the rest as the message.
    pub async fn set_from_sentence(&self, sentence: &str) -> Result<Setting, ReminderError> {
        if let Some(set) = self.set_before_event_in(sentence, None).await {
            return set;
        }
        let split = self.split(sentence).inspect_err(|e| unread(sentence, e))?;
        if split.what.is_empty() {
            return Err(EmptyMessage.into());
        }
        self.store_reading(&split.what, &split.when, None).await
    }

    /// Stores a reading. The one merge: a reminder already set in answer to the same
    /// chat message `asked_in` (Sidecar's own reading, then the model's tool call) at
    /// about the same time and in about the same words is that request, returned as
    /// it is. Every other request stores a reminder, and says so when an identical one
    /// (same words, same time) was already pending: both are kept.
    /// A single date said with no hour is refused with the question to ask, unless the
    /// user chose an hour for those ([`ReminderError::NeedsHour`]). A repeating date
    /// with no hour ("el 1 de cada mes", "every year on March 3") stays all-day, as in
    /// a calendar: rent day and birthdays are days, not appointments.
    pub async fn store_reading(&self, message: &str, reading: &Reading, asked_in: Option<i64>) -> Result<Setting, ReminderError> {
        use sidecar_domain::word_overlap::fold;
        use sidecar_domain::word_overlap::overlap;
        use sidecar_domain::word_overlap::significant;
        if self.asks_hour(reading) {
            return Err(ReminderError::NeedsHour(crate::error::HourQuestion { day: reading.local().date_naive() }));
        }
        let table = self.store.reminder_table();
        if let Some(asked_in) = asked_in {
            // Two readings of one message may differ by seconds ("in a few seconds" read
            // by Sidecar, an ISO time by the model) and a little in words ("Call mum" /
            // "call mum at 9").
            let alike = |r: &Reminder| {
                r.rrule == reading.rrule
                    && (r.due_at - reading.at).abs() <= SAME_REQUEST_SLACK
                    && overlap(&significant(&r.message), &significant(message)) >= 0.5
            };
            if let Some(earlier) = table.asked_in(asked_in).await?.into_iter().find(alike) {
                return Ok(Setting { reminder: earlier, note: reading.note.clone(), twin: None, already_set: true, event: None });
            }
        }
        let folded = |t: &str| fold(&t.to_lowercase());
        let twin =
            table.same_time(reading.at, chrono::Duration::zero(), reading.rrule.as_deref()).await?.into_iter().find(|r| folded(&r.message) == folded(message));
        let stored = table
            .add_reminder(NewReminder {
                rrule: reading.rrule.as_deref(),
                all_day: reading.all_day,
                asked_in,
                ..NewReminder::at(message, reading.at, reading.zone.name())
            })
            .await?;
        self.changed();
        Ok(Setting { reminder: stored, note: reading.note.clone(), twin, already_set: false, event: None })
    }

    /// Shows a reminder again `minutes` from now. A repeating one keeps its series, and
    /// one not due until after the snooze keeps its time: the snooze is then a one-off
    /// copy, so a reminder is never moved earlier and nothing that was to come is lost.
    pub async fn snooze(&self, id: i64, minutes: u32) -> Result<Snoozed, ReminderError> {
        if minutes == 0 || minutes > MAX_SNOOZE_MINUTES {
            return Err(ReminderError::SnoozeMinutes(MAX_SNOOZE_MINUTES));
        }
        let until = self.clock.now() + chrono::Duration::minutes(i64::from(minutes));
        let Some(reminder) = self.store.reminder_table().reminder(id).await? else {
            return Err(ReminderError::NoneToSnooze(id));
        };
        let still_to_come = reminder.state == ReminderState::Pending && reminder.due_at > until;
        let original_kept = reminder.rrule.is_some() || still_to_come;
        let snoozed = if original_kept {
            self.store
                .reminder_table()
                .add_reminder(NewReminder { description: reminder.description.as_deref(), ..NewReminder::at(&reminder.message, until, reminder.zone.0.name()) })
                .await?
        } else {
            if !self.store.reminder_table().snooze_reminder(id, until).await? {
                return Err(ReminderError::SnoozeCancelled(id));
            }
            self.store.reminder_table().reminder(id).await?.ok_or_else(|| ReminderError::Gone(id))?
        };
        self.changed();
        Ok(Snoozed { reminder: snoozed, original_kept })
    }

    /// Every pending reminder as an iCalendar file.
    pub async fn export_ics(&self) -> Result<String, ReminderError> {
        Ok(super::ics::export(&self.pending().await?))
    }

    /// The user answered a reminder posted in the chat: Snooze (`snooze` minutes) or
    /// Done (`None`). Either way the message is marked answered, so its buttons stay
    /// closed after a reload.
    pub async fn answer_message(&self, message_id: i64, snooze: Option<u32>) -> Result<Option<Snoozed>, ReminderError> {
        let message = self.store.conversations().message(message_id).await?;
        let reminder_id = message.and_then(|m| m.meta).and_then(|meta| meta.0.reminder_id);
        let Some(reminder_id) = reminder_id else {
            return Err(ReminderError::NotAReminder(message_id));
        };
        let snoozed = match snooze {
            Some(minutes) => Some(self.snooze(reminder_id, minutes).await?),
            None => None,
        };
        self.store.conversations().mark_handled(message_id).await?;
        Ok(snoozed)
    }

    /// Writes the pending reminders to `sidecar-reminders.ics` in `dir`; the path.
    pub async fn export_ics_to(&self, dir: &std::path::Path) -> Result<PathBuf, ReminderError> {
        let path = dir.join("sidecar-reminders.ics");
        let text = self.export_ics().await?;
        sidecar_domain::write_atomically(&path, text.as_bytes()).map_err(|e| CannotWrite::new(&path, e))?;
        Ok(path)
    }

    /// Adds the events of an `.ics` file as reminders, all or none; how many, and what
    /// was skipped. Progress goes out as `CalendarImport` events; `stop_import` ends
    /// it with nothing stored.
    pub async fn import_ics(&self, text: &str) -> Result<super::ImportReport, ReminderError> {
        let stop = tokio_util::sync::CancellationToken::new();
        *self.import_stop.lock().expect("import lock") = Some(stop.clone());
        let report = self.import_ics_until(text, &stop).await;
        self.import_stop.lock().expect("import lock").take();
        let saved = report.as_ref().map_or(0, |r| r.added as u64);
        self.events.publish(ReminderEvent::CalendarImport { saved, total: saved, done: true });
        report
    }

    /// Stops the calendar import under way, if any; whether there was one.
    pub fn stop_import(&self) -> bool {
        self.import_stop.lock().expect("import lock").as_ref().inspect(|stop| stop.cancel()).is_some()
    }

    async fn import_ics_until(&self, text: &str, stop: &tokio_util::sync::CancellationToken) -> Result<super::ImportReport, ReminderError> {
        self.events.publish(ReminderEvent::CalendarImport { saved: 0, total: 0, done: false });
        // A calendar's all-day events are all-day by design: no one to ask.
        let (now, zone, all_day, owned, lang) = (self.clock.now(), self.clock.zone(), self.options().all_day, text.to_string(), self.lang);
        // Reading a large calendar takes seconds of CPU: off the runtime's threads.
        let read = tokio::task::spawn_blocking(move || super::ics::import(&owned, now, zone, all_day, lang)).await;
        let (found, skipped) = read.map_err(|e| ReminderError::Unread(crate::anchor::CalendarUnread::of(e)))??;
        let events: Vec<NewReminder> = found
            .iter()
            .map(|event| NewReminder {
                rrule: event.rrule.as_deref(),
                all_day: event.all_day,
                series_start: event.series_start,
                description: event.description.as_deref(),
                ..NewReminder::at(&event.message, event.due_at, event.zone.name())
            })
            .collect();
        let total = events.len() as u64;
        let progress = |done: usize| {
            if done.is_multiple_of(IMPORT_PROGRESS_EVERY) {
                self.events.publish(ReminderEvent::CalendarImport { saved: done as u64, total, done: false });
            }
            !stop.is_cancelled()
        };
        let Some(added) = self.store.reminder_table().add_imported(&events, progress).await? else {
            return Ok(super::ImportReport { added: 0, stopped: true, skipped });
        };
        if added > 0 {
            self.changed();
        }
        Ok(super::ImportReport { added, stopped: false, skipped })
    }

    fn changed(&self) {
        self.changed.notify_one();
        self.events.publish(ReminderEvent::RemindersChanged);
    }

    /// The scheduler task for this data dir, delivering through the message router;
    /// `None` when another process (the app or the daemon) already owns it. Spawn
    /// the future on the caller's runtime; it holds the lock while it runs.
    pub fn scheduler(&self) -> std::io::Result<Option<impl Future<Output = ()> + Send + 'static>> {
        let deliver = Arc::new(RoutedReminders { router: self.router.clone(), events: self.events.clone(), lang: self.lang });
        let Some(lock) = SchedulerLock::try_acquire(&self.data_dir)? else {
            return Ok(None);
        };
        let scheduler = Scheduler::new(Arc::new(StoreReminders::new(self.store.clone())), deliver, self.clock.clone(), self.changed.clone());
        Ok(Some(async move {
            let _lock = lock;
            scheduler.run(tokio_util::sync::CancellationToken::new()).await
        }))
    }

    /// Cancels every pending reminder (`/reminders clear`); how many.
    pub async fn clear(&self) -> Result<usize, ReminderError> {
        let cancelled = self.store.reminder_table().cancel_pending_reminders().await? as usize;
        self.changed();
        Ok(cancelled)
    }

    /// Pending reminders, soonest first.
    pub async fn pending(&self) -> Result<Vec<Reminder>, ReminderError> {
        Ok(self.store.reminder_table().pending_reminders().await?)
    }

    /// Reminders whose text matches `query`.
    pub async fn find(&self, query: &str) -> Result<Vec<Reminder>, ReminderError> {
        Ok(self.store.reminder_table().find_reminders(query).await?)
    }

    /// What a scheduler waits on besides the clock: notified on every change.
    pub fn changed_signal(&self) -> Arc<Notify> {
        self.changed.clone()
    }

    pub async fn overview(&self) -> Result<Overview, ReminderError> {
        let zone = self.clock.zone();
        let mut overview = Overview {
            zone: zone.name().to_string(),
            zone_words: dates::zone_words(zone, self.lang),
            snooze_choices: SNOOZE_CHOICES.to_vec(),
            ..Overview::default()
        };
        let all = self.store.reminder_table().reminders().await?;
        // A repeating reminder that came late keeps its series pending; its late
        // occurrences are shown too, from the deliveries.
        for (id, due_at) in self.store.reminder_table().late_deliveries().await? {
            let listed = overview.late.iter().any(|l| l.reminder.id == id);
            if let Some(reminder) = all.iter().find(|r| r.id == id && !listed && !(r.state == ReminderState::Delivered && r.late)) {
                overview.late.push(self.view(Reminder { due_at, late: true, ..reminder.clone() }));
            }
        }
        for reminder in all {
            match reminder.state {
                ReminderState::Pending | ReminderState::Attempting if reminder.rrule.is_some() => overview.recurring.push(self.view(reminder)),
                ReminderState::Pending | ReminderState::Attempting => overview.upcoming.push(self.view(reminder)),
                ReminderState::Delivered if reminder.late => overview.late.push(self.view(reminder)),
                ReminderState::Delivered => overview.delivered.push(self.view(reminder)),
                ReminderState::Failed => overview.failed.push(self.view(reminder)),
                ReminderState::Cancelled | ReminderState::Missed => {}
            }
        }
        overview.delivered.sort_by_key(|a| std::cmp::Reverse(a.reminder.delivered_at));
        overview.late.sort_by_key(|a| std::cmp::Reverse(a.reminder.due_at));
        Ok(overview)
    }

    /// Reads a "when" as the Reminders page's field is typed, in the user's zone.
    pub fn preview(&self, text: &str) -> WhenPreview {
        self.previewed(self.read(text))
    }

    /// [`Self::preview`] for a reminder's time, which may also be "before" a calendar
    /// event ("15 minutes before my 10:00 with Ana": only reminders follow events).
    pub async fn preview_reminder(&self, text: &str) -> WhenPreview {
        let reading = self.read(text);
        if let (Err(_), Some(words)) = (&reading, crate::anchor::read(text)) {
            return match self.before_event(&words).await {
                Ok((reading, _)) => self.previewed(Ok(reading)),
                Err(error) => WhenPreview::Error { kind: dates::DateErrorKind::NotUnderstood, error: error.said_in(self.lang), suggestion: None },
            };
        }
        self.previewed(reading)
    }

    /// A reading as the preview shows it: a date that would be asked about shows the
    /// question, as saving it would.
    fn previewed(&self, reading: Result<Reading, dates::DateError>) -> WhenPreview {
        match reading {
            Ok(reading) if self.asks_hour(&reading) => WhenPreview::Error {
                kind: dates::DateErrorKind::MissingTime,
                error: crate::words::hour_question(reading.local().date_naive(), self.lang),
                suggestion: None,
            },
            other => WhenPreview::of(other, self.lang),
        }
    }

    /// Whether a reading is a single date with no hour, which the user is asked about
    /// unless they chose an hour for those.
    fn asks_hour(&self, reading: &Reading) -> bool {
        reading.all_day && reading.rrule.is_none() && self.all_day.is_none()
    }

    /// Reads a whole sentence as the quick-add field is typed: what, and when (before
    /// a calendar event too).
    pub async fn preview_sentence(&self, sentence: &str) -> super::SentencePreview {
        match self.before_event_in(sentence).await {
            Some(Ok((what, reading, _, _))) => {
                let when_text = sentence.trim()[what.len()..].trim().to_string();
                return super::SentencePreview { what, when_text, when: self.previewed(Ok(reading)) };
            }
            Some(Err(error)) => {
                let when = WhenPreview::Error { kind: dates::DateErrorKind::NotUnderstood, error: error.said_in(self.lang), suggestion: None };
                return super::SentencePreview { what: String::new(), when_text: String::new(), when };
            }
            None => {}
        }
        match self.split(sentence) {
            Ok(split) => super::SentencePreview { what: split.what, when_text: split.when_text, when: self.previewed(Ok(split.when)) },
            Err(error) => super::SentencePreview { what: String::new(), when_text: String::new(), when: self.previewed(Err(error)) },
        }
    }
}

/// A date the reader could not read, when a reminder was to be set with it (not a
/// preview as the user types): said in the log for whoever improves the reader. Only the
/// words said as the time, cut short.
fn unread(words: &str, error: &dates::DateError) {
    let words: String = words.chars().take(80).collect();
    tracing::info!(%words, %error, "a date the reader could not read");
}
