//! Telegram against a Bot API–compatible server on loopback (`support::bot_api`):
//! pairing, strangers, commands, replies, reminders, duplicates, flood control and a
//! server that goes away. The model is a scripted OpenAI-compatible server, so the
//! tests can tell whether a message reached it.

use sidecar_proactive::ProactiveStore;
use sidecar_reminders::RemindersStore;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sidecar::Companion;
use sidecar_channels::Link;
use sidecar_domain::Secrets;
use sidecar_proactive::Channel;

use crate::support::bot_api::FakeBotApi;
use crate::support::{reply_events, Reply, ScriptedServer};

pub(crate) const ME: i64 = 5_550_001;
pub(crate) const STRANGER: i64 = 5_550_666;

/// A model that answers "re: <what was asked>".
pub(crate) async fn echo_model() -> ScriptedServer {
    ScriptedServer::responding(|request| {
        let asked = crate::support::said(request["messages"].as_array().unwrap().last().unwrap());
        Reply::Stream { events: reply_events(&[&format!("re: {asked}")]), delay: Duration::from_millis(5) }
    })
    .await
}

/// A companion whose settings.toml turns Telegram on against `bot`, with the token in
/// an environment variable of its own (tests run in parallel).
pub(crate) async fn open(dir: &std::path::Path, model: &ScriptedServer, bot: &FakeBotApi, chats: &[i64]) -> Arc<Companion> {
    open_with(dir, model, bot, chats, "").await
}

/// `open`, with `extra` settings after the channel's.
pub(crate) async fn open_with(dir: &std::path::Path, model: &ScriptedServer, bot: &FakeBotApi, chats: &[i64], extra: &str) -> Arc<Companion> {
    open_at(dir, model, bot, chats, extra, None).await
}

/// `open_with`, on `clock` when one is given.
async fn open_at(
    dir: &std::path::Path,
    model: &ScriptedServer,
    bot: &FakeBotApi,
    chats: &[i64],
    extra: &str,
    clock: Option<sidecar_domain::Clock>,
) -> Arc<Companion> {
    let token_env = format!("SIDECAR_TEST_TG_{}", dir.file_name().unwrap().to_string_lossy().replace(['.', '-'], "_"));
    // SAFETY: a variable no other test reads.
    unsafe { std::env::set_var(&token_env, "123456:TEST-token-that-is-long-enough") };
    let config = dir.join("settings.toml");
    std::fs::write(
        &config,
        format!(
            "[[providers]]\nid = \"s\"\nbase_url = \"{}\"\nmodel = \"m\"\n\n[channels.telegram]\napi_url = \"{}\"\ntoken_env = \"{token_env}\"\nallowed_chats = {chats:?}\npoll_timeout_secs = 1\n{extra}",
            model.base_url, bot.api_url
        ),
    )
    .unwrap();
    let mut core = crate::support::core().config_file(&config).secrets(Arc::new(Secrets::new(false)));
    if let Some(clock) = clock {
        core = core.clock(clock);
    }
    let core = core.open_in(dir).await;
    core.channels().start();
    wait_until("Telegram connects", || matches!(core.channels().view().telegram.health.map(|h| h.link), Some(Link::Connected { .. }))).await;
    core
}

