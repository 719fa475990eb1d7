//! `backup`, `restore` and `export`: the user's data as a whole.

use std::path::Path;

use sidecar::{Companion, CompanionOptions};
use sidecar_data::ExportFormat;

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum ExportChoice {
    Markdown,
    Json,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum Turn {
    On,
    Off,
}

pub(crate) fn encryption(companion: &Companion, turn: Option<Turn>, json: bool) -> anyhow::Result<i32> {
    use sidecar_data::EncryptionChange;
    let data = companion.data();
    let state = match turn {
        None => data.database_encryption(),
        Some(Turn::On) => data.encrypt_database()?,
        Some(Turn::Off) => data.decrypt_database()?,
    };
    if json {
        println!("{}", serde_json::to_string(&state)?);
        return Ok(0);
    }
    println!(
        "{}",
        match (state.encrypted, state.pending) {
            (true, Some(EncryptionChange::Decrypt)) => "The database is encrypted; the next start makes it plain again.",
            (true, _) => "The database is encrypted; its key is in this computer's keychain.",
            (false, Some(EncryptionChange::Encrypt)) => "The database is plain; the next start encrypts it (its key is in this computer's keychain).",
            (false, _) => "The database is plain. `sidecar encryption on` encrypts it at the next start.",
        }
    );
    if let Some(why) = state.failed {
        println!("The last start could not convert it: {why}");
    }
    Ok(0)
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

pub(crate) async fn restore(options: &CompanionOptions, file: &Path, json: bool, with_settings: bool) -> anyhow::Result<i32> {
    use sidecar_data::SettingsOutcome;
    use sidecar_data::WithSettings;
    let choice = if with_settings { WithSettings::Restore } else { WithSettings::Keep };
    // The passphrase given for this restore, else the one this computer seals with.
    let given = std::env::var("SIDECAR_BACKUP_PASSPHRASE").ok().and_then(|text| sidecar_data::Passphrase::new(&text));
    let seal = given.or_else(|| sidecar_data::backup_seal(&options.secrets));
    let restored = sidecar_data::restore_backup(file, &options.data_dir, options.config_path.as_deref(), options.clock.now(), choice, seal.as_ref()).await?;
    if json {
        println!("{}", serde_json::to_string(&restored)?);
        return Ok(0);
    }
    println!("Restored {} files from the backup of {}. Your data from before is in {}.", restored.files, restored.created_at, restored.aside.display());
    let list = |changes: &[String]| changes.iter().map(|c| format!("\n  - {c}")).collect::<String>();
    match &restored.settings {
        SettingsOutcome::None => {}
        SettingsOutcome::Restored { changes } if changes.is_empty() => println!("Its settings were put back (nothing that needs saying changed)."),
        SettingsOutcome::Restored { changes } => println!("Its settings were put back; they:{}", list(changes)),
        SettingsOutcome::Kept { changes } if changes.is_empty() => {
            println!("Your settings were kept (the backup's change nothing that needs saying; --with-settings puts them back).")
        }
        SettingsOutcome::Kept { changes } => {
            println!("Your settings were kept. The backup's settings would:{}\nIf you trust them, restore again with --with-settings.", list(changes))
        }
        SettingsOutcome::Invalid { why } => println!("Your settings were kept: the backup's do not pass Sidecar's checks ({why})."),
    }
    Ok(0)
}

pub(crate) async fn export(companion: &Companion, format: ExportChoice, checkpoints: bool, output: Option<&Path>) -> anyhow::Result<i32> {
    let format = match format {
        ExportChoice::Markdown => ExportFormat::Markdown,
        ExportChoice::Json => ExportFormat::Json,
    };
    let text = if checkpoints { companion.context().checkpoints_markdown().await?.1 } else { companion.data().export(format).await? };
    match output {
        Some(path) => {
            sidecar_domain::write_atomically(path, text.as_bytes()).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            eprintln!("Exported to {}.", path.display());
        }
        None => print!("{text}"),
    }
    Ok(0)
}
