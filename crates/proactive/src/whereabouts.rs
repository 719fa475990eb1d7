//! Where the user is, as proactivity knows it: the sinks they chose (its settings) and
//! whether they are at the desk (its state). The assembly gives it to the message router,
//! so a feature below proactivity (reminders) routes by it without reading these tables.

use futures_util::future::BoxFuture;

use super::rows::ProactiveStore;
use sidecar_domain::Clock;
use sidecar_outbox::SinkPreferences;
use sidecar_outbox::{Presence, SinkError, Whereabouts};
use sidecar_store::Store;

pub struct StoredWhereabouts {
    pub store: Store,
    pub clock: Clock,
}

impl Whereabouts for StoredWhereabouts {
    fn read(&self) -> BoxFuture<'_, Result<(SinkPreferences, Presence), SinkError>> {
        Box::pin(async move {
            let prefs = self.store.proactive().proactive_config().await.map_err(SinkError::failed)?.sinks;
            let state = self.store.proactive().proactive_state().await.map_err(SinkError::failed)?;
            let presence = state.presence(self.clock.now(), prefs.phone_when_idle_minutes);
            Ok((prefs, presence))
        })
    }
}
