//! The MessageRouter: where proactive messages go. Sources (the desktop window, the
//! CLI) bring the user's messages in and get their replies back directly; sinks (the
//! chat, OS notifications, the tray, the daemon's terminal) receive what Sidecar says
//! on its own. The routing policy is the seed's:
//! - reminders go to every available sink set to `all` or `reminders-only`;
//! - spontaneous messages go to the primary sink only, and only when it is set to
//!   `all` (if it is not available, they are not sent at all);
//! - `/quiet here` keeps spontaneous messages off the sinks of one channel;
//! - phones (Telegram, WhatsApp) find the user away from the desk: they get what
//!   Sidecar says on its own only once the desktop has been idle for
//!   `phone_when_idle_minutes` (or when no desktop sink runs, or a phone is the
//!   primary). Then a spontaneous message goes to the phone the user last wrote from
//!   (else the first phone taking `all`) in place of a desktop primary.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use serde::Serialize;

use crate::outgoing::{Kind, Outgoing};
use crate::sink_preferences::{SinkId, SinkPreference, SinkPreferences};
use crate::waiting::WaitingRows;
use futures_util::future::BoxFuture;
use sidecar_domain::Channel;

/// Why a message reached no one on a sink, or could not be kept or routed.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// No one has told the router which sinks the user wants (a core still starting).
    #[error("nothing tells where the user is")]
    NoWhereabouts,
    /// No history is registered to keep a message no sink put in the chat.
    #[error("no conversation to keep it in")]
    NoHistory,
    /// The sink tried and failed; its own error says why (the notification service, a
    /// phone's API, the database).
    #[error(transparent)]
    Failed(Box<dyn std::error::Error + Send + Sync>),
}

impl SinkError {
    /// A sink's own failure, of whatever type its library gives.
    pub fn failed(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self::Failed(error.into())
    }
}

/// One place a proactive message can be shown.
pub trait Sink: Send + Sync {
    fn id(&self) -> SinkId;
    /// The channel whose user sees this sink (for `/quiet here`).
    fn channel(&self) -> Channel;
    fn available(&self) -> bool {
        true
    }
    /// Whether what this sink missed (it was down, or its send failed) is held in the
    /// stored outbox and sent when it is back: a phone the user has linked.
    fn holds_what_it_missed(&self) -> bool {
        false
    }
    /// Shows the message. The chat sink returns the id of the message it posted.
    fn send<'a>(&'a self, message: &'a Outgoing) -> BoxFuture<'a, Result<Option<i64>, SinkError>>;
}

/// Where the user is, as far as routing cares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Presence {
    /// `/quiet here`'s channel, while it lasts.
    pub quiet_channel: Option<Channel>,
    /// The desktop has seen no activity for `phone_when_idle_minutes`.
    pub desktop_idle: bool,
    /// Where the user last wrote from.
    pub last_active: Option<Channel>,
}

/// The sinks a message goes to, in delivery order (chat first, so later sinks can
/// point at the posted message). Pure: the policy in one place.
pub(crate) fn targets(kind: Kind, prefs: &SinkPreferences, available: &[(SinkId, Channel)], presence: Presence) -> Vec<SinkId> {
    let desk_running = available.iter().any(|(_, channel)| !channel.is_phone());
    let phones_take_over = presence.desktop_idle || !desk_running;
    // A phone hears Sidecar speak first only while the user is away from the desk.
    let reachable: Vec<(SinkId, Channel)> =
        available.iter().copied().filter(|(sink, channel)| !channel.is_phone() || phones_take_over || *sink == prefs.primary).collect();
    let mut out: Vec<SinkId> = match kind {
        Kind::Reminder => {
            reachable.iter().filter(|(sink, _)| matches!(prefs.of(*sink), SinkPreference::All | SinkPreference::RemindersOnly)).map(|(sink, _)| *sink).collect()
        }
        Kind::Task => reachable
            .iter()
            .filter(|(sink, _)| *sink != SinkId::Chat && matches!(prefs.of(*sink), SinkPreference::All | SinkPreference::RemindersOnly))
            .map(|(sink, _)| *sink)
            .collect(),
        Kind::Spontaneous => {
            let speaks = |(sink, channel): &&(SinkId, Channel)| prefs.of(*sink) == SinkPreference::All && Some(*channel) != presence.quiet_channel;
            let primary = reachable.iter().filter(speaks).find(|(sink, _)| *sink == prefs.primary);
            let away = phones_take_over && !primary.is_some_and(|(_, channel)| channel.is_phone());
            let phone = away
                .then(|| {
                    let phones: Vec<_> = reachable.iter().filter(speaks).filter(|(_, channel)| channel.is_phone()).collect();
                    phones.iter().find(|(_, channel)| Some(*channel) == presence.last_active).or(phones.first()).map(|(sink, _)| *sink)
                })
                .flatten();
            phone.or(primary.map(|(sink, _)| *sink)).into_iter().collect()
        }
    };
    out.sort();
    out.dedup();
    out
}

