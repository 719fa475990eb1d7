//! Native desktop notifications and what the user does with them: a
//! click, a snooze button, a dismissal.
//!
//! On Linux the notifications are sent on one D-Bus connection whose listener is
//! subscribed before anything is sent. notify-rust opens a connection per
//! notification and starts listening on it only after showing it, on a thread of its
//! own, so a click within those milliseconds was lost (a fresh-clone CI clicked that
//! fast once), and it has no way to send on a connection of ours. An answer that
//! arrives before its notification's id is known is kept until it is. notify-rust
//! still shows them elsewhere and names the answers.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use notify_rust::{CloseReason, NotificationResponse};
use sidecar_reminders::SNOOZE_CHOICES;

use crate::words::{self, Lang};

/// What the user did with a notification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotificationAction {
    /// Clicked it: open Sidecar on this message (`spontaneous`: one Sidecar sent on its own).
    Open { message_id: Option<i64>, spontaneous: bool },
    /// Pressed a snooze button of a reminder.
    Snooze { reminder_id: i64, minutes: u32 },
    /// Closed a spontaneous message's notification without opening it (the
    /// freedesktop `NotificationClosed` reason 2).
    Dismissed { message_id: Option<i64> },
}

/// What a notification's answer means: a click, a snooze button, or (for a spontaneous
/// message) its dismissal by the user; a notification that expired or was closed by
/// the program says nothing.
pub(crate) fn action_of(response: &NotificationResponse, reminder_id: Option<i64>, message_id: Option<i64>, spontaneous: bool) -> Option<NotificationAction> {
    match response {
        NotificationResponse::Default => Some(NotificationAction::Open { message_id, spontaneous }),
        NotificationResponse::Action(action) if action == "default" => Some(NotificationAction::Open { message_id, spontaneous }),
        NotificationResponse::Action(action) => {
            let minutes = action.strip_prefix("snooze-")?.parse().ok()?;
            Some(NotificationAction::Snooze { reminder_id: reminder_id?, minutes })
        }
        NotificationResponse::Closed(CloseReason::Dismissed) if spontaneous => Some(NotificationAction::Dismissed { message_id }),
        _ => None,
    }
}

/// The freedesktop notifications service and interface.
const SERVICE: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";
/// Answers kept for ids not (yet) known: a service that broadcasts its answers also
/// sends other programs'.
const EARLY_KEPT: usize = 32;

type Handler = Box<dyn FnOnce(&NotificationResponse) + Send>;

/// Shows notifications and hands each one's answer to the closure it was shown with.
/// One per process (the companion owns it); it connects at the first notification.
#[derive(Default)]
pub struct Notifier {
    pending: Arc<Mutex<Pending>>,
    /// The connection every notification is sent on; services (dunst among them)
    /// address the answers to the connection that asked.
    #[cfg(all(unix, not(target_os = "macos")))]
    bus: Arc<Mutex<Option<zbus::Connection>>>,
}

/// The notification service did not take a notification; its own words follow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("could not show a notification ({0}); is a notification service running?")]
pub struct NotifyError(pub String);

impl Notifier {
    pub fn new() -> Self {
        Self::default()
    }

    /// Shows one notification; returns once the notification service accepted it.
    /// `on_action` runs on the listener's thread when the user answers.
    #[allow(clippy::too_many_arguments)]
    pub fn show(
        &self,
        title: &str,
        body: &str,
        reminder_id: Option<i64>,
        message_id: Option<i64>,
        spontaneous: bool,
        lang: Lang,
        on_action: Arc<dyn Fn(NotificationAction) + Send + Sync>,
    ) -> Result<(), NotifyError> {
        let handler: Handler = Box::new(move |response| {
            if let Some(chosen) = action_of(response, reminder_id, message_id, spontaneous) {
                on_action(chosen);
            }
        });
        #[cfg(all(unix, not(target_os = "macos")))]
        {
            let mut actions = vec!["default".to_string(), words::proactive::open_label(lang).to_string()];
            if reminder_id.is_some() {
                for minutes in SNOOZE_CHOICES {
                    actions.extend([format!("snooze-{minutes}"), words::proactive::snooze_label(lang, minutes)]);
                }
            }
            let id = self.notify(title, body, &actions).map_err(|e| NotifyError(e.to_string()))?;
            let ready = self.pending.lock().expect("notification answers").expect(id, handler);
            if let Some((handler, response)) = ready {
                handler(&response);
            }
        }
        #[cfg(not(all(unix, not(target_os = "macos"))))]
        {
            let _ = (lang, handler);
            notify_rust::Notification::new().appname("Sidecar").summary(title).body(body).show().map_err(|e| NotifyError(e.to_string()))?;
        }
        Ok(())
    }

