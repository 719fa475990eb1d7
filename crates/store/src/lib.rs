//! Persistent storage: one SQLite file (WAL) with sqlx migrations applied at open.
//!
//! Queries are checked at run time (`query_as` + `FromRow`) so building needs no
//! database.

/// A query built from the module's own constant pieces (its column lists), never from
/// input: values always go through `bind`.
#[macro_export]
macro_rules! columns_sql {
    ($($piece:tt)*) => {
        sqlx::AssertSqlSafe(format!($($piece)*))
    };
}

mod archives;
mod chat_list;
mod corrections;
mod data_version;
mod encryption;
mod exchanges;
mod export;
mod item_key;
mod mentions;
mod messages;
mod recall;
mod schema_check;
mod usage;
mod variants;

// The face: what the crates above, the faces and the tests name.
pub use archives::ImportedTurn;
pub use chat_list::{forget_unkept_in, ChatSummary};
pub use data_version::DataVersion;
pub use encryption::{convert, file_state, Converted, DatabaseKey, FileState};
pub use exchanges::Forgotten;
pub use export::ExportedConversation;
pub use item_key::{ItemKind, Key};
pub use mentions::{MessageMention, NoteMention, MENTIONS_LISTED};
pub use schema_check::{check_usable, Unusable};

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub use messages::{AttachedFile, Message, MessageMeta, MessageStatus, NewMessage, PlanOutcome, Role, COLUMNS as MESSAGE_COLUMNS};
pub use recall::{fts_query, FactWords, FoundText};
pub use usage::{ModelTotals, PurposeTotals, TurnMeasures, UsageRecord, UsageTotals};
pub use variants::ReplyVersions;

/// File name of the database inside the data directory.
pub const DB_FILE: &str = "sidecar.db";
/// An encrypted database's page cache per connection, in SQLite's spelling (negative:
/// KiB): 32 MB.
const ENCRYPTED_CACHE_KIB: &str = "-32768";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the data directory {path}: {source}")]
    CreateDir { path: String, source: std::io::Error },
    #[error("cannot open the database {path}: {source}")]
    Open { path: String, source: sqlx::Error },
    #[error(
        "the database {path} is damaged ({detail}). Sidecar did not change it. Quit Sidecar, then restore the file from a copy, or move it aside to start with an empty one"
    )]
    Damaged { path: String, detail: String },
    #[error(
        "the database {path} was written by a newer Sidecar (its version {found}; this Sidecar knows up to {known}). Sidecar did not change it: update Sidecar, or open another data folder"
    )]
    Newer { path: String, found: i64, known: i64 },
    #[error("the database {path} is encrypted and its key is not in this computer's keychain. Log in to your desktop so the keychain is unlocked, then start Sidecar again; or restore a backup")]
    NoKey { path: String },
    #[error("the database {path} is encrypted with another key than the one in this computer's keychain. Sidecar did not change it: restore a backup, or move the file aside to start with an empty one")]
    WrongKey { path: String },
    #[error("the database {path} is open in another Sidecar (the app, the daemon or a `sidecar chat`), so it was not converted now. Quit the others; the next start converts it")]
    InUse { path: String },
    #[error("the database {path} could not be converted ({detail}). It is unchanged")]
    Convert { path: String, detail: String },
    #[error("cannot update the database schema: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database error: {0}")]
    Query(#[from] sqlx::Error),
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations");

/// Where a database's schema stands against this Sidecar's migrations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SchemaState {
    /// Migrations already applied (0: a new database).
    pub applied: usize,
    /// Migrations this Sidecar has and the database lacks.
    pub pending: usize,
    /// The newest applied migration this Sidecar does not know (a newer Sidecar's).
    pub unknown: Option<i64>,
    /// This Sidecar's newest migration.
    pub known: i64,
}

impl SchemaState {
    /// An existing database that the next start upgrades.
    pub fn upgrades(&self) -> bool {
        self.applied > 0 && self.pending > 0
    }
}

/// A handle to the database; cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
    /// Stamps every row it writes.
    clock: sidecar_domain::Clock,
    /// Opened with a key: the file is encrypted.
    keyed: bool,
}

