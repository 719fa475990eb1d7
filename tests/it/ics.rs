//! Reminders as iCalendar: the export parses with the `icalendar` crate, carries the
//! zone, the RRULE and an alarm, and round-trips through the import.

use chrono::TimeZone;
use icalendar::{Calendar, Component};

async fn open(dir: &std::path::Path, at: chrono::DateTime<chrono::Utc>) -> std::sync::Arc<sidecar::Companion> {
    // A date with no hour ("dentist on Friday") is all-day at the hour chosen for those.
    crate::support::core().settings("[user]\ntimezone = \"Europe/Madrid\"\nall_day_time = \"09:00\"\n").at(at).open_in(dir).await
}

#[tokio::test]
async fn the_export_parses_and_round_trips_through_the_import() {
    let now = chrono_tz::Europe::Madrid.with_ymd_and_hms(2026, 11, 18, 10, 0, 0).unwrap().with_timezone(&chrono::Utc);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), now).await;
    let reminders = core.reminders();
    reminders.set("call mum", "tomorrow at 9").await.unwrap();
    reminders.set("pagar el alquiler", "el 1 de cada mes").await.unwrap();
    reminders.set("standup", "every weekday at 9:15am, 10 times").await.unwrap();
    reminders.set("dentist", "friday").await.unwrap();
    let ics = reminders.export_ics().await.unwrap();
    // The iCalendar crate reads it back: four events, each with an alarm.
    let calendar: Calendar = ics.parse().unwrap();
    let events: Vec<_> = calendar.components.iter().filter_map(|c| c.as_event()).collect();
    assert_eq!(events.len(), 4);
    assert!(ics.contains("DTSTART;TZID=Europe/Madrid:20261119T090000"), "{ics}");
    assert!(ics.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=1"));
    assert!(ics.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=10"));
    assert!(ics.contains("DTSTART;VALUE=DATE:20261120"), "an all-day reminder is a date: {ics}");
    assert_eq!(ics.matches("BEGIN:VALARM").count(), 4);
    assert_eq!(events.iter().filter_map(|e| e.get_summary()).collect::<Vec<_>>().len(), 4);
    // Into another Sidecar: the same reminders, times and rules.
    let other = tempfile::tempdir().unwrap();
    let copy = open(other.path(), now).await;
    let report = copy.reminders().import_ics(&ics).await.unwrap();
    assert_eq!((report.added, report.skipped.past, report.skipped.unreadable.len()), (4, 0, 0));
    let key = |r: &sidecar_reminders::Reminder| (r.message.clone(), r.due_at, r.rrule.clone(), r.all_day);
    let mut before: Vec<_> = reminders.pending().await.unwrap().iter().map(key).collect();
    let mut after: Vec<_> = copy.reminders().pending().await.unwrap().iter().map(key).collect();
    before.sort();
    after.sort();
    assert_eq!(before, after);
    // Imported twice: nothing doubled.
    assert_eq!(copy.reminders().import_ics(&ics).await.unwrap().added, 0);
}

#[tokio::test]
async fn events_from_other_calendars_become_reminders_and_bad_files_are_refused() {
    let now = chrono_tz::Europe::Madrid.with_ymd_and_hms(2026, 11, 18, 10, 0, 0).unwrap().with_timezone(&chrono::Utc);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), now).await;
    let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Other//EN\r\n\
        BEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20261201T150000Z\r\nSUMMARY:Flight to Lisbon\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:2\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;TZID=America/New_York:20200101T080000\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:New year call\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:3\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:20250101T080000Z\r\nSUMMARY:Long gone\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:4\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:99991231T233000Z\r\nSUMMARY:Far future\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n";
    let report = core.reminders().import_ics(ics).await.unwrap();
    assert_eq!((report.added, report.skipped.past), (2, 1));
    assert_eq!(report.skipped.unreadable, ["\"Far future\": more than 100 years ahead"]);
    let pending = core.reminders().pending().await.unwrap();
    let flight = pending.iter().find(|r| r.message == "Flight to Lisbon").unwrap();
    assert_eq!(flight.due_at.to_rfc3339(), "2026-12-01T15:00:00+00:00");
    let yearly = pending.iter().find(|r| r.message == "New year call").unwrap();
    assert_eq!(yearly.zone.0, chrono_tz::America::New_York);
    assert_eq!(yearly.due_at.with_timezone(&chrono_tz::America::New_York).format("%Y-%m-%d %H:%M").to_string(), "2027-01-01 08:00");
    let error = core.reminders().import_ics("this is not a calendar").await.unwrap_err();
    assert!(error.to_string().contains("not an iCalendar file"), "{error}");
}

