//! How a turn that did not end cleanly is said, at the end of the stored reply.

use super::Lang;

/// The header's word for a provider that did not answer its check.
pub fn provider_down(provider: &str, problem: &str, offline_stands_in: bool, lang: Lang) -> String {
    match (lang, offline_stands_in) {
        (Lang::Es, true) => format!("\"{provider}\" no responde ({problem}). Mientras tanto responde el modelo sin conexión."),
        (Lang::Es, false) => format!("\"{provider}\" no responde ({problem}). Ponlo en marcha o elige otro proveedor en Ajustes."),
        (Lang::En, true) => format!("\"{provider}\" is not answering ({problem}). The offline model answers until it is back."),
        (Lang::En, false) => format!("\"{provider}\" is not answering ({problem}). Start it, or pick another provider in Settings."),
    }
}

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