async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(Instant::now() < until, "timed out waiting: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_pairs_with_the_code_and_then_talks_to_the_same_conversation() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &model, &bot, &[]).await;

    // A stranger is told the bot is private; the model never hears of it.
    bot.say(STRANGER, "hola, ¿quién eres?");
    let said = bot.wait_for_sent(STRANGER, 1, Duration::from_secs(10)).await;
    assert!(said[0].contains("private Sidecar") || said[0].contains("Sidecar privado"), "{said:?}");
    // Without the code, /start does not pair either.
    bot.say(ME, "/start 000000");
    assert_eq!(bot.wait_for_sent(ME, 1, Duration::from_secs(10)).await.len(), 1);
    assert!(core.channels().view().telegram.paired_chats.is_empty());

    // The code shown in Settings pairs the chat, and settings.toml keeps it.
    let code = core.channels().telegram_pairing_code().unwrap();
    assert_eq!(core.channels().view().telegram.pairing_code.as_deref(), Some(code.code.as_str()));
    bot.say(ME, &format!("/start {}", code.code));
    let said = bot.wait_for_sent(ME, 2, Duration::from_secs(10)).await;
    assert!(said[1].contains("paired") || said[1].contains("vinculado"), "{said:?}");
    assert_eq!(core.channels().view().telegram.paired_chats, [ME]);
    assert_eq!(core.channels().view().telegram.pairing_code, None, "a code is used once");
    let file = std::fs::read_to_string(dir.path().join("settings.toml")).unwrap();
    assert!(file.contains(&format!("allowed_chats = [{ME}]")), "{file}");

    // A command is answered by Sidecar itself, without the model.
    bot.say(ME, "/status@sidecar_test_bot");
    let said = bot.wait_for_sent(ME, 3, Duration::from_secs(10)).await;
    assert!(said[2].starts_with("Model: ") || said[2].starts_with("Modelo: "), "{said:?}");
    assert_eq!(model.request_count(), 0, "neither the stranger, the pairing nor the command reached the model");
    // `/quiet here` from the phone silences the phone only.
    bot.say(ME, "/quiet here");
    bot.wait_for_sent(ME, 4, Duration::from_secs(10)).await;
    let state = core.store().proactive().proactive_state().await.unwrap();
    assert_eq!(state.quiet_channel, Some(Channel::Telegram));
    assert!(state.quiet_until.is_some());
    bot.say(ME, "/quiet off");
    bot.wait_for_sent(ME, 5, Duration::from_secs(10)).await;

    // A message is answered by the model, with "typing…" shown meanwhile, and joins
    // the conversation the desktop sees, said on Telegram.
    bot.say(ME, "¿me oyes desde el móvil?");
    let said = bot.wait_for_sent(ME, 6, Duration::from_secs(10)).await;
    assert_eq!(said[5], "re: ¿me oyes desde el móvil?");
    assert!(bot.calls("sendChatAction").iter().any(|c| c.body["chat_id"].as_i64() == Some(ME) && c.body["action"] == "typing"));
    let history = core.conversation().history(20).await.unwrap();
    let from_phone = history.iter().find(|m| m.content == "¿me oyes desde el móvil?").expect("in the history");
    assert_eq!(from_phone.channel, Some(Channel::Telegram));
    // The bot's menu lists the commands.
    let menu = bot.calls("setMyCommands");
    let names: Vec<&str> = menu[0].body["commands"].as_array().unwrap().iter().map(|c| c["command"].as_str().unwrap()).collect();
    assert_eq!(names, ["quiet", "reminders", "status", "checkpoint"]);

    // Unpaired from Settings: the chat is a stranger again.
    core.channels().unpair_telegram(ME).unwrap();
    bot.say(ME, "¿sigues ahí?");
    let said = bot.wait_for_sent(ME, 7, Duration::from_secs(10)).await;
    assert!(said[6].contains("private Sidecar") || said[6].contains("Sidecar privado"), "{said:?}");
    assert_eq!(model.request_count(), 1);
}

/// `/quiet` from the phone silences Sidecar on every channel, from the very next tick.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quiet_from_the_phone_silences_every_channel_at_the_next_tick() {
    use sidecar_proactive::Skip;
    use sidecar_proactive::TickMode;
    use sidecar_proactive::TickReport;
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &model, &bot, &[ME]).await;
    bot.say(ME, "/quiet");
    bot.wait_for_sent(ME, 1, Duration::from_secs(10)).await;
    let state = core.store().proactive().proactive_state().await.unwrap();
    assert!(state.quiet_until.is_some() && state.quiet_channel.is_none(), "{state:?}");
    assert_eq!(core.proactive().tick(TickMode::Send).await.unwrap(), TickReport::Skipped { reason: Skip::Quiet });
    assert_eq!(model.request_count(), 0);
}

