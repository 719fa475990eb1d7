//! Pairing codes: what the user reads on the home core and types on the device. One
//! code is open at a time, for five minutes and five tries; a right code is used up.
//! The rules are here; the open code is kept in the store (`devices`), so the process
//! that shows it and the one that listens need not be the same.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use crate::error::PairingError;

/// How long a code can be typed.
pub const CODE_LIFETIME: Duration = Duration::minutes(5);
/// How many wrong codes close it.
pub const TRIES: u8 = 5;

/// A code to show: its digits, grouped for reading aloud, and when it stops working.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct PairingCode {
    pub code: String,
    pub expires_at: DateTime<Utc>,
}

pub(crate) struct Open {
    pub(crate) digits: String,
    pub(crate) expires_at: DateTime<Utc>,
    pub(crate) tries_left: u8,
}

/// The open code, if any.
#[derive(Default)]
pub(crate) struct Pairing {
    pub(crate) open: Option<Open>,
}

impl Pairing {
    /// Opens a new code (closing any other): eight random digits.
    pub(crate) fn open(&mut self, now: DateTime<Utc>) -> PairingCode {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("the system's random source");
        let digits: String = bytes.iter().map(|b| char::from(b'0' + b % 10)).collect();
        let expires_at = now + CODE_LIFETIME;
        let code = format!("{} {}", &digits[..4], &digits[4..]);
        self.open = Some(Open { digits, expires_at, tries_left: TRIES });
        PairingCode { code, expires_at }
    }

    /// The open code, while it can still be typed.
    pub(crate) fn showing(&self, now: DateTime<Utc>) -> Option<PairingCode> {
        let open = self.open.as_ref().filter(|o| now < o.expires_at && o.tries_left > 0)?;
        Some(PairingCode { code: format!("{} {}", &open.digits[..4], &open.digits[4..]), expires_at: open.expires_at })
    }

    /// Whether `typed` (spaces and dashes ignored) is the open code; a right code is used
    /// up, a wrong one costs a try.
    pub(crate) fn redeem(&mut self, typed: &str, now: DateTime<Utc>) -> Result<(), PairingError> {
        let open = self.open.as_mut().ok_or(PairingError::NoCode)?;
        if now >= open.expires_at {
            self.open = None;
            return Err(PairingError::Expired);
        }
        if open.tries_left == 0 {
            return Err(PairingError::NoTriesLeft);
        }
        let typed: String = typed.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
        if same(typed.as_bytes(), open.digits.as_bytes()) {
            self.open = None;
            return Ok(());
        }
        open.tries_left -= 1;
        match open.tries_left {
            0 => Err(PairingError::NoTriesLeft),
            left => Err(PairingError::Wrong { tries_left: left }),
        }
    }
}

/// Equal, in a time that does not tell how much of a guess was right.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 4, 9, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    #[test]
    fn a_right_code_pairs_once() {
        let mut pairing = Pairing::default();
        let code = pairing.open(at(0));
        assert_eq!(code.code.len(), 9, "eight digits in two groups: {}", code.code);
        assert_eq!(pairing.redeem(&code.code.replace(' ', "-"), at(1)), Ok(()));
        assert_eq!(pairing.redeem(&code.code, at(1)), Err(PairingError::NoCode), "used up");
    }

    #[test]
    fn a_code_expires_after_five_minutes() {
        let mut pairing = Pairing::default();
        let code = pairing.open(at(0));
        assert!(pairing.showing(at(4)).is_some());
        assert_eq!(pairing.showing(at(5)), None);
        assert_eq!(pairing.redeem(&code.code, at(5)), Err(PairingError::Expired));
    }

    #[test]
    fn five_wrong_tries_close_the_code_even_to_the_right_one() {
        let mut pairing = Pairing::default();
        let code = pairing.open(at(0));
        let wrong = if code.code.starts_with('0') { "1111 1111" } else { "0000 0000" };
        for left in (1..TRIES).rev() {
            assert_eq!(pairing.redeem(wrong, at(1)), Err(PairingError::Wrong { tries_left: left }));
        }
        assert_eq!(pairing.redeem(wrong, at(1)), Err(PairingError::NoTriesLeft));
        assert_eq!(pairing.redeem(&code.code, at(1)), Err(PairingError::NoTriesLeft), "a sixth try, even right, is refused");
        assert_eq!(pairing.showing(at(1)), None);
    }

    #[test]
    fn a_new_code_replaces_the_old() {
        let mut pairing = Pairing::default();
        let first = pairing.open(at(0));
        let second = pairing.open(at(0));
        if first.code != second.code {
            assert!(matches!(pairing.redeem(&first.code, at(1)), Err(PairingError::Wrong { .. })));
        }
        assert_eq!(pairing.redeem(&second.code, at(1)), Ok(()));
    }
}
