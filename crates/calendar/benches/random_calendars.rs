//! Random hostile calendars (the property test's generator): how long the worst one
//! takes to split, read and walk over a week and over 130 years, and the peak memory.
//! `RANDOM_CASES` sets how many (default 2,000).

#[path = "../tests/random/mod.rs"]
mod random;

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use sidecar_calendar::events_of;
use sidecar_calendar::split;

fn main() {
    let cases: usize = std::env::var("RANDOM_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000);
    let mut runner = TestRunner::deterministic();
    let strategy = random::calendar();
    let week = (Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2026, 12, 7, 0, 0, 0).unwrap());
    let ever = (Utc.with_ymd_and_hms(1970, 1, 1, 0, 0, 0).unwrap(), Utc.with_ymd_and_hms(2100, 1, 1, 0, 0, 0).unwrap());
    let (mut refused, mut read, mut occurrences) = (0usize, 0usize, 0usize);
    let mut times: Vec<Duration> = Vec::with_capacity(cases);
    let mut slow: Vec<(Duration, String)> = Vec::new();
    for _ in 0..cases {
        let text = strategy.new_tree(&mut runner).expect("a calendar").current();
        let started = Instant::now();
        let _ = split(&text);
        match events_of(&text, chrono_tz::Europe::Madrid) {
            Err(_) => refused += 1,
            Ok(events) => {
                read += events.len();
                for event in &events {
                    occurrences += event.occurrences(week.0, week.1).len() + event.occurrences(ever.0, ever.1).len();
                }
            }
        }
        let took = started.elapsed();
        slow.push((took, text.lines().filter(|l| l.starts_with("RRULE") || l.starts_with("DTSTART")).collect::<Vec<_>>().join(" ")));
        slow.sort_by_key(|s| std::cmp::Reverse(s.0));
        slow.truncate(3);
        times.push(took);
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!("{cases} random calendars: {refused} refused in words, {read} events read, {occurrences} occurrences walked, no panic");
    println!("  time per calendar (split, read, a week and 130 years walked): median {:?}, p99 {:?}, worst {:?}", at(0.5), at(0.99), slow[0].0);
    for (took, rules) in &slow {
        println!("  {took:?}: {}", rules.chars().take(160).collect::<String>());
    }
    println!("  peak memory of the whole run: {} MB", peak_mb());
}

/// The process's peak resident memory (VmHWM), in MB.
fn peak_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok()).map_or(0, |kb| kb / 1024)
}
