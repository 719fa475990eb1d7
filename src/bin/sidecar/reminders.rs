//! `parse-date`, `remind`, `reminders` and `daemon`: reminders from the terminal.

use std::sync::Arc;

use serde_json::json;
use sidecar::Companion;

pub(crate) fn parse_date(text: &str, zone: Option<&str>, explicit_zone: bool, now: Option<&str>, json: bool) -> anyhow::Result<i32> {
    use sidecar::reminders::when;
    let zone: chrono_tz::Tz = match zone {
        Some(name) if explicit_zone => {
            name.parse().map_err(|_| anyhow::anyhow!("unknown time zone \"{name}\"; use an IANA name such as Europe/Madrid"))?
        }
        configured => sidecar::clock::resolve_zone(configured).0,
    };
    let now = match now {
        Some(t) => chrono::DateTime::parse_from_rfc3339(t)
            .map_err(|e| anyhow::anyhow!("--now must be RFC 3339 (e.g. 2026-11-18T10:00:00-03:00): {e}"))?
            .with_timezone(&chrono::Utc),
        None => chrono::Utc::now(),
    };
    match when::parse(text, now, zone) {
        Ok(w) => {
            let local = w.local().to_rfc3339();
            let rrule = w.repeat.map(|r| r.rrule());
            if json {
                println!(
                    "{}",
                    json!({"ok": true, "local": local, "utc": w.at.to_rfc3339(), "zone": zone.name(), "rrule": rrule, "note": w.note})
                );
            } else {
                println!("ok\nlocal: {} ({})\nutc:   {}", w.local().format("%A %Y-%m-%d %H:%M %Z"), zone.name(), w.at.to_rfc3339());
                if let Some(rrule) = rrule {
                    println!("repeats: {rrule}");
                }
                if let Some(note) = w.note {
                    println!("note: {note}");
                }
            }
            Ok(0)
        }
        Err(e) => {
            if json {
                println!("{}", json!({"ok": false, "error": e.error, "suggestion": e.suggestion}));
            } else {
                println!("error: {}\nsuggestion: {}", e.error, e.suggestion);
            }
            Ok(1)
        }
    }
}

pub(crate) async fn remind(companion: &Arc<Companion>, when: &str, text: &str, json: bool) -> anyhow::Result<i32> {
    match companion.reminders().set(text, when).await {
        Ok((reminder, note)) => {
            if json {
                println!("{}", json!({"ok": true, "reminder": reminder, "note": note}));
            } else {
                println!("Reminder set: {}", companion.reminders().describe(&reminder));
                if let Some(note) = note {
                    println!("note: {note}");
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

pub(crate) async fn reminders(companion: &Arc<Companion>, json: bool) -> anyhow::Result<i32> {
    let overview = companion.reminders().overview().await?;
    if json {
        println!("{}", serde_json::to_string(&overview)?);
        return Ok(0);
    }
    let groups = [("Upcoming", &overview.upcoming), ("Recurring", &overview.recurring), ("Late", &overview.late), ("Delivered", &overview.delivered)];
    if groups.iter().all(|(_, list)| list.is_empty()) {
        println!("No reminders. Set one with: sidecar remind \"in 30 minutes\" stretch");
        return Ok(0);
    }
    for (heading, list) in groups.iter().filter(|(_, list)| !list.is_empty()) {
        println!("{heading}:");
        for reminder in list.iter() {
            println!("  {}", companion.reminders().describe(reminder));
        }
    }
    Ok(0)
}

/// The schedulers with the terminal and OS notifications as sinks.
pub(crate) async fn daemon(companion: &Arc<Companion>) -> anyhow::Result<i32> {
    use sidecar::proactive::sinks::ConsoleSink;
    companion.proactive().router().register(Arc::new(ConsoleSink { clock: companion.clock().clone() }));
    let cancel = tokio_util::sync::CancellationToken::new();
    // A click on a notification has no window to open here.
    let Some(deliveries) = companion.deliveries(Arc::new(|_| {}), cancel.clone())? else {
        eprintln!("sidecar: the desktop app or another daemon already delivers reminders for this data directory");
        return Ok(1);
    };
    let deliveries = tokio::spawn(deliveries);
    eprintln!("Sidecar daemon: delivering reminders for {} (Ctrl+C stops)", companion.data_dir().display());
    stop_signal().await;
    cancel.cancel();
    let _ = deliveries.await;
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
