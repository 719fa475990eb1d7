//! Requests carried out before the model: the phrasing table
//! (`tests/data/intents.tsv`), and the whole path through a conversation with a
//! configured model that also calls the reminder tool (nothing is set twice).

use sidecar_agent::detect_intent;
use sidecar_agent::Intent;

fn notation(intent: Option<Intent>) -> String {
    match intent {
        None => "none".into(),
        Some(Intent::Set { sentence }) => format!("set {sentence}"),
        Some(Intent::Timer { sentence }) => format!("timer {sentence}"),
        Some(Intent::Cancel { query }) => format!("cancel {query}"),
        Some(Intent::Snooze { query, minutes }) => format!("snooze {minutes} {query}"),
        Some(Intent::List) => "list".into(),
        Some(Intent::Remember { fact }) => format!("remember {fact}"),
        Some(Intent::Now) => "now".into(),
        Some(Intent::AboutMe { slot }) => format!("about {}", slot.unwrap_or("all")),
        Some(Intent::ScheduleWork) => "work".into(),
        Some(Intent::Agenda { days }) => format!("agenda {days}"),
    }
}

#[test]
fn the_intent_table() {
    let text = include_str!("../data/intents.tsv");
    let mut counts = std::collections::BTreeMap::new();
    let mut misses = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "line {}: three columns", n + 1);
        *counts.entry(cols[0]).or_insert(0) += 1;
        let got = notation(detect_intent(cols[1]));
        if got != cols[2] {
            misses.push(format!("line {}: {:?}: expected {:?}, got {got:?}", n + 1, cols[1], cols[2]));
        }
    }
    assert!(counts.values().all(|&c| c >= 60), "at least 60 phrasings per language: {counts:?}");
    assert!(misses.is_empty(), "{} misread:\n{}", misses.len(), misses.join("\n"));
}

fn settings(extra: &str) -> String {
    format!("[user]\ntimezone = \"Europe/Madrid\"\n{extra}")
}

async fn open(dir: &std::path::Path, settings: String) -> std::sync::Arc<sidecar::Companion> {
    use chrono::TimeZone;
    crate::support::core().settings(&settings).at(chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap()).open_in(dir).await
}

/// With the offline demo model (no provider), the request is carried out and answered
/// by Sidecar itself: the model is never started.
#[tokio::test]
async fn with_no_provider_sidecar_sets_the_reminder_and_answers_itself() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings("")).await;
    let outcome = core.send("Recuérdame llamar a mamá mañana a las 9").await.unwrap();
    assert!(outcome.meta.intent);
    assert_eq!(outcome.reply, "Hecho: te recordaré \"llamar a mamá\" el jueves 19 de noviembre de 2026, 09:00 (hora de Madrid).");
    let outcome = core.send("Remind me to call mum tomorrow at 9").await.unwrap();
    assert_eq!(outcome.reply, "Done: I'll remind you to \"call mum\" on Thursday 19 November 2026, 09:00 (Madrid time).");
    let pending = core.reminders().pending().await.unwrap();
    assert_eq!(pending.iter().map(|r| r.message.as_str()).collect::<Vec<_>>(), ["llamar a mamá", "call mum"]);
    // An unclear time is a question, and nothing is set.
    let outcome = core.send("recuérdame llamar al banco a las 3").await.unwrap();
    assert!(outcome.reply.contains("no dice el día") && outcome.reply.contains("hoy a las 15"), "{}", outcome.reply);
    // Snooze, list, cancel and a fact, all without the model.
    let listed = core.send("what are my reminders?").await.unwrap().reply;
    assert!(listed.starts_with("You have 2 pending reminders:") && listed.contains("\"call mum\""), "{listed}");
    let cancelled = core.send("cancela el recordatorio de llamar a mamá").await.unwrap().reply;
    assert_eq!(cancelled, "Cancelé el recordatorio \"llamar a mamá\".");
    // A reminder still to come is not moved earlier by a snooze.
    let snoozed = core.send("snooze the reminder about call mum for 15 minutes").await.unwrap().reply;
    assert!(snoozed.starts_with("\"call mum\" isn't due yet: it comes on Thursday 19 November 2026, 09:00."), "{snoozed}");
    let noted = core.send("remember that I'm allergic to peanuts").await.unwrap().reply;
    assert!(noted.starts_with("Noted:"), "{noted}");
    assert!(core.knowledge().facts().iter().any(|f| f.fact.text.contains("allergic to peanuts")));
    assert_eq!(core.reminders().pending().await.unwrap().len(), 1);
    // Work on a schedule needs a model with tools: said at once, in the user's language,
    // with what to do, rather than left to the demo (the first hour's M1).
    let work = core.send("every weekday at 8, check the weather and tell me what to expect").await.unwrap();
    assert!(work.meta.intent);
    assert!(work.reply.starts_with("The demo model can't do scheduled tasks") && work.reply.contains("Settings → Model providers"), "{}", work.reply);
    let work = core.send("todos los días laborables a las 8, mira el tiempo y dime qué esperar").await.unwrap().reply;
    assert!(work.starts_with("El modelo de demostración no puede hacer tareas programadas"), "{work}");
}

