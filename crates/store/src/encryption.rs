//! The database encrypted at rest (issue 74). The SQLite under sqlx is SQLCipher: a file
//! opened with a [`DatabaseKey`] is AES-256 page by page, one opened without is plain
//! SQLite as before. The key is 256 random bits handed over raw (no passphrase to
//! stretch, so opening costs nothing); whoever opens the store keeps it (the data crate,
//! in the OS keychain).
//!
//! [`convert`] turns a plain file into an encrypted one or back: it writes a new file
//! beside the old one with `sqlcipher_export`, counts every table's rows in both, and
//! only then renames the new file over the old. A crash at any point leaves the old file
//! whole; the half-written one is removed on the next try.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, SqliteConnection};

use super::{StoreError, DB_FILE};

/// What a plain SQLite file starts with; an encrypted one starts with its random salt.
const PLAIN_HEADER: &[u8; 16] = b"SQLite format 3\0";
/// The new file while a conversion writes it.
const CONVERTING: &str = "sidecar.db.converting";

/// The key a database is encrypted with: 32 random bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseKey([u8; 32]);

impl DatabaseKey {
    /// A new key from the system's random source.
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the system's random source answers");
        Self(bytes)
    }

    /// The key as it is kept (64 hex digits).
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// A kept key read back; `None` for anything but 64 hex digits.
    pub fn from_hex(text: &str) -> Option<Self> {
        let bytes = hex::decode(text.trim()).ok()?;
        Some(Self(bytes.try_into().ok()?))
    }

    /// SQLCipher's spelling of a raw key, as `PRAGMA key` and `ATTACH … KEY` take it.
    fn raw(&self) -> String {
        format!("x'{}'", self.to_hex())
    }
}

impl std::fmt::Debug for DatabaseKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DatabaseKey(…)")
    }
}

/// What is at a database's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileState {
    /// No database yet.
    Absent,
    Plain,
    Encrypted,
}

/// Whether the database file at `path` is plain SQLite, encrypted, or not there. An
/// empty file is taken as absent (SQLite writes its header with the first table).
pub fn file_state(path: &Path) -> std::io::Result<FileState> {
    use std::io::Read;
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(FileState::Absent),
        Err(e) => return Err(e),
    };
    let mut header = [0u8; 16];
    let mut read = 0;
    while read < header.len() {
        match file.read(&mut header[read..])? {
            0 => break,
            n => read += n,
        }
    }
    Ok(match read {
        0 => FileState::Absent,
        _ if &header == PLAIN_HEADER => FileState::Plain,
        _ => FileState::Encrypted,
    })
}

/// The options every connection to `path` starts from: the key first (SQLCipher needs
/// it before anything reads the file; sqlx sends `key` before its other pragmas).
pub(crate) fn options(path: &Path, key: Option<&DatabaseKey>) -> SqliteConnectOptions {
    let options = SqliteConnectOptions::from_str("sqlite://").expect("static URL").filename(path);
    match key {
        Some(key) => options.pragma("key", format!("\"{}\"", key.raw())),
        None => options,
    }
}

/// What a conversion carried over: every table and its rows, counted in both files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    pub tables: usize,
    pub rows: u64,
}

