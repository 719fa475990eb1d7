//! The last turn of a conversation as Regenerate and the reply's versions see it: the
//! last thing the user said, and where the model's reply to it begins (after Sidecar's
//! own answer, when it carried out a request before the model).

use sidecar_store::Message;
use sidecar_store::MessageMeta;
use sidecar_store::Role;
use sidecar_store::Store;
use sidecar_store::StoreError;

/// How far back the last user message is looked for.
const LOOK_BACK: u32 = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LastTurn {
    pub user_message_id: i64,
    /// The model's reply is what comes after this message.
    pub reply_after: i64,
    /// The user typed a command: its answer is not the model's to write again.
    pub command: bool,
    /// Something of the model's reply is shown.
    pub replied: bool,
}

pub(crate) async fn last_turn(store: &Store, conversation_id: i64) -> Result<Option<LastTurn>, StoreError> {
    let recent = store.conversations().recent_messages(conversation_id, LOOK_BACK).await?;
    Ok(find(&recent))
}

fn find(recent: &[Message]) -> Option<LastTurn> {
    let user = recent.iter().rposition(|m| m.role == Role::User)?;
    let marked = |m: &Message, mark: fn(&MessageMeta) -> bool| m.meta.as_ref().is_some_and(|j| mark(&j.0));
    let after_user = &recent[user + 1..];
    let own_answer = after_user.iter().take_while(|m| m.role == Role::Assistant && marked(m, |meta| meta.intent)).count();
    let reply_after = if own_answer > 0 { after_user[own_answer - 1].id } else { recent[user].id };
    let reply: Vec<&Message> = after_user[own_answer..].iter().filter(|m| !marked(m, |meta| meta.proactive.is_some())).collect();
    Some(LastTurn { user_message_id: recent[user].id, reply_after, command: reply.iter().any(|m| marked(m, |meta| meta.command)), replied: !reply.is_empty() })
}
