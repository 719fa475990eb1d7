//! What the tasks say to the user, in their language.

use sidecar_domain::Lang;

/// Why a task stopped running by itself, with what to do.
pub(crate) fn paused_after_failures(lang: Lang, last_error: &str) -> String {
    match lang {
        Lang::En => format!("Paused after three failed runs in a row (the last: {last_error}). Fix what it needs, then resume it."),
        Lang::Es => format!("En pausa tras tres ejecuciones fallidas seguidas (la última: {last_error}). Arregla lo que necesita y reanúdala."),
    }
}

/// Why a task the user paused is paused.
pub(crate) fn paused_by_user(lang: Lang) -> String {
    match lang {
        Lang::En => "Paused by you.".into(),
        Lang::Es => "En pausa por ti.".into(),
    }
}

/// The conversation task results arrive in.
pub fn tasks_conversation(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Tasks",
        Lang::Es => "Tareas",
    }
}

/// The notification of results held back (by quiet, or past the day's notifications):
/// its title.
pub fn held_title(lang: Lang, count: usize) -> String {
    match (lang, count) {
        (Lang::En, 1) => "A task's result waited for you".into(),
        (Lang::En, n) => format!("{n} task results waited for you"),
        (Lang::Es, 1) => "Te esperaba el resultado de una tarea".into(),
        (Lang::Es, n) => format!("Te esperaban {n} resultados de tareas"),
    }
}

/// A late occurrence the task's policy asks about, with what to do.
pub fn ask_late(lang: Lang, title: &str, due: &str) -> String {
    match lang {
        Lang::En => format!("“{title}” was due {due}, while Sidecar was closed or the computer asleep. Run it now? Press Run now, or leave it and it waits for its next time."),
        Lang::Es => format!("«{title}» tocaba {due}, con Sidecar cerrado o el ordenador en reposo. ¿La ejecuto ahora? Pulsa Ejecutar ahora, o déjala y esperará a su próxima hora."),
    }
}

/// A run that failed, with what to do.
pub fn failed(lang: Lang, title: &str, why: &str) -> String {
    match lang {
        Lang::En => format!("“{title}” could not run: {why}. It runs again at its next time; Settings → Tasks has Run now."),
        Lang::Es => format!("«{title}» no pudo ejecutarse: {why}. Volverá a intentarlo a su próxima hora; Ajustes → Tareas tiene Ejecutar ahora."),
    }
}

/// Said in Tasks before a run whose prompt, kept before there was a limit, was cut.
pub fn prompt_cut(lang: Lang, title: &str, chars: usize, limit: usize) -> String {
    match lang {
        Lang::En => format!(
            "“{title}” has {chars} characters of instructions; this run follows only the first {limit}. Make a shorter task, or put the long part in a note and ask the task to read it."
        ),
        Lang::Es => format!(
            "«{title}» tiene {chars} caracteres de instrucciones; esta ejecución sigue solo los primeros {limit}. Crea una tarea más corta, o pon la parte larga en una nota y pide a la tarea que la lea."
        ),
    }
}

/// The morning brief's name in lists, notifications and the Tasks conversation.
pub(crate) fn brief_title(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Morning brief",
        Lang::Es => "Resumen de la mañana",
    }
}

/// An all-day event in the brief's list: "all day: Dentist week".
pub fn all_day(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "all day",
        Lang::Es => "todo el día",
    }
}
