//! The window's IPC: a command of the core's table (`sidecar::commands`) runs through it,
//! the same table the link to other devices serves; on a computer attached to a home
//! core it runs there, over the link. The few the device keeps for itself
//! (`DEVICE_LOCAL`: its microphone, hotkeys, windows, character, updates) run here.

use std::sync::Arc;

use sidecar::Companion;
use tauri::ipc::{Invoke, InvokeBody};
use tauri::{Manager, Runtime};

/// The invoke handler: the core's table first (here, or at the home core), then `local`.
pub(crate) fn handler<R: Runtime>(local: impl Fn(Invoke<R>) -> bool + Send + Sync + 'static) -> impl Fn(Invoke<R>) -> bool + Send + Sync + 'static {
    move |invoke: Invoke<R>| {
        let name = invoke.message.command().to_string();
        let Some(core) = invoke.message.webview().try_state::<Arc<Companion>>().map(|c| c.inner().clone()) else {
            return local(invoke);
        };
        let args = match invoke.message.payload() {
            InvokeBody::Json(args) => args.clone(),
            InvokeBody::Raw(_) => serde_json::Value::Null,
        };
        let Some(run) = sidecar::commands::dispatch_for_window(core, &name, args) else {
            return local(invoke);
        };
        let resolver = invoke.resolver;
        tauri::async_runtime::spawn(async move {
            match run.await {
                Ok(answer) => resolver.resolve(answer),
                Err(error) => resolver.reject(error),
            }
        });
        true
    }
}
