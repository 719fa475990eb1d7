//! What Sidecar says of the computer's state, in both languages.

use sidecar_domain::Lang;

/// Why background work waits: the battery is low and not charging.
pub fn waits_for_power(lang: Lang, percent: Option<u8>) -> String {
    let left = percent.map(|p| format!(" ({p}%)")).unwrap_or_default();
    match lang {
        Lang::En => format!("The battery is low{left} and not charging: scheduled tasks wait for a charger (those set to always run still run), and memory search indexes later."),
        Lang::Es => format!("La batería está baja{left} y no se está cargando: las tareas programadas esperan al cargador (las marcadas para ejecutarse siempre se ejecutan igual), y la búsqueda en la memoria indexa más tarde."),
    }
}
