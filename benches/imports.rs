//! What imports cost on this machine: a ChatGPT export of about 48 MB (time, peak
//! memory, and again to show an import is idempotent) and a calendar of 100,000 events
//! (time to read and store it in one transaction). Prints figures; asserts nothing
//! about speed.

use std::time::Instant;

use chrono::TimeZone;

/// About 30 kB each: 2,000 make a 61 MB export (IMPORT_CONVERSATIONS=6600 makes 200 MB).
fn conversations() -> usize {
    std::env::var("IMPORT_CONVERSATIONS").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000)
}
const MESSAGES: usize = 50;
const EVENTS: usize = 100_000;

/// The process's peak resident memory so far (VmHWM), in MB.
fn peak_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok()).map_or(0.0, |kb| kb / 1024.0)
}

/// A ChatGPT `conversations.json` with a linear thread per conversation.
fn chatgpt_export() -> String {
    let words = "the trip to Porto went well and we walked along the Douro river until the light was gone, then ate grilled sardines near the market ";
    let mut out = String::from("[");
    for c in 0..conversations() {
        if c > 0 {
            out.push(',');
        }
        out += &format!(
            r#"{{"title": "conversation {c}", "current_node": "m{}", "mapping": {{"root": {{"id": "root", "message": null, "parent": null, "children": ["m0"]}}"#,
            MESSAGES - 1
        );
        for m in 0..MESSAGES {
            let role = if m % 2 == 0 { "user" } else { "assistant" };
            let parent = if m == 0 { "root".to_string() } else { format!("m{}", m - 1) };
            let children = if m + 1 < MESSAGES { format!(r#"["m{}"]"#, m + 1) } else { "[]".into() };
            let text = format!("{c}-{m}: {}", words.repeat(3));
            out += &format!(
                r#", "m{m}": {{"id": "m{m}", "message": {{"id": "c{c}m{m}", "author": {{"role": "{role}"}}, "create_time": {}, "content": {{"content_type": "text", "parts": ["{text}"]}}}}, "parent": "{parent}", "children": {children}}}"#,
                1_700_000_000 + c * 1_000 + m
            );
        }
        out += "}}";
    }
    out + "]"
}

fn calendar() -> String {
    let mut text = String::from("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\n");
    for i in 0..EVENTS {
        text += &format!(
            "BEGIN:VEVENT\r\nUID:{i}\r\nSUMMARY:event {i}\r\nDTSTART:2027{:02}{:02}T{:02}{:02}00Z\r\nEND:VEVENT\r\n",
            1 + i % 12,
            1 + i % 28,
            i % 24,
            i % 60
        );
    }
    text + "END:VCALENDAR\r\n"
}

async fn open(dir: &std::path::Path) -> std::sync::Arc<sidecar::Companion> {
    let mut options = sidecar::CompanionOptions::new(dir.to_path_buf(), Default::default());
    options.clock = sidecar_domain::fixed_clock(chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap());
    sidecar::Companion::open(options).await.unwrap()
}

#[tokio::main]
async fn main() {
    let export = chatgpt_export();
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let before = peak_mb();
    let start = Instant::now();
    let report = core.data().import_chat_export(export.as_bytes()).await.unwrap();
    let first = start.elapsed().as_secs_f64();
    let peak = peak_mb();
    let start = Instant::now();
    let again = core.data().import_chat_export(export.as_bytes()).await.unwrap();
    println!(
        "ChatGPT export, {:.1} MB, {} conversations, {} messages: {first:.1} s ({:.0} messages/s), peak memory {peak:.0} MB ({:.0} MB over the {before:.0} MB before); again: {:.1} s, {} stored, {} already there",
        export.len() as f64 / 1e6,
        report.conversations,
        report.messages,
        report.messages as f64 / first,
        peak - before,
        start.elapsed().as_secs_f64(),
        again.messages,
        again.already
    );
    drop(export);

    let text = calendar();
    let start = Instant::now();
    let (found, _) = sidecar_reminders::import(
        &text,
        chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap(),
        chrono_tz::UTC,
        chrono::NaiveTime::MIN,
        sidecar_domain::Lang::En,
    )
    .unwrap();
    let reading = start.elapsed().as_secs_f64();
    drop(found);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let start = Instant::now();
    let report = core.reminders().import_ics(&text).await.unwrap();
    println!(
        "calendar, {EVENTS} events ({:.1} MB): {:.1} s, {} added in one transaction (reading the file alone: {reading:.1} s)",
        text.len() as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        report.added
    );
}
