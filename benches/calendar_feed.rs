//! Subscribed-feed figures (issue 46): a published `.ics` of 5,000 events (one in ten
//! repeating) served by Python's web server on loopback. Prints; asserts nothing.
//!
//! - the first sync (downloaded, split by UID, every event read and kept);
//! - a sync with nothing changed (the server answers 304 to the date last seen);
//! - a sync after 10 events changed (downloaded again; only the 10 read and kept);
//! - the same feed split and read in memory alone (no network, no database);
//! - hostile repeats (issue 69): a week's occurrences of 20,000 events repeating daily
//!   since 1970, and of 500 that never occur (30 February every year);
//! - a feed of 20,000 events (as many as a feed may hold) kept while another writer
//!   writes every 10 ms: the sync's time and the writer's longest wait.
//!
//! Run: `cargo bench --bench calendar_feed` (needs the test venv: `make test-deps`).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use chrono::TimeZone;
use sidecar_calendar::sync_feed;
use sidecar_calendar::CalendarStore;
use sidecar_domain::Lang;

const EVENTS: usize = 5_000;
const CHANGED: usize = 10;

fn feed(changed: usize) -> String {
    let mut text = String::from("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nX-WR-CALNAME:Big feed\r\n");
    for i in 0..EVENTS {
        let start = chrono::Utc.with_ymd_and_hms(2026, 1, 1, 8, 0, 0).unwrap() + chrono::Duration::minutes(105 * i as i64);
        let local = start.with_timezone(&chrono_tz::Europe::Madrid);
        let fmt = |t: chrono::DateTime<chrono_tz::Tz>| t.format("%Y%m%dT%H%M%S").to_string();
        let repeat = if i.is_multiple_of(10) { "RRULE:FREQ=WEEKLY;COUNT=20\r\n" } else { "" };
        let summary = if i % 500 == 0 && i / 500 < changed { "Moved" } else { "Meeting" };
        text.push_str(&format!(
            "BEGIN:VEVENT\r\nUID:e{i}@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Europe/Madrid:{}\r\nDTEND;TZID=Europe/Madrid:{}\r\nSUMMARY:{summary} {i}\r\n{repeat}END:VEVENT\r\n",
            fmt(local),
            fmt(local + chrono::Duration::minutes(45))
        ));
    }
    text.push_str("END:VCALENDAR\r\n");
    text
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let web = support::web_site::WebSite::start(&site, &support::python()).await;
    let text = feed(0);
    std::fs::write(site.join("big.ics"), &text).unwrap();
    let store = sidecar_store::Store::open(&dir.path().join("data")).await.unwrap();
    let table = store.calendar_table();
    let url = web.url("big.ics");
    table.subscribed(&url, None).await.unwrap();
    let http = reqwest::Client::new();
    let zone = chrono_tz::Europe::Madrid;
    println!("Subscribed feed of {EVENTS} events ({:.1} MB), Python's web server on loopback", text.len() as f64 / 1e6);

    let calendar = table.all().await.unwrap().remove(0);
    let started = Instant::now();
    let first = sync_feed(&http, &store, &calendar, zone, Lang::En).await.unwrap();
    println!("  first: {:.2} s ({} items)", started.elapsed().as_secs_f64(), first.added);
    let calendar = table.all().await.unwrap().remove(0);
    let started = Instant::now();
    let unchanged = sync_feed(&http, &store, &calendar, zone, Lang::En).await.unwrap();
    println!("  nothing changed: {:.0} ms (304: {})", started.elapsed().as_secs_f64() * 1000.0, unchanged.unchanged);
    // Python's server dates files to the second.
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(site.join("big.ics"), feed(CHANGED)).unwrap();
    let calendar = table.all().await.unwrap().remove(0);
    let started = Instant::now();
    let changed = sync_feed(&http, &store, &calendar, zone, Lang::En).await.unwrap();
    println!("  {CHANGED} changed: {:.0} ms ({} read again)", started.elapsed().as_secs_f64() * 1000.0, changed.changed);

    let started = Instant::now();
    let (_, items) = sidecar_calendar::split(&text).unwrap();
    let split_time = started.elapsed();
    let started = Instant::now();
    let events: usize = items.iter().map(|i| sidecar_calendar::events_of(&i.data, zone).unwrap().len()).sum();
    println!("  in memory: split {:.0} ms, {events} events read {:.0} ms", split_time.as_secs_f64() * 1000.0, started.elapsed().as_secs_f64() * 1000.0);
    flood_beside_a_writer(&store, &web, &site, zone).await;
    drop(web);
    hostile_repeats(zone);
}

