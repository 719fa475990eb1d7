//! Reminders and their deliveries.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use sidecar_store::columns_sql;
pub use sidecar_store::utc;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// Where a reminder is in its life: pending → attempting (being shown) → delivered,
/// or cancelled. A repeating one goes back to pending after each delivery. One whose
/// showing was cut short by crashes too often is failed (the user is told).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, sqlx::Type, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[sqlx(rename_all = "lowercase")]
pub enum ReminderState {
    Pending,
    Attempting,
    Delivered,
    Cancelled,
    Missed,
    Failed,
}

/// The IANA zone a reminder was set in; its recurrence keeps that zone's wall clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ts_rs::TS)]
#[ts(type = "string")]
pub struct ReminderZone(pub Tz);

/// A stored zone name that is no IANA zone (the row is unreadable, not guessed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{0}\" is not an IANA time zone")]
pub struct NotAZone(pub String);

impl TryFrom<String> for ReminderZone {
    type Error = NotAZone;
    fn try_from(name: String) -> Result<Self, NotAZone> {
        name.parse().map(ReminderZone).map_err(|_| NotAZone(name))
    }
}

impl Serialize for ReminderZone {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, sqlx::FromRow, ts_rs::TS)]
pub struct Reminder {
    pub id: i64,
    pub message: String,
    pub due_at: DateTime<Utc>,
    #[sqlx(try_from = "String")]
    pub zone: ReminderZone,
    /// RFC 5545 RRULE of a repeating reminder.
    pub rrule: Option<String>,
    /// The series' first occurrence (its DTSTART).
    pub series_start: Option<DateTime<Utc>>,
    /// Said as a date with no hour.
    pub all_day: bool,
    pub state: ReminderState,
    pub attempt_started_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub late: bool,
    pub created_at: DateTime<Utc>,
    /// Times a delivery of the due occurrence got as far as showing it, without the
    /// delivery being recorded (a crash): 0 for a fresh occurrence.
    pub shown_attempts: i64,
    /// What the text leaves out (an imported event's cut title and its notes).
    pub description: Option<String>,
    /// Set from an incognito chat: kept, since the user asked for it, though the chat
    /// it came from is gone.
    pub from_incognito: bool,
}

impl Reminder {
    /// The key of the occurrence now due: delivered at most once. Written in the
    /// store's own timestamp form, so keys of earlier deliveries still match.
    pub fn idempotency_key(&self) -> String {
        format!("{}@{}", self.id, utc(self.due_at))
    }
}

/// A reminder about to be stored.
pub struct NewReminder<'a> {
    pub message: &'a str,
    pub due_at: DateTime<Utc>,
    pub zone: &'a str,
    pub rrule: Option<&'a str>,
    pub all_day: bool,
    /// The series' DTSTART when it is not `due_at` (an imported calendar event).
    pub series_start: Option<DateTime<Utc>>,
    /// The user's chat message this reminder answers, when one asked for it.
    pub asked_in: Option<i64>,
    pub description: Option<&'a str>,
}

impl<'a> NewReminder<'a> {
    /// A one-off reminder of `message` at `due_at`, set in `zone`; the other fields are
    /// set with struct update syntax where they differ.
    pub fn at(message: &'a str, due_at: DateTime<Utc>, zone: &'a str) -> Self {
        Self { message, due_at, zone, rrule: None, all_day: false, series_start: None, asked_in: None, description: None }
    }
}

const COLUMNS: &str =
    "id, message, due_at, zone, rrule, series_start, all_day, state, attempt_started_at, delivered_at, late, created_at, shown_attempts, description, from_incognito";

