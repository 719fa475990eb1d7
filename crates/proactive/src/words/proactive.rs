//! What the spontaneous loop's outcomes read as (`/proactive tick|decide`), and the
//! labels of a notification's buttons.

use crate::rules::Skip;
use crate::words::Lang;
use crate::TickReport;
use sidecar_outbox::MessageType;

/// "Open Sidecar", the action a click on a notification performs.
pub(crate) fn open_label(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Open Sidecar",
        Lang::Es => "Abrir Sidecar",
    }
}

/// A reminder notification's snooze button.
pub(crate) fn snooze_label(lang: Lang, minutes: u32) -> String {
    match (lang, minutes) {
        (Lang::Es, m) if m % 60 == 0 => format!("Posponer {} h", m / 60),
        (Lang::Es, m) => format!("Posponer {m} min"),
        (Lang::En, m) if m % 60 == 0 => format!("Snooze {} h", m / 60),
        (Lang::En, m) => format!("Snooze {m} min"),
    }
}

pub(crate) fn skip_text(reason: Skip, lang: Lang) -> &'static str {
    match (reason, lang == Lang::Es) {
        (Skip::LevelLow, false) => "the proactivity level is low",
        (Skip::LevelLow, true) => "el nivel de proactividad es bajo",
        (Skip::CircuitBreaker, false) => "the circuit breaker paused me after too many messages in a row",
        (Skip::CircuitBreaker, true) => "el disyuntor me pausó tras demasiados mensajes seguidos",
        (Skip::Quiet, false) => "you asked for quiet",
        (Skip::Quiet, true) => "pediste silencio",
        (Skip::QuietHours, false) => "it is within quiet hours",
        (Skip::QuietHours, true) => "estamos en horas de silencio",
        (Skip::HourlyLimit, false) => "the hourly limit is reached",
        (Skip::HourlyLimit, true) => "se alcanzó el límite de esta hora",
        (Skip::DailyLimit, false) => "today's limit is reached",
        (Skip::DailyLimit, true) => "se alcanzó el límite de hoy",
        (Skip::Cooldown, false) => "the last one was too recent",
        (Skip::Cooldown, true) => "el último fue hace muy poco",
        (Skip::UserActive, false) => "we talked a moment ago",
        (Skip::UserActive, true) => "hablamos hace un momento",
        (Skip::BrainBusy, false) => "a reply is being written",
        (Skip::BrainBusy, true) => "se está escribiendo una respuesta",
        (Skip::NoSink, false) => "the primary output does not take spontaneous messages",
        (Skip::NoSink, true) => "la salida principal no acepta mensajes espontáneos",
        (Skip::NotWelcome, false) => "what I sent lately went unanswered, so I wait longer",
        (Skip::NotWelcome, true) => "lo que mandé últimamente quedó sin respuesta, así que espero más",
        (Skip::DoNotDisturb, false) => "your desktop is set to Do Not Disturb",
        (Skip::DoNotDisturb, true) => "tu escritorio está en No molestar",
        (Skip::InAnEvent, false) => "you are in a busy event of your calendar",
        (Skip::InAnEvent, true) => "estás en un evento ocupado de tu calendario",
    }
}

/// What a kind of message is called in what Sidecar says.
pub(crate) fn kind_name(kind: MessageType, lang: Lang) -> &'static str {
    match (kind, lang) {
        (MessageType::Greeting, Lang::En) => "greetings",
        (MessageType::Checkin, Lang::En) => "check-ins",
        (MessageType::Contextual, Lang::En) => "follow-ups",
        (MessageType::Greeting, Lang::Es) => "saludos",
        (MessageType::Checkin, Lang::Es) => "mensajes para saber cómo estás",
        (MessageType::Contextual, Lang::Es) => "mensajes de seguimiento",
    }
}

/// Said once when a kind of message pauses for a week, unanswered.
pub(crate) fn paused(kind: MessageType, channel: &str, until: &str, lang: Lang) -> String {
    let name = kind_name(kind, lang);
    match lang {
        Lang::En => format!("The last {name} on {channel} went unanswered, so I'll stop sending them there until {until}. Settings → Proactivity shows what I learned, with Reset."),
        Lang::Es => format!("Los últimos {name} por {channel} quedaron sin respuesta, así que dejo de mandarlos por ahí hasta el {until}. En Ajustes → Proactividad ves lo que aprendí, con Restablecer."),
    }
}

pub fn describe_tick(report: &TickReport, lang: Lang) -> String {
    match (report, lang == Lang::Es) {
        (TickReport::Skipped { reason }, false) => format!("Tick skipped: {}.", skip_text(*reason, Lang::En)),
        (TickReport::Skipped { reason }, true) => format!("Tick omitido: {}.", skip_text(*reason, Lang::Es)),
        (TickReport::Silent { reason, prompt_tokens }, false) => format!("The model chose silence ({prompt_tokens} prompt tokens): {reason}"),
        (TickReport::Silent { reason, prompt_tokens }, true) => format!("El modelo eligió callar ({prompt_tokens} tokens): {reason}"),
        (TickReport::Blocked { block, .. }, false) => format!("Blocked before sending: {}.", block.as_str().replace('_', " ")),
        (TickReport::Blocked { block, .. }, true) => format!("Bloqueado antes de enviar: {}.", block.as_str().replace('_', " ")),
        (TickReport::WouldSend { approved, prompt_tokens }, false) => {
            format!("Would send a {} ({prompt_tokens} prompt tokens): {}", approved.message_type.as_str(), approved.text)
        }
        (TickReport::WouldSend { approved, prompt_tokens }, true) => {
            format!("Enviaría un {} ({prompt_tokens} tokens): {}", approved.message_type.as_str(), approved.text)
        }
        (TickReport::Sent { approved, .. }, false) => format!("Sent a {}.", approved.message_type.as_str()),
        (TickReport::Sent { approved, .. }, true) => format!("Enviado un {}.", approved.message_type.as_str()),
        (TickReport::Failed { error }, false) => format!("The model could not be asked: {error}"),
        (TickReport::Failed { error }, true) => format!("No se pudo consultar al modelo: {error}"),
    }
}