/// A calendar nesting 1,000 VALARMs (26 kB), plain or with its lines folded, is refused
/// with a clear error on a 2 MB stack (the desktop's), never a stack overflow; a real
/// calendar's three levels still import.
#[test]
fn a_calendar_nested_a_thousand_deep_is_refused_not_a_crash() {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let nested = |levels: usize, fold: bool| {
        let begin = if fold { "BEGIN:VAL\r\n ARM\r\n" } else { "BEGIN:VALARM\r\n" };
        format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\n{}{}END:VCALENDAR\r\n", begin.repeat(levels), "END:VALARM\r\n".repeat(levels))
    };
    for fold in [false, true] {
        let text = nested(1000, fold);
        let read = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                sidecar_reminders::import(&text, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::En).map(|_| ()).map_err(|e| e.to_string())
            })
            .unwrap()
            .join()
            .expect("no stack overflow");
        let error = read.unwrap_err();
        assert!(error.contains("nests its parts more than 8 deep") && error.contains("nothing was imported"), "{error}");
    }
    let event = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:dentist\r\nDTSTART:20261120T100000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    let (found, _) = sidecar_reminders::import(event, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::En).unwrap();
    assert_eq!(found.len(), 1);
}

/// Calendars that would flood: a SECONDLY or MINUTELY event, or an hourly one at many
/// minutes, is skipped with a line saying why, at once (no walk over a year of
/// seconds); a daily one imports. "every 2 years" keeps its interval.
#[test]
fn repeats_more_often_than_a_reminder_may_are_skipped_with_why() {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let event =
        |summary: &str, rule: &str| format!("BEGIN:VEVENT\r\nUID:{summary}\r\nSUMMARY:{summary}\r\nDTSTART:20260101T000000Z\r\nRRULE:{rule}\r\nEND:VEVENT\r\n");
    let text = format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\n{}{}{}{}{}{}{}END:VCALENDAR\r\n",
        event("seconds", "FREQ=SECONDLY"),
        event("minutes", "FREQ=MINUTELY;INTERVAL=5"),
        event("many minutes", "FREQ=HOURLY;BYMINUTE=0,5,10,15,20"),
        event("daily", "FREQ=DAILY"),
        event("biennial", "FREQ=YEARLY;INTERVAL=2"),
        // Walked to the rrule crate's limit (a second and more each) before they were read
        // from their words: one never occurs, one every 28 years counted by the hour.
        event("never", "FREQ=HOURLY;BYYEARDAY=235;BYSETPOS=-23"),
        event("sparse", "FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO"),
    );
    let (found, skipped) = sidecar_reminders::import(&text, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::En).unwrap();
    let kept: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(kept, ["daily", "biennial"]);
    assert_eq!(skipped.unreadable.len(), 5, "{:?}", skipped.unreadable);
    assert!(skipped.unreadable[..3].iter().all(|line| line.contains("more often than every 15 minutes")), "{:?}", skipped.unreadable);
    assert!(skipped.unreadable[3].starts_with("\"never\": its repeat rule never occurs"), "{:?}", skipped.unreadable);
    assert!(skipped.unreadable[4].starts_with("\"sparse\": repeats so rarely"), "{:?}", skipped.unreadable);
    assert_eq!(found[1].due_at, chrono::Utc.with_ymd_and_hms(2028, 1, 1, 0, 0, 0).unwrap(), "every two years from 2026");
}

