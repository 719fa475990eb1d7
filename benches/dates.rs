//! Parse time of the date table (every phrase, many rounds): median and p99 per
//! parse, and the slowest adversarial 10 kB input. Prints figures; asserts nothing.

use std::time::Instant;

use chrono::{NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use sidecar_dates::extract;
use sidecar_dates::parse;
use sidecar_dates::Options;
use sidecar_domain::Lang;

fn main() {
    let table = include_str!("../tests/data/dates.tsv");
    let mut context = (Utc::now(), chrono_tz::UTC);
    let mut rows = Vec::new();
    for line in table.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        if let Some(at) = line.strip_prefix("@ ") {
            let (moment, zone) = at.rsplit_once(' ').unwrap();
            let zone: Tz = zone.parse().unwrap();
            let naive = NaiveDateTime::parse_from_str(moment, "%Y-%m-%d %H:%M").unwrap();
            context = (zone.from_local_datetime(&naive).single().unwrap().with_timezone(&Utc), zone);
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        rows.push((if cols[0] == "es" { Lang::Es } else { Lang::En }, cols[1].to_string(), context));
    }
    let mut times = Vec::new();
    for _ in 0..50 {
        for (lang, phrase, (now, zone)) in &rows {
            let start = Instant::now();
            let _ = std::hint::black_box(parse(phrase, *now, *zone, Options::new(*lang)));
            times.push(start.elapsed().as_secs_f64() * 1e6);
        }
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    println!("date table: {} phrases x 50 rounds", rows.len());
    println!("parse: median {:.1} µs, p99 {:.1} µs, max {:.1} µs", at(0.5), at(0.99), at(1.0));

    let words = ["en", "2", "horas", "mañana", "a", "las", "9", "every", "monday", "y", "el", "1", "de", "cada", "mes", "99999999999", "🕐", "ñ"];
    let mut worst: f64 = 0.0;
    let now = Utc::now();
    for seed in 0..200u64 {
        let mut text = String::new();
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        while text.len() < 10_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            text.push_str(words[(x >> 33) as usize % words.len()]);
            text.push(' ');
        }
        for f in [0, 1] {
            let start = Instant::now();
            if f == 0 {
                let _ = std::hint::black_box(parse(&text, now, chrono_tz::Europe::Madrid, Options::new(Lang::Es)));
            } else {
                let _ = std::hint::black_box(extract(&text, now, chrono_tz::Europe::Madrid, Options::new(Lang::Es)));
            }
            worst = worst.max(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    println!("adversarial 10 kB inputs (200, parse and extract): slowest {worst:.2} ms");
}
