//! The window's conversation commands (`commands` says how the table serves them).

use crate::commands::{commands, CommandError, SaidBy};
use crate::{ModelStatus, TurnOutcome};
use sidecar_agent::Checkpoint;
use sidecar_agent::CheckpointStatus;
use sidecar_agent::ContextMeter;
use sidecar_agent::PlanItem;
use sidecar_store::Message;

commands! {
    async fn send_message(core, text: String) -> Result<TurnOutcome, CommandError> {
        core.send(&text).await.said(&core)
    }

    async fn send_with_files(core, text: String, attachments: Vec<sidecar_memory::Attachment>) -> Result<TurnOutcome, CommandError> {
        core.send_with(&text, &attachments).await.said(&core)
    }

    async fn retry_reply(core) -> Result<TurnOutcome, CommandError> {
        core.conversation().retry().await.said(&core)
    }

    /// What another device's microphone recorded (a phone's browser), written down here.
    async fn transcribe_clip(core, clip: String) -> Result<crate::Heard, CommandError> {
        Ok(core.transcribe_clip(&clip).await?)
    }

    async fn stop_reply(core) -> Result<bool, CommandError> {
        Ok(core.conversation().stop())
    }

    async fn cancel_queued(core, id: u64) -> Result<bool, CommandError> {
        Ok(core.conversation().cancel_queued(id))
    }

    async fn load_history(core, limit: Option<u32>) -> Result<Vec<Message>, CommandError> {
        core.conversation().history(limit.unwrap_or(200)).await.said(&core)
    }

    async fn model_status(core) -> Result<ModelStatus, CommandError> {
        Ok(core.models().status())
    }

    async fn list_checkpoints(core) -> Result<Vec<Checkpoint>, CommandError> {
        core.context().checkpoints().await.said(&core)
    }

    async fn set_checkpoint_status(core, id: i64, status: CheckpointStatus) -> Result<Checkpoint, CommandError> {
        core.context().set_checkpoint_status(id, status).await.said(&core)
    }

    /// Replaces what a checkpoint records, as the user edited it.
    async fn edit_checkpoint(core, id: i64, body: sidecar_agent::CheckpointBody) -> Result<Checkpoint, CommandError> {
        core.context().edit_checkpoint(id, body).await.said(&core)
    }

    /// Writes the checkpoint as Markdown and returns where.
    async fn export_checkpoint(core, id: i64) -> Result<String, CommandError> {
        Ok(core.context().export_checkpoint(id).await.said(&core)?.display().to_string())
    }

    /// Writes every checkpoint into one Markdown file: how many, and where.
    async fn export_checkpoints(core) -> Result<(usize, String), CommandError> {
        let (count, path) = core.context().export_checkpoints().await.said(&core)?;
        Ok((count, path.map(|p| p.display().to_string()).unwrap_or_default()))
    }

    async fn new_conversation(core) -> Result<i64, CommandError> {
        core.context().new_conversation().await.said(&core)
    }

    /// Starts an incognito chat: nothing said in it is remembered; leaving it forgets it.
    async fn new_incognito(core) -> Result<i64, CommandError> {
        core.context().new_incognito().await.said(&core)
    }

    async fn continuation_offer(core) -> Result<Option<Checkpoint>, CommandError> {
        core.context().continuation_offer().await.said(&core)
    }

    async fn continue_checkpoint(core, id: i64) -> Result<Checkpoint, CommandError> {
        core.context().continue_from(id).await.said(&core)
    }

    async fn dismiss_offer(core) -> Result<(), CommandError> {
        core.context().dismiss_offer().await.said(&core)
    }

    async fn current_plan(core) -> Result<Vec<PlanItem>, CommandError> {
        core.context().plan().await.said(&core)
    }

    /// The model's notes for the current request, shown beside the plan.
    async fn current_scratchpad(core) -> Result<String, CommandError> {
        core.context().scratchpad().await.said(&core)
    }

    async fn context_meter(core) -> Result<ContextMeter, CommandError> {
        core.context().context_meter(&core.tools()).await.said(&core)
    }

    /// The chat commands with a line each, for the `/` palette (the core's table).
    async fn command_table(core) -> Result<Vec<sidecar_agent::CommandHelp>, CommandError> {
        Ok(sidecar_agent::command_table(core.lang()))
    }
}