/// A 👍 or 👎 on a spontaneous message on the phone teaches its kind there, as the
/// thumbs under it in the chat do; a reaction on a reply, or from a stranger, does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reaction_on_a_spontaneous_message_teaches_its_kind_there() {
    use chrono::TimeZone;
    use sidecar_proactive::TickMode;
    use sidecar_proactive::TickReport;
    let model = ScriptedServer::responding(|request| {
        let system = request["messages"][0]["content"].as_str().unwrap_or_default();
        let text = if system.contains("deciding whether to start a conversation") {
            r#"{"shouldSpeak": true, "reason": "scripted", "messageType": "checkin", "suggestedMessage": "¿Qué tal el día?"}"#
        } else {
            "ok"
        };
        Reply::Stream { events: reply_events(&[text]), delay: Duration::ZERO }
    })
    .await;
    let bot = FakeBotApi::start().await;
    let dir = tempfile::tempdir().unwrap();
    // A weekday afternoon in Madrid, whenever the test runs.
    let afternoon = chrono_tz::Europe::Madrid.with_ymd_and_hms(2027, 3, 15, 16, 0, 0).unwrap().with_timezone(&chrono::Utc);
    let clock = sidecar_domain::Clock::new(Arc::new(move || afternoon), chrono_tz::Europe::Madrid);
    let core = open_at(dir.path(), &model, &bot, &[ME], "[user]\ntimezone = \"Europe/Madrid\"\n", Some(clock)).await;
    let learned = || async { core.proactive().learned().await.unwrap() };

    let TickReport::Sent { routed, .. } = core.proactive().tick(TickMode::Send).await.unwrap() else { panic!("nothing sent") };
    assert_eq!(routed.channel, Some(Channel::Telegram), "{routed:?}");
    let spontaneous = *bot.sent_ids(ME).last().expect("the phone has it");
    assert_eq!(learned().await.pending.len(), 1);

    // A stranger's reaction and a neutral face teach nothing.
    bot.react(STRANGER, spontaneous, &[], &["👎"]);
    bot.react(ME, spontaneous, &[], &["🤔"]);
    bot.react(ME, spontaneous, &["🤔"], &["👍"]);
    let until = Instant::now() + Duration::from_secs(10);
    while learned().await.pending.len() == 1 {
        assert!(Instant::now() < until, "the 👍 was not taken");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let checkin = learned().await.kinds.into_iter().find(|k| k.kind.as_str() == "checkin").unwrap();
    assert_eq!((checkin.channel, checkin.welcome, checkin.unwelcome, checkin.allowance), (Channel::Telegram, 1, 0, 1.0));

    // A 👎 on it later halves the kind there; a 👎 on an ordinary reply does not.
    bot.say(ME, "hola");
    bot.wait_for_sent(ME, 2, Duration::from_secs(10)).await;
    let reply = *bot.sent_ids(ME).last().unwrap();
    bot.react(ME, reply, &[], &["👎"]);
    // Updates are taken in order: once the next message is answered, the 👎 was seen.
    bot.say(ME, "otra cosa");
    bot.wait_for_sent(ME, 3, Duration::from_secs(10)).await;
    assert_eq!(learned().await.kinds.iter().map(|k| k.unwelcome).sum::<u32>(), 0, "a reply's 👎 teaches nothing");
    bot.react(ME, spontaneous, &["👍"], &["👎"]);
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let checkin = learned().await.kinds.into_iter().find(|k| k.kind.as_str() == "checkin").unwrap();
        if checkin.unwelcome > 0 {
            assert_eq!((checkin.unwelcome, checkin.allowance), (1, 0.5));
            break;
        }
        assert!(Instant::now() < until, "the 👎 was not taken");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    core.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicates_floods_and_outages_lose_nothing_and_repeat_nothing() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &model, &bot, &[ME]).await;

    // The same message delivered twice (a new update id) is answered once.
    let first = bot.say(ME, "uno");
    bot.wait_for_sent(ME, 1, Duration::from_secs(10)).await;
    bot.repeat(ME, first, "uno");
    bot.say(ME, "dos");
    let said = bot.wait_for_sent(ME, 2, Duration::from_secs(10)).await;
    assert_eq!(said, ["re: uno", "re: dos"]);

    // 429 with retry_after: the reply waits that long, then goes out once.
    bot.flood(1, 1);
    bot.say(ME, "tres");
    let said = bot.wait_for_sent(ME, 3, Duration::from_secs(10)).await;
    assert_eq!(said[2], "re: tres");
    let sends = bot.calls("sendMessage");
    let refused = sends.iter().find(|c| !c.accepted).expect("the flooded attempt");
    let accepted = sends.iter().rev().find(|c| c.accepted).unwrap();
    assert!(accepted.at - refused.at >= Duration::from_secs(1), "retry_after honoured: {:?}", accepted.at - refused.at);

    // The server goes away: the channel says so; what the user wrote meanwhile is
    // answered once it is back, once.
    bot.go_away();
    wait_until("Telegram is seen down", || matches!(core.channels().view().telegram.health.map(|h| h.link), Some(Link::Down { .. }))).await;
    bot.say(ME, "cuatro");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    bot.come_back();
    let said = bot.wait_for_sent(ME, 4, Duration::from_secs(20)).await;
    assert_eq!(said[3], "re: cuatro");

    // A restart with the server offering everything again answers nothing twice.
    core.shutdown().await;
    drop(core);
    let core = open(dir.path(), &model, &bot, &[ME]).await;
    bot.say(ME, "cinco");
    let said = bot.wait_for_sent(ME, 5, Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(bot.sent_to(ME), ["re: uno", "re: dos", "re: tres", "re: cuatro", "re: cinco"], "{said:?}");
    assert_eq!(model.request_count(), 5);
    core.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_reaches_the_paired_chat_only_when_the_desk_is_idle() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &model, &bot, &[ME]).await;
    let scheduler = tokio::spawn(core.reminders().scheduler().unwrap().expect("the lock is free"));
    let delivered = |id: i64| {
        let core = core.clone();
        async move { core.store().reminder_table().reminder(id).await.unwrap().unwrap().state == sidecar_reminders::ReminderState::Delivered }
    };

    // At the desk a moment ago: the reminder is shown there, not on the phone.
    core.proactive().desk_active().await.unwrap();
    let at_desk = core.reminders().set("beber agua", "en 1 segundo").await.unwrap().reminder;
    let until = Instant::now() + Duration::from_secs(15);
    while !delivered(at_desk.id).await {
        assert!(Instant::now() < until, "the reminder was never delivered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(bot.sent_to(ME).is_empty(), "the phone stays quiet while the user is at the desk");

    // Away (idle for longer than phone_when_idle_minutes, here 0): the phone has it.
    let mut config = core.proactive().config().await.unwrap();
    config.sinks.phone_when_idle_minutes = 0;
    core.proactive().set_config(config).await.unwrap();
    let away = core.reminders().set("llamar a mamá", "en 2 segundos").await.unwrap().reminder;
    let said = bot.wait_for_sent(ME, 1, Duration::from_secs(15)).await;
    assert!(said.first().is_some_and(|s| s.contains("llamar a mamá")), "{said:?}");
    // The delivery is recorded just after the phone has it: wait for that, not abort it.
    let until = Instant::now() + Duration::from_secs(15);
    while !delivered(away.id).await {
        assert!(Instant::now() < until, "the delivery was never recorded");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    scheduler.abort();
    let history = core.conversation().history(20).await.unwrap();
    assert_eq!(history.iter().filter(|m| m.content.contains("llamar a mamá")).count(), 1, "kept once in the conversation");
    core.shutdown().await;
}

/// `sidecar daemon` on a machine with no window serves the phone: it polls the bot,
/// answers a paired chat, and says on its terminal what it serves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_headless_daemon_serves_telegram() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(
        &config,
        format!(
            "[channels.telegram]\napi_url = \"{}\"\ntoken_env = \"SIDECAR_TEST_DAEMON_TOKEN\"\nallowed_chats = [{ME}]\npoll_timeout_secs = 1\n",
            bot.api_url
        ),
    )
    .unwrap();
    let mut daemon = std::process::Command::new(env!("CARGO_BIN_EXE_sidecar"))
        .env("SIDECAR_DATA_DIR", dir.path().join("data"))
        .env("SIDECAR_CONFIG", &config)
        .env("SIDECAR_LLM_BASE_URL", &model.base_url)
        .env("SIDECAR_LLM_MODEL", "scripted")
        .env("SIDECAR_TEST_DAEMON_TOKEN", "123456:TEST-token-that-is-long-enough")
        .env("SIDECAR_NO_KEYCHAIN", "1")
        .env("SIDECAR_RUNTIME", "off")
        .arg("daemon")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = daemon.stderr.take().unwrap();
    let said = tokio::task::spawn_blocking(move || {
        let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
        (0..2).filter_map(|_| lines.next()?.ok()).collect::<Vec<_>>()
    })
    .await
    .unwrap();
    assert!(said.iter().any(|l| l.contains("Telegram: serving 1 paired chat")), "{said:?}");
    bot.say(ME, "hola desde el móvil");
    let sent = bot.wait_for_sent(ME, 1, Duration::from_secs(20)).await;
    unsafe { kill(daemon.id() as i32, 15) };
    assert!(daemon.wait().unwrap().success(), "SIGTERM stops the daemon cleanly");
    assert_eq!(sent, ["re: hola desde el móvil"]);
}

