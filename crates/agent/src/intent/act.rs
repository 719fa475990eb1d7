//! Carries out a request found before the model, through the reminder service and
//! the knowledge store, and words the answer in the language the user wrote in.

use super::hour_reply::Awaiting;
use super::Intent;
use crate::error::TurnError;
use crate::words::intent as say;
use sidecar_dates::moment_words;
use sidecar_dates::zone_words;
use sidecar_domain::Clock;
use sidecar_domain::Lang;
use sidecar_memory::KnowledgeStore;
use sidecar_memory::SaveOutcome;
use sidecar_reminders::words as reminder_words;
use sidecar_reminders::Reminder;
use sidecar_reminders::ReminderError;
use sidecar_reminders::ReminderService;

/// What was done and what to tell the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Acted {
    pub answer: String,
    /// Something changed (a reminder set, a fact kept): the model must not repeat it.
    pub changed: bool,
    /// The answer asks at what time or which day: the request to complete with the
    /// user's reply.
    pub awaits: Option<Awaiting>,
}

/// How many facts "what do you know about me" lists.
const ABOUT_YOU_FACTS: usize = 10;

/// What carrying out a request needs.
pub(crate) struct IntentServices<'a> {
    pub reminders: &'a ReminderService,
    pub knowledge: &'a KnowledgeStore,
    pub clock: &'a Clock,
}

/// The reminders as a list, each time with its zone when it is not the user's now.
fn lines(found: &[Reminder], services: &IntentServices<'_>, lang: Lang) -> String {
    found.iter().map(|r| format!("- {}", services.reminders.for_people_in(r, lang))).collect::<Vec<_>>().join("\n")
}

/// "Done: I'll remind you…", with its repeat, how its time was read and a twin kept.
fn reminder_set_answer(set: &sidecar_reminders::Setting, lang: Lang) -> String {
    let r = &set.reminder;
    let rule = reminder_words::rule(r, lang);
    let answer = say::reminder_set(&r.message, &reminder_words::due(r, lang), &zone_words(r.zone.0, lang), rule.as_deref(), set.note.as_deref(), lang);
    match set.twin {
        Some(_) => format!("{answer} {}", reminder_words::twin_kept(lang)),
        None => answer,
    }
}

