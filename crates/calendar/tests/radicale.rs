//! The calendar against a real CalDAV server: Radicale (from PyPI, installed by `make
//! test`), started on loopback by the test, with another client (plain HTTP, as a
//! phone's calendar app) changing things on the server side. Discovery, a refused
//! password, the first sync, a sync with nothing to do, changes and deletions seen at the
//! next sync, a write refused because the event changed meanwhile (the server's version
//! kept), and the server down (the last copy used, and said).

use std::path::{Path, PathBuf};

use chrono::{TimeZone, Utc};
use sidecar_calendar::sync;
use sidecar_calendar::CalendarError;
use sidecar_calendar::CalendarStore;
use sidecar_calendar::Dav;
use sidecar_domain::Lang;
use sidecar_store::Store;

#[path = "../../../tests/it/support/radicale.rs"]
mod radicale;

use radicale::{event, Radicale};

fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("SIDECAR_TEST_PYTHON") {
        return p.into();
    }
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
    assert!(default.exists(), "the test venv is missing: run `make test` first, or set SIDECAR_TEST_PYTHON");
    default
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn discovery_sync_changes_a_conflict_and_the_server_down() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Radicale::start(dir.path(), &python()).await;
    let zone = chrono_tz::Europe::Madrid;

    let wrong = Dav::new(&server.url, "ana", "wrong").unwrap();
    let refused = wrong.calendars().await;
    assert!(matches!(refused, Err(CalendarError::Refused(401))), "a wrong password is said as such: {refused:?}");
    assert!(matches!(Dav::new("calendar.example.com", "ana", "secret"), Err(CalendarError::NotAnAddress(_))));

    let dav = Dav::new(&server.url, "ana", "secret").unwrap();
    dav.make_calendar("/ana/work/", "Work").await.unwrap();
    server.put("/ana/work/standup.ics", &event("standup", "Stand-up", "20261130T093000", "20261130T094500", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\n")).await;
    server.put("/ana/work/dentist.ics", &event("dentist", "Dentist", "20261201T100000", "20261201T110000", "")).await;
    server.put("/ana/work/holiday.ics", &event("holiday", "Bank holiday", "20261208T000000", "20261209T000000", "TRANSP:TRANSPARENT\r\n")).await;

    // Discovery: the principal, its home, its calendars, with their names.
    let found = dav.calendars().await.unwrap();
    let work = found.iter().find(|c| c.href == "/ana/work/").expect("the calendar is discovered");
    assert_eq!(work.name.as_deref(), Some("Work"));

    let store = Store::open(&dir.path().join("data")).await.unwrap();
    let table = store.calendar_table();
    let calendar = table.found(&work.href, work.name.as_deref(), work.color.as_deref()).await.unwrap();
    let first = sync(&dav, &store, &calendar, zone, Lang::En).await.unwrap();
    assert_eq!((first.added, first.changed, first.removed, first.unchanged), (3, 0, 0, false));
    let week = (Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 7, 0, 0, 0).unwrap());
    let mut titles: Vec<String> = table
        .events_near(week.0, week.1)
        .await
        .unwrap()
        .iter()
        .flat_map(|e| e.occurrences(week.0, week.1).into_iter().map(|(s, _)| format!("{} {}", s.format("%d %H:%M"), e.summary)))
        .collect();
    titles.sort();
    assert_eq!(titles, ["01 09:00 Dentist", "02 08:30 Stand-up", "30 08:30 Stand-up"], "the week's times, the repeat expanded, the holiday not that week");

    // Nothing changed: the ctag says so, nothing is fetched.
    let calendar = table.all().await.unwrap().remove(0);
    assert!(sync(&dav, &store, &calendar, zone, Lang::En).await.unwrap().unchanged);

    // The phone moves the dentist and deletes the holiday: the next sync sees both.
    server.put("/ana/work/dentist.ics", &event("dentist", "Dentist (moved)", "20261202T160000", "20261202T170000", "")).await;
    server.delete("/ana/work/holiday.ics").await;
    let calendar = table.all().await.unwrap().remove(0);
    let next = sync(&dav, &store, &calendar, zone, Lang::En).await.unwrap();
    assert_eq!((next.added, next.changed, next.removed, next.unchanged), (0, 1, 1, false));
    let events = table.events_near(week.0, Utc.with_ymd_and_hms(2026, 12, 31, 0, 0, 0).unwrap()).await.unwrap();
    assert!(events.iter().any(|e| e.summary == "Dentist (moved)" && e.start == Utc.with_ymd_and_hms(2026, 12, 2, 15, 0, 0).unwrap()));
    assert!(!events.iter().any(|e| e.summary == "Bank holiday"));

    // A write on a version that changed meanwhile is refused; the server keeps the edit.
    let seen = table.etags(calendar.id).await.unwrap()["/ana/work/dentist.ics"].clone();
    server.put("/ana/work/dentist.ics", &event("dentist", "Dentist (phone's edit)", "20261203T160000", "20261203T170000", "")).await;
    let mine = event("dentist", "Dentist (Sidecar's)", "20261204T160000", "20261204T170000", "");
    assert!(matches!(dav.update("/ana/work/dentist.ics", &mine, &seen).await, Err(CalendarError::Changed)));
    assert!(server.get("/ana/work/dentist.ics").await.unwrap().contains("Dentist (phone's edit)"), "the server's version is kept");
    // Created only where nothing is.
    assert!(dav.create("/ana/work/new.ics", &event("new", "Lunch", "20261205T130000", "20261205T140000", "")).await.is_ok());
    assert!(dav.create("/ana/work/new.ics", &event("new", "Lunch again", "20261205T130000", "20261205T140000", "")).await.is_err());

    // The server goes down: the sync fails and says so; the last copy is still there.
    server.stop();
    let calendar = table.all().await.unwrap().remove(0);
    assert!(matches!(sync(&dav, &store, &calendar, zone, Lang::Es).await, Err(CalendarError::Unreachable(_))));
    let calendar = table.all().await.unwrap().remove(0);
    assert!(calendar.problem.as_deref().unwrap().starts_with("no se pudo llegar al servidor del calendario"), "{:?}", calendar.problem);
    assert!(!table.events_near(week.0, Utc.with_ymd_and_hms(2026, 12, 31, 0, 0, 0).unwrap()).await.unwrap().is_empty(), "the last copy is used");
}
