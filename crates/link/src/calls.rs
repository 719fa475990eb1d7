//! What the core does for a device: the seam between the link and the assembly.

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::sync::broadcast;

use crate::devices::Device;

/// What the core does for a device: its commands, and the events it tells every
/// attached device. The assembly implements it over the same command table as the
/// window's IPC.
pub trait Calls: Send + Sync + 'static {
    /// Runs command `name` with `args` (as the window sends them) for `device`.
    fn call(&self, device: Device, name: String, args: Value) -> BoxFuture<'static, Result<Value, Value>>;
    /// The core's events, from now on.
    fn events(&self) -> broadcast::Receiver<Value>;
}