    /// Sends `Notify` on the listening connection (connecting first if needed).
    #[cfg(all(unix, not(target_os = "macos")))]
    fn notify(&self, title: &str, body: &str, actions: &[String]) -> zbus::Result<u32> {
        let connection = self.connection()?;
        let hints: HashMap<&str, zbus::OwnedVariant> = HashMap::new();
        // -1: the service's own expiry.
        let arguments = ("Sidecar", 0u32, "", title, body, actions, hints, -1i32);
        futures_lite::future::block_on(connection.call_method(Some(SERVICE), PATH, Some(SERVICE), "Notify", &arguments))?.body().deserialize()
    }

    /// The connection, with its listener subscribed before anything is sent on it; a
    /// new one when the last one's stream ended (the bus went away).
    #[cfg(all(unix, not(target_os = "macos")))]
    fn connection(&self) -> zbus::Result<zbus::Connection> {
        let mut bus = self.bus.lock().expect("notification connection");
        if let Some(connection) = bus.as_ref() {
            return Ok(connection.clone());
        }
        let (connection, answers) = futures_lite::future::block_on(subscribe())?;
        let (pending, gone) = (self.pending.clone(), self.bus.clone());
        let listening = std::thread::Builder::new().name("notification-answers".into()).spawn(move || {
            futures_lite::future::block_on(async move {
                use futures_util::StreamExt;
                let mut answers = answers;
                while let Some(Ok(message)) = answers.next().await {
                    let Some((id, response)) = answer_in(&message) else { continue };
                    let ready = pending.lock().expect("notification answers").answered(id, response);
                    if let Some((handler, response)) = ready {
                        handler(&response);
                    }
                }
                tracing::debug!("the notification answers' stream ended");
                *gone.lock().expect("notification connection") = None;
            })
        });
        listening.map_err(|e| zbus::Error::Failure(format!("cannot start the notification listener: {e}")))?;
        *bus = Some(connection.clone());
        Ok(connection)
    }
}

/// A session bus connection and the stream of the notification service's signals on
/// it, subscribed before the connection sends anything.
#[cfg(all(unix, not(target_os = "macos")))]
async fn subscribe() -> zbus::Result<(zbus::Connection, zbus::MessageStream)> {
    let connection = zbus::Connection::session().await?;
    let rule = zbus::MatchRule::builder().msg_type(zbus::message::Type::Signal).interface(SERVICE).build()?;
    let answers = zbus::MessageStream::for_match_rule(rule, &connection, None).await?;
    Ok((connection, answers))
}

/// The notification id and answer a signal carries, if it is one.
#[cfg(all(unix, not(target_os = "macos")))]
fn answer_in(message: &zbus::Message) -> Option<(u32, NotificationResponse)> {
    let header = message.header();
    match header.member()?.as_str() {
        "ActionInvoked" => {
            let (id, action) = message.body().deserialize::<(u32, String)>().ok()?;
            Some((id, if action == "default" { NotificationResponse::Default } else { NotificationResponse::Action(action) }))
        }
        "NotificationClosed" => {
            let (id, reason) = message.body().deserialize::<(u32, u32)>().ok()?;
            Some((id, NotificationResponse::Closed(CloseReason::from(reason))))
        }
        _ => None,
    }
}

/// The notifications waiting for an answer, and answers that came before their id
/// was known. Each notification is answered once: its first answer wins.
#[derive(Default)]
struct Pending {
    waiting: HashMap<u32, Handler>,
    early: VecDeque<(u32, NotificationResponse)>,
}

