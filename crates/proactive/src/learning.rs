//! What Sidecar learns of how welcome its spontaneous messages are (the plans' P1
//! "future": implicit feedback). Each message sent waits for a sign: an answer within
//! [`ANSWER_WINDOW`] on any channel, a click, a thumbs up or down, a notification the
//! user closed, or silence. Each kind of message on each channel has an allowance: a
//! silence, a dismissal or a thumbs down halves it, an answer, a click or a thumbs up
//! brings it back whole. Below whole, a kind waits longer between messages; ignored
//! [`PAUSE_AFTER`] times in a row it pauses for [`PAUSE`], and says so once.
//! Pure: the service keeps it in the proactive state and applies what it says.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use sidecar_domain::Channel;
use sidecar_outbox::MessageType;

/// A user message this soon after a spontaneous one answers it.
pub(crate) const ANSWER_WINDOW: Duration = Duration::hours(2);
/// Ignored this many times in a row, a kind pauses.
pub(crate) const PAUSE_AFTER: u32 = 5;
pub(crate) const PAUSE: Duration = Duration::days(7);
/// The smallest allowance: one message of the kind every few days, never none (the
/// pause is the only "none", and it ends).
const FLOOR: f64 = 1.0 / 16.0;
/// A channel's record of a message and the tick's differ by the time sending took.
const SAME_SENDING: Duration = Duration::minutes(5);
/// Spontaneous messages waiting for a sign, at most.
const PENDING: usize = 32;

/// A sign of how a spontaneous message was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Signal {
    Answered,
    Opened,
    ThumbsUp,
    Ignored,
    Dismissed,
    ThumbsDown,
}

impl Signal {
    fn welcome(self) -> bool {
        matches!(self, Signal::Answered | Signal::Opened | Signal::ThumbsUp)
    }
}

/// One kind of message on one channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct KindLearned {
    pub kind: MessageType,
    pub channel: Channel,
    /// 1 is whole; each unwelcome sign halves it.
    pub allowance: f64,
    /// Unwelcome signs in a row.
    pub unwelcome_in_a_row: u32,
    pub paused_until: Option<DateTime<Utc>>,
    pub last_sent: Option<DateTime<Utc>>,
    pub welcome: u32,
    pub unwelcome: u32,
}

/// A message sent and not yet taken one way or another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Pending {
    pub message_id: Option<i64>,
    pub kind: MessageType,
    pub channel: Channel,
    pub sent_at: DateTime<Utc>,
}

/// Something worth telling the user about what was learned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) enum Learnt {
    /// A kind on a channel pauses until then.
    Paused { kind: MessageType, channel: Channel, until: DateTime<Utc> },
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(default)]
pub struct Learned {
    #[serde(deserialize_with = "known_kinds")]
    pub kinds: Vec<KindLearned>,
    #[serde(deserialize_with = "known_kinds")]
    pub pending: Vec<Pending>,
}

/// Reads a stored list, leaving out entries of a kind this build does not know (an
/// older build kept a program's notes as "connection"): one such entry must not cost
/// the rest of what was learned, which a failed read of the whole state would.
fn known_kinds<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let stored = Vec::<serde_json::Value>::deserialize(deserializer)?;
    Ok(stored.into_iter().filter_map(|entry| serde_json::from_value(entry).ok()).collect())
}

impl Learned {
    fn entry(&mut self, kind: MessageType, channel: Channel) -> &mut KindLearned {
        if let Some(i) = self.kinds.iter().position(|k| k.kind == kind && k.channel == channel) {
            return &mut self.kinds[i];
        }
        self.kinds.push(KindLearned { kind, channel, allowance: 1.0, unwelcome_in_a_row: 0, paused_until: None, last_sent: None, welcome: 0, unwelcome: 0 });
        self.kinds.last_mut().expect("just pushed")
    }

    /// A spontaneous message went out: it waits for a sign.
    pub(crate) fn sent(&mut self, kind: MessageType, channel: Channel, message_id: Option<i64>, now: DateTime<Utc>) {
        self.entry(kind, channel).last_sent = Some(now);
        self.pending.push(Pending { message_id, kind, channel, sent_at: now });
        if self.pending.len() > PENDING {
            self.pending.remove(0);
        }
    }

    /// Applies `signal` to a kind on a channel; says when the kind pauses.
    pub(crate) fn observe(&mut self, kind: MessageType, channel: Channel, signal: Signal, now: DateTime<Utc>) -> Option<Learnt> {
        let entry = self.entry(kind, channel);
        if signal.welcome() {
            entry.allowance = 1.0;
            entry.unwelcome_in_a_row = 0;
            entry.paused_until = None;
            entry.welcome += 1;
            return None;
        }
        entry.allowance = (entry.allowance / 2.0).max(FLOOR);
        entry.unwelcome_in_a_row += 1;
        entry.unwelcome += 1;
        if entry.unwelcome_in_a_row == PAUSE_AFTER {
            let until = now + PAUSE;
            entry.paused_until = Some(until);
            return Some(Learnt::Paused { kind, channel, until });
        }
        None
    }

