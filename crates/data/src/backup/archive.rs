//! The backup file itself: a gzip-compressed tar with `manifest.json` first (sealed with
//! the user's passphrase when there is one), written to a temporary name and renamed, so
//! a crash never leaves half a backup under the real name; and read back into a staging
//! folder with every checksum recomputed.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};

use super::bad_backup::BadBackup;
use super::manifest::{self, Manifest, ManifestEntry, FORMAT, MANIFEST, VERSION};
use super::sealed::{self, Output, Passphrase};

/// A manifest larger than this is not one of ours.
const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// Writes `files` (relative name, file) with their manifest, sealed with `seal` if
/// given; returns the backup's size and the number of files.
pub(crate) fn write(path: &Path, files: &[(String, PathBuf)], created_at: &str, seal: Option<&Passphrase>) -> std::io::Result<(u64, usize)> {
    // Knowledge files and settings may change while the backup runs: each is read once,
    // and the bytes read are the ones checksummed and stored.
    let mut contents: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, file) in files {
        contents.push((name.clone(), std::fs::read(file)?));
    }
    let manifest = Manifest {
        format: FORMAT.into(),
        version: VERSION,
        created_at: created_at.into(),
        app_version: env!("CARGO_PKG_VERSION").into(),
        files: contents
            .iter()
            .map(|(name, bytes)| ManifestEntry { path: name.clone(), bytes: bytes.len() as u64, sha256: hex::encode(Sha256::digest(bytes)) })
            .collect(),
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("backup");
    let partial = path.with_file_name(format!(".{name}.partial"));
    let result = (|| {
        let file = std::fs::File::create(&partial)?;
        let mut tar = tar::Builder::new(GzEncoder::new(Output::to(file, seal)?, flate2::Compression::fast()));
        let manifest_bytes = serde_json::to_vec_pretty(&manifest).expect("a manifest serialises");
        append(&mut tar, MANIFEST, &manifest_bytes)?;
        for (name, bytes) in &contents {
            append(&mut tar, name, bytes)?;
        }
        let file = tar.into_inner()?.finish()?.finish()?;
        file.sync_all()?;
        std::fs::rename(&partial, path)?;
        std::fs::metadata(path).map(|m| m.len())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    Ok((result?, contents.len()))
}

fn append<W: Write>(tar: &mut tar::Builder<W>, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(bytes.len() as u64);
    header.set_mode(0o600);
    header.set_mtime(0);
    header.set_cksum();
    tar.append_data(&mut header, name, bytes)
}

/// Unpacks `path` into `staging`, checking it against its manifest: the manifest
/// first (as Sidecar writes it), then only plain files it lists, each written no
/// further than the size it states, with its SHA-256 recomputed; nothing unlisted,
/// nothing outside the allowed names, no sparse, link or special entries. So a hostile
/// backup is refused before it can fill the disk. A sealed backup is opened with `seal`
/// (a byte changed in it fails age's own check, as damage). Returns the manifest, or
/// why the backup is refused.
pub(crate) fn unpack(path: &Path, staging: &Path, seal: Option<&Passphrase>) -> Result<Manifest, BadBackup> {
    let mut archive = tar::Archive::new(GzDecoder::new(sealed::open(path, seal)?));
    let damaged = BadBackup::Damaged;
    let mut manifest: Option<Manifest> = None;
    let mut seen: HashMap<String, (u64, String)> = HashMap::new();
    let entries = archive.entries().map_err(damaged)?;
    for entry in entries {
        let mut entry = entry.map_err(damaged)?;
        let name = entry.path().map_err(damaged)?.to_string_lossy().to_string();
        let kind = entry.header().entry_type();
        if !matches!(kind, tar::EntryType::Regular | tar::EntryType::Continuous) {
            return Err(BadBackup::NotPlain { name, kind: format!("{kind:?}") });
        }
        let Some(listed) = manifest.as_ref() else {
            if name != MANIFEST {
                return Err(BadBackup::ManifestNotFirst);
            }
            if entry.size() > MAX_MANIFEST_BYTES {
                return Err(BadBackup::ManifestTooLarge);
            }
            let mut text = Vec::new();
            entry.by_ref().take(MAX_MANIFEST_BYTES + 1).read_to_end(&mut text).map_err(damaged)?;
            let read: Manifest = serde_json::from_slice(&text).map_err(BadBackup::ManifestUnreadable)?;
            if read.format != FORMAT || read.version > VERSION {
                return Err(BadBackup::OtherFormat { format: read.format, version: read.version });
            }
            if let Some(bad) = read.files.iter().find(|f| !manifest::allowed(&f.path)) {
                return Err(BadBackup::ListsForeign(bad.path.clone()));
            }
            manifest = Some(read);
            continue;
        };
        if !manifest::allowed(&name) {
            return Err(BadBackup::HoldsForeign(name));
        }
        let Some(expected) = listed.files.iter().find(|f| f.path == name).map(|f| f.bytes) else {
            return Err(BadBackup::Unlisted(name));
        };
        if seen.contains_key(&name) {
            return Err(BadBackup::Twice(name));
        }
        if entry.size() != expected {
            return Err(BadBackup::WrongSize(name));
        }
        let target = staging.join(&name);
        std::fs::create_dir_all(target.parent().expect("allowed names have a parent")).map_err(BadBackup::Io)?;
        let mut out = std::fs::File::create(&target).map_err(BadBackup::Io)?;
        let mut hasher = Sha256::new();
        let mut buffer = vec![0u8; 1 << 16];
        let mut total = 0u64;
        // One byte past the stated size is enough to know it lies.
        let mut limited = entry.by_ref().take(expected + 1);
        loop {
            let read = limited.read(&mut buffer).map_err(damaged)?;
            if read == 0 {
                break;
            }
            total += read as u64;
            if total > expected {
                return Err(BadBackup::Larger(name));
            }
            hasher.update(&buffer[..read]);
            out.write_all(&buffer[..read]).map_err(BadBackup::Io)?;
        }
        out.sync_all().map_err(BadBackup::Io)?;
        seen.insert(name, (total, hex::encode(hasher.finalize())));
    }
    // The tar ends before the gzip stream does: read to the end so gzip's own checksum
    // of everything (padding included) is verified too.
    std::io::copy(&mut archive.into_inner(), &mut std::io::sink()).map_err(damaged)?;
    let manifest = manifest.ok_or(BadBackup::NoManifest)?;
    for entry in &manifest.files {
        match seen.remove(&entry.path) {
            None => return Err(BadBackup::Missing(entry.path.clone())),
            Some((bytes, sha)) if bytes != entry.bytes || sha != entry.sha256 => {
                return Err(BadBackup::Checksum(entry.path.clone()));
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = seen.keys().next() {
        return Err(BadBackup::Unlisted(extra.clone()));
    }
    if !manifest.files.iter().any(|f| f.path == "sidecar.db") {
        return Err(BadBackup::NoDatabase);
    }
    Ok(manifest)
}
