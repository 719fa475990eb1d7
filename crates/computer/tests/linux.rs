//! The Linux adapter against what Linux gives: power supplies laid out as the kernel lays
//! them out in sysfs, and a real X server's idle counter (Xvfb, moved with xdotool).

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use sidecar_computer::{Computer, Linux, Power};

fn supply(root: &Path, name: &str, files: &[(&str, &str)]) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, value) in files {
        std::fs::write(dir.join(file), format!("{value}\n")).unwrap();
    }
}

async fn power(root: &Path) -> Option<Power> {
    Linux::reading(root).state().await.power
}

#[tokio::test]
async fn a_laptop_unplugged_and_plugged_in() {
    let root = tempfile::tempdir().unwrap();
    supply(root.path(), "AC", &[("type", "Mains"), ("online", "0")]);
    supply(root.path(), "BAT0", &[("type", "Battery"), ("status", "Discharging"), ("capacity", "14")]);
    // A wireless mouse's battery is not the computer's.
    supply(root.path(), "hidpp_battery_0", &[("type", "Battery"), ("scope", "Device"), ("status", "Discharging"), ("capacity", "90")]);
    let unplugged = power(root.path()).await.unwrap();
    assert_eq!(unplugged, Power { on_battery: true, percent: Some(14) });

    supply(root.path(), "AC", &[("type", "Mains"), ("online", "1")]);
    supply(root.path(), "BAT0", &[("type", "Battery"), ("status", "Charging"), ("capacity", "15")]);
    assert_eq!(power(root.path()).await.unwrap(), Power { on_battery: false, percent: Some(15) });
}

#[tokio::test]
async fn two_batteries_are_one_and_a_desktop_has_none() {
    let root = tempfile::tempdir().unwrap();
    supply(root.path(), "BAT0", &[("type", "Battery"), ("status", "Discharging"), ("capacity", "30")]);
    supply(root.path(), "BAT1", &[("type", "Battery"), ("status", "Unknown"), ("capacity", "10")]);
    assert_eq!(power(root.path()).await.unwrap(), Power { on_battery: true, percent: Some(20) });

    let desktop = tempfile::tempdir().unwrap();
    supply(desktop.path(), "AC", &[("type", "Mains"), ("online", "1")]);
    assert_eq!(power(desktop.path()).await, None);
    assert_eq!(power(Path::new("/nonexistent/power_supply")).await, None);
}

struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_x_servers_idle_time_counts_and_input_resets_it() {
    let display = format!(":{}", 140 + std::process::id() % 50);
    let _server =
        Xvfb(Command::new("Xvfb").args([display.as_str(), "-nolisten", "tcp"]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("Xvfb runs"));
    // SAFETY: set before the runtime starts its threads, and only this test reads it.
    unsafe {
        std::env::set_var("DISPLAY", &display);
        std::env::remove_var("WAYLAND_DISPLAY");
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let idle = |runtime: &tokio::runtime::Runtime| runtime.block_on(Linux::reading(Path::new("/nonexistent")).state()).idle;
    let mut first = None;
    for _ in 0..50 {
        first = idle(&runtime);
        if first.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let first = first.expect("the X server answers");
    std::thread::sleep(Duration::from_millis(1500));
    let later = idle(&runtime).unwrap();
    assert!(later >= first + Duration::from_millis(1000), "idle grows: {first:?} then {later:?}");

    let moved = Command::new("xdotool").args(["mousemove", "10", "10", "mousemove", "40", "40"]).env("DISPLAY", &display).status().unwrap();
    assert!(moved.success());
    let after_input = idle(&runtime).unwrap();
    assert!(after_input < later, "input resets it: {later:?} then {after_input:?}");
}
