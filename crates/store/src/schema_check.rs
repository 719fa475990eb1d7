//! Whether a database from elsewhere (a backup about to be restored) is one this
//! Sidecar can use: its migrations are all known here (none from a newer version), the
//! ones it lacks apply, and every table has the columns Sidecar reads. Checked on the
//! copy, before it replaces anything.

use std::collections::BTreeSet;
use std::path::Path;

use super::{Store, StoreError};

/// Why a database from elsewhere cannot be used here.
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    #[error("its database comes from a newer Sidecar or is not Sidecar's ({0}); update Sidecar, then restore it")]
    Unknown(String),
    #[error("its database comes from a newer Sidecar (version {found}; this one knows up to {known}); update Sidecar, then restore it")]
    Newer { found: i64, known: i64 },
    #[error("its database has no {0} table")]
    NoTable(String),
    #[error("its database's {table} table is not the one Sidecar uses (it lacks {column})")]
    Lacks { table: String, column: String },
    #[error("a fresh database to compare it with could not be made: {0}")]
    NoFresh(#[from] std::io::Error),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Query(#[from] sqlx::Error),
}

impl sidecar_domain::Worded for Unusable {
    fn spanish(&self) -> String {
        match self {
            Unusable::Unknown(why) => {
                format!("su base de datos viene de un Sidecar más nuevo o no es de Sidecar ({why}); actualiza Sidecar y vuelve a restaurarla")
            }
            Unusable::Newer { found, known } => {
                format!(
                    "su base de datos viene de un Sidecar más nuevo (versión {found}; este conoce hasta la {known}); actualiza Sidecar y vuelve a restaurarla"
                )
            }
            Unusable::NoTable(table) => format!("su base de datos no tiene la tabla {table}"),
            Unusable::Lacks { table, column } => format!("la tabla {table} de su base de datos no es la que usa Sidecar (le falta {column})"),
            Unusable::NoFresh(e) => format!("no se pudo crear una base de datos nueva para compararla: {e}"),
            Unusable::Store(e) => e.spanish(),
            Unusable::Query(e) => format!("error de la base de datos: {e}"),
        }
    }
}

/// Opens the database in `dir` (applying the migrations it lacks, as the next start
/// would) and compares its tables with a fresh one's; the error says what is wrong.
pub async fn check_usable(dir: &Path) -> Result<(), Unusable> {
    let staged = Store::open(dir).await.map_err(|e| match e {
        StoreError::Migrate(why) => Unusable::Unknown(why.to_string()),
        StoreError::Newer { found, known, .. } => Unusable::Newer { found, known },
        other => Unusable::Store(other),
    })?;
    let fresh_dir = tempfile::tempdir()?;
    let fresh = Store::open(fresh_dir.path()).await?;
    let result = compare(&fresh, &staged).await;
    staged.close().await;
    fresh.close().await;
    result
}

async fn compare(fresh: &Store, staged: &Store) -> Result<(), Unusable> {
    for table in tables(fresh).await? {
        let wanted = columns(fresh, &table).await?;
        let present = columns(staged, &table).await?;
        if present.is_empty() {
            return Err(Unusable::NoTable(table));
        }
        if let Some(missing) = wanted.difference(&present).next() {
            return Err(Unusable::Lacks { table, column: missing.clone() });
        }
    }
    Ok(())
}

/// Sidecar's own tables (full-text and vector indexes' shadow tables aside).
async fn tables(store: &Store) -> Result<Vec<String>, sqlx::Error> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\' AND sql NOT LIKE 'CREATE VIRTUAL%'")
        .fetch_all(store.pool())
        .await?;
    let virtual_tables: Vec<(String,)> = sqlx::query_as("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'").fetch_all(store.pool()).await?;
    // An FTS5 table `x` keeps its rows in `x_data`, `x_idx`…: those follow from `x`.
    Ok(rows.into_iter().map(|(n,)| n).filter(|n| !virtual_tables.iter().any(|(v,)| n.starts_with(&format!("{v}_")))).collect())
}

async fn columns(store: &Store, table: &str) -> Result<BTreeSet<String>, sqlx::Error> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT name FROM pragma_table_info(?)").bind(table).fetch_all(store.pool()).await?;
    Ok(rows.into_iter().map(|(n,)| n).collect())
}
