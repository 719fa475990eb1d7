//! Sidecar's desktop shell. It adapts the core to the desktop and holds no rules of its
//! own: IPC commands call the core, core events are forwarded to the webview, and the
//! tray, global hotkey and OS notifications live here.

mod character;
mod character_commands;
mod commands;
mod connection_commands;
mod error;
mod home_commands;
mod hotkey;
mod ipc;
mod notifier;
mod preference_commands;
mod proactive;
mod tray;
mod update_commands;
mod updater;
mod voice_commands;
mod window;

use std::sync::Arc;

use sidecar::{Companion, CompanionOptions};
use sidecar_agent::ChatEvent;
use sidecar_proactive::ProactiveEvent;
use sidecar_settings::HotkeyRole;
use tauri::{Emitter, Manager, RunEvent, WindowEvent};

/// Event name under which every core event reaches the webview.
pub const CORE_EVENT: &str = "sidecar://event";

pub fn run() {
    let args = LaunchArgs::from_env();
    let log_dir = sidecar_domain::log_dir(&sidecar_domain::data_dir(args.data_dir.as_deref()));
    // One redactor for the process: the log writer scrubs with it, and `Secrets` gives
    // it every key it reads.
    let redactor = sidecar_domain::Redactor::default();
    let _log = sidecar_domain::init_logging("info,tao=warn,wry=warn", Some(&log_dir), &redactor);

    let app = tauri::Builder::default()
        // Must come first: a second launch hands over to the running instance.
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            window::show_main(app);
        }))
        // The character's place is the core's (per screen), not the plugin's.
        .plugin(tauri_plugin_window_state::Builder::default().with_denylist(&[character::CHARACTER]).build())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_autostart::Builder::new().app_name("Sidecar").build())
        .plugin(tauri_plugin_updater::Builder::new().build())
        .setup(move |app| {
            let options = CompanionOptions::resolve(args.data_dir.as_deref(), args.config.as_deref(), redactor.clone())?;
            // A restore asked for in Settings runs now, before the data is opened.
            tauri::async_runtime::block_on(sidecar_data::apply_pending_restore(&options.data_dir, options.config_path.as_deref(), options.clock.now()));
            let companion = tauri::async_runtime::block_on(Companion::open(options))?;
            tracing::info!(data_dir = %companion.data_dir().display(), "Sidecar started");
            app.manage(companion.clone());
            // Sidecar served to other programs over HTTP, when Settings → Connections has it on.
            let endpoint = Arc::new(sidecar_serve::McpEndpoint::default());
            app.manage(endpoint.clone());
            let hotkeys = [
                (companion.preferences().hotkey(), HotkeyRole::Window),
                (companion.preferences().character_hotkey(), HotkeyRole::Character),
                (companion.preferences().talk_hotkey(), HotkeyRole::Talk),
            ];
            let show_character = companion.preferences().character();
            app.manage(character::CharacterWindow::default());
            forward_events(app.handle().clone(), companion.clone());
            // Every background loop is the core's; the desktop hands over its tray, its
            // window and its updater.
            tauri::async_runtime::block_on(companion.run(proactive::face(app.handle(), endpoint)));
            window::render_in_software(app.handle());
            tray::build(app.handle())?;
            hotkey::register(app.handle(), &hotkeys)?;
            if show_character {
                let handle = app.handle().clone();
                tauri::async_runtime::spawn(async move {
                    if let Err(error) = character::apply(&handle, true).await {
                        tracing::warn!(%error, "could not show the character");
                    }
                });
            }
            Ok(())
        })
        .on_window_event(|window, event| {
            if window.label() != window::MAIN {
                return;
            }
            // Closing the window keeps Sidecar running in the tray; Quit is in the tray menu.
            match event {
                WindowEvent::CloseRequested { api, .. } => {
                    api.prevent_close();
                    let _ = window.hide();
                }
                // The user is looking: nothing proactive is unread any more.
                WindowEvent::Focused(true) => {
                    let _ = tray::set_alert(window.app_handle(), false);
                    // The user is at the desk: phones wait (routing's "phone when idle").
                    if let Some(companion) = window.app_handle().try_state::<Arc<Companion>>() {
                        let companion = companion.inner().clone();
                        tauri::async_runtime::spawn(async move {
                            if let Err(error) = companion.proactive().desk_active().await {
                                tracing::warn!(%error, "could not note the desk as active");
                            }
                        });
                    }
                }
                _ => {}
            }
        })
        .invoke_handler(ipc::handler(tauri::generate_handler![
            commands::attach_file,
            voice_commands::voice_start,
            voice_commands::voice_finish,
            voice_commands::voice_cancel,
            voice_commands::voice_hush,
            voice_commands::voice_view,
            voice_commands::set_speak_replies,
            voice_commands::set_voice_switch,
            voice_commands::speaks_here,
            voice_commands::set_speaks_here,
            voice_commands::set_input_device,
            voice_commands::set_output_device,
            voice_commands::set_voicing,
            voice_commands::set_talk_hotkey,
            voice_commands::voice_test_microphone,
            voice_commands::voice_test_speaking,
            preference_commands::set_hotkey,
            preference_commands::launch_at_login,
            preference_commands::set_launch_at_login,
            commands::send_test_notification,
            commands::open_logs_folder,
            commands::reveal_path,
            commands::restore_at_restart,
            home_commands::home_view,
            home_commands::attach_home,
            home_commands::leave_home,
            connection_commands::connection_http_config,
            connection_commands::connection_endpoint,
            connection_commands::set_connection_endpoint,
            character_commands::character_start,
            character_commands::set_character,
            character_commands::character_transparent,
            character_commands::set_character_hotkey,
            character_commands::character_fit,
            character_commands::character_drag,
            character_commands::character_drop,
            character_commands::character_open,
            character_commands::character_settings,
            character_commands::quiet_for_an_hour,
            character_commands::quiet_now,
            character_commands::user_typing,
            update_commands::updates,
            update_commands::look_for_update,
            update_commands::install_update,
            update_commands::set_update_address,
            update_commands::set_daily_updates,
            update_commands::restart_app,
        ]))
        .build(tauri::generate_context!())
        .expect("Sidecar could not start its window");

    app.run(|app, event| {
        if let RunEvent::Exit = event {
            if let Some(companion) = app.try_state::<Arc<Companion>>() {
                // Stops the offline model server and flushes the database.
                tauri::async_runtime::block_on(companion.shutdown());
            }
        }
    });
}