/// The largest feed taken, kept while another writer (a fact remembered, a reminder set)
/// writes every 10 ms: how long the writer waited at worst.
async fn flood_beside_a_writer(store: &sidecar_store::Store, web: &support::web_site::WebSite, site: &std::path::Path, zone: chrono_tz::Tz) {
    let events: String = (0..sidecar_calendar::MAX_FEED_EVENTS)
        .map(|n| {
            format!("BEGIN:VEVENT\r\nUID:f{n}@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20261201T{:02}0000Z\r\nSUMMARY:Flood {n}\r\nEND:VEVENT\r\n", n % 24)
        })
        .collect();
    std::fs::write(site.join("flood.ics"), format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n{events}END:VCALENDAR\r\n")).unwrap();
    let table = store.calendar_table();
    let calendar = table.subscribed(&web.url("flood.ics"), None).await.unwrap();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = tokio::spawn({
        let (store, done) = (store.clone(), done.clone());
        async move {
            let (mut longest, mut writes) = (Duration::ZERO, 0);
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let asked = Instant::now();
                let mut tx = store.write_transaction().await.unwrap();
                sqlx::query("UPDATE calendars SET problem = problem WHERE id = -1").execute(&mut *tx).await.unwrap();
                tx.commit().await.unwrap();
                longest = longest.max(asked.elapsed());
                writes += 1;
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            (longest, writes)
        }
    });
    let started = Instant::now();
    let kept = sync_feed(&reqwest::Client::new(), store, &calendar, zone, Lang::En).await.unwrap();
    let took = started.elapsed();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let (longest, writes) = writer.await.unwrap();
    println!(
        "  a feed of {} events kept: {:.2} s; a writer beside it waited at most {:.0} ms ({writes} writes)",
        kept.added,
        took.as_secs_f64(),
        longest.as_secs_f64() * 1000.0
    );
}

/// Feeds made to make every reader spin: a week read from 20,000 events repeating daily
/// since 1970, and 500 events that never occur (30 February yearly) read as a sync reads
/// them (the rule found empty once, never walked again), then a week of them.
fn hostile_repeats(zone: chrono_tz::Tz) {
    let week = (chrono::Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap(), chrono::Utc.with_ymd_and_hms(2026, 12, 7, 0, 0, 0).unwrap());
    let item = |rule: &str, start: &str| {
        format!("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:h\r\nDTSTART:{start}\r\nSUMMARY:H\r\nRRULE:{rule}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    };
    let daily = sidecar_calendar::events_of(&item("FREQ=DAILY", "19700101T090000Z"), zone).unwrap().remove(0);
    let started = Instant::now();
    let found: usize = (0..20_000).map(|_| daily.occurrences(week.0, week.1).len()).sum();
    println!("  a week of 20,000 events repeating daily since 1970: {:.0} ms ({found} occurrences)", started.elapsed().as_secs_f64() * 1000.0);
    let never = item("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "20000101T090000Z");
    let started = Instant::now();
    let events: Vec<_> = (0..500).flat_map(|_| sidecar_calendar::events_of(&never, zone).unwrap()).collect();
    let read = started.elapsed();
    let started = Instant::now();
    let found: usize = events.iter().map(|e| e.occurrences(week.0, week.1).len()).sum();
    println!(
        "  500 events that never occur: read {:.0} ms, a week of them {:.1} ms ({found} occurrences)",
        read.as_secs_f64() * 1000.0,
        started.elapsed().as_secs_f64() * 1000.0
    );
}
