//! The app lock (issue 74), off by default: with a passphrase set, the window locks after
//! `[desktop] lock_after_minutes` idle minutes and at every start, and opens again only
//! with the passphrase. The core refuses the window's commands while it is locked (the
//! shell asks [`AppLock::is_locked`]), so a lock screen cannot be got around by the
//! window's own code. The passphrase is kept as a scrypt hash in the system keychain,
//! never as itself. Reminders still notify while locked: the user asked for them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::Serialize;
use sidecar_domain::{Lang, Secrets};
use sidecar_settings::{Change, DesktopChange, SettingsFileError, SettingsOwner, LOCK_MINUTES};

/// Where the passphrase's hash is kept in the keychain.
const LOCK_KEY: &str = "app-lock";
/// A shorter passphrase is refused.
pub const LOCK_MIN_CHARS: usize = 4;
/// scrypt's cost: 2^15 rounds, about a tenth of a second here; guessing is as slow.
const LOG_N: u8 = 15;

/// The lock as Settings and the lock screen show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct LockView {
    pub on: bool,
    pub after_minutes: u32,
    pub locked: bool,
    pub min_chars: usize,
    pub min_minutes: u32,
    pub max_minutes: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("Sidecar is locked: type the lock's passphrase to open it")]
    Locked,
    #[error("the passphrase needs at least {0} characters")]
    Short(usize),
    #[error("that is not the lock's passphrase")]
    Wrong,
    #[error("the lock takes {low} to {high} idle minutes")]
    Minutes { low: u32, high: u32 },
    #[error("the lock's passphrase could not be kept: {0}")]
    Keep(String),
    #[error(transparent)]
    Settings(#[from] SettingsFileError),
}

impl LockError {
    pub fn said_in(&self, lang: Lang) -> String {
        match (lang, self) {
            (Lang::En, e) => e.to_string(),
            (Lang::Es, LockError::Locked) => "Sidecar está bloqueado: escribe la frase del bloqueo para abrirlo".into(),
            (Lang::Es, LockError::Short(n)) => format!("la frase necesita al menos {n} caracteres"),
            (Lang::Es, LockError::Wrong) => "esa no es la frase del bloqueo".into(),
            (Lang::Es, LockError::Minutes { low, high }) => format!("el bloqueo admite de {low} a {high} minutos de inactividad"),
            (Lang::Es, LockError::Keep(why)) => format!("no se pudo guardar la frase del bloqueo: {why}"),
            (Lang::Es, LockError::Settings(e)) => e.to_string(),
        }
    }
}

/// The lock: whether it is on (a passphrase is kept and minutes set), and whether the
/// window is locked now.
pub struct AppLock {
    secrets: Arc<Secrets>,
    owner: Arc<SettingsOwner>,
    locked: AtomicBool,
}

impl AppLock {
    /// Locked from the start when the lock is on.
    pub fn new(secrets: Arc<Secrets>, owner: Arc<SettingsOwner>) -> Self {
        let lock = Self { secrets, owner, locked: AtomicBool::new(false) };
        lock.locked.store(lock.on(), Ordering::SeqCst);
        lock
    }

    fn minutes(&self) -> u32 {
        self.owner.current().desktop.lock_after_minutes
    }

    fn on(&self) -> bool {
        self.minutes() > 0 && self.secrets.get(LOCK_KEY).is_some()
    }

    pub fn view(&self) -> LockView {
        LockView {
            on: self.on(),
            after_minutes: self.minutes(),
            locked: self.is_locked(),
            min_chars: LOCK_MIN_CHARS,
            min_minutes: *LOCK_MINUTES.start(),
            max_minutes: *LOCK_MINUTES.end(),
        }
    }

    pub fn is_locked(&self) -> bool {
        self.locked.load(Ordering::SeqCst) && self.on()
    }

    /// Turns the lock on with `passphrase` after `minutes` idle (or changes them); when
    /// it is on already, `current` must be its passphrase.
    pub fn turn_on(&self, current: Option<&str>, passphrase: &str, minutes: u32) -> Result<LockView, LockError> {
        if !LOCK_MINUTES.contains(&minutes) {
            return Err(LockError::Minutes { low: *LOCK_MINUTES.start(), high: *LOCK_MINUTES.end() });
        }
        if passphrase.chars().count() < LOCK_MIN_CHARS {
            return Err(LockError::Short(LOCK_MIN_CHARS));
        }
        if self.on() && !self.matches(current.unwrap_or_default()) {
            return Err(LockError::Wrong);
        }
        self.secrets.store(LOCK_KEY, &hash(passphrase, &salt()?));
        self.owner.change(Change::Desktop(DesktopChange::LockAfter(minutes)))?;
        // The user just typed it: the window stays open until idle.
        self.locked.store(false, Ordering::SeqCst);
        tracing::info!(minutes, "the app lock is on");
        Ok(self.view())
    }

