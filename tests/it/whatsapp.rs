//! The WhatsApp channel against a scripted connection at the crate boundary
//! (`WhatsappLink`), with whatsapp-rust linked for the real one: the seed's W1–W4, the
//! self-chat and allow-list gate, and the outbound pace. No live WhatsApp pairing can
//! run here (no network, no phone).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use sidecar::Companion;
use sidecar_channels::serve;
use sidecar_channels::Link;
use sidecar_channels::LinkEvent;
use sidecar_channels::PhoneError;
use sidecar_channels::PhoneParts;
use sidecar_channels::WhatsApp;
use sidecar_channels::WhatsappLink;
use sidecar_channels::WhatsappSource;
use sidecar_outbox::{Kind, Outgoing, Sink};
use sidecar_proactive::Channel;
use sidecar_settings::WhatsappSettings;
use tokio::sync::mpsc;

use crate::support::{reply_events, Reply, ScriptedServer};

pub(crate) const ME: &str = "5491155551234";
const FRIEND: &str = "34600112233";
const STRANGER: &str = "4915112345678";

/// A connection the test scripts: each `open` plays the next script; sends are
/// recorded (and echoed back in the self chat, as WhatsApp does).
#[derive(Default)]
pub(crate) struct Scripted {
    scripts: Mutex<Vec<Vec<LinkEvent>>>,
    opened: Mutex<u32>,
    events: Mutex<Option<mpsc::UnboundedSender<LinkEvent>>>,
    alive: Mutex<bool>,
    sent: Mutex<Vec<(String, String, Instant)>>,
    /// Voice notes the server holds, by message id, and the ids fetched.
    audio: Mutex<std::collections::HashMap<String, Vec<u8>>>,
    fetched: Mutex<Vec<String>>,
    /// Voice notes sent: to whom, the recording and its announced length.
    voices: Mutex<Vec<(String, Vec<u8>, u32)>>,
    /// Sends fail (the network gone under a connection that looks up).
    pub(crate) refuses: std::sync::atomic::AtomicBool,
}

impl Scripted {
    pub(crate) fn with(scripts: Vec<Vec<LinkEvent>>) -> Arc<Self> {
        Arc::new(Self { scripts: Mutex::new(scripts), alive: Mutex::new(true), ..Self::default() })
    }

    /// An event from the server on the open connection.
    fn push(&self, event: LinkEvent) {
        self.events.lock().unwrap().as_ref().expect("open").send(event).unwrap();
    }

    fn opened(&self) -> u32 {
        *self.opened.lock().unwrap()
    }

    pub(crate) fn sent_to(&self, number: &str) -> Vec<String> {
        self.sent.lock().unwrap().iter().filter(|(to, _, _)| to == number).map(|(_, text, _)| text.clone()).collect()
    }
}

impl WhatsappLink for Scripted {
    fn open(&self, events: mpsc::UnboundedSender<LinkEvent>) -> BoxFuture<'_, Result<(), PhoneError>> {
        *self.opened.lock().unwrap() += 1;
        *self.alive.lock().unwrap() = true;
        let script = {
            let mut s = self.scripts.lock().unwrap();
            if s.is_empty() {
                Vec::new()
            } else {
                s.remove(0)
            }
        };
        for event in script {
            events.send(event).unwrap();
        }
        *self.events.lock().unwrap() = Some(events);
        Box::pin(async { Ok(()) })
    }
    fn send_text<'a>(&'a self, number: &'a str, text: &'a str) -> BoxFuture<'a, Result<String, PhoneError>> {
        if self.refuses.load(std::sync::atomic::Ordering::SeqCst) {
            return Box::pin(async { Err(PhoneError::Service("network unreachable".into())) });
        }
        let mut sent = self.sent.lock().unwrap();
        let id = format!("SENT{}", sent.len());
        sent.push((number.to_string(), text.to_string(), Instant::now()));
        // WhatsApp shows what this device sent in the self chat as a message from me.
        if number == ME {
            if let Some(events) = self.events.lock().unwrap().as_ref() {
                let _ = events.send(LinkEvent::Message { id: id.clone(), chat: ME.into(), from_me: true, group: false, text: text.into() });
            }
        }
        Box::pin(async move { Ok(id) })
    }
    fn send_voice_note<'a>(&'a self, number: &'a str, ogg: Vec<u8>, seconds: u32) -> BoxFuture<'a, Result<String, PhoneError>> {
        let mut voices = self.voices.lock().unwrap();
        let id = format!("VOICE{}", voices.len());
        let bytes = ogg.len() as u64;
        voices.push((number.to_string(), ogg, seconds));
        // Its echo in the self chat, as the phone shows it, before the send returns.
        if number == ME {
            if let Some(events) = self.events.lock().unwrap().as_ref() {
                let _ = events.send(LinkEvent::Audio { id: id.clone(), chat: ME.into(), from_me: true, group: false, seconds, bytes });
            }
        }
        Box::pin(async move { Ok(id) })
    }
    fn fetch_audio<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Vec<u8>, PhoneError>> {
        self.fetched.lock().unwrap().push(id.to_string());
        let audio = self.audio.lock().unwrap().get(id).cloned().ok_or_else(|| PhoneError::Service("no such media".into()));
        Box::pin(async move { audio })
    }
    fn alive(&self) -> bool {
        *self.alive.lock().unwrap()
    }
    fn close(&self) -> BoxFuture<'_, ()> {
        self.events.lock().unwrap().take();
        Box::pin(async {})
    }
}

