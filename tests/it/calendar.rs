//! The calendar on the companion, against a real Radicale: connected with a password
//! (a wrong one refused with what to do), calendars chosen, an event added from the
//! chat only after the user allows it (and then on the server, as a phone sees it), the
//! events listed by the tool in local time, moved only when Sidecar made them, and
//! today's events in the morning brief.

use std::sync::Arc;

use chrono::{TimeZone, Utc};
use serde_json::json;

use crate::support::asker::ScriptedAsker;
use crate::support::radicale::{event, Radicale, PASSWORD, USER};
use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};
use sidecar::locale::Lang;
use sidecar::permissions::grant::Choice;
use sidecar::{Companion, CompanionOptions};

async fn open(dir: &std::path::Path, base_url: &str, now: chrono::DateTime<Utc>) -> (Arc<Companion>, Arc<ScriptedAsker>) {
    let settings = toml::from_str(&format!(
        "[[providers]]\nid = \"p\"\nbase_url = \"{base_url}\"\nmodel = \"m\"\n[llm]\nmax_retries = 0\n[user]\ntimezone = \"Europe/Madrid\"\n"
    ))
    .unwrap();
    let mut options = CompanionOptions::new(dir.to_path_buf(), settings);
    options.clock = sidecar::clock::fixed_clock(now);
    let core = Companion::open(options).await.unwrap();
    let asker = Arc::new(ScriptedAsker::default());
    core.permissions().set_asker(asker.clone());
    (core, asker)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_is_added_from_the_chat_once_allowed_and_listed_in_local_time() {
    let dir = tempfile::tempdir().unwrap();
    let server = Radicale::start(dir.path(), &crate::support::python()).await;
    let create = json!({"title": "Coffee with Ana", "when": "tomorrow at 10", "minutes": 45}).to_string();
    let llm = ScriptedServer::start(vec![
        stream(tool_call_events(&[("c1", "create_event", &create)])),
        stream(reply_events(&["I could not: no calendar is chosen for me yet."])),
        stream(tool_call_events(&[("c2", "create_event", &create)])),
        stream(reply_events(&["Added."])),
        stream(tool_call_events(&[("c3", "list_events", r#"{"day": "tomorrow"}"#)])),
        stream(reply_events(&["Tomorrow: stand-up and coffee."])),
    ])
    .await;
    // Monday 30 November 2026, 12:00 in Madrid.
    let now = Utc.with_ymd_and_hms(2026, 11, 30, 11, 0, 0).unwrap();
    let (core, asker) = open(&dir.path().join("app"), &llm.base_url, now).await;

    // The phone's calendar already holds a repeating stand-up.
    let phone = sidecar::calendar::dav::Dav::new(&server.url, USER, PASSWORD).unwrap();
    phone.make_calendar("/ana/work/", "Work").await.unwrap();
    server.put("/ana/work/standup.ics", &event("standup", "Stand-up", "20261130T093000", "20261130T094500", "RRULE:FREQ=DAILY\r\n")).await;

    let refused = core.connect_calendar(&server.url, USER, "wrong").await;
    assert!(matches!(&refused, Err(e) if sidecar::said::Worded::said_in(e, Lang::Es).contains("rechazó el usuario o la contraseña")), "{refused:?}");
    let view = core.connect_calendar(&server.url, USER, PASSWORD).await.unwrap();
    assert_eq!(view.account, Some((server.url.clone(), USER.to_string())));
    let work = view.calendars.iter().find(|c| c.href == "/ana/work/").expect("discovered");
    assert!(work.read && !work.writable && work.synced_at.is_some(), "{work:?}");

    // No calendar chosen for writing yet: the tool says where to choose one.
    asker.will(Choice::AllowOnce);
    core.send("Put coffee with Ana tomorrow at 10").await.unwrap();
    let said = llm.requests.lock().unwrap()[1]["messages"].to_string();
    assert!(said.contains("no calendar is chosen for Sidecar to write in"), "{said}");
    assert_eq!(asker.questions(), 1);

    core.calendar().choose(&[work.id], Some(work.id)).await.unwrap();
    asker.will(Choice::AllowOnce);
    core.send("Put coffee with Ana tomorrow at 10").await.unwrap();
    let question = asker.last();
    assert_eq!((question.server.as_str(), question.tool.as_str()), ("sidecar", "create_event"), "a write asks first");
    let added = llm.requests.lock().unwrap()[3]["messages"].to_string();
    assert!(added.contains("Event added") && added.contains("10:00–10:45 Coffee with Ana"), "{added}");
    // On the server, as the phone sees it.
    let listed = phone.list("/ana/work/").await.unwrap();
    let coffee = listed.iter().find(|(href, _)| href.contains("sidecar-")).expect("the event is on the server");
    assert!(server.get(&coffee.0).await.unwrap().contains("SUMMARY:Coffee with Ana"));

    // Listed by the tool, in local time, the repeat expanded.
    core.send("What do I have tomorrow?").await.unwrap();
    let list = llm.requests.lock().unwrap()[5]["messages"].to_string();
    assert!(list.contains("Tue 2026-12-01 09:30–09:45 Stand-up") && list.contains("Tue 2026-12-01 10:00–10:45 Coffee with Ana"), "{list}");

    // Only what Sidecar made can be moved.
    assert!(matches!(core.calendar().reschedule("standup", "Stand-up", now, now, Lang::En).await, Err(sidecar::calendar::CalendarError::NotSidecars(_))));
    core.shutdown().await;
}

/// Quiet hours that know the calendar: during a busy event Sidecar does not speak first;
/// an event shown as free does not hold it back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_spontaneous_message_during_a_busy_event() {
    let dir = tempfile::tempdir().unwrap();
    let server = Radicale::start(dir.path(), &crate::support::python()).await;
    let decision = r#"{"shouldSpeak": true, "reason": "scripted", "messageType": "checkin", "suggestedMessage": "¿Qué tal?"}"#;
    let llm = ScriptedServer::responding(move |_| stream(reply_events(&[decision]))).await;
    // Monday 30 November 2026, 12:10 in Madrid: in the middle of a meeting.
    let now = Utc.with_ymd_and_hms(2026, 11, 30, 11, 10, 0).unwrap();
    let (core, _) = open(&dir.path().join("app"), &llm.base_url, now).await;
    let phone = sidecar::calendar::dav::Dav::new(&server.url, USER, PASSWORD).unwrap();
    phone.make_calendar("/ana/work/", "Work").await.unwrap();
    server.put("/ana/work/review.ics", &event("review", "Design review", "20261130T120000", "20261130T130000", "")).await;
    core.connect_calendar(&server.url, USER, PASSWORD).await.unwrap();
    let report = core.proactive().tick(sidecar::proactive::TickMode::Send).await.unwrap();
    assert!(matches!(report, sidecar::proactive::TickReport::Skipped { reason: sidecar::proactive::rules::Skip::InAnEvent }), "{report:?}");

    // The same hour marked free: Sidecar may speak (the decision is asked for).
    server.put("/ana/work/review.ics", &event("review", "Design review", "20261130T120000", "20261130T130000", "TRANSP:TRANSPARENT\r\n")).await;
    core.calendar().sync_all(Lang::En).await.unwrap();
    let before = llm.request_count();
    let report = core.proactive().tick(sidecar::proactive::TickMode::Send).await.unwrap();
    assert!(!matches!(report, sidecar::proactive::TickReport::Skipped { reason: sidecar::proactive::rules::Skip::InAnEvent }), "{report:?}");
    assert!(llm.request_count() > before, "the decision was asked for: {report:?}");
    core.shutdown().await;
}
