//! How a turn that did not end cleanly is said, at the end of the stored reply.

use sidecar_domain::Lang;

/// The header's word for a provider that did not answer its check.
pub(crate) fn provider_down(provider: &str, problem: &str, lang: Lang) -> String {
    match lang {
        Lang::Es => format!("\"{provider}\" no responde ({problem}). Ponlo en marcha o elige otro proveedor en Ajustes."),
        Lang::En => format!("\"{provider}\" is not answering ({problem}). Start it, or pick another provider in Settings."),
    }
}

/// A reply cut at the turn's time limit: what to do, in words (the limit itself is
/// `llm.turn_timeout_secs`, for whoever edits settings.toml).
pub fn turn_timed_out(secs: f64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("The reply took longer than {secs} s, so it was cut; what arrived is kept. Press Retry, or pick a faster model in the model menu."),
        Lang::Es => format!(
            "La respuesta tardó más de {secs} s y se cortó; lo que llegó se conserva. Pulsa Reintentar, o elige un modelo más rápido en el menú de modelos."
        ),
    }
}

/// Sidecar's instructions and what it knows about the user (never cut) do not fit the
/// answering model's window, so nothing was sent.
/// `room` is what the window leaves once the reply and the tool definitions have theirs:
/// the figure the instructions are compared with (never the whole window).
pub fn window_too_small(system_tokens: usize, room: usize, window: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "Sidecar's instructions and what it knows about you take {system_tokens} tokens, and with your newest message they do not fit the {room} tokens this model's {window}-token window leaves once its reply and its tools have their room, so nothing was sent. Choose a model with a larger window, or raise its context length in Settings → Model providers (or Local models); fewer MCP tools or a shorter profile also help."
        ),
        Lang::Es => format!(
            "Las instrucciones de Sidecar y lo que sabe de ti ocupan {system_tokens} tokens y, con tu último mensaje, no caben en los {room} tokens que deja la ventana de {window} tokens de este modelo tras reservar su respuesta y sus herramientas, así que no se envió nada. Elige un modelo con más contexto o sube su longitud de contexto en Ajustes → Proveedores de modelos (o Modelos locales); menos herramientas MCP o un perfil más corto también ayudan."
        ),
    }
}

/// Ends a reply stopped at the per-turn step limit (`llm.max_iterations`).
pub fn step_limit(steps: u32, lang: Lang) -> String {
    match lang {
        Lang::Es => format!(
            "(Respuesta incompleta: llegué al límite de {steps} pasos para una respuesta. Pídeme que siga, o sube llm.max_iterations en settings.toml.)"
        ),
        Lang::En => {
            format!("(Incomplete reply: I reached the limit of {steps} steps for one reply. Ask me to go on, or raise llm.max_iterations in settings.toml.)")
        }
    }
}

/// Why the demo model's reply ends where it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DemoCut {
    /// It began repeating itself.
    Repeating,
    /// It reached its short reply limit.
    Length,
}

/// The mark that ends a demo reply cut short, with what to do for better answers.
pub(crate) fn demo_cut(cut: DemoCut, lang: Lang) -> String {
    match (cut, lang) {
        (DemoCut::Repeating, Lang::En) => "[Cut: the demo model began repeating itself. Add a real model in Settings for proper answers.]",
        (DemoCut::Repeating, Lang::Es) => "[Cortado: el modelo de demostración empezó a repetirse. Añade un modelo real en Ajustes para respuestas de verdad.]",
        (DemoCut::Length, Lang::En) => "[The demo model writes short replies only. Add a real model in Settings for longer ones.]",
        (DemoCut::Length, Lang::Es) => {
            "[El modelo de demostración solo escribe respuestas cortas. Añade un modelo real en Ajustes para respuestas más largas.]"
        }
    }
    .to_string()
}

/// A provider's test in Settings that worked.
pub(crate) fn answered_in(model: &str, latency_ms: u64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{model} answered in {latency_ms} ms"),
        Lang::Es => format!("{model} respondió en {latency_ms} ms"),
    }
}
