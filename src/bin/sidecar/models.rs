//! `sidecar models`: the local model manager from the terminal.

use std::io::Write;

use clap::Subcommand;
use sidecar::Companion;
use sidecar_llm::DownloadProgress;
use sidecar_llm::PullError;
use sidecar_llm::Verified;
use tokio_util::sync::CancellationToken;

#[derive(Subcommand)]
pub(crate) enum ModelsCommand {
    /// The downloaded models (the one in use marked *), unfinished downloads, and the
    /// recommended catalogue with what fits this machine.
    List {
        /// Print the whole view as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Downloads a GGUF model: a catalogue id (`qwen3-1.7b`) or a download link.
    /// An earlier cut or paused download of the same file resumes; Ctrl+C pauses.
    Pull {
        what: String,
        /// The file's expected SHA-256 (hex); a mismatch deletes the download.
        #[arg(long, value_name = "HEX")]
        sha256: Option<String>,
        /// Download even if the model looks too large for this machine's memory.
        #[arg(long)]
        allow_large: bool,
    },
    /// Makes NAME the model the local server runs ("built-in" for the demo model).
    Use { name: String },
    /// Deletes a downloaded model (the one in use goes back to the built-in model).
    Rm { name: String },
    /// Copies a .gguf file from disk into the models folder.
    Import { file: std::path::PathBuf },
}

pub(crate) async fn models(companion: &Companion, command: ModelsCommand) -> anyhow::Result<i32> {
    let hub = companion.model_hub();
    match command {
        ModelsCommand::List { json } => {
            let view = hub.view();
            if json {
                println!("{}", serde_json::to_string_pretty(&view)?);
                return Ok(0);
            }
            println!("Models in {}:", view.folder.display());
            let demo = if view.active.is_none() { "*" } else { " " };
            println!(" {demo} built-in  SmolLM2-135M demo (cannot use tools)");
            for m in &view.installed {
                let mark = if view.active.as_deref() == Some(m.name.as_str()) { "*" } else { " " };
                let context = m.context_tokens.map(|c| format!(", trained for {c} tokens")).unwrap_or_default();
                println!(" {mark} {}  {}{context}", m.name, megabytes(m.size_bytes));
            }
            for p in &view.partials {
                println!("   {}  unfinished: {} so far (pull it again to resume)", p.file, megabytes(p.received_bytes));
            }
            println!("\nRecommended ({} of memory here):", megabytes(view.memory_bytes));
            for c in &view.catalogue {
                let state = match (c.installed, c.partial_bytes) {
                    (true, _) => "downloaded".to_string(),
                    (false, Some(bytes)) => format!("{} downloaded, resumable", megabytes(bytes)),
                    (false, None) if !c.fits => format!("needs {} GB of memory", c.entry.min_ram_gb),
                    (false, None) => String::new(),
                };
                let best = if view.recommended.as_deref() == Some(c.entry.id) { " (best for this machine)" } else { "" };
                println!("   {:<12} {}, {}, {}{best}  {state}", c.entry.id, c.entry.title, megabytes(c.entry.size_bytes), c.entry.licence);
            }
            Ok(0)
        }
        ModelsCommand::Pull { what, sha256, allow_large } => {
            let mut request = hub.request(&what, sha256);
            request.allow_large = allow_large;
            let cancel = CancellationToken::new();
            let pause = cancel.clone();
            tokio::spawn(async move {
                if tokio::signal::ctrl_c().await.is_ok() {
                    pause.cancel();
                }
            });
            let started = std::time::Instant::now();
            match hub.pull(&request, show_progress, &cancel).await {
                Ok(pulled) => {
                    eprintln!();
                    let seconds = started.elapsed().as_secs_f64().max(1e-3);
                    let fetched = pulled.total_bytes - pulled.resumed_from;
                    let resumed = if pulled.resumed_from > 0 { format!(", resumed from {}", megabytes(pulled.resumed_from)) } else { String::new() };
                    let check = match pulled.verified {
                        Verified::Pinned => "SHA-256 matches the expected one",
                        Verified::Announced => "SHA-256 matches the one the server announced",
                        Verified::HeaderOnly => "no SHA-256 was known; the model header was checked",
                    };
                    println!(
                        "Downloaded {} ({}{resumed}) at {:.1} MB/s; {check}.",
                        pulled.path.display(),
                        megabytes(pulled.total_bytes),
                        fetched as f64 / 1e6 / seconds
                    );
                    let name = pulled.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                    println!("Use it with: sidecar models use {name}");
                    Ok(0)
                }
                Err(error @ PullError::Paused { .. }) => {
                    eprintln!();
                    println!("{error}");
                    Ok(0)
                }
                Err(error) => {
                    eprintln!();
                    Err(error.into())
                }
            }
        }
        ModelsCommand::Use { name } => {
            let wanted = (!matches!(name.as_str(), "built-in" | "builtin" | "demo")).then_some(name.as_str());
            let switched = hub.use_model(wanted).await?;
            if let Some(warning) = &switched.warning {
                eprintln!("sidecar: {warning}");
            }
            let name = switched.active.as_deref().unwrap_or("the built-in demo model");
            println!("The local model is now {name}, with a {}-token window.", switched.context_tokens);
            Ok(0)
        }
        ModelsCommand::Rm { name } => {
            let removed = hub.remove(&name).await?;
            println!("Deleted {} ({}).", removed.name, megabytes(removed.size_bytes));
            Ok(0)
        }
        ModelsCommand::Import { file } => {
            let model = hub.import(&file)?;
            println!("Imported {} ({}). Use it with: sidecar models use {}", model.name, megabytes(model.size_bytes), model.name);
            Ok(0)
        }
    }
}

fn show_progress(p: &DownloadProgress) {
    let line = match p.total_bytes {
        Some(total) if total > 0 => {
            format!("\r{}: {} of {} ({:.0}%)", p.file, megabytes(p.received_bytes), megabytes(total), p.received_bytes as f64 * 100.0 / total as f64)
        }
        _ => format!("\r{}: {}", p.file, megabytes(p.received_bytes)),
    };
    let mut err = std::io::stderr();
    let _ = write!(err, "{line}   ");
    let _ = err.flush();
}

fn megabytes(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{:.1} MB", bytes as f64 / (1u64 << 20) as f64)
    }
}