    /// The user wrote at `now`: every message sent within the answer window is answered.
    pub(crate) fn user_wrote(&mut self, now: DateTime<Utc>) {
        let (answered, rest): (Vec<Pending>, Vec<Pending>) = self.pending.drain(..).partition(|p| p.sent_at <= now && now - p.sent_at <= ANSWER_WINDOW);
        self.pending = rest;
        for p in answered {
            self.observe(p.kind, p.channel, Signal::Answered, now);
        }
    }

    /// The user told Sidecar off ("cállate", "not so much"): the kind sent last, if it
    /// was sent within the answer window, takes it as a thumbs down, even when the
    /// words themselves were counted as an answer.
    pub(crate) fn told_off(&mut self, now: DateTime<Utc>) -> Option<Learnt> {
        let last = self.kinds.iter().filter(|k| k.last_sent.is_some_and(|at| at <= now && now - at <= ANSWER_WINDOW)).max_by_key(|k| k.last_sent)?;
        let (kind, channel) = (last.kind, last.channel);
        self.pending.retain(|p| !(p.kind == kind && p.channel == channel));
        self.observe(kind, channel, Signal::ThumbsDown, now)
    }

    /// Messages whose answer window passed without a word were ignored.
    pub(crate) fn expire(&mut self, now: DateTime<Utc>) -> Vec<Learnt> {
        let (ignored, rest): (Vec<Pending>, Vec<Pending>) = self.pending.drain(..).partition(|p| now - p.sent_at > ANSWER_WINDOW);
        self.pending = rest;
        ignored.into_iter().filter_map(|p| self.observe(p.kind, p.channel, Signal::Ignored, now)).collect()
    }

    /// A sign about one message (a click, a thumb, a closed notification): the kind and
    /// channel it was sent as, whether or not it still waits.
    pub(crate) fn signal_for(&mut self, message_id: i64, kind: MessageType, channel: Channel, signal: Signal, now: DateTime<Utc>) -> Option<Learnt> {
        self.pending.retain(|p| p.message_id != Some(message_id));
        self.observe(kind, channel, signal, now)
    }

    /// A sign about a message a channel delivered, known there by its kind and when it
    /// went (a reaction on Telegram): the one of that kind sent then stops waiting.
    pub(crate) fn signal_sent(&mut self, kind: MessageType, channel: Channel, sent_at: DateTime<Utc>, signal: Signal, now: DateTime<Utc>) -> Option<Learnt> {
        let distance = |p: &Pending| (p.sent_at - sent_at).num_seconds().abs();
        let same = self
            .pending
            .iter()
            .enumerate()
            .filter(|(_, p)| p.kind == kind && p.channel == channel && distance(p) <= SAME_SENDING.num_seconds())
            .min_by_key(|(_, p)| distance(p))
            .map(|(i, _)| i);
        if let Some(at) = same {
            self.pending.remove(at);
        }
        self.observe(kind, channel, signal, now)
    }

    /// A sign about the latest message still waiting on `channel` (a notification whose
    /// message is not known by id).
    pub(crate) fn signal_latest(&mut self, channel: Channel, signal: Signal, now: DateTime<Utc>) -> Option<Learnt> {
        let at = self.pending.iter().rposition(|p| p.channel == channel)?;
        let latest = self.pending.remove(at);
        self.observe(latest.kind, latest.channel, signal, now)
    }

    /// Whether some message's answer window has passed (so [`Learned::expire`] has work).
    pub(crate) fn due_to_expire(&self, now: DateTime<Utc>) -> bool {
        self.pending.iter().any(|p| now - p.sent_at > ANSWER_WINDOW)
    }

