//! `backup`, `restore` and `export`: the user's data as a whole.

use std::path::Path;

use sidecar::export::ExportFormat;
use sidecar::{Companion, CompanionOptions};

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum ExportChoice {
    Markdown,
    Json,
}

pub(crate) async fn backup(companion: &Companion, dest: Option<&Path>, json: bool) -> anyhow::Result<i32> {
    let info = companion.data().back_up(dest).await?;
    if json {
        println!("{}", serde_json::to_string(&info)?);
    } else {
        println!("Backed up {} files to {} ({:.1} MB).", info.files, info.path.display(), info.bytes as f64 / 1e6);
    }
    Ok(0)
}

pub(crate) async fn restore(options: &CompanionOptions, file: &Path, json: bool) -> anyhow::Result<i32> {
    let restored = sidecar::backup::restore::restore(file, &options.data_dir, options.config_path.as_deref(), options.clock.now()).await?;
    if json {
        println!("{}", serde_json::to_string(&restored)?);
    } else {
        println!(
            "Restored {} files from the backup of {}. Your data from before is in {}.",
            restored.files,
            restored.created_at,
            restored.aside.display()
        );
    }
    Ok(0)
}

pub(crate) async fn export(companion: &Companion, format: ExportChoice, output: Option<&Path>) -> anyhow::Result<i32> {
    let format = match format {
        ExportChoice::Markdown => ExportFormat::Markdown,
        ExportChoice::Json => ExportFormat::Json,
    };
    let text = companion.data().export(format).await?;
    match output {
        Some(path) => {
            sidecar::fsutil::write_atomically(path, text.as_bytes()).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            eprintln!("Exported to {}.", path.display());
        }
        None => print!("{text}"),
    }
    Ok(0)
}