pub(crate) fn connected() -> LinkEvent {
    LinkEvent::Connected { own_number: ME.into() }
}

fn message(id: &str, chat: &str, from_me: bool, group: bool, text: &str) -> LinkEvent {
    LinkEvent::Message { id: id.into(), chat: chat.into(), from_me, group, text: text.into() }
}

struct Rig {
    core: Arc<Companion>,
    model: ScriptedServer,
    link: Arc<Scripted>,
    whatsapp: Arc<WhatsApp>,
}

async fn rig(dir: &std::path::Path, scripts: Vec<Vec<LinkEvent>>, settings: WhatsappSettings, heartbeat: Duration) -> Rig {
    let model = ScriptedServer::responding(|request| {
        let asked = crate::support::said(request["messages"].as_array().unwrap().last().unwrap());
        Reply::Stream { events: reply_events(&[&format!("re: {asked}")]), delay: Duration::from_millis(5) }
    })
    .await;
    rig_with(dir, scripts, settings, heartbeat, model, "").await
}

/// `rig` with its own model and `extra` settings.
async fn rig_with(
    dir: &std::path::Path,
    scripts: Vec<Vec<LinkEvent>>,
    settings: WhatsappSettings,
    heartbeat: Duration,
    model: ScriptedServer,
    extra: &str,
) -> Rig {
    let core = crate::support::core().provider("s", &model.base_url).settings(extra).open_in(dir).await;
    let link = Scripted::with(scripts);
    let parts = PhoneParts {
        store: core.store().clone(),
        clock: core.clock().clone(),
        lang: core.lang(),
        events: core.events().emitter(sidecar::events::CoreEvent::Channels),
        settings: std::sync::Arc::new(sidecar_settings::SettingsOwner::new(sidecar_settings::Settings::default(), None)),
        data_dir: dir.to_path_buf(),
        proactive: std::sync::Weak::new(),
        redactor: Default::default(),
        speech: Arc::new(sidecar_voice::SpeechModel::in_runtime(&crate::support::runtime())),
    };
    let whatsapp = WhatsApp::new(link.clone(), settings, parts, heartbeat);
    tokio::spawn(whatsapp.clone().run());
    tokio::spawn(serve(Arc::new(WhatsappSource(whatsapp.clone())), core.conversation().clone(), core.channels().questions()));
    Rig { core, model, link, whatsapp }
}

