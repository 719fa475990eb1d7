//! What the tasks say to the user, in their language.

use sidecar_domain::locale::Lang;

/// Why a task stopped running by itself, with what to do.
pub fn paused_after_failures(lang: Lang, last_error: &str) -> String {
    match lang {
        Lang::En => format!("Paused after three failed runs in a row (the last: {last_error}). Fix what it needs, then resume it."),
        Lang::Es => format!("En pausa tras tres ejecuciones fallidas seguidas (la última: {last_error}). Arregla lo que necesita y reanúdala."),
    }
}
