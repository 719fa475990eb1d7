//! Calendar figures (issue 46), against a real Radicale on loopback. Prints; asserts
//! nothing.
//!
//! - sync of a calendar of 5,000 events: the first (everything fetched), one with
//!   nothing changed (the ctag says so), and one after 10 events changed on the server;
//! - a week's events read back (the repeats expanded), over those 5,000.
//!
//! Run: `cargo bench --bench calendar_sync` (needs the test venv: `make test-deps`).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::time::Instant;

use chrono::{Duration, TimeZone, Utc};
use sidecar_calendar::sync;
use sidecar_calendar::CalendarStore;
use sidecar_calendar::Dav;
use sidecar_domain::Lang;
use support::radicale::{event, Radicale, PASSWORD, USER};

const EVENTS: usize = 5_000;
const CHANGED: usize = 10;

fn item(i: usize, summary: &str) -> String {
    // Spread over a year from 1 January 2026, one in ten repeating weekly.
    let start = Utc.with_ymd_and_hms(2026, 1, 1, 8, 0, 0).unwrap() + Duration::minutes(105 * i as i64);
    let local = start.with_timezone(&chrono_tz::Europe::Madrid);
    let fmt = |t: chrono::DateTime<chrono_tz::Tz>| t.format("%Y%m%dT%H%M%S").to_string();
    let repeat = if i.is_multiple_of(10) { "RRULE:FREQ=WEEKLY;COUNT=20\r\n" } else { "" };
    event(&format!("e{i}"), &format!("{summary} {i}"), &fmt(local), &fmt(local + Duration::minutes(45)), repeat)
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let server = Radicale::start(dir.path(), &support::python()).await;
    let dav = Dav::new(&server.url, USER, PASSWORD).unwrap();
    dav.make_calendar("/ana/big/", "Big").await.unwrap();
    // Written straight into Radicale's storage (as a restore would): 5,000 PUTs would
    // measure Radicale, not Sidecar.
    let folder = dir.path().join("collections/collection-root/ana/big");
    for i in 0..EVENTS {
        std::fs::write(folder.join(format!("e{i}.ics")), item(i, "Meeting")).unwrap();
    }
    let store = sidecar_store::Store::open(&dir.path().join("data")).await.unwrap();
    let table = store.calendar_table();
    let calendar = table.found("/ana/big/", Some("Big"), None).await.unwrap();
    let zone = chrono_tz::Europe::Madrid;

    // Radicale reads files written behind its back once, into its cache: that is
    // Radicale's time, not Sidecar's, so it is spent (and said) before the clock starts.
    let started = Instant::now();
    let propfind = reqwest::Method::from_bytes(b"PROPFIND").unwrap();
    let warm = reqwest::Client::builder().timeout(std::time::Duration::from_secs(900)).build().unwrap();
    let answer = warm.request(propfind, format!("{}ana/big/", server.url)).basic_auth(USER, Some(PASSWORD)).header("Depth", "1").send().await.unwrap();
    assert!(answer.status().is_success(), "{}", answer.status());
    println!("  (Radicale indexing the files written into its storage: {:.1} s, not counted)", started.elapsed().as_secs_f64());
    let started = Instant::now();
    let first = sync(&dav, &store, &calendar, zone, Lang::En).await.unwrap();
    let first_time = started.elapsed();
    let calendar = table.all().await.unwrap().remove(0);
    let started = Instant::now();
    let unchanged = sync(&dav, &store, &calendar, zone, Lang::En).await.unwrap();
    let unchanged_time = started.elapsed();
    for i in 0..CHANGED {
        server.put(&format!("/ana/big/e{}.ics", i * 37), &item(i * 37, "Moved")).await;
    }
    let calendar = table.all().await.unwrap().remove(0);
    let started = Instant::now();
    let incremental = sync(&dav, &store, &calendar, zone, Lang::En).await.unwrap();
    let incremental_time = started.elapsed();
    println!("Calendar sync against Radicale, {EVENTS} events (one in ten repeating)");
    println!("  first: {:.2} s ({} items)", first_time.as_secs_f64(), first.added);
    println!("  nothing changed: {:.0} ms (unchanged by ctag: {})", unchanged_time.as_secs_f64() * 1000.0, unchanged.unchanged);
    println!("  {CHANGED} changed on the server: {:.0} ms ({} fetched)", incremental_time.as_secs_f64() * 1000.0, incremental.changed);

    let service = sidecar_calendar::CalendarService::new(
        store.clone(),
        std::sync::Arc::new(sidecar_domain::Secrets::new(false)),
        sidecar_domain::fixed_clock(Utc::now()),
        reqwest::Client::new(),
    );
    let week = Utc.with_ymd_and_hms(2026, 6, 1, 0, 0, 0).unwrap();
    let started = Instant::now();
    let found = service.between(week, week + Duration::days(7)).await.unwrap();
    println!("  a week's events read back: {:.1} ms ({} occurrences)", started.elapsed().as_secs_f64() * 1000.0, found.len());
}
