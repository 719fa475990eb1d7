//! Random hostile recordings (the property test's generator): how long the worst one
//! takes to decode or refuse, and the peak memory. `RANDOM_CASES` sets how many
//! (default 2,000).

#[path = "../tests/random/mod.rs"]
mod random;

use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use sidecar_voice::Audio;

fn main() {
    let cases: usize = std::env::var("RANDOM_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000);
    let mut runner = TestRunner::deterministic();
    let strategy = random::recording();
    let (mut decoded, mut seconds, mut largest) = (0usize, 0f64, 0usize);
    let mut refusals: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let mut times: Vec<Duration> = Vec::with_capacity(cases);
    for _ in 0..cases {
        let bytes = strategy.new_tree(&mut runner).expect("a recording").current();
        largest = largest.max(bytes.len());
        let started = Instant::now();
        match Audio::decode(&bytes) {
            Ok(audio) => {
                decoded += 1;
                seconds += f64::from(audio.seconds());
            }
            Err(error) => *refusals.entry(error.to_string().chars().take(90).collect()).or_default() += 1,
        }
        times.push(started.elapsed());
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{cases} random recordings (at most {} kB each): {decoded} decoded ({seconds:.0} s of audio), {} refused in words, no panic",
        largest / 1024,
        cases - decoded
    );
    println!("  time per recording: median {:?}, p99 {:?}, worst {:?}", at(0.5), at(0.99), times[times.len() - 1]);
    let mut common: Vec<(&String, &usize)> = refusals.iter().collect();
    common.sort_by_key(|c| std::cmp::Reverse(*c.1));
    for (why, n) in common.iter().take(5) {
        println!("  refused {n}×: {why}…");
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok()).unwrap_or(0);
    println!("  peak memory of the whole run: {} MB", peak / 1024);
}