impl Pending {
    /// Waits for `id`'s answer; returns the handler with the answer if it came first.
    fn expect(&mut self, id: u32, handler: Handler) -> Option<(Handler, NotificationResponse)> {
        match self.early.iter().position(|(early, _)| *early == id) {
            Some(at) => {
                let (_, response) = self.early.remove(at)?;
                Some((handler, response))
            }
            None => {
                self.waiting.insert(id, handler);
                None
            }
        }
    }

    /// An answer heard: returns the handler it is for, or keeps it for a while.
    fn answered(&mut self, id: u32, response: NotificationResponse) -> Option<(Handler, NotificationResponse)> {
        if let Some(handler) = self.waiting.remove(&id) {
            return Some((handler, response));
        }
        if !self.early.iter().any(|(early, _)| *early == id) {
            if self.early.len() == EARLY_KEPT {
                self.early.pop_front();
            }
            self.early.push_back((id, response));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use notify_rust::{CloseReason, NotificationResponse};

    use super::{action_of, Handler, NotificationAction, Pending, EARLY_KEPT};

    #[test]
    fn a_click_opens_a_button_snoozes_and_only_the_users_own_close_of_a_spontaneous_message_is_a_dismissal() {
        let open = action_of(&NotificationResponse::Default, None, Some(4), true);
        assert_eq!(open, Some(NotificationAction::Open { message_id: Some(4), spontaneous: true }));
        let snooze = action_of(&NotificationResponse::Action("snooze-15".into()), Some(9), None, false);
        assert_eq!(snooze, Some(NotificationAction::Snooze { reminder_id: 9, minutes: 15 }));
        assert_eq!(
            action_of(&NotificationResponse::Closed(CloseReason::Dismissed), None, Some(4), true),
            Some(NotificationAction::Dismissed { message_id: Some(4) })
        );
        assert_eq!(action_of(&NotificationResponse::Closed(CloseReason::Dismissed), Some(9), None, false), None, "a reminder's dismissal teaches nothing");
        assert_eq!(action_of(&NotificationResponse::Closed(CloseReason::Expired), None, Some(4), true), None, "it timed out: the user did nothing");
    }

    fn recorder() -> (Arc<Mutex<Vec<NotificationResponse>>>, impl Fn() -> Handler) {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let make = {
            let heard = heard.clone();
            move || -> Handler {
                let heard = heard.clone();
                Box::new(move |response: &NotificationResponse| heard.lock().unwrap().push(response.clone()))
            }
        };
        (heard, make)
    }

    fn run(ready: Option<(Handler, NotificationResponse)>) {
        if let Some((handler, response)) = ready {
            handler(&response);
        }
    }

    #[test]
    fn an_answer_is_handed_over_whether_it_comes_before_or_after_the_notifications_id_is_known() {
        let (heard, handler) = recorder();
        let mut pending = Pending::default();
        run(pending.expect(7, handler()));
        run(pending.answered(7, NotificationResponse::Default));
        // The click that came before `show` returned the id.
        run(pending.answered(8, NotificationResponse::Action("snooze-5".into())));
        run(pending.expect(8, handler()));
        assert_eq!(*heard.lock().unwrap(), vec![NotificationResponse::Default, NotificationResponse::Action("snooze-5".into())]);
        // Answered once: the close that follows a click goes nowhere.
        run(pending.answered(7, NotificationResponse::Closed(CloseReason::Dismissed)));
        assert_eq!(heard.lock().unwrap().len(), 2);
    }

    #[test]
    fn other_programs_answers_are_kept_only_for_a_while() {
        let (heard, handler) = recorder();
        let mut pending = Pending::default();
        for id in 100..100 + EARLY_KEPT as u32 * 3 {
            run(pending.answered(id, NotificationResponse::Default));
        }
        assert_eq!(pending.early.len(), EARLY_KEPT);
        run(pending.expect(100, handler()));
        assert!(heard.lock().unwrap().is_empty(), "the oldest early answer was let go");
        run(pending.expect(100 + EARLY_KEPT as u32 * 3 - 1, handler()));
        assert_eq!(heard.lock().unwrap().len(), 1, "the newest is still kept");
    }
}