/// With a configured model, Sidecar sets the reminder, tells the model what it did,
/// and when the model calls the tool anyway nothing is set twice.
#[tokio::test]
async fn a_configured_model_is_told_and_its_own_tool_call_sets_nothing_twice() {
    use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[("a", "set_reminder", r#"{"message": "Call mum", "when": "tomorrow at 9"}"#)])),
        stream(reply_events(&["I'll make sure you call her."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings(&format!("[[providers]]\nid = \"p\"\nbase_url = \"{}\"\nmodel = \"m\"\n", server.base_url))).await;
    let outcome = core.send("Remind me to call mum tomorrow at 9").await.unwrap();
    assert_eq!(outcome.reply, "I'll make sure you call her.");
    let reminders = core.reminders().pending().await.unwrap();
    assert_eq!(reminders.len(), 1, "set once: {reminders:?}");
    // The model saw Sidecar's answer and the note.
    let first = server.requests.lock().unwrap()[0].clone();
    let messages = first["messages"].as_array().unwrap();
    assert!(messages.iter().any(|m| m["role"] == "assistant" && m["content"].as_str().unwrap_or("").starts_with("Done: I'll remind you")));
    assert!(messages.last().unwrap()["content"].as_str().unwrap().contains("Do not call a tool to do it again"));
    // Both answers are in the history, Sidecar's first.
    let history = core.conversation().history(20).await.unwrap();
    let said: Vec<&str> = history.iter().filter(|m| m.role == sidecar_llm::Role::Assistant && !m.content.is_empty()).map(|m| m.content.as_str()).collect();
    assert!(said.first().unwrap().starts_with("Done:") && said.last().unwrap() == &"I'll make sure you call her.", "{said:?}");
}

/// After the user's zone changed, a list in the chat says the zone of a reminder set
/// in the old one (it fires at that zone's wall time), instead of an unlabelled hour.
#[tokio::test]
async fn a_reminder_from_another_zone_is_listed_with_its_zone() {
    use chrono::TimeZone;
    let dir = tempfile::tempdir().unwrap();
    let at = chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap();
    let open_in = |zone: chrono_tz::Tz| {
        crate::support::core().settings(&format!("[user]\ntimezone = \"{}\"\n", zone.name())).clock(sidecar_domain::Clock::fixed(at, zone)).open_in(dir.path())
    };
    let core = open_in(chrono_tz::Europe::Madrid).await;
    core.reminders().set("call mum", "tomorrow at 9").await.unwrap();
    let listed = core.send("what reminders do i have").await.unwrap().reply;
    assert!(listed.contains("call mum") && !listed.contains("Madrid"), "{listed}");
    core.shutdown().await;
    drop(core);
    let core = open_in(chrono_tz::America::New_York).await;
    let listed = core.send("what reminders do i have").await.unwrap().reply;
    assert!(listed.contains("call mum") && listed.contains("(Madrid time)"), "{listed}");
}

/// With the demo model, what Sidecar can answer from its own data it answers itself:
/// the time, and what the user told it (the demo gave nonsense to "Where do I live?").
#[tokio::test]
async fn with_no_provider_sidecar_answers_the_time_and_what_it_was_told() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings("")).await;
    let unknown = core.send("Where do I live?").await.unwrap();
    assert!(unknown.meta.intent && unknown.reply.contains("remember that I live in"), "{}", unknown.reply);
    core.send("remember that I live in Madrid").await.unwrap();
    core.send("Recuerda que trabajo como enfermera en el Clínico").await.unwrap();
    let home = core.send("Where do I live?").await.unwrap();
    assert_eq!(home.reply, "You told me:\n- \"I live in Madrid\"");
    let job = core.send("¿De qué trabajo?").await.unwrap();
    assert!(job.reply.starts_with("Me dijiste:") && job.reply.contains("trabajo como enfermera"), "{}", job.reply);
    let all = core.send("what do you know about me?").await.unwrap();
    assert!(all.reply.contains("I live in Madrid") && all.reply.contains("enfermera"), "{}", all.reply);
    let now = core.send("What time is it?").await.unwrap();
    assert_eq!(now.reply, "It is now Wednesday 18 November 2026, 10:00 (Madrid time).");
    let ahora = core.send("¿Qué día es hoy?").await.unwrap();
    assert!(ahora.reply.starts_with("Ahora es miércoles 18 de noviembre"), "{}", ahora.reply);
    let facts = core.knowledge().facts();
    let job_fact = facts.iter().find(|f| f.fact.text.contains("enfermera")).unwrap();
    assert_eq!(job_fact.category, sidecar_memory::Category::Work, "the category is read from the words");
}

/// Issue 68: "el próximo viernes" said on a Wednesday is asked about (this week's or
/// next week's?), and a reply that is only a day completes the request, hour and all.
#[tokio::test]
async fn a_next_weekday_that_could_be_either_week_is_asked_about_and_the_day_given_completes_it() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings("")).await;
    let asked = core.send("Recuérdame llamar a Ana el próximo viernes a las 10").await.unwrap();
    assert!(asked.reply.contains("puede ser el de esta semana o el de la siguiente"), "{}", asked.reply);
    assert!(asked.reply.contains("\"viernes 20 de noviembre\" o \"viernes 27 de noviembre\""), "{}", asked.reply);
    assert!(core.reminders().pending().await.unwrap().is_empty(), "nothing is set before the day is known");
    let set = core.send("el viernes 27").await.unwrap();
    assert_eq!(set.reply, "Hecho: te recordaré \"llamar a Ana\" el viernes 27 de noviembre de 2026, 10:00 (hora de Madrid).");

    let asked = core.send("Remind me to water the plants next Sunday at 9am").await.unwrap();
    assert!(asked.reply.contains("could be this week's day or next week's"), "{}", asked.reply);
    let set = core.send("the 22nd").await.unwrap();
    assert!(set.reply.contains("\"water the plants\" on Sunday 22 November 2026, 09:00"), "{}", set.reply);
    // Another request in between is read on its own, and the question is dropped.
    let asked = core.send("Recuérdame regar el próximo viernes").await.unwrap();
    assert!(asked.reply.contains("Di cuál"), "{}", asked.reply);
    let other = core.send("Recuérdame comprar pan mañana a las 9").await.unwrap();
    assert!(other.reply.contains("\"comprar pan\" el jueves 19 de noviembre de 2026, 09:00"), "{}", other.reply);
    assert_eq!(core.reminders().pending().await.unwrap().len(), 3);
}

