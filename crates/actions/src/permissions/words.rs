//! How Sidecar asks for permission where it cannot show buttons (the terminal, and
//! later the phone), and the words it takes back as an answer.

use crate::permissions::grant::Choice;
use crate::permissions::Question;
use sidecar_domain::Lang;

/// The question, with the full arguments and the answers it offers
/// ([`Question::choices`]: after a mail, only once or no).
pub fn question(question: &Question, lang: Lang) -> String {
    let arguments = serde_json::to_string_pretty(&question.arguments).unwrap_or_default();
    let changed = question.changed.join(", ");
    let title = title(question, lang);
    let (intro, was_changed) = match lang {
        Lang::En => (format!("{title}, with:"), format!("Its definition changed since you allowed it ({changed}).")),
        Lang::Es => (format!("{title}, con:"), format!("Su definición cambió desde que lo permitiste ({changed}).")),
    };
    let options: Vec<&str> = question.choices.iter().map(|c| answer(*c, lang).hint).collect();
    let changed = if question.changed.is_empty() { String::new() } else { format!("{was_changed}\n") };
    format!("{intro}\n{arguments}\n{changed}{}", options.join(" · "))
}

/// One answer as each place that asks says it.
struct Answer {
    /// A button's label.
    label: &'static str,
    /// What a button sends back (one of `words`).
    word: &'static str,
    /// How the terminal lists it, its first letter in brackets.
    hint: &'static str,
    /// What typed back means it.
    words: &'static [&'static str],
}

fn answer(choice: Choice, lang: Lang) -> Answer {
    let (label, word, hint, words): (_, _, _, &'static [&'static str]) = match (choice, lang) {
        (Choice::AllowOnce, Lang::En) => ("Allow once", "once", "[o]nce", &["o", "once", "y", "yes"]),
        (Choice::AllowInChat, Lang::En) => ("Allow in this chat", "chat", "[c]hat: allow in this chat", &["c", "chat"]),
        (Choice::AlwaysTool, Lang::En) => ("Always allow this tool", "tool", "[t]ool: always this tool", &["t", "tool", "always"]),
        (Choice::AlwaysServer, Lang::En) => ("Always allow this server", "server", "[s]erver: always this server", &["s", "server"]),
        (Choice::Deny, Lang::En) => ("Deny", "deny", "[d]eny", &["d", "deny", "n", "no"]),
        (Choice::AllowOnce, Lang::Es) => ("Permitir una vez", "una vez", "[u]na vez", &["u", "una", "una vez", "sí", "si"]),
        (Choice::AllowInChat, Lang::Es) => ("Permitir en este chat", "chat", "[c]hat: permitir en este chat", &["c", "chat"]),
        (Choice::AlwaysTool, Lang::Es) => ("Permitir siempre esta herramienta", "herramienta", "[h]erramienta: siempre esta", &["h", "herramienta", "siempre"]),
        (Choice::AlwaysServer, Lang::Es) => ("Permitir siempre este servidor", "servidor", "[s]ervidor: siempre este servidor", &["s", "servidor"]),
        (Choice::Deny, Lang::Es) => ("Denegar", "denegar", "[n]o", &["n", "no", "denegar"]),
    };
    Answer { label, word, hint, words }
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

/// The answers `offered` as buttons: `(label, word)`, the word being what a press sends
/// back.
pub fn buttons(offered: &[Choice], lang: Lang) -> Vec<(String, String)> {
    offered.iter().map(|c| answer(*c, lang)).map(|a| (a.label.to_string(), a.word.to_string())).collect()
}

/// The answer typed back, if it is one of those `offered`: "always" to a question that
/// offered only once or no is no answer.
pub fn choice(typed: &str, offered: &[Choice], lang: Lang) -> Option<Choice> {
    let word = typed.trim().to_lowercase();
    offered.iter().copied().find(|c| answer(*c, lang).words.contains(&word.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_reads_its_own_answers_and_nothing_else_allows() {
        let all = &Choice::ALL;
        assert_eq!(choice(" Once ", all, Lang::En), Some(Choice::AllowOnce));
        assert_eq!(choice("s", all, Lang::En), Some(Choice::AlwaysServer));
        assert_eq!(choice("sí", all, Lang::Es), Some(Choice::AllowOnce));
        assert_eq!(choice("servidor", all, Lang::Es), Some(Choice::AlwaysServer));
        assert_eq!(choice("no", all, Lang::Es), Some(Choice::Deny));
        assert_eq!(choice("maybe", all, Lang::En), None);
        assert_eq!(choice("", all, Lang::Es), None);
    }

    #[test]
    fn every_button_sends_back_a_word_its_language_reads_and_the_five_differ() {
        for lang in [Lang::En, Lang::Es] {
            let choices: Vec<Choice> = buttons(&Choice::ALL, lang).iter().map(|(_, word)| choice(word, &Choice::ALL, lang).expect(word)).collect();
            assert_eq!(choices, Choice::ALL);
        }
    }

    #[test]
    fn after_a_mail_only_once_or_no_is_offered_listed_or_taken() {
        let after_mail = [Choice::AllowOnce, Choice::Deny];
        assert_eq!(buttons(&after_mail, Lang::Es), [("Permitir una vez".to_string(), "una vez".to_string()), ("Denegar".into(), "denegar".into())]);
        assert_eq!(choice("always", &after_mail, Lang::En), None);
        assert_eq!(choice("herramienta", &after_mail, Lang::Es), None);
        assert_eq!(choice("yes", &after_mail, Lang::En), Some(Choice::AllowOnce));
        let question = Question {
            id: 1,
            title: String::new(),
            asking: None,
            server: "sidecar".into(),
            tool: "set_reminder".into(),
            called_as: "set_reminder".into(),
            description: String::new(),
            arguments: serde_json::json!({}),
            changed: vec![],
            conversation_id: None,
            channel: None,
            after_strangers: true,
            choices: after_mail.to_vec(),
        };
        let said = super::question(&question, Lang::En);
        assert!(said.ends_with("[o]nce · [d]eny") && said.contains("just read a mail"), "{said}");
        assert!(!super::question(&question, Lang::Es).contains("herramienta"));
    }
}
