//! The stored outbox (DT-8) against a real SQLite store: what a phone cannot take now is
//! held, and goes once, in order, when the phone can; a send cut off by a quit is tried
//! again; what waited past a day is dropped; a spontaneous message is never held.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use futures_util::future::BoxFuture;
use sidecar_domain::{Channel, Clock};
use sidecar_outbox::{Kind, MessageRouter, Outgoing, Presence, Sink, SinkError, SinkId, SinkPreferences};
use sidecar_store::Store;

/// A phone the test turns on and off; it records what it showed.
struct Phone {
    id: SinkId,
    up: AtomicBool,
    refuses: AtomicBool,
    shown: Mutex<Vec<String>>,
}

impl Phone {
    fn new(id: SinkId) -> Arc<Self> {
        Arc::new(Self { id, up: AtomicBool::new(true), refuses: AtomicBool::new(false), shown: Mutex::new(Vec::new()) })
    }

    fn shown(&self) -> Vec<String> {
        self.shown.lock().unwrap().clone()
    }
}

impl Sink for Phone {
    fn id(&self) -> SinkId {
        self.id
    }
    fn channel(&self) -> Channel {
        if self.id == SinkId::Telegram {
            Channel::Telegram
        } else {
            Channel::Whatsapp
        }
    }
    fn available(&self) -> bool {
        self.up.load(Ordering::SeqCst)
    }
    fn holds_what_it_missed(&self) -> bool {
        true
    }
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>> {
        Box::pin(async move {
            if self.refuses.load(Ordering::SeqCst) {
                return Err(SinkError::failed("network unreachable"));
            }
            self.shown.lock().unwrap().push(message.chat.clone());
            Ok(None)
        })
    }
}

fn reminder(text: &str) -> Outgoing {
    Outgoing {
        kind: Kind::Reminder,
        title: "Sidecar".into(),
        body: text.into(),
        chat: text.into(),
        message_type: None,
        reminder_id: Some(1),
        late: false,
        message_id: None,
        occurrence: Some(format!("1@{text}")),
    }
}

/// Away from the desk with no desktop sink: every phone takes reminders.
fn away() -> Presence {
    Presence { desktop_idle: true, ..Presence::default() }
}

async fn router_at(dir: &std::path::Path, now: Arc<Mutex<DateTime<Utc>>>) -> (MessageRouter, Store) {
    let clock = Clock::new(Arc::new(move || *now.lock().unwrap()), chrono_tz::Europe::Madrid);
    let store = Store::open(dir).await.unwrap().with_clock(clock);
    let router = MessageRouter::default();
    router.hold_in(store.clone());
    (router, store)
}

fn at(text: &str) -> Arc<Mutex<DateTime<Utc>>> {
    Arc::new(Mutex::new(text.parse().unwrap()))
}

#[tokio::test]
async fn a_phone_that_is_down_or_refuses_gets_each_message_once_in_order_when_it_can() {
    let dir = tempfile::tempdir().unwrap();
    let (router, _store) = router_at(dir.path(), at("2026-12-07T09:00:00Z")).await;
    let (telegram, whatsapp) = (Phone::new(SinkId::Telegram), Phone::new(SinkId::Whatsapp));
    router.register(telegram.clone());
    router.register(whatsapp.clone());
    let prefs = SinkPreferences::default();
    let told = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = told.clone();
    router.on_held_change(move || {
        counter.fetch_add(1, Ordering::SeqCst);
    });

    // Telegram's bridge is down; WhatsApp is up but its sends fail.
    telegram.up.store(false, Ordering::SeqCst);
    whatsapp.refuses.store(true, Ordering::SeqCst);
    let routed = router.send(reminder("uno"), &prefs, away()).await;
    assert_eq!(routed.held, [SinkId::Whatsapp, SinkId::Telegram]);
    assert!(routed.taken() && !routed.reached_anyone());
    // The same occurrence routed again (a retry) is not held twice.
    router.send(reminder("uno"), &prefs, away()).await;
    router.send(reminder("dos"), &prefs, away()).await;
    assert_eq!(router.count_held(SinkId::Telegram).await.unwrap(), 2);
    assert_eq!(router.count_held(SinkId::Whatsapp).await.unwrap(), 2);
    assert_eq!(router.held_for(SinkId::Telegram), 2, "as last counted, for a view that cannot wait");
    assert!(told.load(Ordering::SeqCst) >= 2, "each change is told");

    // Still refused: nothing goes, nothing is lost.
    assert_eq!(router.deliver_waiting().await, 0);
    assert!(whatsapp.shown().is_empty());

    // Both back: each message once, in the order it was held.
    telegram.up.store(true, Ordering::SeqCst);
    whatsapp.refuses.store(false, Ordering::SeqCst);
    // (A look may already be under way since the send; either way, once each.)
    router.deliver_waiting().await;
    assert_eq!(telegram.shown(), ["uno", "dos"]);
    assert_eq!(whatsapp.shown(), ["uno", "dos"]);
    assert_eq!(router.deliver_waiting().await, 0, "nothing twice");
    assert_eq!(router.count_held(SinkId::Telegram).await.unwrap(), 0);
    assert_eq!(router.held_for(SinkId::Whatsapp), 0);
}