async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(15);
    while !done() {
        assert!(Instant::now() < until, "timed out waiting: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn allowing(numbers: &[&str]) -> WhatsappSettings {
    WhatsappSettings { allowed_numbers: numbers.iter().map(|n| n.to_string()).collect(), min_send_interval_secs: 0.0, ..WhatsappSettings::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_self_chat_and_allowed_numbers_reach_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let r = rig(dir.path(), vec![vec![connected()]], allowing(&["+34 600 11 22 33"]), Duration::from_secs(30)).await;
    wait_until("connected", || r.whatsapp.health.is_connected()).await;
    r.link.push(message("G1", "120363025@g.us", false, true, "hola grupo"));
    r.link.push(message("S1", STRANGER, false, false, "¿quién eres?"));
    r.link.push(message("M0", FRIEND, true, false, "lo que yo le escribo a mi amiga"));
    r.link.push(message("F1", FRIEND, false, false, "hola Sidecar"));
    r.link.push(message("A1", ME, true, false, "¿qué tengo hoy?"));
    wait_until("two replies", || r.link.sent.lock().unwrap().len() == 2).await;
    assert_eq!(r.link.sent_to(FRIEND), ["re: hola Sidecar"]);
    assert_eq!(r.link.sent_to(ME), ["re: ¿qué tengo hoy?"]);
    assert!(r.link.sent_to(STRANGER).is_empty(), "strangers get no answer from the user's own number");
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The reply's echo in the self chat was not taken for the user's message.
    assert_eq!(r.model.request_count(), 2);
    let history = r.core.conversation().history(20).await.unwrap();
    assert!(history.iter().any(|m| m.content == "¿qué tengo hoy?" && m.channel == Some(Channel::Whatsapp)));
    assert!(!history.iter().any(|m| m.content.contains("grupo") || m.content.contains("quién eres")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn w1_a_silent_disconnect_is_caught_by_the_heartbeat_and_reconnected() {
    let dir = tempfile::tempdir().unwrap();
    let r = rig(dir.path(), vec![vec![connected()], vec![connected()]], allowing(&[]), Duration::from_millis(100)).await;
    wait_until("connected", || r.whatsapp.health.is_connected()).await;
    // The socket dies without a word.
    *r.link.alive.lock().unwrap() = false;
    wait_until("reconnected", || r.link.opened() == 2).await;
    wait_until("up again", || r.whatsapp.health.is_connected()).await;
    // A disconnect the client does report: down, then back with backoff.
    r.link.push(LinkEvent::Disconnected { reason: "stream error".into() });
    wait_until("seen down", || matches!(r.whatsapp.health.view().link, Link::Down { .. })).await;
    match r.whatsapp.health.view().link {
        Link::Down { reason, .. } => assert_eq!(reason, "stream error"),
        other => panic!("{other:?}"),
    }
    wait_until("reopened after a backoff", || r.link.opened() == 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn w2_an_expired_qr_is_replaced_at_once_and_the_desktop_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let qr = |code: &str| LinkEvent::Qr { code: code.into(), valid_for: Duration::from_secs(60) };
    let r = rig(dir.path(), vec![vec![qr("2@first"), LinkEvent::QrExpired], vec![qr("2@second")]], allowing(&[]), Duration::from_secs(30)).await;
    wait_until("the second code", || r.whatsapp.pairing().is_some_and(|p| p.code == "2@second")).await;
    let pairing = r.whatsapp.pairing().unwrap();
    assert_eq!(pairing.expired_before, 1, "the desktop can say the last code expired");
    assert!(matches!(r.whatsapp.health.view().link, Link::NeedsSetup { .. }));
    assert_eq!(r.link.opened(), 2);
    // Scanned: linked, and the code is gone.
    r.link.push(connected());
    wait_until("linked", || r.whatsapp.health.is_connected()).await;
    assert!(r.whatsapp.pairing().is_none());
    assert_eq!(r.whatsapp.own_number().as_deref(), Some(ME));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn w3_outbound_messages_keep_the_pace() {
    let dir = tempfile::tempdir().unwrap();
    let settings = WhatsappSettings { min_send_interval_secs: 0.25, max_sends_per_hour: 3, ..WhatsappSettings::default() };
    let r = rig(dir.path(), vec![vec![connected()]], settings, Duration::from_secs(30)).await;
    wait_until("connected", || r.whatsapp.health.is_connected()).await;
    let note = |n: u32| Outgoing {
        kind: Kind::Reminder,
        title: "Sidecar".into(),
        body: format!("recordatorio {n}"),
        chat: format!("recordatorio {n}"),
        message_type: None,
        reminder_id: None,
        late: false,
        message_id: None,
        occurrence: None,
    };
    for n in 0..3 {
        r.whatsapp.send(&note(n)).await.unwrap();
    }
    let times: Vec<Instant> = r.link.sent.lock().unwrap().iter().map(|(_, _, at)| *at).collect();
    assert!(times.windows(2).all(|w| w[1] - w[0] >= Duration::from_millis(250)), "at least the gap apart");
    // The hour's allowance is used up: the fourth is refused, not sent.
    let refused = r.whatsapp.send(&note(3)).await.unwrap_err();
    assert!(refused.to_string().contains("max_sends_per_hour"), "{refused}");
    assert_eq!(r.link.sent.lock().unwrap().len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn w4_a_message_delivered_twice_is_answered_once_even_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    {
        let r = rig(dir.path(), vec![vec![connected()]], allowing(&[]), Duration::from_secs(30)).await;
        wait_until("connected", || r.whatsapp.health.is_connected()).await;
        r.link.push(message("DUP1", ME, true, false, "uno"));
        r.link.push(message("DUP1", ME, true, false, "uno"));
        wait_until("the reply", || r.link.sent_to(ME).len() == 1).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(r.link.sent_to(ME), ["re: uno"]);
        r.whatsapp.shut_down();
        r.core.shutdown().await;
    }
    // After a restart the client replays what it had (offline drain): still once.
    let r = rig(
        dir.path(),
        vec![vec![connected(), message("DUP1", ME, true, false, "uno"), message("N2", ME, true, false, "dos")]],
        allowing(&[]),
        Duration::from_secs(30),
    )
    .await;
    wait_until("the new reply", || r.link.sent_to(ME).len() == 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(r.link.sent_to(ME), ["re: dos"]);
    assert_eq!(r.model.request_count(), 1);
}

/// The real client (whatsapp-rust) with no way to reach WhatsApp's servers: the
/// channel says it is down and why, keeps its session file in the data dir, and
/// retries on its own; nothing panics and nothing reaches the model.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_client_with_no_network_is_reported_down_and_retried() {
    let dir = tempfile::tempdir().unwrap();
    let model = ScriptedServer::responding(|_| Reply::Stream { events: reply_events(&["no"]), delay: Duration::ZERO }).await;
    let core = crate::support::core().provider("s", &model.base_url).open_in(dir.path()).await;
    let parts = PhoneParts {
        store: core.store().clone(),
        clock: core.clock().clone(),
        lang: core.lang(),
        events: core.events().emitter(sidecar::events::CoreEvent::Channels),
        settings: std::sync::Arc::new(sidecar_settings::SettingsOwner::new(sidecar_settings::Settings::default(), None)),
        data_dir: dir.path().to_path_buf(),
        proactive: std::sync::Weak::new(),
        redactor: Default::default(),
        speech: Arc::new(sidecar_voice::SpeechModel::in_runtime(&crate::support::runtime())),
    };
    let link = Arc::new(sidecar_channels::WebClient::new(dir.path().join("whatsapp")));
    let whatsapp = WhatsApp::new(link, WhatsappSettings::default(), parts, Duration::from_secs(1));
    tokio::spawn(whatsapp.clone().run());
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        if let Link::Down { reason, .. } = whatsapp.health.view().link {
            // No network here: said as such, not "Connecting…" for a minute.
            assert!(reason.contains("seems to be offline"), "{reason}");
            break;
        }
        assert!(Instant::now() < until, "never reported down: {:?}", whatsapp.health.view().link);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(dir.path().join("whatsapp/session.db").exists(), "the session lives in the data dir");
    assert!(whatsapp.pairing().is_none() && whatsapp.own_number().is_none());
    whatsapp.shut_down();
    assert_eq!(model.request_count(), 0);
}

/// A tool asked for from the self chat asks there; "once" typed back runs it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_asked_for_on_whatsapp_asks_permission_in_the_self_chat() {
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir(&vault).unwrap();
    let model = crate::telegram::note_writing_model().await;
    let extra = format!("[tools]\nnotes_folder = {:?}\n", vault.to_string_lossy());
    let r = rig_with(dir.path(), vec![vec![connected()]], allowing(&[]), Duration::from_secs(30), model, &extra).await;
    wait_until("connected", || r.whatsapp.health.is_connected()).await;
    r.link.push(message("P1", ME, true, false, "write the note first"));
    wait_until("the question", || !r.link.sent_to(ME).is_empty()).await;
    let asked = r.link.sent_to(ME)[0].clone();
    assert!(asked.contains("create_note") && asked.contains("first.md"), "{asked}");
    assert!(!vault.join("first.md").exists());
    r.link.push(message("P2", ME, true, false, "once"));
    wait_until("the reply", || r.link.sent_to(ME).len() == 2).await;
    assert!(r.link.sent_to(ME)[1].starts_with("tool said:"), "{:?}", r.link.sent_to(ME));
    assert_eq!(std::fs::read_to_string(vault.join("first.md")).unwrap(), "from the phone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_voice_note_in_the_self_chat_is_heard_and_a_strangers_is_never_fetched() {
    let dir = tempfile::tempdir().unwrap();
    let r = rig(dir.path(), vec![vec![connected()]], allowing(&[]), Duration::from_secs(30)).await;
    wait_until("connected", || r.whatsapp.health.is_connected()).await;
    let note = crate::support::voice_note("0930");
    let bytes = note.len() as u64;
    for id in ["V0", "V1", "V2"] {
        r.link.audio.lock().unwrap().insert(id.into(), note.clone());
    }
    r.link.push(LinkEvent::Audio { id: "V0".into(), chat: STRANGER.into(), from_me: false, group: false, seconds: 3, bytes });
    r.link.push(LinkEvent::Audio { id: "V1".into(), chat: ME.into(), from_me: true, group: false, seconds: 3, bytes });
    r.link.push(LinkEvent::Audio { id: "V2".into(), chat: ME.into(), from_me: true, group: false, seconds: 900, bytes });
    r.link.push(message("A1", ME, true, false, "¿y ahora?"));
    let until = Instant::now() + Duration::from_secs(60);
    while r.link.sent_to(ME).len() < 3 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The long note's refusal is said at once; the heard note's answer comes from the model.
    let sent = r.link.sent_to(ME);
    assert!(sent[0].contains("10 minutes") || sent[0].contains("10 minutos"), "{sent:?}");
    let heard = sent[1].strip_prefix("re: ").unwrap_or_else(|| panic!("not the model's answer: {sent:?}"));
    let (errors, words) = sidecar_voice::word_errors("he might even have been made amiable himself", heard);
    assert!(errors <= 1, "{errors}/{words} words wrong: heard {heard:?}");
    assert_eq!(sent[2], "re: ¿y ahora?", "what was written after the note is answered after it");
    assert_eq!(*r.link.fetched.lock().unwrap(), ["V1"], "neither the stranger's note nor the long one was downloaded");
    assert_eq!(r.model.request_count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_asked_for_as_a_voice_note_comes_back_as_one_and_its_echo_is_not_heard() {
    let dir = tempfile::tempdir().unwrap();
    let r = rig(dir.path(), vec![vec![connected()]], allowing(&[]), Duration::from_secs(30)).await;
    wait_until("connected", || r.whatsapp.health.is_connected()).await;
    r.link.push(message("Q1", ME, true, false, "Respóndeme con una nota de voz: ¿qué tiempo hace hoy en Madrid?"));
    let until = Instant::now() + Duration::from_secs(30);
    while r.link.voices.lock().unwrap().is_empty() && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let voices = r.link.voices.lock().unwrap().clone();
    assert_eq!(voices.len(), 1, "no voice note; texts: {:?}", r.link.sent_to(ME));
    let (to, ogg, seconds) = &voices[0];
    let heard = sidecar_voice::Audio::decode(ogg).expect("an OGG/Opus voice note");
    assert_eq!(to, ME);
    assert!(heard.seconds() > 2.0 && (heard.seconds() - *seconds as f32).abs() <= 1.0, "{} s, announced {seconds} s", heard.seconds());
    assert!(r.link.sent_to(ME).is_empty(), "the answer went as a voice note, not also as text");
    // A question that asks nothing of the kind is answered as text; the note's echo in
    // the self chat was never fetched nor answered.
    r.link.push(message("Q2", ME, true, false, "¿y mañana?"));
    wait_until("the text answer", || !r.link.sent_to(ME).is_empty()).await;
    assert_eq!(r.link.sent_to(ME), ["re: ¿y mañana?"]);
    assert!(r.link.fetched.lock().unwrap().is_empty());
    assert_eq!(r.model.request_count(), 2);
}
