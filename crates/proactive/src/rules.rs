//! The rules of speaking first, in code rather than in the prompt (P1, P4, P7, P11,
//! P13, P14, P15): checks before the model is asked, and checks of its answer before
//! anything is sent. Pure functions of the time, the config and the state.

use chrono::{DateTime, Timelike, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use super::config::{Level, ProactiveConfig, COOLDOWN, FRESHNESS, MAX_PER_HOUR, USER_ACTIVE};
use super::state::ProactiveState;

pub use super::greeting::greeting_window;
pub(crate) use super::greeting::GreetingKind;
pub use sidecar_outbox::MessageType;

/// Why a tick ended without asking the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    LevelLow,
    CircuitBreaker,
    Quiet,
    QuietHours,
    HourlyLimit,
    DailyLimit,
    Cooldown,
    UserActive,
    /// A reply is being written (the brain lock is held): no queueing, the next tick
    /// tries again (P7).
    BrainBusy,
    /// No sink takes spontaneous messages (the primary is set to reminders only or none).
    NoSink,
    /// No kind of message is welcome on the channel now (what was learned).
    NotWelcome,
    /// The desktop is set to Do Not Disturb and the message would go there.
    DoNotDisturb,
    /// The user's calendar has a busy event under way (a meeting).
    InAnEvent,
}

impl Skip {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Skip::LevelLow => "level_low",
            Skip::CircuitBreaker => "circuit_breaker",
            Skip::Quiet => "quiet",
            Skip::QuietHours => "quiet_hours",
            Skip::HourlyLimit => "hourly_limit",
            Skip::DailyLimit => "daily_limit",
            Skip::Cooldown => "cooldown",
            Skip::UserActive => "user_recently_active",
            Skip::BrainBusy => "brain_busy",
            Skip::NoSink => "no_sink",
            Skip::NotWelcome => "not_welcome_now",
            Skip::DoNotDisturb => "do_not_disturb",
            Skip::InAnEvent => "in_an_event",
        }
    }
}

/// The checks before the model is asked, cheapest and firmest first. `state` must have
/// had its counters rolled to `now`.
pub(crate) fn precheck(
    config: &ProactiveConfig,
    state: &ProactiveState,
    now: DateTime<Utc>,
    zone: Tz,
    last_user_at: Option<DateTime<Utc>>,
) -> Result<(), Skip> {
    if config.level == Level::Low {
        return Err(Skip::LevelLow);
    }
    if state.circuit_open_until.is_some_and(|until| now < until) {
        return Err(Skip::CircuitBreaker);
    }
    if state.quiet_until.is_some_and(|until| now < until) && state.quiet_channel.is_none() {
        return Err(Skip::Quiet);
    }
    if config.quiet_hours.contains(now.with_timezone(&zone).time()) {
        return Err(Skip::QuietHours);
    }
    if state.count_this_hour >= MAX_PER_HOUR {
        return Err(Skip::HourlyLimit);
    }
    if state.count_today >= config.level.max_per_day() {
        return Err(Skip::DailyLimit);
    }
    if state.last_spontaneous_at.is_some_and(|last| now - last < COOLDOWN) {
        return Err(Skip::Cooldown);
    }
    if last_user_at.is_some_and(|last| now - last < USER_ACTIVE) {
        return Err(Skip::UserActive);
    }
    Ok(())
}

/// The model's decision as it answered it.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub(crate) struct Decision {
    #[serde(rename = "shouldSpeak")]
    pub should_speak: bool,
    #[serde(default)]
    pub reason: String,
    #[serde(rename = "messageType", default)]
    pub message_type: Option<String>,
    #[serde(rename = "suggestedMessage", default)]
    pub message: Option<String>,
}

/// Why a decision to speak was not carried out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", content = "detail", rename_all = "snake_case")]
pub enum Block {
    /// The answer was not the JSON asked for.
    Malformed(String),
    /// `messageType` was not greeting, checkin or contextual (P14).
    InvalidMessageType(String),
    EmptyMessage,
    /// A greeting outside 08–10, 14–16, 18–20 (P11).
    GreetingOutsideWindow,
    /// This window's greeting was already sent today (P8).
    GreetingAlreadySent,
    /// The user wrote while the model was deciding (P15).
    UserBecameActive,
    /// The model chose a kind that is not welcome on the channel now.
    KindNotWelcome(String),
}

impl Block {
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            Block::Malformed(_) => "malformed_decision",
            Block::InvalidMessageType(_) => "invalid_message_type",
            Block::EmptyMessage => "empty_message",
            Block::GreetingOutsideWindow => "greeting_outside_window",
            Block::GreetingAlreadySent => "greeting_already_sent",
            Block::UserBecameActive => "user_became_active_during_llm",
            Block::KindNotWelcome(_) => "kind_not_welcome",
        }
    }
}

/// A decision that passed every check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Approved {
    pub message_type: MessageType,
    pub greeting: Option<GreetingKind>,
    pub text: String,
}

/// Checks a decision to speak against the rules the model was told (defence in depth).
pub(crate) fn validate(decision: &Decision, state: &ProactiveState, now: DateTime<Utc>, zone: Tz) -> Result<Approved, Block> {
    let Some(message_type) = decision.message_type.as_deref().and_then(MessageType::named) else {
        let named = decision.message_type.as_deref().map(|t| t.trim().to_lowercase());
        return Err(Block::InvalidMessageType(named.unwrap_or_else(|| "null".into())));
    };
    let text = decision.message.as_deref().map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Err(Block::EmptyMessage);
    }
    let greeting = match message_type {
        MessageType::Greeting => {
            let window = greeting_window(now.with_timezone(&zone).hour()).ok_or(Block::GreetingOutsideWindow)?;
            if state.greeted_today(window, now, zone).is_some() {
                return Err(Block::GreetingAlreadySent);
            }
            Some(window)
        }
        _ => None,
    };
    Ok(Approved { message_type, greeting, text: text.to_string() })
}

