//! What is known of the computer now, and the rules read from it.

use std::time::Duration;

use serde::Serialize;

/// At or under this charge, on battery, Sidecar saves power: no local-model work in the
/// background, and tasks wait unless marked to always run. Twenty per cent is where
/// desktops warn of a low battery (GNOME's and UPower's "low" level).
pub const LOW_BATTERY_PERCENT: u8 = 20;

/// The battery, where there is one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Power {
    /// Running on the battery: no charger gives power now.
    pub on_battery: bool,
    /// The charge left, when the battery says.
    pub percent: Option<u8>,
}

/// The computer as far as Sidecar knows it; `None` where it cannot tell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ComputerState {
    /// How long since the last key press or mouse move anywhere on the desktop.
    #[ts(type = "number | null")]
    #[serde(serialize_with = "seconds")]
    pub idle: Option<Duration>,
    /// `None` on a computer with no battery (or none it can read).
    pub power: Option<Power>,
}

impl ComputerState {
    /// On battery with the charge low: background work that can wait waits. An unknown
    /// charge on battery does not count as low (a battery that does not report is rare,
    /// and holding every task back for it would be a surprise).
    pub fn saving_power(&self) -> bool {
        self.power.is_some_and(|p| p.on_battery && p.percent.is_some_and(|left| left <= LOW_BATTERY_PERCENT))
    }

    /// The user has touched nothing for `after`: `None` when the idle time is unknown.
    pub fn away_for(&self, after: Duration) -> Option<bool> {
        self.idle.map(|idle| idle >= after)
    }
}

fn seconds<S: serde::Serializer>(idle: &Option<Duration>, serializer: S) -> Result<S::Ok, S::Error> {
    match idle {
        Some(idle) => serializer.serialize_some(&idle.as_secs()),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(on_battery: bool, percent: Option<u8>) -> ComputerState {
        ComputerState { idle: None, power: Some(Power { on_battery, percent }) }
    }

    #[test]
    fn only_a_low_battery_that_is_not_charging_saves_power() {
        assert!(on(true, Some(15)).saving_power());
        assert!(on(true, Some(LOW_BATTERY_PERCENT)).saving_power());
        assert!(!on(true, Some(LOW_BATTERY_PERCENT + 1)).saving_power());
        assert!(!on(false, Some(5)).saving_power(), "charging");
        assert!(!on(true, None).saving_power(), "a charge not said");
        assert!(!ComputerState::default().saving_power(), "no battery");
    }

    #[test]
    fn away_is_unknown_without_an_idle_time() {
        let state = ComputerState { idle: Some(Duration::from_secs(600)), power: None };
        assert_eq!(state.away_for(Duration::from_secs(300)), Some(true));
        assert_eq!(state.away_for(Duration::from_secs(900)), Some(false));
        assert_eq!(ComputerState::default().away_for(Duration::from_secs(1)), None);
    }
}