extern "C" {
    fn kill(pid: i32, signal: i32) -> i32;
}

/// With Telegram turned off, Settings still lists the paired chats and can unpair one.
#[tokio::test]
async fn a_chat_can_be_unpaired_while_telegram_is_off() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, format!("# mine\n[channels.telegram]\nenabled = false\nallowed_chats = [{ME}, {STRANGER}]\n")).unwrap();
    let core = crate::support::core().config_file(&config).secrets(Arc::new(Secrets::new(false))).open_in(dir.path()).await;
    core.channels().start();
    let view = core.channels().view().telegram;
    assert!(!view.enabled && view.health.is_none());
    assert_eq!(view.paired_chats, [ME, STRANGER]);
    core.channels().unpair_telegram(STRANGER).unwrap();
    assert_eq!(core.channels().view().telegram.paired_chats, [ME]);
    let file = std::fs::read_to_string(&config).unwrap();
    assert!(file.starts_with("# mine") && file.contains(&format!("allowed_chats = [{ME}]")), "{file}");
}

/// Guessing the code: five wrong codes void the live one and lock pairing, the desk
/// hears of it once, and a hundred guesses get a handful of replies. A stranger's
/// chatter is answered once a day.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_the_pairing_code_locks_pairing_and_strangers_get_one_reply() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &model, &bot, &[]).await;
    let mut events = core.events().subscribe();
    let code = core.channels().telegram_pairing_code().unwrap();
    let wrong = if code.code == "000000" { "000001" } else { "000000" };
    for _ in 0..100 {
        bot.say(STRANGER, &format!("/start {wrong}"));
    }
    wait_until("the guesses are read", || bot.calls("getUpdates").len() > 3 && core.channels().view().telegram.pairing_code.is_none()).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let said = bot.sent_to(STRANGER);
    assert!(said.len() <= 6, "{} replies to 100 guesses: {said:?}", said.len());
    assert!(said.iter().any(|s| s.contains("pairing is locked") || s.contains("vinculación está bloqueada")), "{said:?}");
    // The right code, now void, pairs nothing.
    bot.say(STRANGER, &format!("/start {}", code.code));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(core.channels().view().telegram.paired_chats.is_empty());
    let mut warned = 0;
    while let Ok(event) = events.try_recv() {
        if let sidecar::events::CoreEvent::Channels(sidecar_channels::ChannelEvent::ChannelWarning { title, .. }) = event {
            assert!(title.contains("Telegram"), "{title}");
            warned += 1;
        }
    }
    assert_eq!(warned, 1, "the desk is told once");
    // A fresh code from the desk works at once.
    let fresh = core.channels().telegram_pairing_code().unwrap();
    bot.say(ME, &format!("/start {}", fresh.code));
    wait_until("paired", || core.channels().view().telegram.paired_chats == [ME]).await;
    // Chatter from another stranger: one reply.
    let other = STRANGER + 1;
    for text in ["hola", "hello?", "anyone?"] {
        bot.say(other, text);
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(bot.sent_to(other).len(), 1, "{:?}", bot.sent_to(other));
    assert_eq!(model.request_count(), 0);
}