/// P15: the user's latest message, read again after the model answered, is not so
/// recent that speaking now would talk over them.
pub(crate) fn still_quiet(last_user_at: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    last_user_at.is_none_or(|last| now - last >= FRESHNESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const ZONE: Tz = chrono_tz::Europe::Madrid;

    fn local(h: u32, m: u32) -> DateTime<Utc> {
        ZONE.with_ymd_and_hms(2026, 11, 23, h, m, 0).unwrap().with_timezone(&Utc)
    }

    fn decision(kind: &str, text: &str) -> Decision {
        Decision { should_speak: true, reason: "x".into(), message_type: Some(kind.into()), message: Some(text.into()) }
    }

    #[test]
    fn each_rule_skips_before_the_model() {
        let config = ProactiveConfig::default();
        let fresh = ProactiveState::default();
        let noon = local(12, 0);
        assert_eq!(precheck(&config, &fresh, noon, ZONE, None), Ok(()));
        let low = ProactiveConfig { level: Level::Low, ..config.clone() };
        assert_eq!(precheck(&low, &fresh, noon, ZONE, None), Err(Skip::LevelLow));
        assert_eq!(precheck(&config, &fresh, local(23, 0), ZONE, None), Err(Skip::QuietHours));
        assert_eq!(precheck(&config, &fresh, local(7, 59), ZONE, None), Err(Skip::QuietHours));
        let breaker = ProactiveState { circuit_open_until: Some(noon + chrono::Duration::minutes(1)), ..fresh.clone() };
        assert_eq!(precheck(&config, &breaker, noon, ZONE, None), Err(Skip::CircuitBreaker));
        let quiet = ProactiveState { quiet_until: Some(noon + chrono::Duration::minutes(1)), ..fresh.clone() };
        assert_eq!(precheck(&config, &quiet, noon, ZONE, None), Err(Skip::Quiet));
        let hour = ProactiveState { count_this_hour: 2, ..fresh.clone() };
        assert_eq!(precheck(&config, &hour, noon, ZONE, None), Err(Skip::HourlyLimit));
        let day = ProactiveState { count_today: 4, ..fresh.clone() };
        assert_eq!(precheck(&config, &day, noon, ZONE, None), Err(Skip::DailyLimit));
        let high = ProactiveConfig { level: Level::High, ..config.clone() };
        assert_eq!(precheck(&high, &day, noon, ZONE, None), Ok(()));
        let recent = ProactiveState { last_spontaneous_at: Some(noon - chrono::Duration::minutes(29)), ..fresh.clone() };
        assert_eq!(precheck(&config, &recent, noon, ZONE, None), Err(Skip::Cooldown));
        assert_eq!(precheck(&config, &fresh, noon, ZONE, Some(noon - chrono::Duration::minutes(9))), Err(Skip::UserActive));
        assert_eq!(precheck(&config, &fresh, noon, ZONE, Some(noon - chrono::Duration::minutes(11))), Ok(()));
    }

    #[test]
    fn greetings_only_in_their_window_and_once_a_day() {
        let state = ProactiveState::default();
        // P11: 10:15 is past the morning window.
        assert_eq!(validate(&decision("greeting", "Buenos días"), &state, local(10, 15), ZONE), Err(Block::GreetingOutsideWindow));
        let approved = validate(&decision("greeting", "Buenos días"), &state, local(8, 15), ZONE).unwrap();
        assert_eq!(approved.greeting, Some(GreetingKind::Morning));
        let mut greeted = state.clone();
        greeted.mark_sent(local(8, 15), ZONE, approved.greeting);
        assert_eq!(validate(&decision("greeting", "Hola otra vez"), &greeted, local(9, 30), ZONE), Err(Block::GreetingAlreadySent));
        // Another kind the same day is fine, and the morning is free again tomorrow.
        assert!(validate(&decision("greeting", "Buenas tardes"), &greeted, local(14, 5), ZONE).is_ok());
        assert!(validate(&decision("greeting", "Buenos días"), &greeted, local(8, 5) + chrono::Duration::days(1), ZONE).is_ok());
    }

    #[test]
    fn invalid_types_and_empty_messages_are_blocked() {
        let state = ProactiveState::default();
        assert_eq!(validate(&decision("random", "hi"), &state, local(12, 0), ZONE), Err(Block::InvalidMessageType("random".into())));
        let none = Decision { message_type: None, ..decision("x", "hi") };
        assert_eq!(validate(&none, &state, local(12, 0), ZONE), Err(Block::InvalidMessageType("null".into())));
        assert_eq!(validate(&decision("checkin", "  "), &state, local(12, 0), ZONE), Err(Block::EmptyMessage));
        assert_eq!(validate(&decision("Check-in", "¿Qué tal?"), &state, local(12, 0), ZONE).unwrap().message_type, MessageType::Checkin);
    }

    #[test]
    fn a_user_message_during_the_model_call_cancels_the_send() {
        let now = local(12, 0);
        assert!(!still_quiet(Some(now - chrono::Duration::seconds(20)), now));
        assert!(still_quiet(Some(now - chrono::Duration::minutes(2)), now));
        assert!(still_quiet(None, now));
    }
}
