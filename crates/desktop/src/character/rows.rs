//! Where the character stands on each screen. A handle on the store:
//! `store.character_places()`.

use crate::character::place::Spot;
use sidecar_store::Store;
use sidecar_store::StoreError;

pub(crate) struct CharacterPlaces<'a> {
    store: &'a Store,
}

impl CharacterPlaces<'_> {
    /// Every screen's place, the latest dropped first.
    pub(crate) async fn latest_first(&self) -> Result<Vec<(String, Spot)>, StoreError> {
        let rows: Vec<(String, i64, i64)> =
            sqlx::query_as("SELECT screen, x, y FROM character_places ORDER BY saved_at DESC, rowid DESC").fetch_all(self.store.pool()).await?;
        Ok(rows.into_iter().map(|(screen, x, y)| (screen, Spot { x: x as i32, y: y as i32 })).collect())
    }

    pub(crate) async fn put(&self, screen: &str, spot: Spot) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO character_places (screen, x, y, saved_at) VALUES (?, ?, ?, ?) ON CONFLICT (screen) DO UPDATE SET x = excluded.x, y = excluded.y, saved_at = excluded.saved_at")
            .bind(screen)
            .bind(spot.x)
            .bind(spot.y)
            .bind(self.store.now())
            .execute(self.store.pool())
            .await?;
        Ok(())
    }
}

/// The store's seam to these rows: `store.character_places()`, with this trait in scope.
pub(crate) trait CharacterStore {
    fn character_places(&self) -> CharacterPlaces<'_>;
}

impl CharacterStore for Store {
    fn character_places(&self) -> CharacterPlaces<'_> {
        CharacterPlaces { store: self }
    }
}