/// Rewrites the database in `data_dir`, read with `from`, as one keyed with `to` (either
/// may be none: plain). Nothing else may hold the database meanwhile (the caller holds
/// [`super::OpeningLock`] and opens the store after).
pub async fn convert(data_dir: &Path, from: Option<&DatabaseKey>, to: Option<&DatabaseKey>) -> Result<Converted, StoreError> {
    let path = data_dir.join(DB_FILE);
    let shown = path.display().to_string();
    let failed = |detail: String| StoreError::Convert { path: shown.clone(), detail };
    let converting = data_dir.join(CONVERTING);
    remove_with_journal(&converting).map_err(|e| failed(format!("a conversion left before could not be removed: {e}")))?;

    let mut source = connect(&path, from).await?;
    // Everything the WAL holds goes into the file first, so the file alone is the data;
    // leaving WAL mode succeeds only when no other connection has the file open (the
    // app, the daemon, a `sidecar chat`): one that had would go on writing to the old
    // file after the rename.
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&mut source).await?;
    let mode: Result<String, _> = sqlx::query_scalar("PRAGMA journal_mode = DELETE").fetch_one(&mut source).await;
    if !matches!(mode.as_deref(), Ok("delete")) {
        tracing::info!(?mode, "the database stays in WAL mode: another connection has it open");
        let _ = source.close().await;
        return Err(StoreError::InUse { path: shown.clone() });
    }
    let before = counts(&mut source).await?;
    let user_version: i64 = sqlx::query_scalar("PRAGMA user_version").fetch_one(&mut source).await?;
    // ATTACH opens with the main file's flags, which do not create: the file is made here.
    std::fs::File::create(&converting).map_err(|e| failed(e.to_string()))?;
    sqlx::query("ATTACH DATABASE ? AS converted KEY ?")
        .bind(converting.display().to_string())
        .bind(to.map(DatabaseKey::raw).unwrap_or_default())
        .execute(&mut source)
        .await?;
    let exported = async {
        // No other program writes while the rows are copied and counted.
        sqlx::query("BEGIN IMMEDIATE").execute(&mut source).await?;
        let done = sqlx::query("SELECT sqlcipher_export('converted')").execute(&mut source).await;
        sqlx::query(if done.is_ok() { "COMMIT" } else { "ROLLBACK" }).execute(&mut source).await?;
        done?;
        sqlx::query(sqlx::AssertSqlSafe(format!("PRAGMA converted.user_version = {user_version}"))).execute(&mut source).await?;
        Ok::<_, sqlx::Error>(())
    }
    .await;
    sqlx::query("DETACH DATABASE converted").execute(&mut source).await?;
    source.close().await?;
    if let Err(e) = exported {
        let _ = remove_with_journal(&converting);
        return Err(failed(e.to_string()));
    }

    let mut written = connect(&converting, to).await?;
    let after = counts(&mut written).await;
    let check: Result<Vec<(String,)>, _> = sqlx::query_as("PRAGMA quick_check(3)").fetch_all(&mut written).await;
    written.close().await?;
    let verdict = match (after, check) {
        (Ok(after), Ok(check)) if after == before && check.len() == 1 && check[0].0 == "ok" => Ok(()),
        (Ok(after), Ok(check)) if after == before => Err(format!("the new file did not check out: {check:?}")),
        (Ok(after), _) => Err(differences(&before, &after)),
        (Err(e), _) => Err(e.to_string()),
    };
    if let Err(detail) = verdict {
        let _ = remove_with_journal(&converting);
        return Err(failed(detail));
    }

    std::fs::File::open(&converting).and_then(|f| f.sync_all()).map_err(|e| failed(e.to_string()))?;
    // The old file's WAL was emptied into it; left beside the new file it would be read
    // as the new one's.
    for suffix in ["-wal", "-shm"] {
        remove_if_there(&PathBuf::from(format!("{}{suffix}", path.display()))).map_err(|e| failed(e.to_string()))?;
    }
    std::fs::rename(&converting, &path).map_err(|e| failed(e.to_string()))?;
    if let Ok(dir) = std::fs::File::open(data_dir) {
        let _ = dir.sync_all();
    }
    let rows = before.iter().map(|(_, n)| n).sum();
    tracing::info!(tables = before.len(), rows, encrypted = to.is_some(), "the database was converted");
    Ok(Converted { tables: before.len(), rows })
}