/// What a routed message reached.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Routed {
    pub delivered: Vec<SinkId>,
    pub failed: Vec<(SinkId, String)>,
    /// The phones that could not take it now and have it in the stored outbox.
    pub held: Vec<SinkId>,
    pub message_id: Option<i64>,
    /// The channel it was shown on first.
    pub channel: Option<Channel>,
}

impl Routed {
    pub fn reached_anyone(&self) -> bool {
        !self.delivered.is_empty()
    }

    /// Shown somewhere, or held for a phone that will show it: routing it again would
    /// send it twice.
    pub fn taken(&self) -> bool {
        self.reached_anyone() || !self.held.is_empty()
    }
}

/// Keeps what Sidecar said in the conversation's history even when no sink put it in
/// the chat (a reminder shown only as a notification).
pub trait History: Send + Sync {
    /// Stores `message` as shown on `channel`; returns its conversation and its id.
    fn record<'a>(&'a self, message: &'a Outgoing, channel: Channel) -> BoxFuture<'a, Result<(i64, i64), SinkError>>;
}

/// Which sinks the user wants and where they are, read as a message goes out. Proactivity
/// keeps both (its settings and its state); a feature below it that sends, as reminders
/// do, reads them through the router instead of reaching into proactivity's tables.
pub trait Whereabouts: Send + Sync {
    fn read(&self) -> BoxFuture<'_, Result<(SinkPreferences, Presence), SinkError>>;
}

#[derive(Default, Clone)]
pub struct MessageRouter {
    sinks: Arc<RwLock<Vec<Arc<dyn Sink>>>>,
    history: Arc<RwLock<Option<Arc<dyn History>>>>,
    whereabouts: Arc<RwLock<Option<Arc<dyn Whereabouts>>>>,
    /// The stored outbox, once the assembly has given the router the store.
    waiting: Arc<OnceLock<WaitingRows>>,
    /// One delivery of held messages at a time; the first, at start, frees the sends the
    /// last quit cut off.
    delivering: Arc<tokio::sync::Mutex<bool>>,
    /// How many messages each phone has held, as last counted (for a view that cannot wait).
    held: Arc<RwLock<HashMap<SinkId, i64>>>,
    /// Told when a phone's held count changes (the channels' view shows it).
    held_changed: Arc<RwLock<Option<HeldChanged>>>,
}

/// What is told that a phone's held count changed.
type HeldChanged = Arc<dyn Fn() + Send + Sync>;

impl MessageRouter {
    /// Adds a sink; one of the same id replaces it.
    pub fn register(&self, sink: Arc<dyn Sink>) {
        let mut sinks = self.sinks.write().expect("sinks lock");
        sinks.retain(|s| s.id() != sink.id());
        sinks.push(sink);
    }

    /// Removes a sink (a channel that stopped).
    pub fn unregister(&self, id: SinkId) {
        self.sinks.write().expect("sinks lock").retain(|s| s.id() != id);
    }

    /// Where messages no sink put in the chat are recorded.
    pub fn set_history(&self, history: Arc<dyn History>) {
        *self.history.write().expect("history lock") = Some(history);
    }

    /// What tells which sinks the user wants and where they are.
    pub fn set_whereabouts(&self, whereabouts: Arc<dyn Whereabouts>) {
        *self.whereabouts.write().expect("whereabouts lock") = Some(whereabouts);
    }

