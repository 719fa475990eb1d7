//! The floor any Tauri 2 window pays: the same window, blank, with nothing of Sidecar
//! running. `scripts/figures.py` measures Sidecar's footprint against it in one run.
//! Built only with `--features footprint-baseline`.

use tauri::Manager;

fn main() {
    tauri::Builder::default()
        .setup(|app| {
            if let Some(window) = app.get_webview_window("main") {
                window.navigate("about:blank".parse()?)?;
            }
            Ok(())
        })
        .run(tauri::generate_context!())
        .expect("empty window");
}
