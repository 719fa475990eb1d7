// Prevents an extra console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    // Sidecar's pages draw without GPU compositing (window::render_in_software), so
    // WebKit's DMA-BUF renderer only adds a way to fail: with it, the character's
    // see-through window took the web process down under a software GL (measured under
    // Xvfb). Set before any thread starts; a value the user set is kept.
    #[cfg(target_os = "linux")]
    if std::env::var_os("WEBKIT_DISABLE_DMABUF_RENDERER").is_none() {
        std::env::set_var("WEBKIT_DISABLE_DMABUF_RENDERER", "1");
    }
    sidecar_desktop::run();
}
