//! Why proactivity could not be read or changed, worded in both languages.

use sidecar_domain::Worded;
use sidecar_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ProactiveError {
    #[error("message {0} is not a spontaneous message")]
    NotSpontaneous(i64),
    #[error("the check interval must be between 5 and 240 minutes, not {0}")]
    TickMinutes(u32),
    #[error("\"phone when idle\" must be at most 1440 minutes, not {0}")]
    PhoneWhenIdle(u32),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Worded for ProactiveError {
    fn spanish(&self) -> String {
        match self {
            ProactiveError::NotSpontaneous(_) => "ese mensaje no es un mensaje espontáneo".into(),
            ProactiveError::TickMinutes(n) => format!("el intervalo de comprobación debe estar entre 5 y 240 minutos, no {n}"),
            ProactiveError::PhoneWhenIdle(n) => format!("el relevo del móvil tras inactividad debe ser como mucho 1440 minutos, no {n}"),
            ProactiveError::Store(e) => e.spanish(),
        }
    }
}