    /// Holds what a phone could not take in `store`'s outbox (DT-8).
    pub fn hold_in(&self, store: sidecar_store::Store) {
        let _ = self.waiting.set(WaitingRows::new(store));
    }

    /// How many messages are held in the stored outbox for `sink`, counted now.
    pub async fn count_held(&self, sink: SinkId) -> Result<i64, sidecar_store::StoreError> {
        let count = match self.waiting.get() {
            Some(rows) => rows.count(sink).await?,
            None => 0,
        };
        let before = self.held.write().expect("held lock").insert(sink, count).unwrap_or(0);
        if before != count {
            let tell = self.held_changed.read().expect("held lock").clone();
            if let Some(tell) = tell {
                tell();
            }
        }
        Ok(count)
    }

    /// `tell` is called each time a phone's held count changes.
    pub fn on_held_change(&self, tell: impl Fn() + Send + Sync + 'static) {
        *self.held_changed.write().expect("held lock") = Some(Arc::new(tell));
    }

    /// How many messages are held for `sink`, as last counted (at each hold and each
    /// delivery of what is held).
    pub fn held_for(&self, sink: SinkId) -> i64 {
        self.held.read().expect("held lock").get(&sink).copied().unwrap_or(0)
    }

    /// The user's sink preferences and presence now.
    pub async fn whereabouts(&self) -> Result<(SinkPreferences, Presence), SinkError> {
        let whereabouts = self.whereabouts.read().expect("whereabouts lock").clone().ok_or(SinkError::NoWhereabouts)?;
        whereabouts.read().await
    }

    pub fn sinks(&self) -> Vec<(SinkId, Channel, bool)> {
        self.sinks.read().expect("sinks lock").iter().map(|s| (s.id(), s.channel(), s.available())).collect()
    }

    fn available(&self) -> Vec<(SinkId, Channel)> {
        self.sinks().into_iter().filter(|(_, _, up)| *up).map(|(id, channel, _)| (id, channel)).collect()
    }

    fn sink(&self, id: SinkId) -> Option<Arc<dyn Sink>> {
        self.sinks.read().expect("sinks lock").iter().find(|s| s.id() == id).cloned()
    }

    /// The channel a spontaneous message would be shown on first now, if any.
    pub fn spontaneous_channel(&self, prefs: &SinkPreferences, presence: Presence) -> Option<Channel> {
        let available = self.available();
        let first = *targets(Kind::Spontaneous, prefs, &available, presence).first()?;
        available.iter().find(|(id, _)| *id == first).map(|(_, channel)| *channel)
    }

    /// Whether a spontaneous message would reach anyone now.
    pub fn takes_spontaneous(&self, prefs: &SinkPreferences, presence: Presence) -> bool {
        !targets(Kind::Spontaneous, prefs, &self.available(), presence).is_empty()
    }

    /// Keeps `message` in the conversation without showing it on any sink (the chat
    /// view finds it on its next load, or when told); returns its conversation and id.
    pub async fn keep(&self, message: &Outgoing) -> Result<(i64, i64), SinkError> {
        let history = self.history.read().expect("history lock").clone().ok_or(SinkError::NoHistory)?;
        let channel = self.sinks().into_iter().find(|(id, _, _)| *id == SinkId::Chat).map_or(Channel::Desktop, |(_, channel, _)| channel);
        history.record(message, channel).await
    }