/// Update ids are 64-bit: past i32::MAX the cursor used to stick and polling spun on
/// one update; past u32::MAX every poll failed to parse.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn update_ids_past_32_bits_are_answered_once_and_polling_stays_calm() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    bot.number_updates_from(i64::from(i32::MAX) - 1);
    let core = open(dir.path(), &model, &bot, &[ME]).await;
    for text in ["uno", "dos", "tres"] {
        bot.say(ME, text);
    }
    bot.wait_for_sent(ME, 3, Duration::from_secs(10)).await;
    bot.number_updates_from(i64::from(u32::MAX));
    bot.say(ME, "cuatro");
    bot.say(ME, "cinco");
    bot.wait_for_sent(ME, 5, Duration::from_secs(10)).await;
    let polls_before = bot.calls("getUpdates").len();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let polls = bot.calls("getUpdates").len() - polls_before;
    // Long polls of 1 s with nothing new: about two, not dozens.
    assert!(polls <= 4, "{polls} polls in 2 s while idle");
    assert_eq!(bot.sent_to(ME), ["re: uno", "re: dos", "re: tres", "re: cuatro", "re: cinco"]);
    assert_eq!(model.request_count(), 5);
    // A restart picks up from the kept cursor: nothing is answered twice.
    core.shutdown().await;
    drop(core);
    let core = open(dir.path(), &model, &bot, &[ME]).await;
    bot.say(ME, "seis");
    bot.wait_for_sent(ME, 6, Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(model.request_count(), 6);
    let last = bot.calls("getUpdates").last().unwrap().body["offset"].as_i64().unwrap();
    assert_eq!(last, i64::from(u32::MAX) + 3, "the offset confirms the 64-bit id");
    core.shutdown().await;
}

