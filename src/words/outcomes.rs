//! How a turn that did not end cleanly is said, at the end of the stored reply.

use super::Lang;

/// Ends a reply stopped at the per-turn step limit (`llm.max_iterations`).
pub fn step_limit(steps: u32, lang: Lang) -> String {
    match lang {
        Lang::Es => format!(
            "(Respuesta incompleta: llegué al límite de {steps} pasos para una respuesta. Pídeme que siga, o sube llm.max_iterations en settings.toml.)"
        ),
        Lang::En => format!(
            "(Incomplete reply: I reached the limit of {steps} steps for one reply. Ask me to go on, or raise llm.max_iterations in settings.toml.)"
        ),
    }
}
