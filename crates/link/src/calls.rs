//! What the core does for a device: the seam between the link and the assembly.

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::devices::Device;

/// What the core does for a device: its commands, and the events it tells the attached
/// devices. The assembly implements it over the same command table as the window's IPC.
pub trait Calls: Send + Sync + 'static {
    /// Runs command `name` with `args` (as the window sends them) for `device`.
    fn call(&self, device: Device, name: String, args: Value) -> BoxFuture<'static, Result<Value, Value>>;
    /// The core's events, from now on.
    fn events(&self) -> broadcast::Receiver<Addressed>;
    /// Whether command `name` is the user's doing on the device (writing, looking at its
    /// window), which makes it the device the user is at; a window's polling is not.
    fn is_input(&self, _name: &str) -> bool {
        false
    }
}

/// An event, and the devices it is for.
#[derive(Debug, Clone)]
pub struct Addressed {
    pub event: Value,
    /// `None`: every attached device (the core's events); some: only these (a
    /// notification for the device the user is at).
    pub only: Option<Vec<i64>>,
}

impl Addressed {
    /// For every attached device.
    pub fn everyone(event: Value) -> Self {
        Self { event, only: None }
    }

    pub fn is_for(&self, device: i64) -> bool {
        self.only.as_ref().is_none_or(|only| only.contains(&device))
    }
}
