//! `parse-date`, `remind`, `reminders` and `daemon`: reminders from the terminal.

use std::sync::Arc;

use serde_json::json;
use sidecar::Companion;

pub(crate) fn parse_date(
    text: &str,
    zone: Option<&str>,
    explicit_zone: bool,
    now: Option<&str>,
    json: bool,
    all_day: chrono::NaiveTime,
    lang: sidecar_domain::Lang,
) -> anyhow::Result<i32> {
    use sidecar_dates as dates;
    let zone: chrono_tz::Tz = match zone {
        Some(name) if explicit_zone => name.parse().map_err(|_| anyhow::anyhow!("unknown time zone \"{name}\"; use an IANA name such as Europe/Madrid"))?,
        configured => sidecar_domain::resolve_zone(configured).0,
    };
    let now = match now {
        Some(t) => chrono::DateTime::parse_from_rfc3339(t)
            .map_err(|e| anyhow::anyhow!("--now must be RFC 3339 (e.g. 2026-11-18T10:00:00-03:00): {e}"))?
            .with_timezone(&chrono::Utc),
        None => chrono::Utc::now(),
    };
    match dates::read_or_find(text, now, zone, dates::Options { all_day, ..dates::Options::new(lang) }) {
        Ok(dates::Found { when: w, split }) => {
            let local = w.local().to_rfc3339();
            let words = w.rule_words(lang);
            let next: Vec<String> = w.occurrences(3).iter().map(|t| t.with_timezone(&zone).to_rfc3339()).collect();
            if json {
                println!(
                    "{}",
                    json!({"ok": true, "local": local, "utc": w.at.to_rfc3339(), "zone": zone.name(), "rrule": w.rrule, "rule": words, "next": next, "all_day": w.all_day, "note": w.note,
                        "when_text": split.as_ref().map(|s| &s.when_text), "what": split.as_ref().map(|s| &s.what)})
                );
            } else {
                println!("ok\nlocal: {} ({})\nutc:   {}", w.local().format("%A %Y-%m-%d %H:%M %Z"), zone.name(), w.at.to_rfc3339());
                if let Some(split) = &split {
                    // The whole text was a sentence: what was read as the time, and the rest.
                    println!("found: \"{}\"\nwhat: {}", split.when_text, split.what);
                }
                if let (Some(rrule), Some(words)) = (&w.rrule, words) {
                    println!("repeats: {words} ({rrule})");
                    println!("next: {}", next.join(", "));
                }
                if let Some(note) = w.note {
                    println!("note: {note}");
                }
            }
            Ok(0)
        }
        Err(e) => {
            if json {
                println!("{}", json!({"ok": false, "kind": e.kind, "error": e.error, "suggestion": e.suggestion}));
            } else {
                println!("error: {}\nsuggestion: {}", e.error, e.suggestion);
            }
            Ok(1)
        }
    }
}

/// `sidecar remind "call mum tomorrow at 9"`, or `sidecar remind "in 30 minutes" stretch`.
pub(crate) async fn remind(companion: &Arc<Companion>, words: &[String], json: bool) -> anyhow::Result<i32> {
    let service = companion.reminders();
    let set = match words {
        // The old form `remind WHEN WHAT`: also when WHEN is a date that cannot be used
        // (too far, already past), so the user hears why rather than "no time found".
        [when, text @ ..] if !text.is_empty() && reads_as_date(service, when) => service.set(&text.join(" "), when).await,
        // "recuérdame en 10 minutos sacar la ropa": the request's opener is not part of
        // what to be reminded of, as in the chat.
        _ => {
            let sentence = words.join(" ");
            let sentence = match sidecar_agent::detect_intent(&sentence) {
                Some(sidecar_agent::Intent::Set { sentence } | sidecar_agent::Intent::Timer { sentence }) => sentence,
                _ => sentence,
            };
            service.set_from_sentence(&sentence).await
        }
    };
    match set {
        Ok(set) => {
            if json {
                println!("{}", json!({"ok": true, "reminder": set.reminder, "note": set.note, "twin": set.twin}));
            } else {
                println!("Reminder set: {}", service.with_zone(&set.reminder));
                if let Some(note) = set.note {
                    println!("note: {note}");
                }
                if set.twin.is_some() {
                    println!("note: {}", sidecar_reminders::words::twin_kept(service.lang()));
                }
            }
            Ok(0)
        }
        Err(error) => {
            if json {
                println!("{}", json!({"ok": false, "error": error.to_string()}));
            } else {
                eprintln!("sidecar: {error}");
            }
            Ok(1)
        }
    }
}

/// Whether `when` is a date on its own, usable or not for a reason worth saying, or a
/// time before an event ("15 minutes before my coffee with Ana"), as the chat reads it.
fn reads_as_date(service: &sidecar_reminders::ReminderService, when: &str) -> bool {
    use sidecar_dates::DateErrorKind::OutOfRange;
    use sidecar_dates::DateErrorKind::Past;
    sidecar_reminders::read(when).is_some() || service.read(when).map_or_else(|e| matches!(e.kind, OutOfRange | Past), |_| true)
}

