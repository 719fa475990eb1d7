//! Whether a database from elsewhere (a backup about to be restored) is one this
//! Sidecar can use: its migrations are all known here (none from a newer version), the
//! ones it lacks apply, and every table has the columns Sidecar reads. Checked on the
//! copy, before it replaces anything.

use std::collections::BTreeSet;
use std::path::Path;

use super::{Store, StoreError};

/// Opens the database in `dir` (applying the migrations it lacks, as the next start
/// would) and compares its tables with a fresh one's; the error says what is wrong.
pub async fn check_usable(dir: &Path) -> Result<(), String> {
    let staged = Store::open(dir).await.map_err(|e| match e {
        StoreError::Migrate(why) => format!("its database comes from a newer Sidecar or is not Sidecar's ({why}); update Sidecar, then restore it"),
        StoreError::Newer { found, known, .. } => {
            format!("its database comes from a newer Sidecar (version {found}; this one knows up to {known}); update Sidecar, then restore it")
        }
        other => other.to_string(),
    })?;
    let fresh_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let fresh = Store::open(fresh_dir.path()).await.map_err(|e| e.to_string())?;
    let result = compare(&fresh, &staged).await;
    staged.close().await;
    fresh.close().await;
    result
}

async fn compare(fresh: &Store, staged: &Store) -> Result<(), String> {
    for table in tables(fresh).await? {
        let wanted = columns(fresh, &table).await?;
        let present = columns(staged, &table).await?;
        if present.is_empty() {
            return Err(format!("its database has no {table} table"));
        }
        if let Some(missing) = wanted.difference(&present).next() {
            return Err(format!("its database's {table} table is not the one Sidecar uses (it lacks {missing})"));
        }
    }
    Ok(())
}

/// Sidecar's own tables (full-text and vector indexes' shadow tables aside).
async fn tables(store: &Store) -> Result<Vec<String>, String> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\' AND sql NOT LIKE 'CREATE VIRTUAL%'")
        .fetch_all(store.pool())
        .await
        .map_err(|e| e.to_string())?;
    let virtual_tables: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'").fetch_all(store.pool()).await.map_err(|e| e.to_string())?;
    // An FTS5 table `x` keeps its rows in `x_data`, `x_idx`…: those follow from `x`.
    Ok(rows.into_iter().map(|(n,)| n).filter(|n| !virtual_tables.iter().any(|(v,)| n.starts_with(&format!("{v}_")))).collect())
}

async fn columns(store: &Store, table: &str) -> Result<BTreeSet<String>, String> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT name FROM pragma_table_info(?)").bind(table).fetch_all(store.pool()).await.map_err(|e| e.to_string())?;
    Ok(rows.into_iter().map(|(n,)| n).collect())
}
