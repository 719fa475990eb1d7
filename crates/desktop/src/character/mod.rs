//! Sidecar as a small character on the desktop. The shell draws its window; the core
//! keeps where it stands on each screen and the rules of that place. Whether it is shown
//! and its shortcut are preferences (`[desktop]`).

use crate::character::rows::CharacterStore;
pub(crate) mod place;
pub(crate) mod rows;

use place::{Screen, Size, Spot};
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Where the character stands, per screen.
#[derive(Clone)]
pub struct CharacterPlaces {
    store: Store,
}

impl CharacterPlaces {
    pub fn new(store: Store) -> Self {
        Self { store }
    }

    /// Where the character appears among the connected `screens` (the primary first):
    /// where the user last left it, on a screen still there; else the primary's corner.
    pub async fn spot(&self, screens: &[Screen], size: Size) -> Result<Option<Spot>, StoreError> {
        let saved = self.store.character_places().latest_first().await?;
        let left = saved.into_iter().find_map(|(name, spot)| screens.iter().find(|s| s.name == name).map(|screen| (screen, spot)));
        Ok(match left {
            Some((screen, spot)) => Some(place::place(screen, size, Some(spot))),
            None => screens.first().map(|primary| place::place(primary, size, None)),
        })
    }

    /// The user dropped the character at `spot` on `screen`; it is kept whole on the
    /// screen and remembered there. Returns where it stands now.
    pub async fn dropped(&self, screen: &Screen, size: Size, spot: Spot) -> Result<Spot, StoreError> {
        let kept = place::keep_on(screen, size, spot);
        self.store.character_places().put(&screen.name, kept).await?;
        Ok(kept)
    }
}