/// No pairing code while the bot cannot reach Telegram: it would be typed into silence.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_pairing_code_is_handed_out_while_telegram_is_down() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &model, &bot, &[]).await;
    bot.go_away();
    wait_until("Telegram is seen down", || matches!(core.channels().view().telegram.health.map(|h| h.link), Some(Link::Down { .. }))).await;
    let refused = core.channels().telegram_pairing_code().unwrap_err().to_string();
    assert!(refused.contains("Telegram is not connected"), "{refused}");
    bot.come_back();
    wait_until("Telegram is back", || matches!(core.channels().view().telegram.health.map(|h| h.link), Some(Link::Connected { .. }))).await;
    assert_eq!(core.channels().telegram_pairing_code().unwrap().code.len(), 6);
    core.shutdown().await;
}

/// A model that writes a note for every message (named by its last word), then says
/// what the tool answered.
pub(crate) async fn note_writing_model() -> ScriptedServer {
    ScriptedServer::responding(|request| {
        let messages = request["messages"].as_array().unwrap();
        let last = messages.last().unwrap();
        if last["role"] == "tool" {
            let answered = last["content"].as_str().unwrap_or_default().chars().take(120).collect::<String>();
            return Reply::Stream { events: reply_events(&[&format!("tool said: {answered}")]), delay: Duration::ZERO };
        }
        let name = format!("{}.md", crate::support::said(last).split_whitespace().last().unwrap());
        let arguments = serde_json::json!({"path": name, "content": "from the phone"}).to_string();
        Reply::Stream { events: crate::support::tool_call_events(&[("call_1", "create_note", &arguments)]), delay: Duration::ZERO }
    })
    .await
}

/// A tool that acts, asked for from the phone, asks on the phone: the chat's next
/// message in the words offered, or a press on one of the buttons, is the answer, a message in other words
/// is a message, and nothing runs without a yes. The turn's time limit (1 s here)
/// does not run while the user thinks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_asked_for_on_the_phone_asks_permission_there() {
    let (model, bot) = (note_writing_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    let vault = dir.path().join("vault");
    std::fs::create_dir(&vault).unwrap();
    let core =
        open_with(dir.path(), &model, &bot, &[ME], &format!("\n[tools]\nnotes_folder = {:?}\n[llm]\nturn_timeout_secs = 1\n", vault.to_string_lossy())).await;

    bot.say(ME, "write the note first");
    let said = bot.wait_for_sent(ME, 1, Duration::from_secs(20)).await;
    assert!(said[0].contains("create_note") && said[0].contains("first.md") && said[0].contains("[o]nce"), "{said:?}");
    assert!(!vault.join("first.md").exists(), "nothing runs before the answer");
    // The answers come as buttons too.
    let asked = bot.calls("sendMessage").into_iter().rfind(|c| c.body["chat_id"].as_i64() == Some(ME)).unwrap();
    let buttons: Vec<&str> =
        asked.body["reply_markup"]["inline_keyboard"].as_array().unwrap().iter().map(|row| row[0]["callback_data"].as_str().unwrap()).collect();
    assert_eq!(buttons, ["once", "chat", "tool", "server", "deny"]);
    // A stranger's "yes" is not the user's; the user's press on "once", seconds later, is.
    bot.say(STRANGER, "yes");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    bot.press(ME, "once");
    let said = bot.wait_for_sent(ME, 2, Duration::from_secs(20)).await;
    assert!(said[1].starts_with("tool said:"), "{said:?}");
    assert_eq!(std::fs::read_to_string(vault.join("first.md")).unwrap(), "from the phone");
    assert_eq!(bot.calls("answerCallbackQuery").len(), 1, "the button's spinner is cleared");

    // "Once" held once: the next note asks again, and "no" keeps it from running.
    bot.say(ME, "write the note second");
    let said = bot.wait_for_sent(ME, 3, Duration::from_secs(20)).await;
    assert!(said[2].contains("second.md"), "{said:?}");
    bot.say(ME, "d");
    let said = bot.wait_for_sent(ME, 4, Duration::from_secs(20)).await;
    assert!(said[3].contains("denied"), "{said:?}");
    assert!(!vault.join("second.md").exists());
    // No question waits now: "yes" is a message for the model like any other.
    bot.say(ME, "yes");
    let said = bot.wait_for_sent(ME, 5, Duration::from_secs(20)).await;
    assert!(said[4].contains("yes.md"), "asked again for the new message's note: {said:?}");
    core.shutdown().await;
}
