//! Theme, language and the global shortcut: kept in `[desktop]` of settings.toml
//! beside what the user wrote, a chosen language is what Sidecar speaks from the next
//! start, and a shortcut the file spells wrongly falls back to the default.

use sidecar_domain::Lang;
use sidecar_settings::Hotkey;
use sidecar_settings::LanguageChoice;
use sidecar_settings::Settings;
use sidecar_settings::Theme;
use sidecar_settings::DEFAULT_HOTKEY;

use crate::support::open_with_config as open;

#[tokio::test]
async fn preferences_are_saved_and_a_chosen_language_is_spoken_from_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "# my settings\n[user]\ntimezone = \"Europe/Madrid\"\n").unwrap();
    let core = open(&dir.path().join("data"), &config).await;
    let first = core.preferences().view();
    assert_eq!((first.theme, first.language, first.hotkey.as_str()), (Theme::System, LanguageChoice::System, DEFAULT_HOTKEY));

    core.preferences().set_theme(Theme::Dark).unwrap();
    let view = core.preferences().set_language(LanguageChoice::Es).unwrap();
    assert_eq!(view.chosen_lang, Lang::Es);
    assert_eq!(view.restart_for_language, core.lang() != Lang::Es, "Sidecar's own words change at the next start");
    let view = core.preferences().save_hotkey(&Hotkey::parse("alt+ctrl+k").unwrap()).unwrap();
    assert_eq!(view.hotkey, "Ctrl+Alt+K");

    let text = std::fs::read_to_string(&config).unwrap();
    assert!(text.starts_with("# my settings\n[user]\ntimezone = \"Europe/Madrid\""), "the rest is kept: {text}");
    assert!(text.contains("[desktop]\ntheme = \"dark\"\nlanguage = \"es\"\nhotkey = \"Ctrl+Alt+K\""), "{text}");
    core.shutdown().await;
    drop(core);

    let again = open(&dir.path().join("data2"), &config).await;
    assert_eq!(again.lang(), Lang::Es);
    let view = again.preferences().view();
    assert_eq!((view.theme, view.hotkey.as_str(), view.restart_for_language), (Theme::Dark, "Ctrl+Alt+K", false));
    let help = again.send("/help").await.unwrap();
    assert!(help.reply.contains("Esta lista de comandos"), "{}", help.reply);
}

#[tokio::test]
async fn a_shortcut_the_file_spells_wrongly_falls_back_to_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[desktop]\nhotkey = \"Hyper+ñ\"\ntheme = \"light\"\n").unwrap();
    let core = open(dir.path(), &config).await;
    assert_eq!(core.preferences().hotkey(), Hotkey::default_hotkey());
    assert_eq!(core.preferences().view().theme, Theme::Light);
}

#[test]
fn an_unknown_theme_in_the_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, "[desktop]\ntheme = \"purple\"\n").unwrap();
    let error = Settings::load(&config).unwrap_err().to_string();
    assert!(error.contains("purple") && error.contains("settings.toml"), "{error}");
}
