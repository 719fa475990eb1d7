//! Whether the database changed since the last look, whoever changed it: SQLite's
//! `PRAGMA data_version` on a connection of its own. Another process (`sidecar remind`
//! beside the running app, a phone channel served elsewhere) cannot notify this one's
//! scheduler directly; the file tells.

use sqlx::{Connection, SqliteConnection};

use super::{Store, StoreError};

/// A connection kept to ask one question: has anyone committed since I last asked?
pub struct DataVersion {
    connection: SqliteConnection,
    last: i64,
}

impl DataVersion {
    /// Opens the watching connection on `store`'s file.
    pub async fn open(store: &Store) -> Result<Self, StoreError> {
        let options = store.pool.connect_options().as_ref().clone();
        let mut connection = SqliteConnection::connect_with(&options).await?;
        let last = version(&mut connection).await?;
        Ok(Self { connection, last })
    }

    /// True when another connection committed a change since the last call. Changes
    /// made through this process's own pool count too (it is another connection); a
    /// look at an unchanged file costs one pragma and writes nothing.
    pub async fn changed(&mut self) -> Result<bool, StoreError> {
        let now = version(&mut self.connection).await?;
        let changed = now != self.last;
        self.last = now;
        Ok(changed)
    }
}

async fn version(connection: &mut SqliteConnection) -> Result<i64, StoreError> {
    let (v,): (i64,) = sqlx::query_as("PRAGMA data_version").fetch_one(connection).await?;
    Ok(v)
}
