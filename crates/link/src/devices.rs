//! The devices paired with this core: each has its own token, of which the store keeps
//! only the SHA-256 (the token itself lives on the device). Revoking a device closes its
//! open links at once (`revocations`).

use chrono::{DateTime, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sidecar_store::utc;
use sidecar_store::Store;
use tokio::sync::broadcast;

use crate::error::{LinkError, PairingError};
use crate::pairing::{Open, Pairing, PairingCode};

/// What every device token starts with, so a leaked one is recognisable.
const TOKEN_PREFIX: &str = "sk-sidecar-device-";

/// A paired device, as Settings → Devices lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Device {
    pub id: i64,
    pub name: String,
    pub paired_at: DateTime<Utc>,
    pub last_seen: Option<DateTime<Utc>>,
}

/// A device just paired, with the token it must keep.
#[derive(Debug, Clone)]
pub struct Issued {
    pub device: Device,
    pub token: String,
}

pub struct Devices {
    store: Store,
    revoked: broadcast::Sender<i64>,
}

fn digest(token: &str) -> String {
    hex::encode(Sha256::digest(token.trim().as_bytes()))
}

type Row = (i64, String, String, Option<String>);

fn device((id, name, paired_at, last_seen): Row) -> Device {
    let parse = |t: &str| DateTime::parse_from_rfc3339(t).map(|t| t.with_timezone(&Utc)).ok();
    Device { id, name, paired_at: parse(&paired_at).unwrap_or_default(), last_seen: last_seen.as_deref().and_then(parse) }
}

impl Devices {
    pub fn new(store: Store) -> Self {
        Self { store, revoked: broadcast::channel(64).0 }
    }

    /// Pairs a device named `name` (trimmed; "Device" when empty) and makes its token.
    pub async fn add(&self, name: &str) -> Result<Issued, LinkError> {
        let name = match name.trim() {
            "" => "Device",
            name => name,
        };
        let name: String = name.chars().take(80).collect();
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).expect("the system's random source");
        let token = format!("{TOKEN_PREFIX}{}", hex::encode(bytes));
        let now = self.store.now();
        let id: i64 = sqlx::query_scalar("INSERT INTO link_devices (name, token_sha256, paired_at) VALUES (?, ?, ?) RETURNING id")
            .bind(&name)
            .bind(digest(&token))
            .bind(&now)
            .fetch_one(self.store.pool())
            .await?;
        let device = Device { id, name, paired_at: self.store.clock().now(), last_seen: None };
        tracing::info!(device = id, "a device was paired");
        Ok(Issued { device, token })
    }

    /// The device `token` opens, if it is paired and not revoked; marks it seen.
    pub async fn owner(&self, token: &str) -> Result<Option<Device>, LinkError> {
        let row: Option<Row> = sqlx::query_as("SELECT id, name, paired_at, last_seen FROM link_devices WHERE token_sha256 = ? AND revoked_at IS NULL")
            .bind(digest(token))
            .fetch_optional(self.store.pool())
            .await?;
        let Some(row) = row else { return Ok(None) };
        let device = device(row);
        self.seen(device.id).await?;
        Ok(Some(device))
    }

    /// Whether `id` is paired and not revoked (by this process or another).
    pub async fn allowed(&self, id: i64) -> Result<bool, LinkError> {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT id FROM link_devices WHERE id = ? AND revoked_at IS NULL").bind(id).fetch_optional(self.store.pool()).await?;
        Ok(found.is_some())
    }

    /// Notes that `id` was just used.
    pub async fn seen(&self, id: i64) -> Result<(), LinkError> {
        sqlx::query("UPDATE link_devices SET last_seen = ? WHERE id = ?").bind(self.store.now()).bind(id).execute(self.store.pool()).await?;
        Ok(())
    }

    /// The paired devices, most recently paired first.
    pub async fn list(&self) -> Result<Vec<Device>, LinkError> {
        let rows: Vec<Row> = sqlx::query_as("SELECT id, name, paired_at, last_seen FROM link_devices WHERE revoked_at IS NULL ORDER BY id DESC")
            .fetch_all(self.store.pool())
            .await?;
        Ok(rows.into_iter().map(device).collect())
    }

    /// Revokes `id`: its token opens nothing from now on and its open links close.
    /// False when no such device was paired.
    pub async fn revoke(&self, id: i64) -> Result<bool, LinkError> {
        let done = sqlx::query("UPDATE link_devices SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
            .bind(utc(self.store.clock().now()))
            .bind(id)
            .execute(self.store.pool())
            .await?;
        let revoked = done.rows_affected() > 0;
        if revoked {
            tracing::info!(device = id, "a device was revoked");
            let _ = self.revoked.send(id);
        }
        Ok(revoked)
    }

    /// The ids of devices as they are revoked.
    pub fn revocations(&self) -> broadcast::Receiver<i64> {
        self.revoked.subscribe()
    }
}