/// Runs SQLite's `quick_check` on an existing file through a read-only connection, so a
/// damaged database is refused before anything (migrations, the WAL switch) writes to it.
pub async fn check_integrity(path: &Path, key: Option<&DatabaseKey>) -> Result<(), StoreError> {
    let shown = path.display().to_string();
    // Another program (or a connection of this one still closing) may hold the WAL for a
    // moment; without a wait that reads as "database is locked", a false "damaged".
    let options = encryption::options(path, key).read_only(true).busy_timeout(Duration::from_secs(5));
    let damaged = |detail: String| StoreError::Damaged { path: shown.clone(), detail };
    let mut connection = sqlx::ConnectOptions::connect(&options).await.map_err(|e| damaged(first_line(&e.to_string())))?;
    let verdict: Result<Vec<(String,)>, sqlx::Error> = sqlx::query_as("PRAGMA quick_check(3)").fetch_all(&mut connection).await;
    let _ = sqlx::Connection::close(connection).await;
    if let Some(locked) = verdict.as_ref().err().and_then(|error| encryption::locked_out(path, key, error)) {
        return Err(locked);
    }
    match verdict {
        Ok(rows) if rows.len() == 1 && rows[0].0 == "ok" => Ok(()),
        Ok(rows) => Err(damaged(rows.into_iter().map(|(r,)| first_line(&r)).collect::<Vec<_>>().join("; "))),
        Err(e) => Err(damaged(first_line(&e.to_string()))),
    }
}

/// Held while a program opens and migrates the database: programs started together
/// (the app, the daemon, several `sidecar ask`) would otherwise race on the first
/// migration, and all but one fail. A lock file beside the database; the system lets
/// it go when the holder exits, however it exits.
pub struct OpeningLock(#[allow(dead_code)] std::fs::File);

impl OpeningLock {
    pub async fn take(data_dir: &Path) -> Result<Self, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::CreateDir { path: data_dir.display().to_string(), source })?;
        let path = data_dir.join(format!("{DB_FILE}.opening"));
        let failed = |source: std::io::Error| StoreError::CreateDir { path: path.display().to_string(), source };
        let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path).map_err(failed)?;
        // Waiting for another program's migration blocks: off the runtime's threads.
        let file = tokio::task::spawn_blocking(move || file.lock().map(|()| file)).await.expect("the lock task runs").map_err(failed)?;
        Ok(Self(file))
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or_default().chars().take(200).collect()
}

impl Store {
    /// Opens (creating if needed) `sidecar.db` in `data_dir` and migrates it; a
    /// database from a newer Sidecar is refused unchanged.
    pub async fn open(data_dir: &Path) -> Result<Self, StoreError> {
        Self::open_keyed(data_dir, None).await
    }

    /// [`Store::open`] for a database encrypted with `key` (or made encrypted with it,
    /// when new); `None` is a plain one.
    pub async fn open_keyed(data_dir: &Path, key: Option<&DatabaseKey>) -> Result<Self, StoreError> {
        let _opening = OpeningLock::take(data_dir).await?;
        let (store, _) = Self::open_unmigrated(data_dir, key).await?;
        store.migrate().await?;
        Ok(store)
    }