/// A plain copy of an encrypted database, from one snapshot (one read transaction).
pub(crate) async fn export_plain(pool: &sqlx::SqlitePool, target: &str) -> Result<(), StoreError> {
    let mut connection = pool.acquire().await?;
    let user_version: i64 = sqlx::query_scalar("PRAGMA user_version").fetch_one(&mut *connection).await?;
    sqlx::query("ATTACH DATABASE ? AS copy KEY ''").bind(target).execute(&mut *connection).await?;
    let exported = async {
        sqlx::query("BEGIN").execute(&mut *connection).await?;
        let done = sqlx::query("SELECT sqlcipher_export('copy')").execute(&mut *connection).await;
        let end = if done.is_ok() { "COMMIT" } else { "ROLLBACK" };
        sqlx::query(end).execute(&mut *connection).await?;
        done?;
        sqlx::query(sqlx::AssertSqlSafe(format!("PRAGMA copy.user_version = {user_version}"))).execute(&mut *connection).await?;
        Ok::<_, sqlx::Error>(())
    }
    .await;
    sqlx::query("DETACH DATABASE copy").execute(&mut *connection).await?;
    Ok(exported?)
}

/// One connection to `path` with `key`, in the journal mode the file has.
async fn connect(path: &Path, key: Option<&DatabaseKey>) -> Result<SqliteConnection, StoreError> {
    let options = options(path, key).busy_timeout(Duration::from_secs(5));
    let mut connection = options.connect().await.map_err(|source| StoreError::Open { path: path.display().to_string(), source })?;
    // A wrong key reads as "file is not a database" at the first query, not at connect.
    if let Err(e) = sqlx::query("SELECT count(*) FROM sqlite_master").execute(&mut connection).await {
        let _ = connection.close().await;
        return Err(unreadable(path, key, e));
    }
    Ok(connection)
}

/// The error for a file that did not open: a missing or wrong key when it is encrypted.
pub(crate) fn unreadable(path: &Path, key: Option<&DatabaseKey>, error: sqlx::Error) -> StoreError {
    locked_out(path, key, &error).unwrap_or(StoreError::Open { path: path.display().to_string(), source: error })
}

/// An encrypted file read without its key, or with another: not a damaged one.
pub(crate) fn locked_out(path: &Path, key: Option<&DatabaseKey>, error: &sqlx::Error) -> Option<StoreError> {
    let shown = path.display().to_string();
    match (file_state(path), key) {
        (Ok(FileState::Encrypted), None) => Some(StoreError::NoKey { path: shown }),
        (Ok(FileState::Encrypted), Some(_)) if error.to_string().contains("not a database") => Some(StoreError::WrongKey { path: shown }),
        _ => None,
    }
}

/// Every table's rows (the full-text indexes' own tables included), by name.
async fn counts(connection: &mut SqliteConnection) -> Result<Vec<(String, u64)>, sqlx::Error> {
    let tables: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").fetch_all(&mut *connection).await?;
    let mut counted = Vec::with_capacity(tables.len());
    for (table,) in tables {
        let quoted = table.replace('"', "\"\"");
        let (rows,): (i64,) = sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT count(*) FROM \"{quoted}\""))).fetch_one(&mut *connection).await?;
        counted.push((table, rows as u64));
    }
    Ok(counted)
}

fn differences(before: &[(String, u64)], after: &[(String, u64)]) -> String {
    let changed: Vec<String> = before
        .iter()
        .filter_map(|(table, rows)| match after.iter().find(|(t, _)| t == table) {
            Some((_, now)) if now == rows => None,
            Some((_, now)) => Some(format!("{table}: {rows} rows before, {now} after")),
            None => Some(format!("{table}: missing")),
        })
        .collect();
    format!("the new file does not hold what the old one did ({})", changed.join("; "))
}

fn remove_with_journal(path: &Path) -> std::io::Result<()> {
    for suffix in ["", "-journal", "-wal", "-shm"] {
        remove_if_there(&PathBuf::from(format!("{}{suffix}", path.display())))?;
    }
    Ok(())
}

fn remove_if_there(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}
