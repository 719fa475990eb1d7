//! The spontaneous decision's prompt: what the model is told when Sidecar considers
//! speaking first (P6: a compact context, never the history).

use crate::words::Lang;

const WEEKDAYS_ES: [&str; 7] = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"];
const WEEKDAYS_EN: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/// The day's name, Monday being 0.
pub fn weekday(lang: Lang, from_monday: usize) -> &'static str {
    match lang {
        Lang::Es => WEEKDAYS_ES[from_monday % 7],
        Lang::En => WEEKDAYS_EN[from_monday % 7],
    }
}

/// What an empty list reads as; the prompt tells the model what it means.
pub fn none(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "NINGUNO",
        Lang::En => "NONE",
    }
}

/// What the user prompt states, as the context has it.
pub struct PromptFacts<'a> {
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

pub fn system_prompt(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Eres un compañero de IA que decide si debe iniciar una conversación. Si no estás seguro, NO hables: es mejor callar que molestar. NUNCA menciones recordatorios que no estén en la lista. Los datos del usuario son hechos, no tareas pendientes. Responde SOLO con JSON: {\"shouldSpeak\": true|false, \"reason\": \"…\", \"messageType\": \"greeting\"|\"checkin\"|\"contextual\"|null, \"suggestedMessage\": \"…\"|null}",
        Lang::En => "You are an AI companion deciding whether to start a conversation. If you are not sure, do NOT speak: silence is better than annoying. NEVER mention reminders that are not in the list. What you know about the user are facts, not pending tasks. Answer ONLY with JSON: {\"shouldSpeak\": true|false, \"reason\": \"…\", \"messageType\": \"greeting\"|\"checkin\"|\"contextual\"|null, \"suggestedMessage\": \"…\"|null}",
    }
}

pub fn user_prompt(lang: Lang, f: &PromptFacts<'_>) -> String {
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
            "CONTEXTO:\n- Hora: {} ({} {})\n- Último mensaje del usuario: hace {since_user} minutos: \"{}\"\n- Tu último mensaje espontáneo: hace {since_spontaneous} minutos\n- Mensajes espontáneos hoy: {}\n- Nivel de proactividad: {}\n\nSALUDOS:\n- Ventana de saludo activa: {window}\n- Ya saludaste en esta ventana hoy: {greeted}\n\nRECORDATORIOS PENDIENTES: {}\n(Si dice NINGUNO, NO menciones recordatorios.)\n\nLO QUE SABES DEL USUARIO:\n{facts}\n\nREGLAS: no saludes fuera de la ventana ni dos veces en la misma; un check-in solo si no hubo interacción en 4+ horas; un mensaje contextual solo si se basa en algo concreto de lo que sabes; messageType solo uno de: {welcome}. ¿Hablas ahora?",
            f.time, f.day, f.date, f.last_user_preview, f.count_today, f.level, f.reminders
        )
    } else {
        format!(
            "CONTEXT:\n- Time: {} ({} {})\n- The user's last message: {since_user} minutes ago: \"{}\"\n- Your last spontaneous message: {since_spontaneous} minutes ago\n- Spontaneous messages today: {}\n- Proactivity level: {}\n\nGREETINGS:\n- Greeting window open: {window}\n- Already greeted in this window today: {greeted}\n\nPENDING REMINDERS: {}\n(If it says NONE, do NOT mention reminders.)\n\nWHAT YOU KNOW ABOUT THE USER:\n{facts}\n\nRULES: no greeting outside the window nor twice in the same one; a check-in only after 4+ hours without contact; a contextual message only when it rests on something concrete you know; messageType only one of: {welcome}. Do you speak now?",
            f.time, f.day, f.date, f.last_user_preview, f.count_today, f.level, f.reminders
        )
    }
}
