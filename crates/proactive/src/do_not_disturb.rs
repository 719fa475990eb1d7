//! The desktop's Do Not Disturb (DT-7): while it is on, Sidecar does not speak first on
//! the desktop, as in quiet hours. Read where each desktop keeps it: the notification
//! service's `Inhibited` property (KDE Plasma, and the freedesktop specification since
//! 1.3), dunst's `paused`, and GNOME's `show-banners` setting. Reminders still arrive:
//! the user asked for them, and the desktop holds their notifications until it is off.

use std::time::Duration;

/// How long one question to the desktop may take before it counts as "not on".
const ASK_WITHIN: Duration = Duration::from_secs(2);

/// Which desktop setting silences notifications now, if any.
pub(crate) async fn desktop_silenced() -> Option<&'static str> {
    #[cfg(all(unix, not(target_os = "macos")))]
    {
        if let Ok(Some(which)) = tokio::time::timeout(ASK_WITHIN, on_the_bus()).await {
            return Some(which);
        }
        if std::env::var("XDG_CURRENT_DESKTOP").is_ok_and(|desktop| desktop.to_ascii_uppercase().contains("GNOME")) {
            if let Ok(Some(which)) = tokio::time::timeout(ASK_WITHIN, gnome()).await {
                return Some(which);
            }
        }
    }
    None
}

/// The notification service's own switches, on the session bus.
#[cfg(all(unix, not(target_os = "macos")))]
async fn on_the_bus() -> Option<&'static str> {
    let connection = zbus::Connection::session().await.ok()?;
    let properties = zbus::fdo::PropertiesProxy::new(&connection, "org.freedesktop.Notifications", "/org/freedesktop/Notifications").await.ok()?;
    for (interface, property, which) in
        [("org.freedesktop.Notifications", "Inhibited", "the notification service is inhibited"), ("org.dunstproject.cmd0", "paused", "dunst is paused")]
    {
        let Ok(name) = zbus::names::InterfaceName::try_from(interface) else { continue };
        let Ok(value) = properties.get(name, property).await else { continue };
        if bool::try_from(value).unwrap_or(false) {
            return Some(which);
        }
    }
    None
}

/// GNOME's Do Not Disturb: notification banners turned off.
#[cfg(all(unix, not(target_os = "macos")))]
async fn gnome() -> Option<&'static str> {
    let out = tokio::process::Command::new("gsettings").args(["get", "org.gnome.desktop.notifications", "show-banners"]).output().await.ok()?;
    (out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "false").then_some("GNOME's Do Not Disturb is on")
}
