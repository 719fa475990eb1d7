//! The window's IPC: a command of the core's table (`sidecar::commands`) runs through it,
//! the same table the link to other devices serves; on a computer attached to a home
//! core it runs there, over the link. The few the device keeps for itself
//! (`DEVICE_LOCAL`: its microphone, hotkeys, windows, character, updates) run here.

use std::sync::Arc;

use serde_json::json;
use sidecar::link::{words, CallFailure, LinkState};
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
        if !sidecar::commands::in_table(&name) {
            return local(invoke);
        }
        let args = match invoke.message.payload() {
            InvokeBody::Json(args) => args.clone(),
            InvokeBody::Raw(_) => serde_json::Value::Null,
        };
        let resolver = invoke.resolver;
        match core.home().client() {
            Some(home) => {
                let lang = core.preferences().lang();
                tauri::async_runtime::spawn(async move {
                    match home.call(&name, args).await {
                        Ok(answer) => resolver.resolve(answer),
                        Err(CallFailure::Answered(error)) => resolver.reject(error),
                        Err(CallFailure::Refused(reason)) => resolver.reject(json!({ "message": words::refusal(&reason, lang), "retryable": false })),
                        Err(CallFailure::Closed) => {
                            resolver.reject(json!({ "message": words::state(&LinkState::Down { reason: String::new() }, lang), "retryable": true }))
                        }
                    }
                });
            }
            None => {
                let run = sidecar::commands::dispatch(core, &name, args).expect("in the table");
                tauri::async_runtime::spawn(async move {
                    match run.await {
                        Ok(answer) => resolver.resolve(answer),
                        Err(error) => resolver.reject(error),
                    }
                });
            }
        }
        true
    }
}