impl Devices {
    /// Opens a new pairing code (closing any other).
    pub async fn open_code(&self) -> Result<PairingCode, LinkError> {
        let mut pairing = Pairing::default();
        let code = pairing.open(self.store.clock().now());
        self.save(&pairing).await?;
        Ok(code)
    }

    /// The open code, while it can be typed.
    pub async fn showing_code(&self) -> Result<Option<PairingCode>, LinkError> {
        Ok(self.load().await?.showing(self.store.clock().now()))
    }

    pub async fn close_code(&self) -> Result<(), LinkError> {
        self.save(&Pairing::default()).await
    }

    /// Whether `typed` is the open code (see `Pairing::redeem`), kept as it then stands.
    pub(crate) async fn redeem_code(&self, typed: &str) -> Result<Result<(), PairingError>, LinkError> {
        // One redeem at a time, across processes: the tries are counted once each.
        let mut tx = self.store.write_transaction().await?;
        let row: Option<(String, String, i64)> =
            sqlx::query_as("SELECT digits, expires_at, tries_left FROM link_pairing WHERE id = 1").fetch_optional(&mut *tx).await?;
        let mut pairing = Pairing { open: row.and_then(open_of) };
        let outcome = pairing.redeem(typed, self.store.clock().now());
        write(&mut tx, &pairing).await?;
        tx.commit().await?;
        Ok(outcome)
    }

    async fn load(&self) -> Result<Pairing, LinkError> {
        let row: Option<(String, String, i64)> =
            sqlx::query_as("SELECT digits, expires_at, tries_left FROM link_pairing WHERE id = 1").fetch_optional(self.store.pool()).await?;
        Ok(Pairing { open: row.and_then(open_of) })
    }

    async fn save(&self, pairing: &Pairing) -> Result<(), LinkError> {
        let mut tx = self.store.write_transaction().await?;
        write(&mut tx, pairing).await?;
        tx.commit().await?;
        Ok(())
    }
}

fn open_of((digits, expires_at, tries_left): (String, String, i64)) -> Option<Open> {
    let expires_at = DateTime::parse_from_rfc3339(&expires_at).ok()?.with_timezone(&Utc);
    Some(Open { digits, expires_at, tries_left: u8::try_from(tries_left).unwrap_or(0) })
}

async fn write(tx: &mut sqlx::Transaction<'static, sqlx::Sqlite>, pairing: &Pairing) -> Result<(), sqlx::Error> {
    match &pairing.open {
        Some(open) => {
            sqlx::query("INSERT INTO link_pairing (id, digits, expires_at, tries_left) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET digits = excluded.digits, expires_at = excluded.expires_at, tries_left = excluded.tries_left")
                .bind(&open.digits)
                .bind(utc(open.expires_at))
                .bind(i64::from(open.tries_left))
                .execute(&mut **tx)
                .await?;
        }
        None => {
            sqlx::query("DELETE FROM link_pairing").execute(&mut **tx).await?;
        }
    }
    Ok(())
}
