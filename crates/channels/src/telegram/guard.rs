//! Strangers and guessers at the bot's door. A six-digit code can be guessed if guesses
//! are free: after `MAX_WRONG_CODES` wrong codes the live code is voided and pairing
//! stays locked for `LOCKOUT` (the desk is told); a stranger is answered at most once
//! per `STRANGER_QUIET`, so the bot is not a reply machine for anyone who finds it.
//! Pure state: the channel feeds it what arrived and when.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

/// Wrong codes before the live code is voided and pairing locked.
pub(crate) const MAX_WRONG_CODES: u32 = 5;
/// How long pairing stays locked after too many wrong codes.
pub(crate) const LOCKOUT: Duration = Duration::minutes(15);
/// A stranger is answered at most once in this long.
pub(crate) const STRANGER_QUIET: Duration = Duration::hours(24);
/// Strangers remembered at most (the oldest are forgotten first).
const REMEMBERED: usize = 10_000;

/// What the guard says about a wrong code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WrongCode {
    /// Say it was wrong.
    Tell,
    /// This one locked pairing: the live code is void, and the desk must hear of it.
    Locked,
    /// Pairing was already locked: say so at most once a day.
    WhileLocked,
}

#[derive(Debug, Default)]
pub(crate) struct PairingGuard {
    wrong: u32,
    locked_until: Option<DateTime<Utc>>,
    answered: HashMap<i64, DateTime<Utc>>,
}

impl PairingGuard {
    /// Pairing is locked now: no code is accepted.
    pub(crate) fn locked(&self, now: DateTime<Utc>) -> bool {
        self.locked_until.is_some_and(|until| now < until)
    }

    /// A wrong (or any, while locked) code arrived.
    pub(crate) fn wrong_code(&mut self, now: DateTime<Utc>) -> WrongCode {
        if self.locked(now) {
            return WrongCode::WhileLocked;
        }
        self.wrong += 1;
        if self.wrong >= MAX_WRONG_CODES {
            self.wrong = 0;
            self.locked_until = Some(now + LOCKOUT);
            return WrongCode::Locked;
        }
        WrongCode::Tell
    }

    /// Whether to answer a stranger in `chat` now; counts as answered when true.
    pub(crate) fn may_answer(&mut self, chat: i64, now: DateTime<Utc>) -> bool {
        if self.answered.get(&chat).is_some_and(|at| now - *at < STRANGER_QUIET) {
            return false;
        }
        if self.answered.len() >= REMEMBERED {
            self.answered.retain(|_, at| now - *at < STRANGER_QUIET);
        }
        if self.answered.len() < REMEMBERED {
            self.answered.insert(chat, now);
        }
        true
    }

    /// `chat` paired: it is no stranger, and the wrong codes before it are forgiven.
    pub(crate) fn paired(&mut self, chat: i64) {
        self.answered.remove(&chat);
        self.wrong = 0;
    }

    /// The user asked for a fresh code at the desk: a new start, lock lifted.
    pub(crate) fn fresh_code(&mut self) {
        self.wrong = 0;
        self.locked_until = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minutes: i64) -> DateTime<Utc> {
        "2026-11-23T10:00:00Z".parse::<DateTime<Utc>>().unwrap() + Duration::minutes(minutes)
    }

    #[test]
    fn five_wrong_codes_lock_pairing_for_a_while() {
        let mut guard = PairingGuard::default();
        for _ in 1..MAX_WRONG_CODES {
            assert_eq!(guard.wrong_code(at(0)), WrongCode::Tell);
        }
        assert_eq!(guard.wrong_code(at(0)), WrongCode::Locked);
        assert!(guard.locked(at(1)));
        assert_eq!(guard.wrong_code(at(2)), WrongCode::WhileLocked);
        assert!(!guard.locked(at(16)), "the lock ends");
        assert_eq!(guard.wrong_code(at(16)), WrongCode::Tell, "counting starts again");
        guard.wrong_code(at(16));
        guard.fresh_code();
        assert!(!guard.locked(at(16)));
    }

    #[test]
    fn a_stranger_is_answered_once_a_day_and_a_paired_chat_is_forgotten() {
        let mut guard = PairingGuard::default();
        assert!(guard.may_answer(7, at(0)));
        assert!(!guard.may_answer(7, at(60)));
        assert!(guard.may_answer(8, at(60)), "another stranger is answered");
        assert!(guard.may_answer(7, at(24 * 60 + 1)), "a day later");
        guard.paired(8);
        assert!(guard.may_answer(8, at(61)));
    }
}