    /// Opens `sidecar.db` without migrating it, and says where its schema stands, so a
    /// caller can back it up before an upgrade. A database from a newer Sidecar is
    /// refused here, before anything writes to it.
    pub async fn open_unmigrated(data_dir: &Path, key: Option<&DatabaseKey>) -> Result<(Self, SchemaState), StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::CreateDir { path: data_dir.display().to_string(), source })?;
        let path = data_dir.join(DB_FILE);
        if path.exists() {
            check_integrity(&path, key).await?;
        }
        let options = encryption::options(&path, key)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // NORMAL is durable across app crashes in WAL mode; only a power loss can
            // roll back the last transactions.
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            // What is deleted is overwritten with zeros, not left in free pages (issue 74).
            .pragma("secure_delete", "ON")
            .busy_timeout(Duration::from_secs(5));
        let options = match key {
            // Every page an encrypted database reads from the disk is decrypted and
            // checked; SQLite's 2 MB cache keeps too few, and recall's queries read the
            // same pages again (100,000 messages, `cargo bench --bench recall`: p95 2.0 s
            // with 2 MB, 1.76 s with 16 MB, 76 ms with 32 MB, against 84 ms plain; the
            // process 63 MB larger). Per connection, filled only as pages are read.
            Some(_) => options.pragma("cache_size", ENCRYPTED_CACHE_KIB),
            None => options,
        };
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|source| StoreError::Open { path: path.display().to_string(), source })?;
        let store = Self { pool, clock: sidecar_domain::system_clock(), keyed: key.is_some() };
        let state = store.schema_state().await?;
        if let Some(found) = state.unknown {
            store.pool.close().await;
            return Err(StoreError::Newer { path: path.display().to_string(), found, known: state.known });
        }
        Ok((store, state))
    }

    /// Applies the migrations the database lacks.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        MIGRATOR.run(&self.pool).await?;
        Ok(())
    }

    async fn schema_state(&self) -> Result<SchemaState, StoreError> {
        let has_table: Option<(String,)> =
            sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'").fetch_optional(&self.pool).await?;
        let applied: Vec<(i64,)> = if has_table.is_some() {
            sqlx::query_as("SELECT version FROM _sqlx_migrations WHERE success = 1").fetch_all(&self.pool).await?
        } else {
            Vec::new()
        };
        let known: Vec<i64> = MIGRATOR.iter().map(|m| m.version).collect();
        Ok(SchemaState {
            applied: applied.len(),
            pending: known.iter().filter(|v| !applied.iter().any(|(a,)| a == *v)).count(),
            unknown: applied.iter().map(|(v,)| *v).filter(|v| !known.contains(v)).max(),
            known: known.iter().copied().max().unwrap_or(0),
        })
    }

    /// The same database, stamping rows with `clock` (the companion's, so a test at a
    /// fixed time writes that time).
    pub fn with_clock(self, clock: sidecar_domain::Clock) -> Self {
        Self { clock, ..self }
    }

    // The seam a feature's own tables use (`crates/reminders/src/rows.rs`, `crates/llm/src/budget/rows.rs`…): the
    // pool, the clock the rows are stamped with, a write transaction, and `utc`.

    /// Now, as the store writes it.
    pub fn now(&self) -> String {
        utc(self.clock.now())
    }

    /// The clock rows are stamped with.
    pub fn clock(&self) -> &sidecar_domain::Clock {
        &self.clock
    }

    // One handle per table group, each in its own module.
    pub fn conversations(&self) -> messages::Conversations<'_> {
        messages::Conversations { store: self }
    }

    pub fn archives(&self) -> archives::Archives<'_> {
        archives::Archives { store: self }
    }

    pub fn chat_list(&self) -> chat_list::ChatList<'_> {
        chat_list::ChatList { store: self }
    }

    pub fn exchanges(&self) -> exchanges::Exchanges<'_> {
        exchanges::Exchanges { store: self }
    }

    pub fn mentions(&self) -> mentions::Mentions<'_> {
        mentions::Mentions { store: self }
    }

    pub fn corrections(&self) -> corrections::Corrections<'_> {
        corrections::Corrections { store: self }
    }

    pub fn export_rows(&self) -> export::ExportRows<'_> {
        export::ExportRows { store: self }
    }

    pub fn recall_index(&self) -> recall::RecallIndex<'_> {
        recall::RecallIndex { store: self }
    }

    pub fn usage(&self) -> usage::UsageLedger<'_> {
        usage::UsageLedger { store: self }
    }

    pub fn variants(&self) -> variants::Variants<'_> {
        variants::Variants { store: self }
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// A transaction that takes the write lock at its start (`BEGIN IMMEDIATE`). A
    /// deferred one that reads first and writes later can fail at once with "database
    /// is locked" when another connection wrote in between (the busy timeout does not
    /// apply to that upgrade); this one waits its turn instead.
    pub async fn write_transaction(&self) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
        self.pool.begin_with("BEGIN IMMEDIATE").await
    }

    /// After something was deleted for good (issue 74): the WAL still holds the pages as
    /// they were before, so they are folded into the file (where `secure_delete` has
    /// zeroed what was freed) and the WAL emptied. A reader holding an old snapshot keeps
    /// those frames until the next checkpoint; it is said, not an error.
    pub async fn forget_written(&self) {
        match sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(TRUNCATE)").fetch_one(&self.pool).await {
            Ok((0, _, _)) => {}
            Ok((busy, log, done)) => tracing::info!(busy, log, done, "the WAL could not be emptied yet: a reader holds it"),
            Err(e) => tracing::warn!(error = %e, "the WAL could not be emptied after a deletion"),
        }
    }

    /// The bytes the database's rows take: its pages less the free ones (a file grown
    /// before keeps its size until [`Store::compact`]).
    pub async fn used_bytes(&self) -> Result<u64, StoreError> {
        let (pages, free, size): (i64, i64, i64) =
            sqlx::query_as("SELECT (SELECT page_count FROM pragma_page_count()), (SELECT freelist_count FROM pragma_freelist_count()), (SELECT page_size FROM pragma_page_size())")
                .fetch_one(&self.pool)
                .await?;
        Ok(u64::try_from((pages - free).max(0) * size).unwrap_or(0))
    }

    /// Gives the free pages back to the disk (`VACUUM`), after much was removed.
    pub async fn compact(&self) -> Result<(), StoreError> {
        sqlx::query("VACUUM").execute(&self.pool).await?;
        self.forget_written().await;
        Ok(())
    }

    /// Notes that something was deleted for good now: backups made before may still
    /// hold it (Settings → Your data says which).
    pub async fn note_forgotten(&self) {
        if let Err(e) = sqlx::query("INSERT INTO forgettings (at) VALUES (?)").bind(self.now()).execute(&self.pool).await {
            tracing::warn!(error = %e, "when something was deleted could not be noted");
        }
    }

    /// When something was last deleted for good (RFC 3339), if ever.
    pub async fn last_forgotten(&self) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT MAX(at) FROM forgettings").fetch_one(&self.pool).await?)
    }

    /// A consistent copy of the whole database written to `path` (a file not there yet),
    /// plain even when this one is encrypted: a backup is opened on another computer,
    /// and sealed with its own passphrase (`sidecar-data`).
    pub async fn plain_copy(&self, path: &Path) -> Result<(), StoreError> {
        let target = path.to_string_lossy().to_string();
        if !self.keyed {
            sqlx::query("VACUUM INTO ?").bind(target).execute(&self.pool).await?;
            return Ok(());
        }
        encryption::export_plain(&self.pool, &target).await
    }

    /// Closes the pool, checkpointing the WAL.
    pub async fn close(&self) {
        // sqlx's close can return while one connection is still closing (sqlx#3217),
        // and only the last connection folds the WAL into the file. Fold it first, so
        // whatever copies or swaps `sidecar.db` next finds everything written in it.
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&self.pool).await {
            tracing::debug!(error = %e, "checkpoint before close");
        }
        self.pool.close().await;
    }
}

