//! Replies said aloud as they stream (the rules are `sidecar_voice::ReplyFollower`'s),
//! fed from this core's own turns (its event bus), or, on a computer attached to a home
//! core, the home's turns this computer asked for (`home`), said by this computer's
//! speakers. What the steps leave out is read where the reply lives: here, the store.

use futures_util::future::BoxFuture;

use super::Companion;
use sidecar_agent::ChatEvent;
use sidecar_agent::Notice;
use sidecar_proactive::Channel;
use sidecar_voice::{ReplyFollower, ReplyStep, ReplyTexts, Speaking};

/// The step a chat event of this core is, if any: its window's turns are "here".
pub(super) fn reply_step(event: ChatEvent) -> Option<ReplyStep> {
    Some(match event {
        ChatEvent::TurnStarted { conversation_id, channel, .. } => ReplyStep::Started { conversation: conversation_id, here: channel == Channel::Desktop },
        ChatEvent::Delta { conversation_id, text } => ReplyStep::Piece { conversation: conversation_id, text },
        ChatEvent::Notice { conversation_id, notice: Notice::Corrected { .. } } => ReplyStep::Corrected { conversation: conversation_id },
        ChatEvent::TurnFinished { conversation_id, message_id, .. } => ReplyStep::Finished { conversation: conversation_id, message_id },
        ChatEvent::TurnFailed { conversation_id, .. } => ReplyStep::Failed { conversation: conversation_id },
        _ => return None,
    })
}

/// A reply's words this core's store keeps: the conversation's own switch, a reply that
/// arrived whole.
pub(super) struct Stored<'a>(pub(super) &'a sidecar_store::Store);

impl ReplyTexts for Stored<'_> {
    fn speaks(&self, conversation: i64) -> BoxFuture<'_, Option<bool>> {
        Box::pin(async move {
            self.0.conversations().conversation_speaks(conversation).await.unwrap_or_else(|error| {
                tracing::warn!(%error, "whether this conversation speaks is unknown: Settings → Voice decides");
                None
            })
        })
    }

    fn text(&self, message_id: i64) -> BoxFuture<'_, Option<String>> {
        Box::pin(async move { self.0.conversations().message(message_id).await.ok().flatten().map(|message| message.content) })
    }
}

impl Companion {
    /// One step of a turn, said as Settings → Voice asks now.
    pub(super) async fn follow_reply(&self, step: ReplyStep, follower: &mut ReplyFollower, texts: &dyn ReplyTexts) {
        let how = Speaking { lang: self.preferences.lang(), voicing: self.voicing(), replies: self.models.settings().voice.speak_replies };
        follower.follow(step, &self.talk, &how, texts).await
    }
}