    /// Whether a message of `kind` may go to `channel` now: not paused, and (below a
    /// whole allowance) long enough since the last one. `gap` is the level's spacing
    /// at a whole allowance (a day over its daily cap).
    pub(crate) fn allows(&self, kind: MessageType, channel: Channel, gap: Duration, now: DateTime<Utc>) -> bool {
        let Some(entry) = self.kinds.iter().find(|k| k.kind == kind && k.channel == channel) else { return true };
        if entry.paused_until.is_some_and(|until| now < until) {
            return false;
        }
        let wait = gap.num_seconds() as f64 * (1.0 / entry.allowance - 1.0);
        entry.last_sent.is_none_or(|last| (now - last).num_seconds() as f64 >= wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(hours: i64) -> DateTime<Utc> {
        DateTime::<Utc>::from_timestamp(1_800_000_000, 0).unwrap() + Duration::hours(hours)
    }

    #[test]
    fn a_stored_entry_of_a_kind_not_known_is_left_out_and_the_rest_is_kept() {
        let stored = r#"{"kinds":[
            {"kind":"connection","channel":"telegram","allowance":0.5,"unwelcome_in_a_row":1,"paused_until":null,"last_sent":null,"welcome":0,"unwelcome":1},
            {"kind":"checkin","channel":"desktop","allowance":0.25,"unwelcome_in_a_row":2,"paused_until":null,"last_sent":null,"welcome":0,"unwelcome":2}],
            "pending":[{"message_id":7,"kind":"connection","channel":"telegram","sent_at":"2026-11-20T10:00:00Z"}]}"#;
        let learned: Learned = serde_json::from_str(stored).unwrap();
        assert_eq!(learned.kinds.len(), 1);
        assert_eq!((learned.kinds[0].kind, learned.kinds[0].allowance), (MessageType::Checkin, 0.25));
        assert!(learned.pending.is_empty());
    }

    #[test]
    fn silence_halves_the_allowance_and_five_in_a_row_pause_for_a_week() {
        let mut learned = Learned::default();
        let gap = Duration::hours(6);
        for i in 0..4 {
            learned.sent(MessageType::Checkin, Channel::Desktop, None, at(i * 24));
            assert!(learned.expire(at(i * 24 + 3)).is_empty());
        }
        let entry = &learned.kinds[0];
        assert_eq!((entry.allowance, entry.unwelcome_in_a_row), (1.0 / 16.0, 4));
        assert!(!learned.allows(MessageType::Checkin, Channel::Desktop, gap, at(3 * 24 + 50)), "waits 90 hours at 1/16");
        assert!(learned.allows(MessageType::Checkin, Channel::Telegram, gap, at(3 * 24 + 4)), "another channel learned nothing");
        learned.sent(MessageType::Checkin, Channel::Desktop, None, at(200));
        let said = learned.expire(at(203));
        assert!(matches!(&said[..], [Learnt::Paused { until, .. }] if *until == at(203) + PAUSE));
        assert!(!learned.allows(MessageType::Checkin, Channel::Desktop, gap, at(300)));
        assert!(learned.allows(MessageType::Greeting, Channel::Desktop, gap, at(300)));
    }

    #[test]
    fn an_answer_within_two_hours_on_any_channel_brings_the_kind_back() {
        let mut learned = Learned::default();
        learned.sent(MessageType::Greeting, Channel::Telegram, Some(7), at(0));
        learned.expire(at(3));
        learned.sent(MessageType::Greeting, Channel::Telegram, Some(8), at(24));
        learned.user_wrote(at(25));
        assert!(learned.pending.is_empty());
        assert_eq!((learned.kinds[0].allowance, learned.kinds[0].welcome), (1.0, 1));
        learned.sent(MessageType::Greeting, Channel::Telegram, Some(9), at(48));
        learned.signal_for(9, MessageType::Greeting, Channel::Telegram, Signal::ThumbsDown, at(48));
        assert!(learned.pending.is_empty() && learned.kinds[0].allowance == 0.5);
        // "Cállate" right after one is no answer, even if the words were counted as one.
        learned.sent(MessageType::Checkin, Channel::Desktop, Some(10), at(60));
        learned.user_wrote(at(60) + Duration::minutes(3));
        learned.told_off(at(60) + Duration::minutes(3));
        let checkin = learned.kinds.iter().find(|k| k.kind == MessageType::Checkin).unwrap();
        assert_eq!((checkin.allowance, checkin.unwelcome), (0.5, 1));
        assert!(learned.told_off(at(70)).is_none(), "nothing was sent in the last two hours");
    }

    #[test]
    fn a_reaction_settles_the_message_of_its_kind_sent_then_and_no_other() {
        let mut learned = Learned::default();
        learned.sent(MessageType::Greeting, Channel::Telegram, Some(1), at(0));
        learned.sent(MessageType::Checkin, Channel::Telegram, Some(2), at(5));
        learned.sent(MessageType::Checkin, Channel::Whatsapp, Some(3), at(5));
        learned.signal_sent(MessageType::Checkin, Channel::Telegram, at(5) + Duration::seconds(2), Signal::ThumbsUp, at(6));
        assert_eq!(learned.pending.iter().map(|p| p.message_id).collect::<Vec<_>>(), [Some(1), Some(3)]);
        // Days later, the message no longer waits: the sign still teaches its kind.
        learned.signal_sent(MessageType::Greeting, Channel::Telegram, at(0), Signal::ThumbsDown, at(90));
        let greeting = learned.kinds.iter().find(|k| k.kind == MessageType::Greeting).unwrap();
        assert_eq!((greeting.allowance, greeting.unwelcome), (0.5, 1));
        assert_eq!(learned.pending.len(), 1);
    }
}
