//! Speaking first: the spontaneous loop against a scripted model that always wants to
//! speak, over 30 simulated days (every invariant of P1–P16 checked on what was
//! sent), and each failure mode on its own: the brain lock (P7, P16), the user
//! writing while the model decides (P15), invalid answers (P14), no invented
//! reminders (P6), quiet and "be quiet" (P9), and the routing policy.

use sidecar_agent::ChatEvent;
use sidecar_reminders::RemindersStore;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::test_clock::TestClock;
use crate::support::{reply_events, Reply, ScriptedServer};
use chrono::{DateTime, Datelike, TimeZone, Timelike, Utc};
use chrono_tz::Tz;
use futures_util::future::BoxFuture;
use sidecar::Companion;
use sidecar_outbox::{Kind, Outgoing, Sink, SinkError};
use sidecar_proactive::greeting_window;
use sidecar_proactive::Block;
use sidecar_proactive::Channel;
use sidecar_proactive::Level;
use sidecar_proactive::MessageType;
use sidecar_proactive::ProactiveConfig;
use sidecar_proactive::SinkId;
use sidecar_proactive::SinkPreference;
use sidecar_proactive::SinkPreferences;
use sidecar_proactive::Skip;
use sidecar_proactive::TickMode;
use sidecar_proactive::TickReport;
use sidecar_proactive::CIRCUIT_PAUSE;

const ZONE: Tz = chrono_tz::Europe::Madrid;

fn is_decision(request: &serde_json::Value) -> bool {
    request["messages"][0]["content"].as_str().is_some_and(|s| s.contains("deciding whether to start a conversation"))
}

