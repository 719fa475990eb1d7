//! The window's messages commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use sidecar_agent::TurnOutcome;
use sidecar_store::ReplyVersions;

commands! {
    async fn regenerate_reply(core) -> Result<TurnOutcome, CommandError> {
        core.conversation().regenerate().await.said(&core)
    }

    async fn reply_versions(core) -> Result<Option<ReplyVersions>, CommandError> {
        core.conversation().reply_versions().await.said(&core)
    }

    async fn show_reply_version(core, number: u32) -> Result<ReplyVersions, CommandError> {
        core.conversation().show_version(number).await.said(&core)
    }

    async fn edit_message(core, id: i64, text: String) -> Result<TurnOutcome, CommandError> {
        core.conversation().edit(id, text).await.said(&core)
    }

    /// Forgets for good message `id`'s exchange (with its reply, or the reply whole).
    async fn forget_message(core, id: i64) -> Result<crate::companion::ForgottenExchange, CommandError> {
        core.forget_exchange(id).await.said(&core)
    }
}