/// The plans: a date with no hour ("el próximo martes", "in two weeks", "pasado
/// mañana", "en 5 días") is not set at a silent 09:00; Sidecar asks at what time, and
/// a reply that is only an hour completes the request. With an hour chosen for such
/// dates (`user.all_day_time`), it is set all-day at that hour, as before.
#[tokio::test]
async fn a_date_with_no_hour_is_asked_about_and_the_hour_given_completes_it() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings("")).await;
    let asked = core.send("Recuérdame llamar a Ana el próximo martes").await.unwrap();
    assert!(asked.meta.intent);
    assert_eq!(asked.reply, "¿A qué hora el martes 24 de noviembre? Falta la hora. Responde, por ejemplo, «a las 9» o «a las 18:30».");
    assert!(core.reminders().pending().await.unwrap().is_empty(), "nothing is set before the hour is known");
    let set = core.send("a las 10").await.unwrap();
    assert_eq!(set.reply, "Hecho: te recordaré \"llamar a Ana\" el martes 24 de noviembre de 2026, 10:00 (hora de Madrid).");

    let asked = core.send("Remind me to renew the passport in two weeks").await.unwrap();
    assert_eq!(asked.reply, "What time on Wednesday 2 December? No hour was said. Answer like \"at 9:00\" or \"at 18:30\".");
    let set = core.send("at 6pm").await.unwrap();
    assert_eq!(set.reply, "Done: I'll remind you to \"renew the passport\" on Wednesday 2 December 2026, 18:00 (Madrid time).");

    for (said, day) in
        [("recuérdame regar las plantas pasado mañana", "viernes 20 de noviembre"), ("recuérdame pagar la luz en 5 días", "lunes 23 de noviembre")]
    {
        let asked = core.send(said).await.unwrap();
        assert!(asked.reply.starts_with(&format!("¿A qué hora el {day}?")), "{said}: {}", asked.reply);
    }
    // Another request in between: the question is dropped, the request read on its own.
    let other = core.send("Recuérdame comprar pan mañana a las 9").await.unwrap();
    assert!(other.reply.contains("\"comprar pan\" el jueves 19 de noviembre de 2026, 09:00"), "{}", other.reply);
    assert_eq!(core.reminders().pending().await.unwrap().len(), 3);
    // The tool and the Reminders page get the same question, as the error.
    let error = core.reminders().set("dentist", "on Friday").await.unwrap_err().to_string();
    assert!(error.starts_with("What time on Friday 20 November?"), "{error}");
    // The Reminders page's preview says so as it is typed, not "all day at 09:00".
    let sidecar_reminders::WhenPreview::Error { error, .. } = core.reminders().preview("on Friday") else { panic!("the preview asks too") };
    assert!(error.starts_with("What time on Friday 20 November?"), "{error}");
    assert!(matches!(core.reminders().preview("on Friday at 9"), sidecar_reminders::WhenPreview::Ok { .. }));
    // A repeating date stays all-day, as in a calendar (rent day, birthdays).
    core.reminders().set("pay the rent", "on the 1st of every month").await.unwrap();
    core.shutdown().await;
    drop(core);

    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), settings("all_day_time = \"08:30\"\n")).await;
    let set = core.send("Recuérdame llamar a Ana el próximo martes").await.unwrap();
    assert!(set.reply.contains("el martes 24 de noviembre de 2026, 08:30") && set.reply.contains("Sin hora: todo el día"), "{}", set.reply);
}
