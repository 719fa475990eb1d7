//! The Linux adapter. The battery: the kernel's power supplies in
//! `/sys/class/power_supply` (what UPower itself reads), no daemon needed. The idle time:
//! the X server's MIT-SCREEN-SAVER counter in an X11 session; on Wayland, where a client
//! cannot see other windows' input, GNOME's idle monitor on the session bus. Elsewhere
//! the idle time is unknown, and nothing is decided from it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use futures_util::future::BoxFuture;

use crate::{Computer, ComputerState, Power};

/// How long one question to the desktop may take before the answer counts as unknown.
const ASK_WITHIN: Duration = Duration::from_secs(2);

pub struct Linux {
    power_supply: PathBuf,
}

impl Default for Linux {
    fn default() -> Self {
        Self::new()
    }
}

impl Linux {
    pub fn new() -> Self {
        Self::reading(Path::new("/sys/class/power_supply"))
    }

    /// Reads the power supplies under `dir` (a test gives a folder laid out like sysfs).
    pub fn reading(dir: &Path) -> Self {
        Self { power_supply: dir.to_path_buf() }
    }
}

impl Computer for Linux {
    fn state(&self) -> BoxFuture<'_, ComputerState> {
        Box::pin(async move {
            let dir = self.power_supply.clone();
            let power = tokio::task::spawn_blocking(move || read_power(&dir)).await.ok().flatten();
            ComputerState { idle: idle().await, power }
        })
    }
}

/// The computer's batteries, as one: on battery when one discharges, or when none
/// charges and no charger is online; the charge is their mean. A device's own battery
/// (a mouse's, `scope` "Device") is not the computer's.
fn read_power(dir: &Path) -> Option<Power> {
    let read = |path: PathBuf| std::fs::read_to_string(path).ok().map(|s| s.trim().to_string());
    let (mut charger, mut discharging, mut charging) = (false, false, false);
    let mut charges = Vec::new();
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let supply = entry.path();
        match read(supply.join("type")).as_deref() {
            Some("Mains" | "USB" | "USB_C" | "USB_PD") => charger |= read(supply.join("online")).as_deref() == Some("1"),
            Some("Battery") if read(supply.join("scope")).as_deref() != Some("Device") => {
                match read(supply.join("status")).as_deref() {
                    Some("Discharging") => discharging = true,
                    Some("Charging" | "Full" | "Not charging") => charging = true,
                    _ => {}
                }
                charges.push(read(supply.join("capacity")).and_then(|c| c.parse::<u8>().ok()));
            }
            _ => {}
        }
    }
    if charges.is_empty() {
        return None;
    }
    let known: Vec<u32> = charges.iter().flatten().map(|&c| u32::from(c.min(100))).collect();
    let percent = (!known.is_empty()).then(|| (known.iter().sum::<u32>() / known.len() as u32) as u8);
    Some(Power { on_battery: discharging || (!charging && !charger), percent })
}

async fn idle() -> Option<Duration> {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some();
    if !wayland && std::env::var_os("DISPLAY").is_some() {
        return tokio::time::timeout(ASK_WITHIN, tokio::task::spawn_blocking(x11_idle)).await.ok()?.ok()?;
    }
    tokio::time::timeout(ASK_WITHIN, gnome_idle()).await.ok()?
}

/// The X server's time since the last input, from MIT-SCREEN-SAVER.
fn x11_idle() -> Option<Duration> {
    use x11rb::connection::Connection;
    let (connection, screen) = x11rb::connect(None).ok()?;
    let root = connection.setup().roots.get(screen)?.root;
    let reply = x11rb::protocol::screensaver::query_info(&connection, root).ok()?.reply().ok()?;
    Some(Duration::from_millis(u64::from(reply.ms_since_user_input)))
}

/// GNOME's idle monitor (Mutter), which sees every input on Wayland.
async fn gnome_idle() -> Option<Duration> {
    let bus = zbus::Connection::session().await.ok()?;
    let reply = bus
        .call_method(Some("org.gnome.Mutter.IdleMonitor"), "/org/gnome/Mutter/IdleMonitor/Core", Some("org.gnome.Mutter.IdleMonitor"), "GetIdletime", &())
        .await
        .ok()?;
    reply.body().deserialize::<u64>().ok().map(Duration::from_millis)
}