/// An event at a local time the clocks skip (02:30 on the morning Madrid moves to
/// summer time) is moved forward by the gap, as RFC 5545 says, not dropped.
#[test]
fn an_event_in_a_dst_gap_moves_forward_by_the_gap() {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\nBEGIN:VEVENT\r\nUID:gap\r\nSUMMARY:gap\r\nDTSTART;TZID=Europe/Madrid:20270328T023000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    let (found, skipped) = sidecar_reminders::import(text, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::En).unwrap();
    assert!(skipped.unreadable.is_empty(), "{:?}", skipped.unreadable);
    let local = found[0].due_at.with_timezone(&chrono_tz::Europe::Madrid);
    assert_eq!(local.format("%Y-%m-%d %H:%M").to_string(), "2027-03-28 03:30");
}

/// A series that started long ago keeps coming: every 15 minutes since 2020 has its
/// next occurrence now, found without walking six years of them.
#[test]
fn an_old_frequent_series_still_has_its_next_occurrence() {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 7, 0).unwrap();
    let start = chrono::Utc.with_ymd_and_hms(2020, 1, 1, 0, 0, 0).unwrap();
    let next = sidecar_dates::next_after("FREQ=MINUTELY;INTERVAL=15", start, chrono_tz::Europe::Madrid, now);
    assert_eq!(next, Some(chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 15, 0).unwrap()));
    let hourly = sidecar_dates::upcoming("FREQ=HOURLY;INTERVAL=2", start, chrono_tz::UTC, now, 3);
    assert_eq!(hourly, [10, 12, 14].map(|h| chrono::Utc.with_ymd_and_hms(2026, 11, 18, h, 0, 0).unwrap()));
}

/// A 100,000-character title becomes a reminder of 500 characters, and a notification
/// shows 300 of them; the import says how many titles were cut.
#[test]
fn a_huge_title_is_cut_for_the_reminder_and_for_the_notification() {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let huge = "a".repeat(100_000);
    let text = format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:{huge}\r\nDTSTART:20261120T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n");
    let (found, skipped) = sidecar_reminders::import(&text, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::En).unwrap();
    assert_eq!(skipped.shortened, 1);
    assert_eq!(found[0].message.chars().count(), 501, "500 characters and the mark");
    let reminder = sidecar_reminders::Reminder { message: found[0].message.clone(), ..crate::reminders::reminder(1, found[0].due_at) };
    let shown = sidecar_reminders::ReminderText::new(&reminder, false, sidecar_domain::Lang::En);
    assert_eq!(shown.body.chars().count(), 301);
    assert!(shown.chat.len() > 500, "the chat line keeps the whole text");
}

/// A broken calendar is refused with what is wrong, in words and with its line.
#[test]
fn a_broken_calendar_says_what_is_wrong_and_where() {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let read = |text: &str| {
        sidecar_reminders::import(text, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::En).map(|_| ()).unwrap_err().to_string()
    };
    let head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\nBEGIN:VEVENT\r\nSUMMARY:dentist\r\n";
    assert!(read(head).contains("BEGIN:VCALENDAR on line 1 is never ended") || read(head).contains("BEGIN:VEVENT on line 4 is never ended"), "{}", read(head));
    let junk = format!("{head}this is not a property\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n");
    assert!(read(&junk).contains("line 6 is not a NAME:value line (\"this is not a property\")"), "{}", read(&junk));
    let crossed = format!("{head}END:VCALENDAR\r\n");
    assert!(read(&crossed).contains("END:VCALENDAR on line 6 closes BEGIN:VEVENT from line 4"), "{}", read(&crossed));
    assert!(read("hello").contains("not a NAME:value line"), "{}", read("hello"));
    // In Spanish, all of it is Spanish (the first hour's m4), and an event whose start
    // cannot be read says so rather than that it has none (m9).
    let es = |text: &str| {
        use sidecar_domain::Worded;
        sidecar_reminders::import(text, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::Es).map(|_| ()).unwrap_err().spanish()
    };
    let cut = es(head);
    assert!(cut.starts_with("esto no es un archivo iCalendar (el BEGIN:") && cut.contains("no se cierra nunca; puede que el archivo esté cortado"), "{cut}");
    assert!(!cut.contains("never") && !cut.contains("line "), "{cut}");
    let broken = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:next tuesday\r\nSUMMARY:Broken time\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    let (_, skipped) = sidecar_reminders::import(broken, now, chrono_tz::UTC, chrono::NaiveTime::MIN, sidecar_domain::Lang::Es).unwrap();
    assert_eq!(skipped.unreadable, ["\"Broken time\": su inicio (next tuesday) no es una fecha que Sidecar sepa leer"]);
}