#[tokio::test]
async fn a_new_message_does_not_overtake_what_waits_and_a_spontaneous_one_is_never_held() {
    let dir = tempfile::tempdir().unwrap();
    let (router, _store) = router_at(dir.path(), at("2026-12-07T09:00:00Z")).await;
    let telegram = Phone::new(SinkId::Telegram);
    router.register(telegram.clone());
    let prefs = SinkPreferences::default();
    telegram.up.store(false, Ordering::SeqCst);
    router.send(reminder("primero"), &prefs, away()).await;
    let spontaneous = Outgoing { kind: Kind::Spontaneous, occurrence: None, reminder_id: None, ..reminder("¿qué tal el día?") };
    assert!(router.send(spontaneous, &prefs, away()).await.held.is_empty(), "about now: stale later");

    // Up again, and a new reminder arrives before the next look: it goes behind.
    telegram.up.store(true, Ordering::SeqCst);
    let routed = router.send(reminder("segundo"), &prefs, away()).await;
    assert_eq!(routed.held, [SinkId::Telegram]);
    router.deliver_waiting().await;
    assert_eq!(telegram.shown(), ["primero", "segundo"]);
}

#[tokio::test]
async fn a_send_cut_off_by_a_quit_is_tried_again_and_a_day_old_message_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let now = at("2026-12-07T09:00:00Z");
    {
        let (router, store) = router_at(dir.path(), now.clone()).await;
        let telegram = Phone::new(SinkId::Telegram);
        telegram.up.store(false, Ordering::SeqCst);
        router.register(telegram.clone());
        router.send(reminder("en vuelo"), &SinkPreferences::default(), away()).await;
        router.send(reminder("esperando"), &SinkPreferences::default(), away()).await;
        // The quit: the first was being sent (its phone retrying) when the process ended.
        sqlx::query("UPDATE outbox_waiting SET sending_at = '2026-12-07T09:00:01Z' WHERE id = (SELECT MIN(id) FROM outbox_waiting)")
            .execute(store.pool())
            .await
            .unwrap();
        store.close().await;
    }
    let (router, _store) = router_at(dir.path(), now.clone()).await;
    let telegram = Phone::new(SinkId::Telegram);
    router.register(telegram.clone());
    router.deliver_waiting().await;
    assert_eq!(telegram.shown(), ["en vuelo", "esperando"], "lost otherwise; in order");

    // Held a day and more ago: dropped, not sent a day late.
    telegram.up.store(false, Ordering::SeqCst);
    router.send(reminder("ayer"), &SinkPreferences::default(), away()).await;
    *now.lock().unwrap() = "2026-12-08T09:00:01Z".parse().unwrap();
    telegram.up.store(true, Ordering::SeqCst);
    assert_eq!(router.deliver_waiting().await, 0);
    assert_eq!(router.count_held(SinkId::Telegram).await.unwrap(), 0);
    assert_eq!(telegram.shown(), ["en vuelo", "esperando"]);
}
