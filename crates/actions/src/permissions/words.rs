//! How Sidecar asks for permission where it cannot show buttons (the terminal, and
//! later the phone), and the words it takes back as an answer.

use crate::permissions::grant::Choice;
use crate::permissions::Question;
use sidecar_domain::Lang;

/// The question, with the full arguments and the answers it understands.
pub fn question(question: &Question, lang: Lang) -> String {
    let arguments = serde_json::to_string_pretty(&question.arguments).unwrap_or_default();
    let changed = question.changed.join(", ");
    let title = title(question, lang);
    let (intro, was_changed, options) = match lang {
        Lang::En => (
            format!("{title}, with:"),
            format!("Its definition changed since you allowed it ({changed})."),
            "[o]nce · [c]hat: allow in this chat · [t]ool: always this tool · [s]erver: always this server · [d]eny",
        ),
        Lang::Es => (
            format!("{title}, con:"),
            format!("Su definición cambió desde que lo permitiste ({changed})."),
            "[u]na vez · [c]hat: permitir en este chat · [h]erramienta: siempre esta · [s]ervidor: siempre este servidor · [n]o",
        ),
    };
    let changed = if question.changed.is_empty() { String::new() } else { format!("{was_changed}\n") };
    format!("{intro}\n{arguments}\n{changed}{options}")
}

/// What a question says first: what Sidecar's own tool does, or which tool of which
/// server would run.
pub(crate) fn title(question: &Question, lang: Lang) -> String {
    let what = match (question.asking, lang) {
        (Some(asking), _) => asking.said_in(lang).to_string(),
        (None, Lang::En) => format!("Sidecar wants to run {} from {}", question.tool, question.server),
        (None, Lang::Es) => format!("Sidecar quiere ejecutar {} de {}", question.tool, question.server),
    };
    match (question.after_strangers, lang) {
        (false, _) => what,
        (true, Lang::En) => format!("This chat just read a mail, which anyone can write: {what}. Allow it only if you asked for it"),
        (true, Lang::Es) => format!("Este chat acaba de leer un correo, que puede escribir cualquiera: {what}. Permítelo solo si lo pediste tú"),
    }
}

/// The notification shown when the window is hidden and a tool waits.
pub fn notification(question: &Question, lang: Lang) -> (String, String) {
    let title = title(question, lang);
    match lang {
        Lang::En => ("Sidecar asks for permission".into(), format!("{title}. Open Sidecar to answer.")),
        Lang::Es => ("Sidecar pide permiso".into(), format!("{title}. Abre Sidecar para responder.")),
    }
}

/// The answers as buttons: `(label, word)`, the word being what a press sends back.
pub fn buttons(lang: Lang) -> Vec<(String, String)> {
    let table: [(&str, &str); 5] = match lang {
        Lang::En => [
            ("Allow once", "once"),
            ("Allow in this chat", "chat"),
            ("Always allow this tool", "tool"),
            ("Always allow this server", "server"),
            ("Deny", "deny"),
        ],
        Lang::Es => [
            ("Permitir una vez", "una vez"),
            ("Permitir en este chat", "chat"),
            ("Permitir siempre esta herramienta", "herramienta"),
            ("Permitir siempre este servidor", "servidor"),
            ("Denegar", "denegar"),
        ],
    };
    table.iter().map(|(label, word)| (label.to_string(), word.to_string())).collect()
}

/// The answer typed back; `None` when it is not one of the words offered.
pub fn choice(answer: &str, lang: Lang) -> Option<Choice> {
    let word = answer.trim().to_lowercase();
    let table: &[(&[&str], Choice)] = match lang {
        Lang::En => &[
            (&["o", "once", "y", "yes"], Choice::AllowOnce),
            (&["c", "chat"], Choice::AllowInChat),
            (&["t", "tool", "always"], Choice::AlwaysTool),
            (&["s", "server"], Choice::AlwaysServer),
            (&["d", "deny", "n", "no"], Choice::Deny),
        ],
        Lang::Es => &[
            (&["u", "una", "una vez", "sí", "si"], Choice::AllowOnce),
            (&["c", "chat"], Choice::AllowInChat),
            (&["h", "herramienta", "siempre"], Choice::AlwaysTool),
            (&["s", "servidor"], Choice::AlwaysServer),
            (&["n", "no", "denegar"], Choice::Deny),
        ],
    };
    table.iter().find(|(words, _)| words.contains(&word.as_str())).map(|(_, choice)| *choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_reads_its_own_answers_and_nothing_else_allows() {
        assert_eq!(choice(" Once ", Lang::En), Some(Choice::AllowOnce));
        assert_eq!(choice("s", Lang::En), Some(Choice::AlwaysServer));
        assert_eq!(choice("sí", Lang::Es), Some(Choice::AllowOnce));
        assert_eq!(choice("servidor", Lang::Es), Some(Choice::AlwaysServer));
        assert_eq!(choice("no", Lang::Es), Some(Choice::Deny));
        assert_eq!(choice("maybe", Lang::En), None);
        assert_eq!(choice("", Lang::Es), None);
    }

    #[test]
    fn every_button_sends_back_a_word_its_language_reads_and_the_five_differ() {
        for lang in [Lang::En, Lang::Es] {
            let choices: Vec<Choice> = buttons(lang).iter().map(|(_, word)| choice(word, lang).expect(word)).collect();
            assert_eq!(choices, [Choice::AllowOnce, Choice::AllowInChat, Choice::AlwaysTool, Choice::AlwaysServer, Choice::Deny]);
        }
    }
}