/// How the store writes an instant: RFC 3339 in UTC with milliseconds, so text order
/// is time order.
pub fn utc(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

impl sidecar_domain::Worded for StoreError {
    fn spanish(&self) -> String {
        match self {
            StoreError::CreateDir { path, source } => format!("no se puede crear la carpeta de datos {path}: {source}"),
            StoreError::Open { path, source } => format!("no se puede abrir la base de datos {path}: {source}"),
            StoreError::Damaged { path, detail } => format!(
                "la base de datos {path} está dañada ({detail}). Sidecar no la ha cambiado. Cierra Sidecar y restaura el archivo desde una copia, o apártalo para empezar con una vacía"
            ),
            StoreError::Newer { path, found, known } => format!(
                "la base de datos {path} la escribió un Sidecar más nuevo (su versión {found}; este Sidecar conoce hasta la {known}). Sidecar no la cambió: actualiza Sidecar o abre otra carpeta de datos"
            ),
            StoreError::NoKey { path } => format!(
                "la base de datos {path} está cifrada y su clave no está en el llavero de este ordenador. Inicia sesión en tu escritorio para que el llavero se desbloquee y vuelve a abrir Sidecar; o restaura una copia"
            ),
            StoreError::WrongKey { path } => format!(
                "la base de datos {path} está cifrada con otra clave que la del llavero de este ordenador. Sidecar no la cambió: restaura una copia, o aparta el archivo para empezar con una vacía"
            ),
            StoreError::InUse { path } => format!(
                "la base de datos {path} está abierta en otro Sidecar (la app, el servicio o un `sidecar chat`), así que no se convirtió ahora. Cierra los demás; la próxima vez que se abra se convertirá"
            ),
            StoreError::Convert { path, detail } => format!("la base de datos {path} no se pudo convertir ({detail}). No ha cambiado"),
            StoreError::Migrate(e) => format!("no se puede actualizar el esquema de la base de datos: {e}"),
            StoreError::Query(e) => format!("error de la base de datos: {e}"),
        }
    }
}