/// Carries out `intent`, said in `text`, the chat message `asked_in`.
pub(crate) async fn act(intent: Intent, text: &str, asked_in: i64, services: &IntentServices<'_>, fallback: Lang) -> Result<Acted, TurnError> {
    let lang = sidecar_dates::written_in(text, fallback);
    let said = |answer: String, changed: bool| Ok(Acted { answer, changed, awaits: None });
    if let Intent::Set { sentence } = &intent {
        // "…15 minutes before my 10:00 with Ana": the calendar's event gives the day.
        match services.reminders.set_before_event_in(sentence, Some(asked_in)).await {
            Some(Ok(set)) => return said(reminder_set_answer(&set, lang), true),
            Some(Err(error)) => return said(sidecar_domain::said_whole(&error, lang), false),
            None => {}
        }
    }
    match intent {
        Intent::Set { sentence } => match services.reminders.split(&sentence) {
            Err(e) if e.kind == sidecar_dates::DateErrorKind::AmbiguousDay => {
                let awaits = Some(Awaiting::Day { sentence: sentence.clone() });
                Ok(Acted { answer: format!("{} {}", e.error, e.suggestion), changed: false, awaits })
            }
            Err(e) => said(format!("{} {}", e.error, e.suggestion), false),
            Ok(split) if split.what.is_empty() => said(say::what_to_remind(&moment_words(split.when.local(), lang), lang), false),
            Ok(split) => {
                let set = match services.reminders.store_reading(&split.what, &split.when, Some(asked_in)).await {
                    Err(ReminderError::NeedsHour(question)) => {
                        return Ok(Acted { answer: question.words(lang), changed: false, awaits: Some(Awaiting::Hour { sentence }) })
                    }
                    other => other?,
                };
                said(reminder_set_answer(&set, lang), true)
            }
        },
        Intent::Timer { sentence } => match services.reminders.split(&sentence) {
            Err(e) => said(format!("{} {}", e.error, e.suggestion), false),
            Ok(split) => {
                let what = if split.what.is_empty() { say::timer_done(lang).to_string() } else { split.what };
                let set = services.reminders.store_reading(&what, &split.when, Some(asked_in)).await?;
                let r = &set.reminder;
                said(say::reminder_set(&r.message, &reminder_words::due(r, lang), &zone_words(r.zone.0, lang), None, set.note.as_deref(), lang), true)
            }
        },
        Intent::Cancel { query } => {
            let found = services.reminders.find(&query).await?;
            match found.as_slice() {
                [] => said(say::none_match(&query, lang), false),
                [one] => {
                    let cancelled = services.reminders.cancel(one.id).await?;
                    said(say::cancelled(&cancelled.message, lang), true)
                }
                many => said(say::which_one(&lines(many, services, lang), lang), false),
            }
        }
        Intent::Snooze { query, minutes } => {
            let target = if query.is_empty() {
                // The one just shown. A reminder still to come is never moved earlier.
                let overview = services.reminders.overview().await?;
                overview.delivered.first().or(overview.late.first()).map(|v| v.reminder.clone())
            } else {
                let found = services.reminders.find(&query).await?;
                if found.len() > 1 {
                    return said(say::which_one(&lines(&found, services, lang), lang), false);
                }
                found.into_iter().next()
            };
            let Some(target) = target else { return said(say::none_match(&query, lang), false) };
            if target.state == sidecar_reminders::ReminderState::Pending && target.due_at > services.clock.now() {
                // Snoozing what has not come yet would move it earlier.
                return said(say::not_due_yet(&target.message, &reminder_words::due(&target, lang), lang), false);
            }
            let snoozed = services.reminders.snooze(target.id, minutes).await?.reminder;
            let at = snoozed.due_at.with_timezone(&snoozed.zone.0).format("%H:%M").to_string();
            said(say::snoozed(&snoozed.message, &at, lang), true)
        }
        Intent::List => {
            let pending = services.reminders.pending().await?;
            if pending.is_empty() {
                return said(say::none_match("", lang), false);
            }
            said(say::pending(&lines(&pending, services, lang), pending.len(), lang), false)
        }
        // Only the demo model gets here (a model with tools proposes the task itself).
        Intent::ScheduleWork => said(say::demo_cannot_schedule(lang), false),
        Intent::Agenda { days } => {
            let day = services.clock.local_today() + chrono::Duration::days(i64::from(days));
            let Some(events) = services.reminders.agenda(day).await? else { return said(say::no_calendar(lang), false) };
            let zone = services.clock.zone();
            let lines: Vec<String> = events
                .iter()
                .map(|e| match e.all_day {
                    true => format!("- {}: {}", say::all_day(lang), e.summary),
                    false => format!("- {}–{} {}", e.start.with_timezone(&zone).format("%H:%M"), e.end.with_timezone(&zone).format("%H:%M"), e.summary),
                })
                .collect();
            said(say::agenda(&sidecar_dates::day_words(day, lang), days, &lines, lang), false)
        }
        Intent::Now => {
            let (now, zone) = (services.clock.now(), services.clock.zone());
            said(say::now_is(&moment_words(now.with_timezone(&zone), lang), &zone_words(zone, lang), lang), false)
        }
        Intent::AboutMe { slot } => {
            let facts = services.knowledge.facts();
            let mut current: Vec<_> = facts.iter().filter(|f| f.fact.superseded.is_none()).collect();
            // The ones said most often first, then the newest.
            current.sort_by(|a, b| b.fact.weight.cmp(&a.fact.weight).then(b.fact.confirmed.cmp(&a.fact.confirmed)));
            let quoted = |found: Vec<&&sidecar_memory::ListedFact>| found.iter().map(|f| format!("- \"{}\"", f.fact.text)).collect::<Vec<_>>().join("\n");
            match slot {
                Some(slot) => {
                    let about: Vec<_> = current.iter().filter(|f| sidecar_memory::slot_of(&f.fact.text).is_some_and(|s| s.name == slot)).collect();
                    said(say::about_slot(&quoted(about), slot, lang), false)
                }
                None => said(say::about_you(&quoted(current.iter().take(ABOUT_YOU_FACTS).collect()), lang), false),
            }
        }
        Intent::Remember { fact } => {
            let today = services.clock.local_today();
            // The category from the fact's words, as the noticing and the CLI read it.
            match services.knowledge.save_from(&fact, sidecar_memory::category_of(&fact), today, asked_in).await? {
                SaveOutcome::New { .. } | SaveOutcome::Moved { .. } | SaveOutcome::Superseded { .. } | SaveOutcome::NeedsConfirmation { .. } => {
                    said(say::noted(&fact, false, lang), true)
                }
                SaveOutcome::Reinforced { .. } | SaveOutcome::KeptInHealth { .. } | SaveOutcome::KeptImportant { .. } => {
                    said(say::noted(&fact, true, lang), true)
                }
                SaveOutcome::Rejected { reason } => said(say::not_noted(&reason, lang), false),
                SaveOutcome::RateLimited => said(say::not_noted("too many facts at once", lang), false),
                SaveOutcome::SaidThisTurn { .. } => said(say::noted(&fact, true, lang), false),
            }
        }
    }
}