    /// Turns the lock off, with its passphrase.
    pub fn turn_off(&self, passphrase: &str) -> Result<LockView, LockError> {
        if self.on() && !self.matches(passphrase) {
            return Err(LockError::Wrong);
        }
        self.owner.change(Change::Desktop(DesktopChange::LockAfter(0)))?;
        self.secrets.delete(LOCK_KEY);
        self.locked.store(false, Ordering::SeqCst);
        tracing::info!("the app lock is off");
        Ok(self.view())
    }

    /// Locks the window now (idle long enough, or asked), when the lock is on.
    pub fn lock(&self) -> LockView {
        self.locked.store(self.on(), Ordering::SeqCst);
        self.view()
    }

    /// Opens the window with the passphrase.
    pub fn unlock(&self, passphrase: &str) -> Result<LockView, LockError> {
        if self.on() && !self.matches(passphrase) {
            tracing::info!("a wrong passphrase at the lock screen");
            return Err(LockError::Wrong);
        }
        self.locked.store(false, Ordering::SeqCst);
        Ok(self.view())
    }

    fn matches(&self, passphrase: &str) -> bool {
        let Some(kept) = self.secrets.get(LOCK_KEY) else { return false };
        let Some((salt, _)) = kept.split_once('$') else { return false };
        let Ok(salt) = hex::decode(salt) else { return false };
        let candidate = hash(passphrase, &salt);
        // Compared whole, so the time taken does not tell how much was right.
        candidate.len() == kept.len() && candidate.bytes().zip(kept.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
    }
}

fn salt() -> Result<Vec<u8>, LockError> {
    let mut salt = vec![0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| LockError::Keep(e.to_string()))?;
    Ok(salt)
}

/// `salt$hash`, both in hex.
fn hash(passphrase: &str, salt: &[u8]) -> String {
    let params = scrypt::Params::new(LOG_N, 8, 1).expect("valid scrypt parameters");
    let mut out = [0u8; 32];
    scrypt::scrypt(passphrase.as_bytes(), salt, &params, &mut out).expect("32 bytes is a valid length");
    format!("{}${}", hex::encode(salt), hex::encode(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock() -> (AppLock, Arc<SettingsOwner>) {
        let owner = Arc::new(SettingsOwner::new(sidecar_settings::Settings::default(), None));
        (AppLock::new(Arc::new(Secrets::new(false)), owner.clone()), owner)
    }

    #[test]
    fn off_by_default_on_with_a_passphrase_locked_until_it_is_typed() {
        let (lock, owner) = lock();
        assert!(!lock.view().on && !lock.is_locked());
        assert!(!lock.lock().locked, "no lock without a passphrase");
        assert!(matches!(lock.turn_on(None, "abc", 5), Err(LockError::Short(4))));
        assert!(matches!(lock.turn_on(None, "girasol", 0), Err(LockError::Minutes { .. })));
        let view = lock.turn_on(None, "girasol", 5).unwrap();
        assert_eq!((view.on, view.after_minutes, view.locked), (true, 5, false));
        assert_eq!(owner.current().desktop.lock_after_minutes, 5);
        assert!(lock.lock().locked && lock.is_locked());
        assert!(matches!(lock.unlock("Girasol"), Err(LockError::Wrong)));
        assert!(lock.is_locked(), "a wrong passphrase leaves it locked");
        assert!(!lock.unlock("girasol").unwrap().locked);
        // Changing it needs the one it has; turning it off too.
        assert!(matches!(lock.turn_on(Some("nope"), "margarita", 10), Err(LockError::Wrong)));
        lock.turn_on(Some("girasol"), "margarita", 10).unwrap();
        assert!(matches!(lock.turn_off("girasol"), Err(LockError::Wrong)));
        let off = lock.turn_off("margarita").unwrap();
        assert!(!off.on && owner.current().desktop.lock_after_minutes == 0);
        assert_eq!(LockError::Wrong.said_in(Lang::Es), "esa no es la frase del bloqueo");
    }

    #[test]
    fn a_start_with_the_lock_on_is_locked() {
        let secrets = Arc::new(Secrets::new(false));
        let owner = Arc::new(SettingsOwner::new(sidecar_settings::Settings::default(), None));
        AppLock::new(secrets.clone(), owner.clone()).turn_on(None, "girasol", 5).unwrap();
        let again = AppLock::new(secrets, owner);
        assert!(again.is_locked() && again.view().locked);
        assert!(!secrets_hold_the_words(&again), "only a hash is kept");
    }

    fn secrets_hold_the_words(lock: &AppLock) -> bool {
        lock.secrets.get(LOCK_KEY).is_some_and(|kept| kept.contains("girasol"))
    }
}
