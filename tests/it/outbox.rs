//! The stored outbox (issue 75 item 2, DT-8) with the real channels: Telegram against the
//! loopback Bot API, WhatsApp through a scripted connection. A reminder that a phone
//! cannot take (the bot's server gone, a WhatsApp send failing) is held in the database;
//! Sidecar closes, opens again, and each phone has each reminder exactly once, in order.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sidecar::Companion;
use sidecar_channels::{Link, PhoneParts, WhatsApp};
use sidecar_outbox::SinkId;
use sidecar_reminders::RemindersStore;

use crate::support::bot_api::FakeBotApi;
use crate::telegram::{echo_model, open, ME};
use crate::whatsapp::{connected, Scripted, ME as MY_NUMBER};

/// WhatsApp on `core`, through `link`, registered with its router as the assembly does.
fn attach_whatsapp(core: &Arc<Companion>, dir: &std::path::Path, link: Arc<Scripted>) -> Arc<WhatsApp> {
    let parts = PhoneParts {
        store: core.store().clone(),
        clock: core.clock().clone(),
        lang: core.lang(),
        events: core.events().emitter(sidecar::events::CoreEvent::Channels),
        settings: Arc::new(sidecar_settings::SettingsOwner::new(sidecar_settings::Settings::default(), None)),
        data_dir: dir.to_path_buf(),
        proactive: std::sync::Weak::new(),
        redactor: Default::default(),
        speech: Arc::new(sidecar_voice::SpeechModel::in_runtime(&crate::support::runtime())),
    };
    let settings = sidecar_settings::WhatsappSettings { min_send_interval_secs: 0.0, ..Default::default() };
    let whatsapp = WhatsApp::new(link, settings, parts, Duration::from_secs(30));
    tokio::spawn(whatsapp.clone().run());
    core.proactive().router().register(whatsapp.clone());
    whatsapp
}

async fn wait_until(what: &str, within: Duration, done: impl AsyncFn() -> bool) {
    let until = Instant::now() + within;
    while !done().await {
        assert!(Instant::now() < until, "timed out waiting: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_a_phone_could_not_take_arrive_once_each_in_order_after_a_restart() {
    let (model, bot) = (echo_model().await, FakeBotApi::start().await);
    let dir = tempfile::tempdir().unwrap();
    {
        let core = open(dir.path(), &model, &bot, &[ME]).await;
        // Away from the desk at once: the phones take reminders.
        let mut config = core.proactive().config().await.unwrap();
        config.sinks.phone_when_idle_minutes = 0;
        core.proactive().set_config(config).await.unwrap();
        let link = Scripted::with(vec![vec![connected()]]);
        let whatsapp = attach_whatsapp(&core, dir.path(), link.clone());
        wait_until("WhatsApp links", Duration::from_secs(15), async || whatsapp.health.is_connected()).await;
        let running = core.run(sidecar::Face::headless(Vec::new())).await;
        assert_eq!(running.delivery, sidecar::Delivery::Here);

        // Telegram's server goes away; WhatsApp stays connected but every send fails.
        bot.go_away();
        wait_until("Telegram is seen down", Duration::from_secs(20), async || {
            matches!(core.channels().view().telegram.health.map(|h| h.link), Some(Link::Down { .. }))
        })
        .await;
        link.refuses.store(true, Ordering::SeqCst);

        let first = core.reminders().set("regar las plantas", "en 1 segundo").await.unwrap().reminder;
        let second = core.reminders().set("sacar la basura", "en 3 segundos").await.unwrap().reminder;
        let router = core.proactive().router().clone();
        wait_until("both held for each phone", Duration::from_secs(20), async || {
            router.count_held(SinkId::Telegram).await.unwrap() == 2 && router.count_held(SinkId::Whatsapp).await.unwrap() == 2
        })
        .await;
        for id in [first.id, second.id] {
            let state = core.store().reminder_table().reminder(id).await.unwrap().unwrap().state;
            assert_eq!(state, sidecar_reminders::ReminderState::Delivered, "shown in the chat, held for the phones: not shown again");
        }
        assert!(link.sent_to(MY_NUMBER).is_empty());
        // Settings → Channels says so on each card.
        let view = core.channels().view();
        assert_eq!((view.telegram.held, view.whatsapp.held), (2, 2));
        // Sidecar closes with both waiting.
        running.stop().await;
        whatsapp.shut_down();
        core.shutdown().await;
    }

    // The server is back and WhatsApp's sends go through: Sidecar opens.
    bot.come_back();
    let core = open(dir.path(), &model, &bot, &[ME]).await;
    let link = Scripted::with(vec![vec![connected()]]);
    let whatsapp = attach_whatsapp(&core, dir.path(), link.clone());
    wait_until("WhatsApp links", Duration::from_secs(15), async || whatsapp.health.is_connected()).await;
    let running = core.run(sidecar::Face::headless(Vec::new())).await;
    bot.wait_for_sent(ME, 2, Duration::from_secs(40)).await;
    wait_until("WhatsApp has both", Duration::from_secs(40), async || link.sent_to(MY_NUMBER).len() >= 2).await;
    // A look or two more: nothing goes twice.
    tokio::time::sleep(Duration::from_secs(1)).await;
    core.proactive().router().deliver_waiting().await;
    for said in [bot.sent_to(ME), link.sent_to(MY_NUMBER)] {
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("regar las plantas") && said[1].contains("sacar la basura"), "in order: {said:?}");
    }
    assert_eq!(core.proactive().router().count_held(SinkId::Telegram).await.unwrap(), 0);
    let history = core.conversation().history(20).await.unwrap();
    assert_eq!(history.iter().filter(|m| m.content.contains("regar las plantas")).count(), 1, "kept once in the conversation");
    running.stop().await;
    whatsapp.shut_down();
    core.shutdown().await;
}
