//! The language a user's message is written in: Sidecar's own answers (commands,
//! reminders set before the model, the demo model's marks) follow it, whatever the
//! app's language is. Read from the words themselves, with the date reader's function
//! words for the rest.

use sidecar_domain::Lang;

/// Short messages that show their language by themselves (commands said in words, a
/// slash command spelled in Spanish); the date reader's function words cover the rest.
/// English command names ("/help") are everyone's and say nothing.
const SPANISH_ALONE: &[&str] = &["callate", "basta", "silencio", "no molestes", "/ayuda", "ayuda", "hola", "gracias"];
const ENGLISH_ALONE: &[&str] = &["be quiet", "shut up", "quiet please", "stop talking", "hush", "hello", "thanks"];

/// The language `text` is written in, else `fallback`: Sidecar answers the user in the
/// language they wrote in, whatever the app's language is.
pub fn written_in(text: &str, fallback: Lang) -> Lang {
    let toks = crate::lexicon::tokens(text);
    let folded = toks.iter().map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ");
    let plain = sidecar_domain::word_overlap::fold(&text.trim().trim_end_matches(['.', '!']).trim_start_matches('¡').to_lowercase());
    if SPANISH_ALONE.contains(&folded.as_str()) || SPANISH_ALONE.contains(&plain.as_str()) {
        return Lang::Es;
    }
    if ENGLISH_ALONE.contains(&folded.as_str()) || ENGLISH_ALONE.contains(&plain.as_str()) {
        return Lang::En;
    }
    crate::tongue(&toks).unwrap_or(fallback)
}