    /// Sends `message` by the policy. A failing sink does not stop the others; a phone
    /// that cannot take a reminder or a task's result now holds it in the stored outbox
    /// (the `waiting` module), and one with messages still waiting takes it behind them.
    pub async fn send(&self, mut message: Outgoing, prefs: &SinkPreferences, presence: Presence) -> Routed {
        let chosen = targets(message.kind, prefs, &self.available(), presence);
        let sinks: Vec<Arc<dyn Sink>> = chosen.iter().filter_map(|id| self.sink(*id)).collect();
        // A message already kept in a conversation (a task's result) is not kept again.
        let mut routed = Routed { message_id: message.message_id, ..Routed::default() };
        let mut shown_on = None;
        let mut held_on = None;
        for sink in sinks {
            if self.holds(&message, sink.as_ref()) && self.count_held(sink.id()).await.unwrap_or(0) > 0 {
                if self.hold(sink.as_ref(), &message, "behind messages still waiting").await {
                    routed.held.push(sink.id());
                    held_on.get_or_insert(sink.channel());
                }
                continue;
            }
            tracing::info!(sink = sink.id().as_str(), kind = ?message.kind, "routing a proactive message");
            match sink.send(&message).await {
                Ok(id) => {
                    if id.is_some() {
                        message.message_id = id;
                        routed.message_id = id;
                    }
                    routed.delivered.push(sink.id());
                    shown_on.get_or_insert(sink.channel());
                }
                Err(error) => {
                    tracing::warn!(sink = sink.id().as_str(), %error, "a sink could not show a proactive message");
                    if self.holds(&message, sink.as_ref()) && self.hold(sink.as_ref(), &message, &error.to_string()).await {
                        routed.held.push(sink.id());
                        held_on.get_or_insert(sink.channel());
                    }
                    routed.failed.push((sink.id(), error.to_string()));
                }
            }
        }
        // The phones the policy picks that are down now (the bridge down, the network gone).
        let registered: Vec<(SinkId, Channel)> = self.sinks().into_iter().map(|(id, channel, _)| (id, channel)).collect();
        for id in targets(message.kind, prefs, &registered, presence).into_iter().filter(|id| !chosen.contains(id)) {
            let Some(sink) = self.sink(id).filter(|sink| self.holds(&message, sink.as_ref())) else { continue };
            if self.hold(sink.as_ref(), &message, "not connected").await {
                routed.held.push(id);
                held_on.get_or_insert(sink.channel());
            }
        }
        routed.channel = shown_on;
        let history = self.history.read().expect("history lock").clone();
        if let (Some(channel), None, Some(history)) = (shown_on.or(held_on), routed.message_id, history) {
            match history.record(&message, channel).await {
                Ok((_, id)) => routed.message_id = Some(id),
                Err(error) => tracing::warn!(%error, "a proactive message was shown but could not be kept in the history"),
            }
        }
        if !routed.held.is_empty() {
            let router = self.clone();
            tokio::spawn(async move { router.deliver_waiting().await });
        }
        routed
    }

    /// Whether `sink` has `message` held in the stored outbox when it cannot take it
    /// now: a linked phone, for a reminder or a task's result. A spontaneous message is about now (a check-in, a
    /// nudge); hours later it is stale, and the loop speaks again when it is worth it.
    fn holds(&self, message: &Outgoing, sink: &dyn Sink) -> bool {
        self.waiting.get().is_some() && message.kind != Kind::Spontaneous && sink.channel().is_phone() && sink.holds_what_it_missed()
    }

    /// Holds `message` in the stored outbox for `sink`; whether it is held now (a
    /// reminder's occurrence held before is not held twice).
    async fn hold(&self, sink: &dyn Sink, message: &Outgoing, why: &str) -> bool {
        let Some(rows) = self.waiting.get() else { return false };
        match rows.hold(sink.id(), message, why).await {
            Ok(held) => {
                tracing::info!(sink = sink.id().as_str(), kind = ?message.kind, why, "a message waits in the outbox for the phone");
                let _ = self.count_held(sink.id()).await;
                held
            }
            Err(error) => {
                tracing::warn!(sink = sink.id().as_str(), %error, "a message for the phone could not be held; it is not sent there");
                false
            }
        }
    }