pub(crate) async fn reminders(companion: &Arc<Companion>, json: bool, ics: bool, import: Option<&std::path::Path>) -> anyhow::Result<i32> {
    let service = companion.reminders();
    if ics {
        print!("{}", service.export_ics().await?);
        return Ok(0);
    }
    if let Some(path) = import {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let progress = tokio::spawn(show_import_progress(companion.events().subscribe()));
        let report = service.import_ics(&text).await;
        let _ = progress.await;
        let report = report?;
        let (added, skipped) = (report.added, report.skipped);
        println!("Imported {added} reminder(s) from {}.", path.display());
        if skipped.shortened > 0 {
            println!(
                "Cut {} event title(s) longer than {} characters; the rest is kept in each reminder's description.",
                skipped.shortened,
                sidecar_reminders::MAX_TITLE_CHARS
            );
        }
        if skipped.past > 0 {
            println!("Skipped {} event(s) already over.", skipped.past);
        }
        for why in &skipped.unreadable {
            println!("Skipped {why}.");
        }
        return Ok(0);
    }
    let overview = service.overview().await?;
    if json {
        println!("{}", serde_json::to_string(&overview)?);
        return Ok(0);
    }
    let groups = [
        ("Upcoming", &overview.upcoming),
        ("Recurring", &overview.recurring),
        ("Late", &overview.late),
        ("Delivered", &overview.delivered),
        ("Could not be shown", &overview.failed),
    ];
    if groups.iter().all(|(_, list)| list.is_empty()) {
        println!("No reminders. Set one with: sidecar remind \"stretch in 30 minutes\"");
        return Ok(0);
    }
    for (heading, list) in groups.iter().filter(|(_, list)| !list.is_empty()) {
        println!("{heading}:");
        for view in list.iter() {
            println!("  {}", service.for_people(&view.reminder));
            if let Some(first) = view.reminder.description.as_deref().and_then(|d| d.lines().find(|l| !l.trim().is_empty())) {
                println!("      {}", sidecar_reminders::words::within(first.trim(), 100));
            }
        }
    }
    Ok(0)
}

/// "Importing… 2500 of 10000" on a terminal's standard error while a calendar import
/// runs; nothing when the output is read by a program.
async fn show_import_progress(mut events: tokio::sync::broadcast::Receiver<sidecar::events::CoreEvent>) {
    use std::io::{IsTerminal, Write};
    let terminal = std::io::stderr().is_terminal();
    while let Ok(event) = events.recv().await {
        let sidecar::events::CoreEvent::Reminders(sidecar_reminders::ReminderEvent::CalendarImport { saved, total, done }) = event else { continue };
        if done {
            if terminal {
                eprint!("\r\x1b[2K");
            }
            return;
        }
        if terminal && total > 0 {
            eprint!("\rImporting… {saved} of {total} events");
            let _ = std::io::stderr().flush();
        }
    }
}

/// The schedulers with the terminal and OS notifications as sinks.
pub(crate) async fn daemon(companion: &Arc<Companion>) -> anyhow::Result<i32> {
    use sidecar_proactive::ConsoleSink;
    let mut events = companion.events().subscribe();
    let endpoint = Arc::new(sidecar_serve::McpEndpoint::default());
    // A click on a notification has no window to open here.
    let face = sidecar::Face {
        endpoint: endpoint.clone(),
        commands: Some(sidecar::commands::dispatch_for_device),
        ..sidecar::Face::headless(vec![Arc::new(ConsoleSink { clock: companion.clock().clone() })])
    };
    let running = companion.run(face).await;
    match running.delivery.clone() {
        sidecar::Delivery::Here => {}
        sidecar::Delivery::Elsewhere => {
            running.stop().await;
            eprintln!("sidecar: the desktop app or another daemon already delivers reminders for this data directory");
            return Ok(1);
        }
        sidecar::Delivery::Failed(why) => {
            running.stop().await;
            anyhow::bail!("could not start the reminder scheduler: {why}");
        }
    }
    eprintln!("Sidecar daemon: delivering reminders for {} (Ctrl+C stops)", companion.data_dir().display());
    match endpoint.view() {
        sidecar_serve::EndpointView { url: Some(url), .. } => eprintln!("MCP endpoint for other programs: {url}"),
        sidecar_serve::EndpointView { problem: Some(problem), .. } => eprintln!("The MCP endpoint is on but not running: {problem}"),
        _ => {}
    }
    let telegram = companion.channels().view().telegram;
    if telegram.enabled {
        let paired = telegram.paired_chats.len();
        match telegram.token {
            sidecar_channels::TokenSource::Missing => {
                let variable = companion.settings().channels.telegram.clone().unwrap_or_default().token_env;
                eprintln!("Telegram: on, but no bot token (set {variable} or save one in the app's Settings → Channels)")
            }
            _ => eprintln!("Telegram: serving {paired} paired chat(s)"),
        }
    }
    // A phone channel that stays down is said on the terminal (W1).
    tokio::spawn(async move {
        while let Ok(event) = events.recv().await {
            if let sidecar::events::CoreEvent::Channels(sidecar_channels::ChannelEvent::ChannelAlert { title, body, .. })
            | sidecar::events::CoreEvent::Channels(sidecar_channels::ChannelEvent::ChannelWarning { title, body, .. }) = event
            {
                eprintln!("{title}: {body}");
            }
        }
    });
    stop_signal().await;
    running.stop().await;
    companion.shutdown().await;
    Ok(0)
}

/// Ctrl+C, or SIGTERM from a service manager.
pub(crate) async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("a SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await.ok();
}