fn decision(kind: &str, text: &str) -> Reply {
    let json = format!(r#"{{"shouldSpeak": true, "reason": "scripted", "messageType": "{kind}", "suggestedMessage": "{text}"}}"#);
    Reply::Stream { events: reply_events(&[&json]), delay: Duration::ZERO }
}

async fn open(dir: &std::path::Path, base_url: &str, hands: &TestClock) -> Arc<Companion> {
    crate::support::core()
        .provider("p", base_url)
        .settings("[llm]\nmax_retries = 0\n[user]\ntimezone = \"Europe/Madrid\"\n")
        .clock(hands.clock())
        .open_in(dir)
        .await
}

fn local(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    ZONE.with_ymd_and_hms(y, mo, d, h, mi, 0).unwrap().with_timezone(&Utc)
}

struct Sent {
    at: DateTime<Utc>,
    kind: MessageType,
}

/// How the simulated user takes Sidecar's spontaneous messages.
#[derive(Debug, Clone, Copy, PartialEq)]
enum User {
    /// Writes now and then, whatever Sidecar says.
    Random,
    /// Never writes.
    Silent,
    /// Answers every spontaneous message 20 minutes later.
    Engaged,
    /// Answers about half of them.
    Mixed,
}

/// 30 days of 15-minute ticks, with `user` writing as they do. Returns what was sent,
/// the user's message times, and how many ticks asked the model.
async fn simulate(level: Level, behaviour: User) -> (Vec<Sent>, Vec<DateTime<Utc>>, usize, Vec<(DateTime<Utc>, Skip)>) {
    simulate_with(level, behaviour, false).await
}

/// [`simulate`], with Telegram and WhatsApp live beside the desktop when `phones`
/// (routed as the app routes: to a phone while the desk is idle).
async fn simulate_with(level: Level, behaviour: User, phones: bool) -> (Vec<Sent>, Vec<DateTime<Utc>>, usize, Vec<(DateTime<Utc>, Skip)>) {
    let counter = Arc::new(AtomicI64::new(0));
    let n = counter.clone();
    // Always wants to speak: greetings, check-ins and contextual messages in turn,
    // with an invalid type and a malformed answer now and then.
    let server = ScriptedServer::responding(move |request| {
        if !is_decision(request) {
            return Reply::Stream { events: reply_events(&["ok"]), delay: Duration::ZERO };
        }
        match n.fetch_add(1, Ordering::SeqCst) % 7 {
            0 | 3 => decision("greeting", "¡Buenos días!"),
            1 | 4 => decision("checkin", "¿Qué tal va el día?"),
            2 => decision("contextual", "¿Cómo te fue en la entrevista?"),
            5 => decision("random", "hi"),
            _ => Reply::Stream { events: reply_events(&["Sure, I will say hi!"]), delay: Duration::ZERO },
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    // Through the spring DST change (2027-03-28) in Madrid.
    let start = local(2027, 3, 15, 0, 0);
    let hands = TestClock::at(start);
    let core = open(dir.path(), &server.base_url, &hands).await;
    core.proactive().set_config(ProactiveConfig { level, ..ProactiveConfig::default() }).await.unwrap();
    if phones {
        for (id, channel) in [(SinkId::Telegram, Channel::Telegram), (SinkId::Whatsapp, Channel::Whatsapp)] {
            core.proactive().router().register(Arc::new(Phone(id, channel)));
        }
    }
    let mut rng = fastrand::Rng::with_seed(7);
    let (mut sent, mut user, mut skips) = (Vec::new(), Vec::new(), Vec::new());
    let mut asked = 0;
    let mut answer_at: Option<DateTime<Utc>> = None;
    // With the phones live, on day 11 the user says `/quiet 3h` on Telegram.
    let quiet_from_phone = phones.then(|| local(2027, 3, 25, 12, 7));
    let quiet_until = quiet_from_phone.map(|said| said + chrono::Duration::hours(3));
    for tick in 0..(30 * 96) {
        let at = start + chrono::Duration::minutes(15 * tick);
        if let Some(said) = quiet_from_phone.filter(|said| *said <= at && at - *said < chrono::Duration::minutes(15)) {
            hands.set(said);
            let reply = core.conversation().submit("/quiet 3h".into(), Channel::Telegram).await.unwrap().reply;
            assert!(reply.contains("15:07"), "{reply}");
        }
        // Now and then the user writes a few minutes before a tick, or answers.
        let wrote = match (behaviour, answer_at) {
            (User::Random, _) if rng.u32(0..40) == 0 => Some(at - chrono::Duration::minutes(rng.i64(1..14))),
            (User::Engaged | User::Mixed, Some(due)) if due <= at => Some(due),
            _ => None,
        };
        if let Some(wrote) = wrote {
            answer_at = None;
            hands.set(wrote);
            core.send("hola, ¿qué tal?").await.unwrap();
            user.push(wrote);
        }
        hands.set(at);
        let before = server.request_count();
        let report = core.proactive().tick(TickMode::Send).await.unwrap();
        let calls = server.request_count() - before;
        // Quiet from the phone silences every channel from the very next tick.
        if let (Some(said), Some(until)) = (quiet_from_phone, quiet_until) {
            if said < at && at < until {
                assert_eq!(report, TickReport::Skipped { reason: Skip::Quiet }, "at {at}");
            }
        }
        match report {
            TickReport::Skipped { reason } => {
                assert_eq!(calls, 0, "a skipped tick asks no model");
                skips.push((at, reason));
            }
            TickReport::Sent { approved, routed, .. } => {
                assert_eq!(routed.delivered.len(), 1, "{routed:?}");
                sent.push(Sent { at, kind: approved.message_type });
                asked += 1;
                let answers = match behaviour {
                    User::Engaged => true,
                    User::Mixed => rng.bool(),
                    _ => false,
                };
                if answers {
                    answer_at = Some(at + chrono::Duration::minutes(20));
                }
            }
            TickReport::Blocked { block, .. } => {
                assert!(
                    matches!(
                        block,
                        Block::InvalidMessageType(_)
                            | Block::Malformed(_)
                            | Block::GreetingOutsideWindow
                            | Block::GreetingAlreadySent
                            | Block::KindNotWelcome(_)
                    ),
                    "{block:?}"
                );
                asked += 1;
            }
            other => panic!("unexpected tick at {at}: {other:?}"),
        }
    }
    // Every spontaneous message is in the chat, marked as such.
    let proactive = core.conversation().history(10_000).await.unwrap().iter().filter(|m| m.meta.as_ref().is_some_and(|m| m.proactive.is_some())).count();
    assert_eq!(proactive, sent.len());
    (sent, user, asked, skips)
}

fn check_invariants(level: Level, sent: &[Sent], user: &[DateTime<Utc>], skips: &[(DateTime<Utc>, Skip)]) {
    use std::collections::HashMap;
    let mut per_hour: HashMap<String, u32> = HashMap::new();
    let mut per_day: HashMap<String, u32> = HashMap::new();
    let mut greetings: HashMap<(String, &'static str), u32> = HashMap::new();
    for s in sent {
        let l = s.at.with_timezone(&ZONE);
        *per_hour.entry(l.format("%F %H").to_string()).or_default() += 1;
        *per_day.entry(l.format("%F").to_string()).or_default() += 1;
        assert!(l.hour() >= 8 && l.hour() < 22, "sent in quiet hours: {l}");
        assert!(level.allows(s.kind), "{:?} is not sent at {level:?}: {l}", s.kind);
        if s.kind == MessageType::Greeting {
            let window = greeting_window(l.hour()).unwrap_or_else(|| panic!("greeting outside its window: {l}"));
            *greetings.entry((l.format("%F").to_string(), window.as_str())).or_default() += 1;
        }
        for u in user {
            assert!(!(s.at > *u && s.at - *u < chrono::Duration::minutes(10)), "spoke {} min after the user wrote", (s.at - *u).num_minutes());
        }
    }
    assert!(per_hour.values().all(|n| *n <= 2), "{per_hour:?}");
    assert!(per_day.values().all(|n| *n <= level.max_per_day()), "{per_day:?}");
    assert!(greetings.values().all(|n| *n == 1), "{greetings:?}");
    for pair in sent.windows(2) {
        assert!(pair[1].at - pair[0].at >= chrono::Duration::minutes(30), "cooldown broken at {}", pair[1].at);
    }
    // The circuit breaker: after five sends in a row, two hours of silence.
    let trips: Vec<_> = skips.iter().filter(|(_, s)| *s == Skip::CircuitBreaker).collect();
    if level == Level::High {
        assert!(!trips.is_empty(), "an always-speaking model trips the breaker at level high");
    }
    for (at, _) in &trips {
        let last_sent = sent.iter().rfind(|s| s.at <= *at).expect("a send before the trip").at;
        assert!(*at - last_sent < CIRCUIT_PAUSE);
        assert!(!sent.iter().any(|s| s.at > last_sent && s.at - last_sent < CIRCUIT_PAUSE), "sent while the breaker was open");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_days_at_medium_keep_every_invariant() {
    let (sent, user, asked, skips) = simulate(Level::Medium, User::Random).await;
    check_invariants(Level::Medium, &sent, &user, &skips);
    assert!(sent.len() <= 30 * 4);
    println!("medium: {} sent, {} decisions asked over 2,880 ticks, {} user messages", sent.len(), asked, user.len());
}

/// Messages sent on each of the 30 days.
fn daily(sent: &[Sent], start: DateTime<Utc>) -> Vec<u32> {
    let mut days = vec![0u32; 30];
    for s in sent {
        let day = (s.at.with_timezone(&ZONE).date_naive() - start.with_timezone(&ZONE).date_naive()).num_days() as usize;
        days[day.min(29)] += 1;
    }
    days
}

fn mean(days: &[u32]) -> f64 {
    days.iter().sum::<u32>() as f64 / days.len() as f64
}

/// The issue's goals for learning when to speak, with Telegram and WhatsApp live: the
/// silent user gets at least half as many messages a day in days 4–7 as in days 1–3
/// and fewer still after; the engaged user's daily count drops by at most 10%; every
/// invariant holds for all three.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_days_three_users_teach_sidecar_when_to_speak() {
    let start = local(2027, 3, 15, 0, 0);
    let mut counts = Vec::new();
    for user in [User::Silent, User::Engaged, User::Mixed] {
        let (sent, wrote, _, skips) = simulate_with(Level::Medium, user, true).await;
        check_invariants(Level::Medium, &sent, &wrote, &skips);
        let days = daily(&sent, start);
        println!("{user:?}: {days:?} ({} in all)", days.iter().sum::<u32>());
        counts.push(days);
    }
    let (silent, engaged, mixed) = (&counts[0], &counts[1], &counts[2]);
    assert!(mean(&silent[3..7]) <= 0.5 * mean(&silent[..3]), "silent: {silent:?}");
    assert!(mean(&silent[7..]) <= mean(&silent[3..7]) && mean(&silent[7..]) < mean(&silent[..3]) * 0.5, "silent: {silent:?}");
    assert!(mean(&engaged[3..]) >= 0.9 * mean(&engaged[..3]), "engaged: {engaged:?}");
    assert!(engaged.iter().sum::<u32>() > mixed.iter().sum::<u32>() && mixed.iter().sum::<u32>() > silent.iter().sum::<u32>(), "{counts:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_days_at_high_keep_every_invariant_and_trip_the_breaker() {
    let (sent, user, asked, skips) = simulate(Level::High, User::Random).await;
    check_invariants(Level::High, &sent, &user, &skips);
    println!("high: {} sent, {} decisions asked, {} breaker skips", sent.len(), asked, skips.iter().filter(|(_, s)| *s == Skip::CircuitBreaker).count());
}

#[tokio::test]
async fn level_low_never_asks_the_model() {
    let server = ScriptedServer::start(vec![decision("checkin", "hi")]).await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 12, 0));
    let core = open(dir.path(), &server.base_url, &hands).await;
    core.proactive().set_config(ProactiveConfig { level: Level::Low, ..ProactiveConfig::default() }).await.unwrap();
    for hour in 0..24 {
        hands.set(local(2027, 3, 15, hour, 30));
        assert_eq!(core.proactive().tick(TickMode::Send).await.unwrap(), TickReport::Skipped { reason: Skip::LevelLow });
    }
    assert_eq!(server.request_count(), 0);
}

/// P14 and P11: an invalid type, or a greeting at 10:15, is logged and not sent;
/// the counters do not move.
#[tokio::test]
async fn invalid_answers_are_blocked_and_send_nothing() {
    let server = ScriptedServer::start(vec![decision("random", "hi"), decision("greeting", "¡Buenos días!")]).await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 10, 15));
    let core = open(dir.path(), &server.base_url, &hands).await;
    let first = core.proactive().tick(TickMode::Send).await.unwrap();
    assert!(matches!(first, TickReport::Blocked { block: Block::InvalidMessageType(ref t), .. } if t == "random"), "{first:?}");
    let second = core.proactive().tick(TickMode::Send).await.unwrap();
    assert!(matches!(second, TickReport::Blocked { block: Block::GreetingOutsideWindow, .. }), "{second:?}");
    let status = core.proactive().status().await.unwrap();
    assert_eq!((status.state.count_today, status.state.last_spontaneous_at), (0, None));
    assert!(core.conversation().history(10).await.unwrap().is_empty());
}

/// P6: no pending reminders reads NONE; a pending one is listed. The decision call is
/// small: no history, no tools.
#[tokio::test]
async fn the_decision_context_is_compact_and_never_invents_reminders() {
    let server =
        ScriptedServer::start(vec![Reply::Stream { events: reply_events(&[r#"{"shouldSpeak": false, "reason": "nothing to say"}"#]), delay: Duration::ZERO }])
            .await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 12, 0));
    let core = open(dir.path(), &server.base_url, &hands).await;
    let report = core.proactive().tick(TickMode::Send).await.unwrap();
    let TickReport::Silent { prompt_tokens, .. } = report else { panic!("{report:?}") };
    assert!(prompt_tokens < 600, "{prompt_tokens}");
    let request = server.last_request();
    assert!(request["messages"][1]["content"].as_str().unwrap().contains("PENDING REMINDERS: NONE"));
    assert!(request.get("tools").is_none_or(|t| t.as_array().is_none_or(|a| a.is_empty())));
    assert_eq!(request["messages"].as_array().unwrap().len(), 2);
    core.reminders().set("llamar a mamá", "mañana a las 9").await.unwrap();
    let context = core.proactive().spontaneous_context().await.unwrap();
    assert_eq!(context.pending_reminders, 1);
    assert!(context.pending_reminders_list.contains("llamar a mamá"), "{}", context.pending_reminders_list);
}

/// P7 and P16: while a reply is being written the tick skips (no queueing); a failed
/// decision call lets go of the lock, so the next turn and tick work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_brain_lock_is_tried_and_always_released() {
    let server = ScriptedServer::responding(|request| {
        if is_decision(request) {
            Reply::Status { code: 500, body: "boom".into() }
        } else {
            Reply::Stream { events: reply_events(&["uno ", "dos ", "tres"]), delay: Duration::from_millis(300) }
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 12, 0));
    let core = open(dir.path(), &server.base_url, &hands).await;
    let mut events = core.events().subscribe();
    let turn = tokio::spawn({
        let core = core.clone();
        async move { core.send("cuéntame algo").await }
    });
    // The reply is streaming: the turn holds the brain.
    while !matches!(events.recv().await.unwrap(), sidecar::CoreEvent::Chat(ChatEvent::Delta { .. })) {}
    // The user is mid-conversation: the activity rule says so first; with it aside
    // (an hour later on the clock) the lock is what stops the tick.
    hands.set(local(2027, 3, 15, 13, 0));
    assert_eq!(core.proactive().tick(TickMode::Send).await.unwrap(), TickReport::Skipped { reason: Skip::BrainBusy });
    turn.await.unwrap().unwrap();
    // The decision call fails: reported, and the lock is free again.
    let failed = core.proactive().tick(TickMode::Send).await.unwrap();
    assert!(matches!(failed, TickReport::Failed { .. }), "{failed:?}");
    tokio::time::timeout(Duration::from_secs(10), core.send("¿sigues ahí?")).await.expect("not deadlocked").unwrap();
    hands.set(local(2027, 3, 15, 14, 0));
    assert!(matches!(core.proactive().tick(TickMode::Send).await.unwrap(), TickReport::Failed { .. }));
}

/// P15: the user writes while the model is deciding: the decision is dropped, the
/// user's turn does not wait for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_message_during_the_decision_cancels_it() {
    let server = ScriptedServer::responding(|request| {
        if is_decision(request) {
            let json = r#"{"shouldSpeak": true, "reason": "x", "messageType": "checkin", "suggestedMessage": "¿Qué tal?"}"#;
            Reply::Stream { events: reply_events(&[json]), delay: Duration::from_secs(3) }
        } else {
            Reply::Stream { events: reply_events(&["Hola"]), delay: Duration::ZERO }
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 12, 0));
    let core = open(dir.path(), &server.base_url, &hands).await;
    let tick = tokio::spawn({
        let core = core.clone();
        async move { core.proactive().tick(TickMode::Send).await }
    });
    // The model is deciding.
    while server.request_count() == 0 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let started = std::time::Instant::now();
    assert_eq!(core.send("hola").await.unwrap().reply, "Hola");
    assert!(started.elapsed() < Duration::from_secs(2), "the turn waited for the decision: {:?}", started.elapsed());
    let report = tick.await.unwrap().unwrap();
    assert!(matches!(report, TickReport::Blocked { block: Block::UserBecameActive, .. }), "{report:?}");
    let history = core.conversation().history(10).await.unwrap();
    assert!(!history.iter().any(|m| m.content == "¿Qué tal?"));
}

/// A phone channel that takes every message.
struct Phone(SinkId, Channel);

impl Sink for Phone {
    fn id(&self) -> SinkId {
        self.0
    }
    fn channel(&self) -> Channel {
        self.1
    }
    fn send<'a>(&'a self, _: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        Box::pin(async { Ok(None) })
    }
}

/// Records what a sink was given.
#[derive(Default)]
struct Recording(Mutex<Vec<(Kind, String)>>, Option<SinkId>);

impl Sink for Recording {
    fn id(&self) -> SinkId {
        self.1.unwrap_or(SinkId::Notification)
    }
    fn channel(&self) -> Channel {
        Channel::Desktop
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        self.0.lock().unwrap().push((message.kind, message.chat.clone()));
        Box::pin(async { Ok(None) })
    }
}

/// P9 and the routing policy: `/quiet` and "cállate" stop spontaneous messages but not
/// reminders; spontaneous messages reach the primary sink only, reminders every sink
/// that takes them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quiet_silences_spontaneous_messages_but_reminders_still_arrive() {
    let server = ScriptedServer::responding(|request| {
        if is_decision(request) {
            // A check-in: at the default level (medium) contextual suggestions never go out.
            decision("checkin", "¿Qué tal va el día?")
        } else {
            Reply::Stream { events: reply_events(&["ok"]), delay: Duration::ZERO }
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 11, 0));
    let core = open(dir.path(), &server.base_url, &hands).await;
    let notifications = Arc::new(Recording::default());
    core.proactive().router().register(notifications.clone());

    let reply = core.send("/quiet 2h").await.unwrap().reply;
    assert!(reply.contains("13:00"), "{reply}");
    assert_eq!(core.proactive().tick(TickMode::Send).await.unwrap(), TickReport::Skipped { reason: Skip::Quiet });
    // A reminder during quiet still goes out, to the chat and the notification.
    let reminder = core.reminders().set("tomar agua", "en 1 minuto").await.unwrap().reminder;
    hands.set(local(2027, 3, 15, 11, 2));
    let scheduler = tokio::spawn(core.reminders().scheduler().unwrap().expect("the lock is free"));
    for _ in 0..100 {
        if core.store().reminder_table().reminder(reminder.id).await.unwrap().unwrap().state == sidecar_reminders::ReminderState::Delivered {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    scheduler.abort();
    assert_eq!(core.store().reminder_table().reminder(reminder.id).await.unwrap().unwrap().state, sidecar_reminders::ReminderState::Delivered);
    assert_eq!(notifications.0.lock().unwrap().as_slice(), [(Kind::Reminder, "Reminder: tomar agua".to_string())]);

    assert!(core.send("/quiet off").await.unwrap().reply.contains("again"));
    let sent = core.proactive().tick(TickMode::Send).await.unwrap();
    let TickReport::Sent { routed, .. } = sent else { panic!("{sent:?}") };
    assert_eq!(routed.delivered, [SinkId::Chat], "spontaneous: the primary only");
    assert_eq!(notifications.0.lock().unwrap().len(), 1);

    // "cállate" (not a command to the model) quiets for two hours.
    hands.set(local(2027, 3, 15, 12, 0));
    let reply = core.send("¡Cállate!").await.unwrap().reply;
    assert!(reply.contains("14:00"), "{reply}");
    hands.set(local(2027, 3, 15, 13, 0));
    assert_eq!(core.proactive().tick(TickMode::Send).await.unwrap(), TickReport::Skipped { reason: Skip::Quiet });

    // The notification as primary: spontaneous messages go there and not to the chat.
    core.send("/quiet off").await.unwrap();
    core.proactive()
        .set_config(ProactiveConfig {
            level: Level::High,
            sinks: SinkPreferences { primary: SinkId::Notification, ..SinkPreferences::default() },
            ..ProactiveConfig::default()
        })
        .await
        .unwrap();
    hands.set(local(2027, 3, 15, 16, 0));
    let TickReport::Sent { routed, .. } = core.proactive().tick(TickMode::Send).await.unwrap() else { panic!() };
    assert_eq!(routed.delivered, [SinkId::Notification]);
    // A primary that takes reminders only gets no spontaneous message at all.
    core.proactive()
        .set_config(ProactiveConfig {
            sinks: SinkPreferences { notification: SinkPreference::RemindersOnly, primary: SinkId::Notification, ..SinkPreferences::default() },
            ..ProactiveConfig::default()
        })
        .await
        .unwrap();
    hands.set(local(2027, 3, 15, 17, 0));
    assert_eq!(core.proactive().tick(TickMode::Send).await.unwrap(), TickReport::Skipped { reason: Skip::NoSink });
}

#[tokio::test]
async fn control_commands_answer_without_the_model() {
    let server = ScriptedServer::start(vec![decision("checkin", "hi")]).await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 12, 0));
    let core = open(dir.path(), &server.base_url, &hands).await;
    assert_eq!(core.send("/reminders").await.unwrap().reply, "No pending reminders.");
    let help = core.send("/help").await.unwrap().reply;
    assert!(help.contains("- `/quiet 30m | 2h | off | here` — ") && help.contains("`/status`"), "{help}");
    core.reminders().set("llamar a mamá", "mañana a las 9").await.unwrap();
    core.reminders().set("stretch", "every day at 8").await.unwrap();
    let list = core.send("/reminders").await.unwrap().reply;
    assert!(list.contains("- \"llamar a mamá\" — Tuesday 16 March 2027, 09:00") && list.contains("every day at 08:00"), "{list}");
    // For people: no ids, no RRULE, and the zone only when it is not theirs.
    assert!(!list.contains("[id:") && !list.contains("FREQ=") && !list.contains("Europe/Madrid"), "{list}");
    core.set_timezone("America/Argentina/Buenos_Aires").unwrap();
    let away = core.send("/reminders").await.unwrap().reply;
    assert!(away.contains("09:00 (Madrid time)"), "set in another zone, it says which: {away}");
    core.set_timezone("Europe/Madrid").unwrap();
    let status = core.send("/status").await.unwrap().reply;
    assert!(
        status.starts_with("Model: ") && status.contains("I speak first sometimes") && status.contains("Pending reminders: 2") && status.contains("the chat"),
        "{status}"
    );
    // No jargon: no circuit breaker, no sinks, no setting names.
    for jargon in ["circuit", "breaker", "sink", "medium", "(desktop, all)"] {
        assert!(!status.contains(jargon), "{jargon} in {status}");
    }
    // One paragraph per line, so the chat's Markdown keeps them apart.
    assert_eq!(status.split("\n\n").count(), 4, "{status}");
    let context = core.send("/proactive context").await.unwrap().reply;
    assert!(context.contains("llamar a mamá") && context.contains("tokens)"), "{context}");
    assert_eq!(core.send("/reminders lost").await.unwrap().reply, "No reminder was lost or late.");
    assert_eq!(core.send("/reminders clear").await.unwrap().reply, "Cancelled 2 pending reminders.");
    let decide = core.send("/proactive decide").await.unwrap().reply;
    assert!(decide.starts_with("Would send a checkin"), "{decide}");
    assert!(core.conversation().history(50).await.unwrap().iter().all(|m| m.content != "hi"), "decide sends nothing");
    let before = core.store().conversations().current_conversation().await.unwrap();
    let cleared = core.send("/clear").await.unwrap();
    assert!(cleared.reply.contains("fresh conversation"));
    assert!(cleared.conversation_changed, "the window is told to show the new conversation");
    assert!(!core.send("/status").await.unwrap().conversation_changed);
    assert_ne!(core.store().conversations().current_conversation().await.unwrap(), before);
    assert_eq!(server.request_count(), 1, "only /proactive decide asked the model");
    let _ = hands.now().weekday();
}

/// A thumb under a spontaneous message teaches the kind on its channel; words move the
/// level and say so; Reset forgets.
#[tokio::test]
async fn a_thumb_and_plain_words_teach_sidecar_and_reset_forgets() {
    use sidecar_proactive::Signal;
    let server = ScriptedServer::responding(|request| {
        if is_decision(request) {
            decision("checkin", "¿Qué tal va el día?")
        } else {
            Reply::Stream { events: reply_events(&["ok"]), delay: Duration::ZERO }
        }
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let hands = TestClock::at(local(2027, 3, 15, 16, 0));
    let core = open(dir.path(), &server.base_url, &hands).await;
    let TickReport::Sent { routed, .. } = core.proactive().tick(TickMode::Send).await.unwrap() else { panic!("nothing sent") };
    let id = routed.message_id.expect("kept in the chat");
    core.proactive().feedback(id, Signal::ThumbsDown).await.unwrap();
    let learned = core.proactive().learned().await.unwrap();
    assert_eq!((learned.kinds[0].kind.as_str(), learned.kinds[0].channel, learned.kinds[0].allowance), ("checkin", Channel::Desktop, 0.5));
    assert!(learned.pending.is_empty(), "a thumb settles the message");
    let said = core.send("hola").await.unwrap().message_id;
    assert!(core.proactive().feedback(said, Signal::ThumbsUp).await.is_err(), "only spontaneous messages take a thumb");
    let reply = core.send("No me escribas tanto.").await.unwrap().reply;
    assert!(reply.contains("ya no te escribo primero") || reply.contains("won't write first"), "{reply}");
    assert_eq!(core.proactive().config().await.unwrap().level, Level::Low);
    let reply = core.send("More often!").await.unwrap().reply;
    assert!(reply.contains("4"), "{reply}");
    assert_eq!(core.proactive().config().await.unwrap().level, Level::Medium);
    core.proactive().forget_learned().await.unwrap();
    assert!(core.proactive().learned().await.unwrap().kinds.is_empty());
}