/// Stores `new`, made at `now`, through `executor` (the pool, or a transaction). With
/// `unless_pending`, nothing is stored when a pending reminder has the same words, time
/// and rule (an event imported before); the check and the insert are one statement.
async fn insert<'e>(
    executor: impl sqlx::Executor<'e, Database = sqlx::Sqlite>,
    new: &NewReminder<'_>,
    now: &str,
    unless_pending: bool,
) -> Result<Option<Reminder>, StoreError> {
    let unless =
        if unless_pending { "WHERE NOT EXISTS (SELECT 1 FROM reminders WHERE state = 'pending' AND due_at = ?2 AND rrule IS ?4 AND message = ?1)" } else { "" };
    let sql = columns_sql!(
        "INSERT INTO reminders (message, due_at, zone, rrule, series_start, all_day, created_at, description, asked_in, from_incognito)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,
                EXISTS (SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?9 AND c.incognito = 1)
         {unless} RETURNING {COLUMNS}"
    );
    Ok(sqlx::query_as(sql)
        .bind(new.message)
        .bind(utc(new.due_at))
        .bind(new.zone)
        .bind(new.rrule)
        .bind(new.rrule.map(|_| utc(new.series_start.unwrap_or(new.due_at))))
        .bind(new.all_day)
        .bind(now)
        .bind(new.description)
        .bind(new.asked_in)
        .fetch_optional(executor)
        .await?)
}

/// Reminders and their deliveries. A handle on the store: `store.reminder_table()`.
pub struct ReminderTable<'a> {
    store: &'a Store,
}

