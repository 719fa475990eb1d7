//! What Sidecar answers when it carried out a request itself, before the model: a
//! reminder set, cancelled, snoozed or listed, a fact kept. In the language the user
//! wrote in.

use sidecar_domain::Lang;

pub(crate) fn reminder_set(message: &str, when: &str, zone: &str, rule: Option<&str>, note: Option<&str>, lang: Lang) -> String {
    let mut text = match lang {
        Lang::En => format!("Done: I'll remind you to \"{message}\" on {when} ({zone})."),
        Lang::Es => format!("Hecho: te recordaré \"{message}\" el {when} ({zone})."),
    };
    if let Some(rule) = rule {
        text += &match lang {
            Lang::En => format!(" It repeats {rule}."),
            Lang::Es => format!(" Se repite: {rule}."),
        };
    }
    if let Some(note) = note {
        text += &format!(" ({note})");
    }
    text
}

pub(crate) fn what_to_remind(when: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("What should I remind you of on {when}?"),
        Lang::Es => format!("¿Qué quieres que te recuerde el {when}?"),
    }
}

/// What a timer's reminder says when the user named nothing else.
pub(crate) fn timer_done(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Time's up (timer)",
        Lang::Es => "Se acabó el tiempo (temporizador)",
    }
}

pub(crate) fn none_match(query: &str, lang: Lang) -> String {
    match (lang, query.is_empty()) {
        (Lang::En, true) => "There are no pending reminders.".into(),
        (Lang::Es, true) => "No hay recordatorios pendientes.".into(),
        (Lang::En, false) => format!("No pending reminder mentions \"{query}\"."),
        (Lang::Es, false) => format!("Ningún recordatorio pendiente menciona \"{query}\"."),
    }
}

pub(crate) fn which_one(lines: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Several reminders match; which one?\n{lines}"),
        Lang::Es => format!("Coinciden varios recordatorios; ¿cuál?\n{lines}"),
    }
}

pub(crate) fn cancelled(message: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Cancelled the reminder \"{message}\"."),
        Lang::Es => format!("Cancelé el recordatorio \"{message}\"."),
    }
}

pub(crate) fn snoozed(message: &str, at: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Snoozed \"{message}\": I'll remind you again at {at}."),
        Lang::Es => format!("Pospuesto \"{message}\": te lo recuerdo de nuevo a las {at}."),
    }
}

pub(crate) fn not_due_yet(message: &str, when: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("\"{message}\" isn't due yet: it comes on {when}. Snooze it once it has come."),
        Lang::Es => format!("\"{message}\" todavía no llegó: es el {when}. Pospónlo cuando llegue."),
    }
}

pub(crate) fn pending(lines: &str, count: usize, lang: Lang) -> String {
    match (lang, count) {
        (Lang::En, 1) => format!("You have 1 pending reminder:\n{lines}"),
        (Lang::En, n) => format!("You have {n} pending reminders:\n{lines}"),
        (Lang::Es, 1) => format!("Tienes 1 recordatorio pendiente:\n{lines}"),
        (Lang::Es, n) => format!("Tienes {n} recordatorios pendientes:\n{lines}"),
    }
}

pub(crate) fn noted(fact: &str, known: bool, lang: Lang) -> String {
    match (lang, known) {
        (Lang::En, false) => format!("Noted: \"{fact}\". I'll keep it in mind."),
        (Lang::En, true) => format!("I already knew that: \"{fact}\"."),
        (Lang::Es, false) => format!("Anotado: \"{fact}\". Lo tendré en cuenta."),
        (Lang::Es, true) => format!("Ya lo sabía: \"{fact}\"."),
    }
}

pub(crate) fn not_noted(reason: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("I couldn't save that: {reason}."),
        Lang::Es => format!("No pude guardarlo: {reason}."),
    }
}

/// What the model is told, so it does not do it again and can add its words.
pub(crate) fn model_note(answer: &str) -> String {
    format!(
        "Sidecar already handled the user's last message itself and told the user: «{answer}». Do not call a tool to do it again. \
         If useful, add one short friendly sentence in the user's language; otherwise reply with nothing more than a brief acknowledgement."
    )
}

/// What the model is told in an incognito chat (in English, as its other rules are).
pub(crate) const INCOGNITO_NOTE: &str = "This is an incognito chat: nothing said in it is remembered after it closes, and you cannot save facts \
     about the user here. Do not say you will remember anything; if the user asks you to, say that incognito keeps nothing and they can tell you outside it.";