/// What a cut title leaves out is kept as the reminder's description, with the event's
/// own notes, and goes back out as DESCRIPTION in an export.
#[tokio::test]
async fn a_cut_title_and_the_events_notes_are_kept_as_its_description() {
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), now).await;
    let title = format!("{} END", "word ".repeat(200));
    let text = format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:{title}\r\nDESCRIPTION:Bring the X-rays\\, please\r\nDTSTART:20261120T100000Z\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:2\r\nSUMMARY:short\r\nDTSTART:20261120T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    );
    let report = core.reminders().import_ics(&text).await.unwrap();
    assert_eq!((report.added, report.skipped.shortened), (2, 1));
    let pending = core.reminders().pending().await.unwrap();
    let cut = pending.iter().find(|r| r.message.starts_with("word")).unwrap();
    assert!(cut.message.ends_with('…') && cut.message.chars().count() <= 501);
    let description = cut.description.as_deref().unwrap();
    assert!(description.starts_with('…') && description.contains("END"), "{description}");
    assert!(description.ends_with("Bring the X-rays, please"), "{description}");
    let words = |s: &str| s.matches("word").count();
    assert_eq!(words(&cut.message) + words(description), 200, "nothing of the title is lost");
    assert_eq!(pending.iter().find(|r| r.message == "short").unwrap().description, None);
    // Out and back in: the notes travel.
    let ics = core.reminders().export_ics().await.unwrap();
    let other = tempfile::tempdir().unwrap();
    let copy = open(other.path(), now).await;
    copy.reminders().import_ics(&ics).await.unwrap();
    let again = copy.reminders().pending().await.unwrap();
    assert_eq!(again.iter().find(|r| r.message == cut.message).unwrap().description.as_deref(), Some(description));
}

fn calendar_of(events: usize) -> String {
    let mut text = String::from("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\n");
    for i in 0..events {
        text += &format!("BEGIN:VEVENT\r\nUID:{i}\r\nSUMMARY:event {i}\r\nDTSTART:2027{:02}{:02}T{:02}0000Z\r\nEND:VEVENT\r\n", 1 + i % 12, 1 + i % 28, i % 24);
    }
    text + "END:VCALENDAR\r\n"
}

/// A large import says how far it got, and Stop ends it with nothing stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_reports_progress_and_stop_leaves_nothing_behind() {
    use sidecar::events::CoreEvent;
    let now = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), now).await;
    let mut events = core.events().subscribe();
    let report = core.reminders().import_ics(&calendar_of(1_000)).await.unwrap();
    assert_eq!((report.added, report.stopped), (1_000, false));
    let mut seen = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let CoreEvent::Reminders(sidecar_reminders::ReminderEvent::CalendarImport { saved, total, done }) = event {
            seen.push((saved, total, done));
        }
    }
    assert_eq!(seen.first(), Some(&(0, 0, false)), "reading is said first");
    assert_eq!(seen.last(), Some(&(1_000, 1_000, true)));
    let steps: Vec<u64> = seen.iter().filter(|(_, total, done)| *total > 0 && !done).map(|(saved, _, _)| *saved).collect();
    assert_eq!(steps, [0, 250, 500, 750, 1_000], "{seen:?}");
    assert!(!core.reminders().stop_import(), "nothing to stop once it ended");

    // Stopped as soon as saving starts: all or nothing, so nothing.
    let other = tempfile::tempdir().unwrap();
    let core = open(other.path(), now).await;
    let mut events = core.events().subscribe();
    let stopper = {
        let core = core.clone();
        tokio::spawn(async move {
            while let Ok(event) = events.recv().await {
                if let CoreEvent::Reminders(sidecar_reminders::ReminderEvent::CalendarImport { total, .. }) = event {
                    if total > 0 {
                        return core.reminders().stop_import();
                    }
                }
            }
            false
        })
    };
    let report = core.reminders().import_ics(&calendar_of(20_000)).await.unwrap();
    assert!(stopper.await.unwrap(), "the import was under way when stopped");
    assert_eq!((report.added, report.stopped), (0, true));
    assert!(core.reminders().pending().await.unwrap().is_empty());
}
