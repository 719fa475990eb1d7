//! What a backup's settings.toml would change, said before it replaces the user's: the
//! parts a crafted backup could abuse (where messages go, which secrets are read, who
//! may talk to Sidecar). A restore puts settings back only when the user agrees.

use sidecar_settings::Settings;

/// The changes `backup` would make to `current` that a user must see, one line each.
pub(crate) fn changes(current: &Settings, backup: &Settings) -> Vec<String> {
    let mut lines = Vec::new();
    for provider in &backup.providers {
        match current.providers.iter().find(|p| p.id == provider.id) {
            None => lines.push(format!("adds the provider \"{}\" at {}", provider.id, provider.base_url)),
            Some(mine) if mine.base_url != provider.base_url => {
                lines.push(format!("sends the provider \"{}\" to {} (now {})", provider.id, provider.base_url, mine.base_url))
            }
            Some(_) => {}
        }
        let mine = current.providers.iter().find(|p| p.id == provider.id).and_then(|p| p.api_key_env.as_deref());
        if let Some(variable) = provider.api_key_env.as_deref().filter(|v| Some(*v) != mine) {
            lines.push(format!("reads the key of \"{}\" from the environment variable {variable}", provider.id));
        }
    }
    for provider in current.providers.iter().filter(|p| !backup.providers.iter().any(|b| b.id == p.id)) {
        lines.push(format!("removes the provider \"{}\"", provider.id));
    }
    let chats = |s: &Settings| s.channels.telegram.as_ref().map(|t| t.allowed_chats.clone()).unwrap_or_default();
    for chat in chats(backup).into_iter().filter(|c| !chats(current).contains(c)) {
        lines.push(format!("pairs the Telegram chat {chat}"));
    }
    let token = |s: &Settings| s.channels.telegram.as_ref().map(|t| t.token_env.clone());
    if let Some(variable) = token(backup).filter(|v| token(current).as_ref() != Some(v)) {
        lines.push(format!("reads the Telegram token from the environment variable {variable}"));
    }
    let numbers = |s: &Settings| s.channels.whatsapp.as_ref().map(|w| w.allowed_numbers.clone()).unwrap_or_default();
    for number in numbers(backup).into_iter().filter(|n| !numbers(current).contains(n)) {
        lines.push(format!("lets the WhatsApp number {number} talk to Sidecar"));
    }
    let search = &backup.tools.web_search;
    if search.url.is_some() && search.url != current.tools.web_search.url {
        lines.push(format!("sends web searches to {}", search.url.as_deref().unwrap_or_default()));
    }
    if let Some(variable) = search.api_key_env.as_deref().filter(|v| current.tools.web_search.api_key_env.as_deref() != Some(*v)) {
        lines.push(format!("reads the web search key from the environment variable {variable}"));
    }
    if backup.tools.read_url.allow_private && !current.tools.read_url.allow_private {
        lines.push("lets read_url reach private addresses".into());
    }
    lines
}
