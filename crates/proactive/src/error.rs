//! Why proactivity could not be read or changed, worded in both languages.

use sidecar_domain::Refused;
use sidecar_domain::Worded;
use sidecar_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ProactiveError {
    #[error("message {0} is not a spontaneous message")]
    NotSpontaneous(i64),
    /// A setting out of its range, said by the check that found it.
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Worded for ProactiveError {
    fn spanish(&self) -> String {
        match self {
            ProactiveError::NotSpontaneous(_) => "ese mensaje no es un mensaje espontáneo".into(),
            ProactiveError::Refused(e) => e.spanish(),
            ProactiveError::Store(e) => e.spanish(),
        }
    }
}
