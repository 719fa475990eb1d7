//! `sidecar devices`: one Sidecar on every device. On the home core: where it listens,
//! a pairing code, the paired devices and revoking one. On another device: pairing with
//! the home core, and calling its commands over the link.

use std::time::Duration;

use clap::Subcommand;
use sidecar::companion::home::{device_name, pair_and_keep};
use sidecar::{Companion, CompanionOptions};
use sidecar_link::{words, CallFailure, Home, LinkClient, LinkState};

#[derive(Subcommand)]
pub(crate) enum DevicesCommand {
    /// Where this Sidecar listens for other devices, the certificate's fingerprint, the
    /// open code and the paired devices.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Lets other devices reach this Sidecar at these addresses (an IP, with an optional
    /// port; none: off). The app or `sidecar daemon` listens there from its next start.
    Listen { addresses: Vec<String> },
    /// Opens a pairing code (5 minutes, 5 tries) for a device to type.
    Code {
        #[arg(long)]
        json: bool,
    },
    /// Revokes a paired device: its link closes at once.
    Revoke { id: i64 },
    /// On another device: pairs with the home Sidecar at ADDRESS ("host:port") with the
    /// code it shows.
    Pair {
        address: String,
        code: String,
        /// This device's name on the home Sidecar.
        #[arg(long, default_value = "")]
        name: String,
    },
    /// On a paired device: runs one of the home Sidecar's commands (as the window calls
    /// it, with JSON arguments) and prints its JSON answer.
    Call { name: String, args: Option<String> },
    /// On a paired device: forgets the home Sidecar.
    Forget,
}

/// What runs on this device without opening its own data.
pub(crate) async fn on_this_device(options: &CompanionOptions, command: &DevicesCommand) -> Option<anyhow::Result<i32>> {
    let dir = options.data_dir.join("link");
    let lang = sidecar_settings::language_of(options.settings.desktop.language);
    Some(match command {
        DevicesCommand::Pair { address, code, name } => {
            let name = if name.trim().is_empty() { device_name() } else { name.clone() };
            match pair_and_keep(&dir, &options.secrets, address, code, &name).await {
                Ok((home, _)) => {
                    println!("Paired as \"{}\". The home Sidecar's certificate: {}", home.name, home.fingerprint);
                    println!("Check that the home Sidecar shows the same (Settings → Devices, or `sidecar devices list` there).");
                    Ok(0)
                }
                Err(e) => {
                    eprintln!("sidecar: {}", words::error(&e, lang));
                    Ok(1)
                }
            }
        }
        DevicesCommand::Call { name, args } => call(&dir, options, name, args.as_deref(), lang).await,
        DevicesCommand::Forget => Home::forget(&dir, &options.secrets).map(|()| 0).map_err(|e| anyhow::anyhow!(words::error(&e, lang))),
        _ => return None,
    })
}

async fn call(dir: &std::path::Path, options: &CompanionOptions, name: &str, args: Option<&str>, lang: sidecar::words::Lang) -> anyhow::Result<i32> {
    let Some((home, token)) = Home::load(dir, &options.secrets).map_err(|e| anyhow::anyhow!(words::error(&e, lang)))? else {
        eprintln!("sidecar: this device is not paired with a home Sidecar (`sidecar devices pair ADDRESS CODE`)");
        return Ok(1);
    };
    let args: serde_json::Value = match args {
        Some(text) => serde_json::from_str(text).map_err(|e| anyhow::anyhow!("the arguments are not JSON: {e}"))?,
        None => serde_json::Value::Null,
    };
    let client = LinkClient::connect(&home.address, home.fingerprint, &token);
    let mut state = client.state();
    let up = tokio::time::timeout(Duration::from_secs(20), state.wait_for(|s| matches!(s, LinkState::Up | LinkState::Refused { .. }))).await;
    let state = match up {
        Ok(Ok(state)) => state.clone(),
        _ => LinkState::Down { reason: String::new() },
    };
    if state != LinkState::Up {
        eprintln!("sidecar: {}", words::state(&state, lang));
        return Ok(1);
    }
    match client.call(name, args).await {
        Ok(answer) => {
            println!("{}", serde_json::to_string_pretty(&answer)?);
            Ok(0)
        }
        Err(CallFailure::Answered(error)) => {
            eprintln!("sidecar: {}", error.get("message").and_then(|m| m.as_str()).map(str::to_string).unwrap_or_else(|| error.to_string()));
            Ok(1)
        }
        Err(CallFailure::Refused(reason)) => {
            eprintln!("sidecar: {}", words::refusal(&reason, lang));
            Ok(1)
        }
        Err(CallFailure::Closed) => {
            eprintln!("sidecar: {}", words::state(&LinkState::Down { reason: String::new() }, lang));
            Ok(1)
        }
    }
}

/// What runs on the home core, with its data open.
pub(crate) async fn on_the_home_core(companion: &std::sync::Arc<Companion>, command: DevicesCommand) -> anyhow::Result<i32> {
    let link = companion.device_link();
    match command {
        DevicesCommand::List { json } => {
            let view = link.view().await?;
            let listen = companion.settings().devices.listen.clone();
            if json {
                println!("{}", serde_json::json!({ "listen": listen, "view": view, "fingerprint": companion.link_fingerprint()? }));
                return Ok(0);
            }
            match listen.is_empty() {
                true => println!("Other devices: off (`sidecar devices listen ADDRESS` turns it on)."),
                false => println!("Other devices reach this Sidecar at: {}", listen.join(", ")),
            }
            println!("Certificate: {}", companion.link_fingerprint()?);
            if let Some(code) = view.code {
                println!("Open code: {} (until {})", code.code, code.expires_at.with_timezone(&companion.clock().zone()).format("%H:%M"));
            }
            for device in view.devices {
                let seen =
                    device.last_seen.map(|t| t.with_timezone(&companion.clock().zone()).format("%Y-%m-%d %H:%M").to_string()).unwrap_or_else(|| "never".into());
                println!("{:>4}  {}  (last seen {seen})", device.id, device.name);
            }
            Ok(0)
        }
        DevicesCommand::Listen { addresses } => {
            let view = companion.set_devices_listen(addresses).await?;
            match view.listening.is_empty() {
                true => println!("Other devices: off."),
                false => println!("Listening at {} (the app or `sidecar daemon` listens there from its next start).", view.listening.join(", ")),
            }
            companion.device_link().stop().await;
            Ok(0)
        }
        DevicesCommand::Code { json } => {
            let code = link.open_pairing().await?;
            let fingerprint = companion.link_fingerprint()?;
            if json {
                println!("{}", serde_json::json!({ "code": code.code, "expires_at": code.expires_at, "fingerprint": fingerprint }));
            } else {
                println!("Pairing code: {} (5 minutes, 5 tries)", code.code);
                println!("Certificate: {fingerprint}");
            }
            Ok(0)
        }
        DevicesCommand::Revoke { id } => {
            if link.revoke(id).await? {
                println!("Device {id} revoked.");
                Ok(0)
            } else {
                eprintln!("sidecar: no paired device has the number {id} (`sidecar devices list`)");
                Ok(1)
            }
        }
        DevicesCommand::Pair { .. } | DevicesCommand::Call { .. } | DevicesCommand::Forget => unreachable!("run on this device"),
    }
}
