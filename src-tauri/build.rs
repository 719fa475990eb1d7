fn main() {
    // The UI is embedded by `generate_context!`, which cargo does not know reads it:
    // without this, a rebuilt `ui/dist` left the app showing the previous UI.
    println!("cargo:rerun-if-changed=../ui/dist");
    tauri_build::build()
}