    /// Sends what waits in the stored outbox to each phone that can take it now, oldest
    /// first, and stops at a phone's first refusal (so the order holds); returns how
    /// many went. Run at each look of [`MessageRouter::deliver_waiting_every`] and after
    /// a message is held.
    pub async fn deliver_waiting(&self) -> usize {
        let Some(rows) = self.waiting.get() else { return 0 };
        let phones: Vec<Arc<dyn Sink>> = self.sinks.read().expect("sinks lock").iter().filter(|s| s.channel().is_phone()).cloned().collect();
        // No phone, nothing to send (this runs every 15 s): not even a query.
        if phones.is_empty() {
            return 0;
        }
        let mut started = self.delivering.lock().await;
        match rows.tidy(!*started).await {
            Ok((0, 0)) => {}
            Ok((freed, 0)) => tracing::info!(freed, "sends to a phone cut off by the last quit are tried again"),
            Ok((freed, too_old)) => tracing::warn!(freed, too_old, "messages held for a phone over a day were dropped (the desktop has them)"),
            Err(error) => tracing::warn!(%error, "the outbox could not be tidied"),
        }
        *started = true;
        let mut sent = 0;
        for sink in phones {
            if sink.available() {
                match deliver_to(rows, sink.as_ref()).await {
                    Ok(count) => sent += count,
                    Err(error) => tracing::warn!(sink = sink.id().as_str(), %error, "the outbox could not be read"),
                }
            }
            let _ = self.count_held(sink.id()).await;
        }
        sent
    }

    /// [`MessageRouter::deliver_waiting`] every `every`, for ever (the assembly's loop).
    pub async fn deliver_waiting_every(self, every: std::time::Duration) {
        loop {
            self.deliver_waiting().await;
            tokio::time::sleep(every).await;
        }
    }
}

