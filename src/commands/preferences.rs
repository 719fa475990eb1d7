//! The window's preferences commands (`commands` says how the table serves them).

use crate::commands::{blocking, commands, CommandError, SaidBy};
use sidecar_settings::LanguageChoice;
use sidecar_settings::PreferencesView;
use sidecar_settings::Theme;
use sidecar_tools::SearchInput;
use sidecar_tools::SearchResult;
use sidecar_tools::SearchView;

commands! {
    async fn preferences(core) -> Result<PreferencesView, CommandError> {
        Ok(core.preferences().view())
    }

    async fn set_theme(core, theme: Theme) -> Result<PreferencesView, CommandError> {
        blocking(&core, move |c| c.preferences().set_theme(theme)).await.said(&core)
    }

    async fn set_language(core, language: LanguageChoice) -> Result<PreferencesView, CommandError> {
        // A save that fails leaves the language as it was, and its error is said in that one.
        blocking(&core, move |c| c.preferences().set_language(language)).await.said(&core)
    }

    async fn lock_view(core) -> Result<sidecar_desktop_features::LockView, CommandError> {
        Ok(core.app_lock().view())
    }

    /// Locks the window now (idle, or Lock now), when the lock is on.
    async fn lock_app(core) -> Result<sidecar_desktop_features::LockView, CommandError> {
        Ok(core.app_lock().lock())
    }

    async fn unlock_app(core, passphrase: String) -> Result<sidecar_desktop_features::LockView, CommandError> {
        blocking(&core, move |c| c.app_lock().unlock(&passphrase).map_err(crate::CompanionError::from)).await.said(&core)
    }

    /// Turns the lock on, or changes it (`current`: its passphrase when it is on).
    async fn turn_on_lock(core, current: Option<String>, passphrase: String, minutes: u32) -> Result<sidecar_desktop_features::LockView, CommandError> {
        blocking(&core, move |c| c.app_lock().turn_on(current.as_deref(), &passphrase, minutes).map_err(crate::CompanionError::from)).await.said(&core)
    }

    async fn turn_off_lock(core, passphrase: String) -> Result<sidecar_desktop_features::LockView, CommandError> {
        blocking(&core, move |c| c.app_lock().turn_off(&passphrase).map_err(crate::CompanionError::from)).await.said(&core)
    }

    async fn web_search_setup(core) -> Result<SearchView, CommandError> {
        Ok(core.web_search().view())
    }

    async fn save_web_search(core, input: SearchInput) -> Result<SearchView, CommandError> {
        blocking(&core, move |c| c.web_search().save(input)).await.said(&core)
    }

    async fn try_web_search(core, query: String) -> Result<Vec<SearchResult>, CommandError> {
        core.try_web_search(&query).await.said(&core)
    }

    /// Writes settings.toml: off the main thread.
    async fn set_timezone(core, zone: String) -> Result<String, CommandError> {
        Ok(blocking(&core, move |c| c.set_timezone(&zone)).await.said(&core)?.name().to_string())
    }

    /// Problems found at start that the user should see (a bad time zone in settings).
    async fn core_warnings(core) -> Result<Vec<String>, CommandError> {
        Ok(core.warnings().to_vec())
    }

    /// The user's zone as its IANA name, for Settings → General.
    async fn time_zone(core) -> Result<String, CommandError> {
        Ok(core.zone().name().to_string())
    }

    /// The IANA zone names the core knows, for the time zone picker.
    async fn time_zones(_core) -> Result<Vec<&'static str>, CommandError> {
        Ok(sidecar_domain::zone_names())
    }
}
