//! A computer whose state a test sets (and the adapter of a platform with none yet: a
//! default one knows nothing).

use std::sync::Mutex;

use futures_util::future::BoxFuture;

use crate::{Computer, ComputerState};

#[derive(Debug, Default)]
pub struct FakeComputer {
    state: Mutex<ComputerState>,
}

impl FakeComputer {
    pub fn new(state: ComputerState) -> Self {
        Self { state: Mutex::new(state) }
    }

    /// The state every read gives from now on.
    pub fn set(&self, state: ComputerState) {
        *self.state.lock().expect("fake computer lock") = state;
    }
}

impl Computer for FakeComputer {
    fn state(&self) -> BoxFuture<'_, ComputerState> {
        let state = *self.state.lock().expect("fake computer lock");
        Box::pin(async move { state })
    }
}