impl ReminderTable<'_> {
    pub async fn add_reminder(&self, new: NewReminder<'_>) -> Result<Reminder, StoreError> {
        insert(self.store.pool(), &new, &self.store.now(), false).await?.ok_or(StoreError::Query(sqlx::Error::RowNotFound))
    }

    /// Adds a calendar's events in one transaction: all of them or, on an error or when
    /// `progress` (told how many were gone through) answers false, none. An event
    /// already pending (same words, time and rule: imported before) is not added again.
    /// How many were added; `None` when stopped.
    pub(crate) async fn add_imported(&self, events: &[NewReminder<'_>], mut progress: impl FnMut(usize) -> bool) -> Result<Option<usize>, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        let now = self.store.now();
        let mut added = 0;
        for (done, new) in events.iter().enumerate() {
            if !progress(done) {
                tx.rollback().await?;
                return Ok(None);
            }
            added += usize::from(insert(&mut *tx, new, &now, true).await?.is_some());
        }
        progress(events.len());
        tx.commit().await?;
        Ok(Some(added))
    }

    /// Pending reminders set in answer to the chat message `asked_in`, oldest first.
    pub(crate) async fn asked_in(&self, asked_in: i64) -> Result<Vec<Reminder>, StoreError> {
        Ok(sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM reminders WHERE state = 'pending' AND asked_in = ? ORDER BY id"))
            .bind(asked_in)
            .fetch_all(self.store.pool())
            .await?)
    }

    pub async fn reminder(&self, id: i64) -> Result<Option<Reminder>, StoreError> {
        Ok(sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM reminders WHERE id = ?")).bind(id).fetch_optional(self.store.pool()).await?)
    }

    /// Every reminder, soonest first, then the rest by most recent.
    pub async fn reminders(&self) -> Result<Vec<Reminder>, StoreError> {
        Ok(sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM reminders ORDER BY state != 'pending', CASE WHEN state = 'pending' THEN due_at END, id DESC"))
            .fetch_all(self.store.pool())
            .await?)
    }

    /// Pending reminders, soonest first.
    pub async fn pending_reminders(&self) -> Result<Vec<Reminder>, StoreError> {
        self.find_reminders("").await
    }

    /// Ties a reminder to the event `uid` it comes `minutes` before.
    pub(crate) async fn tie_to_event(&self, id: i64, uid: &str, minutes: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE reminders SET before_event = ?, before_minutes = ? WHERE id = ?")
            .bind(uid)
            .bind(minutes)
            .bind(id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// The pending reminders tied to an event: (id, the event's uid, minutes before, due).
    pub(crate) async fn tied_to_events(&self) -> Result<Vec<(i64, String, i64, DateTime<Utc>)>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT id, before_event, before_minutes, due_at FROM reminders WHERE state = 'pending' AND before_event IS NOT NULL AND before_minutes IS NOT NULL",
        )
        .fetch_all(self.store.pool())
        .await?)
    }

    /// Moves a reminder tied to an event, if it is still pending.
    pub(crate) async fn move_tied(&self, id: i64, due_at: DateTime<Utc>) -> Result<bool, StoreError> {
        let done =
            sqlx::query("UPDATE reminders SET due_at = ? WHERE id = ? AND state = 'pending'").bind(utc(due_at)).bind(id).execute(self.store.pool()).await?;
        Ok(done.rows_affected() > 0)
    }

    /// Cancels every pending reminder; how many.
    pub(crate) async fn cancel_pending_reminders(&self) -> Result<u64, StoreError> {
        let done = sqlx::query("UPDATE reminders SET state = 'cancelled' WHERE state = 'pending'").execute(self.store.pool()).await?;
        Ok(done.rows_affected())
    }

    /// Pending reminders due within `within` of `due_at` with the same rule: what a
    /// second request for the same reminder would duplicate.
    pub(crate) async fn same_time(&self, due_at: DateTime<Utc>, within: chrono::Duration, rrule: Option<&str>) -> Result<Vec<Reminder>, StoreError> {
        Ok(sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM reminders WHERE state = 'pending' AND due_at BETWEEN ? AND ? AND rrule IS ? ORDER BY id"))
            .bind(utc(due_at - within))
            .bind(utc(due_at + within))
            .bind(rrule)
            .fetch_all(self.store.pool())
            .await?)
    }

    /// Pending reminders whose message contains `query` (case-insensitive).
    pub(crate) async fn find_reminders(&self, query: &str) -> Result<Vec<Reminder>, StoreError> {
        Ok(sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM reminders WHERE state = 'pending' AND message LIKE '%' || ? || '%' ORDER BY due_at"))
            .bind(query.trim())
            .fetch_all(self.store.pool())
            .await?)
    }

    /// Cancels a pending reminder; false if there is none by that id.
    pub(crate) async fn cancel_reminder(&self, id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE reminders SET state = 'cancelled' WHERE id = ? AND state = 'pending'").bind(id).execute(self.store.pool()).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Changes a pending reminder's words; false if `id` is not pending.
    pub(crate) async fn reword_reminder(&self, id: i64, message: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE reminders SET message = ? WHERE id = ? AND state = 'pending'").bind(message).bind(id).execute(self.store.pool()).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Makes a cancelled reminder pending again (the Undo of a cancel); false if `id`
    /// is not a cancelled one.
    pub(crate) async fn restore_reminder(&self, id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE reminders SET state = 'pending' WHERE id = ? AND state = 'cancelled'").bind(id).execute(self.store.pool()).await?;
        Ok(done.rows_affected() == 1)
    }

    /// Moves a reminder (pending, or just delivered) to `until`; false if there is none.
    pub async fn snooze_reminder(&self, id: i64, until: DateTime<Utc>) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE reminders SET due_at = ?, state = 'pending', late = 0, shown_attempts = 0 WHERE id = ? AND state IN ('pending', 'delivered', 'failed')",
        )
        .bind(utc(until))
        .bind(id)
        .execute(self.store.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// When the next pending reminder is due.
    pub async fn next_due(&self) -> Result<Option<DateTime<Utc>>, StoreError> {
        let row: Option<(DateTime<Utc>,)> =
            sqlx::query_as("SELECT due_at FROM reminders WHERE state = 'pending' ORDER BY due_at LIMIT 1").fetch_optional(self.store.pool()).await?;
        Ok(row.map(|(t,)| t))
    }

    /// Marks the pending reminders due by `at` as attempting and returns them, together
    /// with any left attempting by a delivery that never finished (a crash): fresh ones
    /// first, so one that keeps crashing its delivery never holds the others back.
    pub async fn claim_due(&self, at: DateTime<Utc>) -> Result<Vec<Reminder>, StoreError> {
        let mut tx = self.store.write_transaction().await?;
        sqlx::query("UPDATE reminders SET state = 'attempting', attempt_started_at = ? WHERE state = 'pending' AND due_at <= ?")
            .bind(self.store.now())
            .bind(utc(at))
            .execute(&mut *tx)
            .await?;
        let claimed: Vec<Reminder> = sqlx::query_as(columns_sql!("SELECT {COLUMNS} FROM reminders WHERE state = 'attempting' ORDER BY shown_attempts, due_at"))
            .fetch_all(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(claimed)
    }

    /// Whether this occurrence was already delivered.
    pub async fn was_delivered(&self, key: &str) -> Result<bool, StoreError> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT 1 FROM reminder_deliveries WHERE idempotency_key = ?").bind(key).fetch_optional(self.store.pool()).await?;
        Ok(row.is_some())
    }

    /// Records a delivered occurrence and moves the reminder on: to its next occurrence
    /// (`next`, for a repeating one) or to delivered. One transaction.
    pub(crate) async fn finish_delivery(
        &self,
        reminder: &Reminder,
        delivered_at: DateTime<Utc>,
        late: bool,
        next: Option<DateTime<Utc>>,
    ) -> Result<(), StoreError> {
        let mut tx = self.store.write_transaction().await?;
        sqlx::query("INSERT OR IGNORE INTO reminder_deliveries (idempotency_key, reminder_id, due_at, delivered_at, late) VALUES (?, ?, ?, ?, ?)")
            .bind(reminder.idempotency_key())
            .bind(reminder.id)
            .bind(utc(reminder.due_at))
            .bind(utc(delivered_at))
            .bind(late)
            .execute(&mut *tx)
            .await?;
        let (state, due) = match next {
            Some(next) => ("pending", utc(next)),
            None => ("delivered", utc(reminder.due_at)),
        };
        sqlx::query("UPDATE reminders SET state = ?, due_at = ?, delivered_at = ?, late = ?, attempt_started_at = NULL, shown_attempts = 0 WHERE id = ?")
            .bind(state)
            .bind(due)
            .bind(utc(delivered_at))
            .bind(late)
            .bind(reminder.id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Notes that a delivery is about to show the due occurrence: written before it is
    /// shown, so a crash while showing is known at the next start.
    pub async fn begin_showing(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE reminders SET shown_attempts = shown_attempts + 1 WHERE id = ?").bind(id).execute(self.store.pool()).await?;
        Ok(())
    }

    /// Gives up on a reminder whose showing crashed too often.
    pub(crate) async fn fail_reminder(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE reminders SET state = 'failed', attempt_started_at = NULL WHERE id = ? AND state = 'attempting'")
            .bind(id)
            .execute(self.store.pool())
            .await?;
        Ok(())
    }

    /// Puts a reminder whose delivery failed back to pending, to be tried again. No sink
    /// showed it, so this attempt does not count towards the crash cap.
    pub(crate) async fn release_reminder(&self, id: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE reminders SET state = 'pending', attempt_started_at = NULL, shown_attempts = MAX(shown_attempts - 1, 0)
             WHERE id = ? AND state = 'attempting'",
        )
        .bind(id)
        .execute(self.store.pool())
        .await?;
        Ok(())
    }

    /// Occurrences delivered late (reminder id, the occurrence's due time), newest first.
    pub(crate) async fn late_deliveries(&self) -> Result<Vec<(i64, DateTime<Utc>)>, StoreError> {
        Ok(sqlx::query_as("SELECT reminder_id, due_at FROM reminder_deliveries WHERE late = 1 ORDER BY due_at DESC LIMIT 50")
            .fetch_all(self.store.pool())
            .await?)
    }
}

/// The store's seam to these rows: `store.reminder_table()`, with this trait in scope.
pub trait RemindersStore {
    fn reminder_table(&self) -> ReminderTable<'_>;
}

impl RemindersStore for Store {
    fn reminder_table(&self) -> ReminderTable<'_> {
        ReminderTable { store: self }
    }
}
