//! A backup sealed with the user's passphrase: the whole gzip stream inside an age file
//! (scrypt, ChaCha20-Poly1305), so it opens with the passphrase on any computer, and
//! with the `age` and `rage` tools too. Without it the file says nothing of what it
//! holds; a byte changed in it is refused, like a damaged backup.

use std::io::{Read, Write};
use std::path::Path;

use age::secrecy::SecretString;

use super::bad_backup::BadBackup;

/// How every age file starts.
const MAGIC: &[u8] = b"age-encryption.org/";

/// The passphrase backups are sealed with; never shown, logged or sent anywhere.
#[derive(Clone)]
pub struct Passphrase(SecretString);

impl Passphrase {
    /// `None` for an empty passphrase: there is nothing to seal with.
    pub fn new(text: &str) -> Option<Self> {
        (!text.is_empty()).then(|| Self(SecretString::from(text.to_string())))
    }
}

impl std::fmt::Debug for Passphrase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Passphrase(…)")
    }
}

/// Where a backup's gzip stream is written: the file itself, or an age stream over it.
pub(crate) enum Output {
    Plain(std::fs::File),
    Sealed(age::stream::StreamWriter<std::fs::File>),
}

impl Output {
    pub(crate) fn to(file: std::fs::File, seal: Option<&Passphrase>) -> std::io::Result<Self> {
        Ok(match seal {
            None => Output::Plain(file),
            Some(Passphrase(secret)) => Output::Sealed(age::Encryptor::with_user_passphrase(secret.clone()).wrap_output(file)?),
        })
    }

    /// Ends the stream (the age stream's last chunk is what makes it whole) and gives
    /// the file back, to be synced.
    pub(crate) fn finish(self) -> std::io::Result<std::fs::File> {
        match self {
            Output::Plain(file) => Ok(file),
            Output::Sealed(stream) => stream.finish(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Plain(file) => file.write(bytes),
            Output::Sealed(stream) => stream.write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Plain(file) => file.flush(),
            Output::Sealed(stream) => stream.flush(),
        }
    }
}

/// Whether the file at `path` is a sealed backup (it starts as every age file does).
pub fn is_sealed(path: &Path) -> std::io::Result<bool> {
    let mut start = [0u8; MAGIC.len()];
    let mut file = std::fs::File::open(path)?;
    let mut read = 0;
    while read < start.len() {
        match file.read(&mut start[read..])? {
            0 => return Ok(false),
            n => read += n,
        }
    }
    Ok(start == MAGIC)
}

/// The gzip stream of the backup at `path`: the file itself, or what the passphrase
/// opens. A sealed backup without a passphrase, or with the wrong one, is refused.
pub(crate) fn open(path: &Path, seal: Option<&Passphrase>) -> Result<Box<dyn Read>, BadBackup> {
    let sealed = is_sealed(path).map_err(BadBackup::Io)?;
    let file = std::fs::File::open(path).map_err(BadBackup::Io)?;
    if !sealed {
        return Ok(Box::new(file));
    }
    let Some(Passphrase(secret)) = seal else { return Err(BadBackup::Sealed) };
    let decryptor = age::Decryptor::new_buffered(std::io::BufReader::new(file)).map_err(|e| BadBackup::Damaged(std::io::Error::other(e.to_string())))?;
    let identity = age::scrypt::Identity::new(secret.clone());
    match decryptor.decrypt(std::iter::once(&identity as &dyn age::Identity)) {
        Ok(reader) => Ok(Box::new(reader)),
        Err(age::DecryptError::DecryptionFailed | age::DecryptError::NoMatchingKeys | age::DecryptError::KeyDecryptionFailed) => {
            Err(BadBackup::WrongPassphrase)
        }
        Err(age::DecryptError::ExcessiveWork { .. }) => Err(BadBackup::TooCostly),
        Err(e) => Err(BadBackup::Damaged(std::io::Error::other(e.to_string()))),
    }
}