/// Sends what waits for `sink`, in order, until it refuses one.
async fn deliver_to(rows: &WaitingRows, sink: &dyn Sink) -> Result<usize, sidecar_store::StoreError> {
    let mut sent = 0;
    while let Some(held) = rows.next(sink.id()).await? {
        rows.sending(held.id).await?;
        match sink.send(&held.message).await {
            Ok(_) => {
                rows.sent(held.id).await?;
                sent += 1;
                tracing::info!(sink = sink.id().as_str(), held_at = %held.held_at, kind = ?held.message.kind, "a message held in the outbox reached the phone");
            }
            Err(error) => {
                rows.failed(held.id, &error.to_string()).await?;
                tracing::warn!(sink = sink.id().as_str(), %error, "the phone still cannot take what waits for it");
                break;
            }
        }
    }
    Ok(sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESKTOP: [(SinkId, Channel); 3] = [(SinkId::Tray, Channel::Desktop), (SinkId::Notification, Channel::Desktop), (SinkId::Chat, Channel::Desktop)];
    const WITH_PHONES: [(SinkId, Channel); 4] = [
        (SinkId::Notification, Channel::Desktop),
        (SinkId::Chat, Channel::Desktop),
        (SinkId::Telegram, Channel::Telegram),
        (SinkId::Whatsapp, Channel::Whatsapp),
    ];

    fn quiet(channel: Channel) -> Presence {
        Presence { quiet_channel: Some(channel), ..Presence::default() }
    }

    fn away(last_active: Option<Channel>) -> Presence {
        Presence { desktop_idle: true, last_active, ..Presence::default() }
    }

    #[test]
    fn reminders_go_to_every_sink_that_takes_them_chat_first() {
        let prefs = SinkPreferences { tray: SinkPreference::None, notification: SinkPreference::RemindersOnly, ..Default::default() };
        assert_eq!(targets(Kind::Reminder, &prefs, &DESKTOP, Presence::default()), [SinkId::Chat, SinkId::Notification]);
        // Quiet here never holds back a reminder: the user asked for it.
        assert_eq!(targets(Kind::Reminder, &prefs, &DESKTOP, quiet(Channel::Desktop)).len(), 2);
    }

    #[test]
    fn spontaneous_messages_go_to_the_primary_only_when_it_takes_all() {
        let prefs = SinkPreferences::default();
        assert_eq!(targets(Kind::Spontaneous, &prefs, &DESKTOP, Presence::default()), [SinkId::Chat]);
        let notify = SinkPreferences { primary: SinkId::Notification, ..Default::default() };
        assert_eq!(targets(Kind::Spontaneous, &notify, &DESKTOP, Presence::default()), [SinkId::Notification]);
        let reminders_only = SinkPreferences { chat: SinkPreference::RemindersOnly, ..Default::default() };
        assert!(targets(Kind::Spontaneous, &reminders_only, &DESKTOP, Presence::default()).is_empty());
        // The primary is not running (the daemon has no chat window): no fallback.
        let console_primary = SinkPreferences { primary: SinkId::Console, ..Default::default() };
        assert!(targets(Kind::Spontaneous, &console_primary, &DESKTOP, Presence::default()).is_empty());
        assert!(targets(Kind::Spontaneous, &prefs, &DESKTOP, quiet(Channel::Desktop)).is_empty());
        assert_eq!(targets(Kind::Spontaneous, &prefs, &DESKTOP, quiet(Channel::Cli)), [SinkId::Chat]);
    }

    #[test]
    fn phones_hear_sidecar_only_while_the_desktop_is_idle() {
        let prefs = SinkPreferences::default();
        // At the desk: the phones stay silent, reminders included.
        assert_eq!(targets(Kind::Reminder, &prefs, &WITH_PHONES, Presence::default()), [SinkId::Chat, SinkId::Notification]);
        assert_eq!(targets(Kind::Spontaneous, &prefs, &WITH_PHONES, Presence::default()), [SinkId::Chat]);
        // Away: a reminder reaches every sink, a spontaneous message the phone last used.
        assert_eq!(targets(Kind::Reminder, &prefs, &WITH_PHONES, away(None)).len(), 4);
        assert_eq!(targets(Kind::Spontaneous, &prefs, &WITH_PHONES, away(Some(Channel::Whatsapp))), [SinkId::Whatsapp]);
        assert_eq!(targets(Kind::Spontaneous, &prefs, &WITH_PHONES, away(Some(Channel::Desktop))), [SinkId::Telegram]);
        // `/quiet here` on the phone keeps it there; the other phone speaks.
        let quiet_tg = Presence { quiet_channel: Some(Channel::Telegram), ..away(Some(Channel::Telegram)) };
        assert_eq!(targets(Kind::Spontaneous, &prefs, &WITH_PHONES, quiet_tg), [SinkId::Whatsapp]);
        // A phone set to reminders-only never gets a spontaneous message.
        let reminders_only = SinkPreferences { telegram: SinkPreference::RemindersOnly, whatsapp: SinkPreference::None, ..Default::default() };
        assert_eq!(targets(Kind::Spontaneous, &reminders_only, &WITH_PHONES, away(Some(Channel::Telegram))), [SinkId::Chat]);
        assert_eq!(targets(Kind::Reminder, &reminders_only, &WITH_PHONES, away(None)), [SinkId::Chat, SinkId::Notification, SinkId::Telegram]);
    }

    #[test]
    fn a_task_s_result_goes_where_reminders_go_but_never_into_the_chat() {
        let prefs = SinkPreferences { tray: SinkPreference::None, ..Default::default() };
        assert_eq!(targets(Kind::Task, &prefs, &DESKTOP, Presence::default()), [SinkId::Notification]);
        // Away from the desk, the phones hear it too.
        assert_eq!(targets(Kind::Task, &prefs, &WITH_PHONES, away(None)), [SinkId::Notification, SinkId::Telegram, SinkId::Whatsapp]);
        assert_eq!(targets(Kind::Task, &prefs, &WITH_PHONES, Presence::default()), [SinkId::Notification]);
    }

    #[test]
    fn a_phone_primary_or_a_headless_daemon_reaches_the_phone_at_once() {
        let phone_primary = SinkPreferences { primary: SinkId::Telegram, ..Default::default() };
        assert_eq!(targets(Kind::Spontaneous, &phone_primary, &WITH_PHONES, Presence::default()), [SinkId::Telegram]);
        assert!(targets(Kind::Reminder, &phone_primary, &WITH_PHONES, Presence::default()).contains(&SinkId::Telegram));
        // `sidecar daemon` with Telegram and no window: nothing at the desk to wait for.
        let headless = [(SinkId::Telegram, Channel::Telegram)];
        assert_eq!(targets(Kind::Reminder, &SinkPreferences::default(), &headless, Presence::default()), [SinkId::Telegram]);
        assert_eq!(targets(Kind::Spontaneous, &SinkPreferences::default(), &headless, Presence::default()), [SinkId::Telegram]);
    }
}
