//! The window's devices commands: Settings → Devices on the home core.

use crate::commands::{commands, CommandError, SaidBy};
use crate::companion::devices::{DevicesError, DevicesView};

commands! {
    /// Where other devices reach this Sidecar, the open code and the paired devices.
    async fn devices_view(core) -> Result<DevicesView, CommandError> {
        core.device_link().view().await.map_err(DevicesError::from).said(&core)
    }

    /// Listens at `addresses` (none: off), saved in settings.toml.
    async fn set_devices_listen(core, addresses: Vec<String>) -> Result<DevicesView, CommandError> {
        core.set_devices_listen(addresses).await.said(&core)
    }

    /// A new pairing code for a device to type.
    async fn open_pairing_code(core) -> Result<DevicesView, CommandError> {
        core.device_link().open_pairing().await.map_err(DevicesError::from).said(&core)?;
        core.device_link().view().await.map_err(DevicesError::from).said(&core)
    }

    /// A window came to the front: the user is at a desk (phones wait), and, from an
    /// attached device, at that device, where the core's next notification shows (the
    /// link notes which).
    async fn device_present(core) -> Result<(), CommandError> {
        core.proactive().desk_active().await.said(&core)
    }

    /// Revokes a paired device: its link closes at once.
    async fn revoke_device(core, id: i64) -> Result<DevicesView, CommandError> {
        core.device_link().revoke(id).await.map_err(DevicesError::from).said(&core)?;
        core.device_link().view().await.map_err(DevicesError::from).said(&core)
    }
}
