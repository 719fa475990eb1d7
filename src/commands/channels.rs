//! The window's channels commands (`commands` says how the table serves them).

use crate::commands::{blocking, commands, CommandError, SaidBy};

commands! {
    /// Settings → Channels: each phone channel's state, pairing and token source.
    async fn channels_view(core) -> Result<sidecar_channels::ChannelsView, CommandError> {
        Ok(core.channels().view())
    }

    /// Saves the bot token (keychain) and turns Telegram on: off the main thread.
    async fn set_telegram_token(core, token: String) -> Result<sidecar_channels::ChannelsView, CommandError> {
        blocking(&core, move |c| c.channels().set_telegram_token(&token)).await.said(&core)?;
        Ok(core.channels().view())
    }

    async fn set_telegram_enabled(core, enabled: bool) -> Result<sidecar_channels::ChannelsView, CommandError> {
        blocking(&core, move |c| c.channels().set_telegram_enabled(enabled)).await.said(&core)?;
        Ok(core.channels().view())
    }

    async fn new_telegram_code(core) -> Result<sidecar_channels::ChannelsView, CommandError> {
        core.channels().telegram_pairing_code().said(&core)?;
        Ok(core.channels().view())
    }

    async fn unpair_telegram(core, chat: i64) -> Result<sidecar_channels::ChannelsView, CommandError> {
        blocking(&core, move |c| c.channels().unpair_telegram(chat)).await.said(&core)?;
        Ok(core.channels().view())
    }

    async fn set_whatsapp_enabled(core, enabled: bool) -> Result<sidecar_channels::ChannelsView, CommandError> {
        blocking(&core, move |c| c.channels().set_whatsapp_enabled(enabled)).await.said(&core)?;
        Ok(core.channels().view())
    }

    async fn unlink_whatsapp(core) -> Result<sidecar_channels::ChannelsView, CommandError> {
        blocking(&core, |c| c.channels().unlink_whatsapp()).await.said(&core)?;
        Ok(core.channels().view())
    }
}