/// `--data-dir DIR` and `--config FILE`, as the CLI takes them.
#[derive(Default)]
struct LaunchArgs {
    data_dir: Option<std::path::PathBuf>,
    config: Option<std::path::PathBuf>,
}

impl LaunchArgs {
    fn from_env() -> Self {
        let mut parsed = Self::default();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) => (flag.to_string(), Some(value.to_string())),
                None => (arg, None),
            };
            let slot = match flag.as_str() {
                "--data-dir" => &mut parsed.data_dir,
                "--config" => &mut parsed.config,
                _ => continue,
            };
            *slot = inline.or_else(|| args.next()).map(Into::into);
        }
        parsed
    }
}

/// Forwards every core event to the webview, which renders them; on a computer attached
/// to a home core, the home's events and the link's changes too.
fn forward_events(app: tauri::AppHandle, companion: Arc<Companion>) {
    let mut home = companion.home().events();
    let to_window = app.clone();
    tauri::async_runtime::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match home.recv().await {
                Ok(event) => {
                    let _ = to_window.emit(CORE_EVENT, &event);
                }
                Err(RecvError::Lagged(skipped)) => tracing::warn!(skipped, "UI fell behind the home's events"),
                Err(RecvError::Closed) => break,
            }
        }
    });
    let mut events = companion.events().subscribe();
    tauri::async_runtime::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match events.recv().await {
                Ok(event) => {
                    match &event {
                        sidecar::events::CoreEvent::Channels(sidecar_channels::ChannelEvent::ChannelAlert { title, body, down, .. }) => {
                            tray::channel_alert(&app, title, body, *down)
                        }
                        sidecar::events::CoreEvent::Channels(sidecar_channels::ChannelEvent::ChannelWarning { title, body, .. }) => {
                            tray::channel_warning(&app, title, body)
                        }
                        sidecar::events::CoreEvent::Permissions(sidecar_actions::PermissionEvent::PermissionAsked { question })
                            if !window::is_visible(&app) =>
                        {
                            let (title, body) = sidecar_actions::notification_words(question, companion.lang());
                            tray::channel_warning(&app, &title, &body);
                        }
                        sidecar::events::CoreEvent::Connections(sidecar_serve::ConnectionEvent::ConnectionWaiting { title, body, .. })
                        | sidecar::events::CoreEvent::Updates(sidecar_desktop_features::UpdateEvent::UpdateFound { title, body }) => {
                            tray::channel_warning(&app, title, body)
                        }
                        // At 100% the tray's tooltip says so too, as for a channel down.
                        sidecar::events::CoreEvent::Budget(sidecar_llm::BudgetEvent::BudgetReached { said, reached, .. }) => {
                            tray::channel_alert(&app, sidecar_llm::budget_notification_title(companion.lang()), said, reached.percent >= 100)
                        }
                        // Said first in a chat nobody is looking at: the tray shows it unread.
                        sidecar::events::CoreEvent::Proactive(ProactiveEvent::SpontaneousMessage { message_id, .. }) if !window::is_focused(&app) => {
                            let _ = tray::alert_for(&app, Some(*message_id));
                        }
                        sidecar::events::CoreEvent::Chat(ChatEvent::PlanUpdated { items, .. }) => tray::plan_progress(&app, items, companion.lang()),
                        sidecar::events::CoreEvent::Chat(ChatEvent::TurnFinished { .. }) | sidecar::events::CoreEvent::Chat(ChatEvent::TurnFailed { .. }) => {
                            tray::plan_progress(&app, &[], companion.lang())
                        }
                        _ => {}
                    }
                    if let Err(error) = app.emit(CORE_EVENT, &event) {
                        tracing::warn!(%error, "could not forward a core event");
                    }
                }
                Err(RecvError::Lagged(skipped)) => {
                    tracing::warn!(skipped, "UI fell behind the core's events");
                }
                Err(RecvError::Closed) => break,
            }
        }
    });
}
