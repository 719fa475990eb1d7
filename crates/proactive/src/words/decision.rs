//! The spontaneous decision's prompt: what the model is told when Sidecar considers
//! speaking first (P6: a compact context, never the history).

use crate::words::Lang;

const WEEKDAYS_ES: [&str; 7] = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"];
const WEEKDAYS_EN: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/// The day's name, Monday being 0.
pub(crate) fn weekday(lang: Lang, from_monday: usize) -> &'static str {
    match lang {
        Lang::Es => WEEKDAYS_ES[from_monday % 7],
        Lang::En => WEEKDAYS_EN[from_monday % 7],
    }
}

/// What an empty list reads as; the prompt tells the model what it means.
pub(crate) fn none(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "NINGUNO",
        Lang::En => "NONE",
    }
}

/// The reminders not listed, counted.
pub(crate) fn more(lang: Lang, count: usize) -> String {
    match lang {
        Lang::Es => format!("(+{count} más)"),
        Lang::En => format!("(+{count} more)"),
    }
}

/// What the user prompt states, as the context has it.
pub(crate) struct PromptFacts<'a> {
    pub time: &'a str,
    pub day: &'a str,
    pub date: &'a str,
    pub minutes_since_user: Option<i64>,
    pub last_user_preview: &'a str,
    pub minutes_since_spontaneous: Option<i64>,
    pub count_today: u32,
    pub level: &'a str,
    pub greeting_window: Option<&'a str>,
    pub last_greeting: Option<&'a str>,
    pub reminders: &'a str,
    pub facts: &'a [String],
    /// The kinds the model may choose now.
    pub welcome: &'a [String],
}

pub(crate) fn system_prompt(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Eres un compañero de IA decidiendo si iniciar una conversación ahora. Si dudas, calla. No menciones recordatorios fuera de la lista; lo que sabes del usuario son hechos, no tareas. Responde SOLO JSON: {\"shouldSpeak\":bool,\"reason\":\"…\",\"messageType\":\"greeting\"|\"checkin\"|\"contextual\"|null,\"suggestedMessage\":\"…\"|null}",
        Lang::En => "You are an AI companion deciding whether to start a conversation now. If unsure, stay silent. Never mention reminders not listed; what you know about the user are facts, not tasks. Answer ONLY JSON: {\"shouldSpeak\":bool,\"reason\":\"…\",\"messageType\":\"greeting\"|\"checkin\"|\"contextual\"|null,\"suggestedMessage\":\"…\"|null}",
    }
}

pub(crate) fn user_prompt(lang: Lang, f: &PromptFacts<'_>) -> String {
    let es = lang == Lang::Es;
    let or_never = |value: Option<i64>| value.map(|m| m.to_string()).unwrap_or_else(|| if es { "nunca" } else { "never" }.into());
    let yes_with = |detail: Option<&str>| detail.map(|d| if es { format!("Sí ({d})") } else { format!("Yes ({d})") }).unwrap_or_else(|| "NO".into());
    let facts = if f.facts.is_empty() {
        if es { "(ninguno)" } else { "(none)" }.to_string()
    } else {
        f.facts.iter().map(|fact| format!("- {fact}")).collect::<Vec<_>>().join("\n")
    };
    let (window, greeted) = (yes_with(f.greeting_window), yes_with(f.last_greeting));
    let (since_user, since_spontaneous) = (or_never(f.minutes_since_user), or_never(f.minutes_since_spontaneous));
    let welcome = f.welcome.join(", ");
    if es {
        format!(
            "AHORA: {} ({} {}). El usuario escribió hace {since_user} min: \"{}\". Tu último espontáneo: hace {since_spontaneous} min; hoy: {}. Nivel: {}.\nVentana de saludo: {window}. Ya saludaste en ella: {greeted}.\nRECORDATORIOS PENDIENTES: {} (si es NINGUNO, no los menciones)\nSABES DEL USUARIO:\n{facts}\nREGLAS: saludo solo en su ventana y una vez; check-in solo tras 4+ h sin contacto; contextual solo sobre algo concreto que sabes; messageType solo: {welcome}. ¿Hablas ahora?",
            f.time, f.day, f.date, f.last_user_preview, f.count_today, f.level, f.reminders
        )
    } else {
        format!(
            "NOW: {} ({} {}). The user wrote {since_user} min ago: \"{}\". Your last spontaneous message: {since_spontaneous} min ago; today: {}. Level: {}.\nGreeting window open: {window}. Already greeted in this window today: {greeted}.\nPENDING REMINDERS: {} (if NONE, do not mention any)\nYOU KNOW ABOUT THE USER:\n{facts}\nRULES: greet only in the window and once; check-in only after 4+ h without contact; contextual only on something concrete you know; messageType only: {welcome}. Do you speak now?",
            f.time, f.day, f.date, f.last_user_preview, f.count_today, f.level, f.reminders
        )
    }
}