/// The time and date, asked for ("what time is it", "qué día es hoy").
pub(crate) fn now_is(moment: &str, zone: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("It is now {moment} ({zone})."),
        Lang::Es => format!("Ahora es {moment} ({zone})."),
    }
}

/// What the saved facts say about `slot` (`home`, `job`, `partner`), as lines, or
/// that nothing was said yet and how to say it.
pub(crate) fn about_slot(lines: &str, slot: &str, lang: Lang) -> String {
    if !lines.is_empty() {
        return match lang {
            Lang::En => format!("You told me:\n{lines}"),
            Lang::Es => format!("Me dijiste:\n{lines}"),
        };
    }
    let example = match (slot, lang) {
        ("home", Lang::En) => "remember that I live in …",
        ("job", Lang::En) => "remember that I work as …",
        (_, Lang::En) => "remember that my partner is …",
        ("home", Lang::Es) => "recuerda que vivo en …",
        ("job", Lang::Es) => "recuerda que trabajo como …",
        (_, Lang::Es) => "recuerda que mi pareja es …",
    };
    match lang {
        Lang::En => format!("You haven't told me yet. Say \"{example}\" and I'll keep it."),
        Lang::Es => format!("Todavía no me lo has dicho. Di \"{example}\" y lo guardaré."),
    }
}

/// Everything the saved facts say, as lines, or that there is nothing yet.
pub(crate) fn about_you(lines: &str, lang: Lang) -> String {
    match (lang, lines.is_empty()) {
        (Lang::En, false) => format!("Here is what I know about you:\n{lines}"),
        (Lang::Es, false) => format!("Esto es lo que sé de ti:\n{lines}"),
        (Lang::En, true) => "I don't know anything about you yet. Tell me with \"remember that …\".".into(),
        (Lang::Es, true) => "Todavía no sé nada de ti. Cuéntamelo con \"recuerda que …\".".into(),
    }
}

/// Why a scheduled task did not run on the demo model, with what to do.
pub(crate) fn demo_cannot_run_tasks(lang: Lang) -> String {
    match lang {
        Lang::En => "The demo model can't run tasks: it can't search, use tools or follow a task's steps, and would only invent a result. Add a model in Settings → Model providers, or choose a larger one in Local models, and run it again.".into(),
        Lang::Es => "El modelo de demostración no puede hacer tareas: no puede buscar, usar herramientas ni seguir los pasos de una tarea, y solo inventaría un resultado. Añade un modelo en Ajustes → Proveedores de modelos, o elige uno más grande en Modelos locales, y vuelve a ejecutarla.".into(),
    }
}

/// What the demo model's user hears when asking for work on a schedule, with what to do.
pub(crate) fn demo_cannot_schedule(lang: Lang) -> String {
    match lang {
        Lang::En => "The demo model can't do scheduled tasks: they need a model that can look things up and use tools. Add a model in Settings → Model providers and ask again. A plain reminder works now: \"remind me every weekday at 8 to check the weather\".".into(),
        Lang::Es => "El modelo de demostración no puede hacer tareas programadas: necesitan un modelo que pueda buscar y usar herramientas. Añade un modelo en Ajustes → Proveedores de modelos y vuelve a pedirlo. Un recordatorio sí funciona ya: \"recuérdame todos los días laborables a las 8 mirar el tiempo\".".into(),
    }
}

/// A day's events, listed by Sidecar itself: `day` in words, `days` from today.
pub(crate) fn agenda(day: &str, days: u32, lines: &[String], lang: Lang) -> String {
    let when = match (lang, days) {
        (Lang::En, 0) => format!("Today, {day}"),
        (Lang::En, _) => format!("Tomorrow, {day}"),
        (Lang::Es, 0) => format!("Hoy, {day}"),
        (Lang::Es, _) => format!("Mañana, {day}"),
    };
    match (lines.is_empty(), lang) {
        (true, Lang::En) => format!("{when}: nothing on your calendar."),
        (true, Lang::Es) => format!("{when}: nada en tu calendario."),
        (false, _) => format!("{when}:\n{}", lines.join("\n")),
    }
}

/// An all-day event in a day's list.
pub(crate) fn all_day(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "all day",
        Lang::Es => "todo el día",
    }
}

/// Asked about the calendar with none connected, with what to do.
pub(crate) fn no_calendar(lang: Lang) -> String {
    match lang {
        Lang::En => "No calendar is connected: connect one in Settings → Calendar and I'll tell you what's on.".into(),
        Lang::Es => "No hay ningún calendario conectado: conecta uno en Ajustes → Calendario y te diré qué tienes.".into(),
    }
}
