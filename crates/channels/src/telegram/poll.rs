//! `getUpdates` with 64-bit update ids. teloxide-core 0.13 types the offset as `i32`
//! and `UpdateId` as `u32`, while the Bot API documents update ids as 64-bit: past
//! `i32::MAX` the cursor stuck and polling spun on the same update, past `u32::MAX`
//! every poll failed to parse. The request goes through teloxide's own `JsonRequest`
//! (same client, same errors, same flood control); only the id is read here, and the
//! rest of each update is still teloxide's `UpdateKind`.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use teloxide_core::requests::{JsonRequest, Payload};
use teloxide_core::types::{AllowedUpdate, UpdateKind};
use teloxide_core::Bot;

/// The `getUpdates` arguments Sidecar uses, with the offset as the API defines it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct GetUpdatesWide {
    pub offset: i64,
    pub timeout: u32,
    pub allowed_updates: Vec<AllowedUpdate>,
}

impl Payload for GetUpdatesWide {
    /// Left as JSON so one update teloxide cannot read never fails the whole poll.
    type Output = Vec<Value>;
    const NAME: &'static str = "GetUpdates";

    fn timeout_hint(&self) -> Option<Duration> {
        // The long poll itself must not be cut by the client's request timeout.
        Some(Duration::from_secs(u64::from(self.timeout)))
    }
}

/// A long poll for messages (and pressed buttons, and reactions) from `offset` on.
pub(crate) fn get_updates(bot: &Bot, offset: i64, timeout: u32) -> JsonRequest<GetUpdatesWide> {
    JsonRequest::new(
        bot.clone(),
        GetUpdatesWide { offset, timeout, allowed_updates: vec![AllowedUpdate::Message, AllowedUpdate::CallbackQuery, AllowedUpdate::MessageReaction] },
    )
}

/// One update as polled: its id, and what it carries when teloxide can read it.
#[derive(Debug)]
pub(crate) struct Polled {
    pub id: i64,
    pub kind: Option<UpdateKind>,
}

/// teloxide's `Update` with the id as wide as the API makes it.
#[derive(Deserialize)]
struct WideUpdate {
    update_id: i64,
    #[serde(flatten)]
    kind: UpdateKind,
}

/// Reads one update; `None` when it has no integer `update_id` (nothing to advance by).
/// Read again from text: teloxide's `UpdateKind` needs borrowed keys, which a
/// `serde_json::Value` cannot lend (and a raw value cannot pass the API's untagged
/// response envelope).
pub(crate) fn read(update: &Value) -> Option<Polled> {
    let WideUpdate { update_id, kind } = serde_json::from_str(&update.to_string()).ok()?;
    let kind = match kind {
        UpdateKind::Error(_) => None,
        kind => Some(kind),
    };
    Some(Polled { id: update_id, kind })
}

/// The offset that confirms `updates` and asks for the next ones.
pub(crate) fn next_offset(offset: i64, updates: &[Polled]) -> i64 {
    updates.iter().map(|u| u.id.saturating_add(1)).fold(offset, i64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn message(update_id: Value) -> Value {
        json!({"update_id": update_id, "message": {
            "message_id": 7, "date": 1_700_000_000,
            "chat": {"id": 42, "type": "private", "first_name": "Ana"},
            "from": {"id": 42, "is_bot": false, "first_name": "Ana"}, "text": "hola"}})
    }

    #[test]
    fn ids_past_both_32_bit_limits_are_read_and_advance_the_offset() {
        let ids = [i64::from(i32::MAX), i64::from(u32::MAX), i64::from(u32::MAX) + 5];
        let polled: Vec<Polled> = ids.iter().map(|id| read(&message(json!(id))).unwrap()).collect();
        assert!(polled.iter().all(|p| matches!(p.kind, Some(UpdateKind::Message(_)))));
        assert_eq!(next_offset(0, &polled), i64::from(u32::MAX) + 6);
    }

    #[test]
    fn an_update_teloxide_cannot_read_still_moves_the_cursor() {
        let polled = read(&json!({"update_id": 9, "something_new": {"x": 1}})).unwrap();
        assert!(polled.kind.is_none());
        assert_eq!(next_offset(3, &[polled]), 10);
        assert!(read(&json!({"update_id": "nine"})).is_none());
        assert!(read(&json!([1, 2])).is_none());
    }

    #[test]
    fn the_offset_never_goes_back() {
        let old = read(&message(json!(5))).unwrap();
        assert_eq!(next_offset(100, &[old]), 100);
    }
}
