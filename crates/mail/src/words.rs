//! What Sidecar says of a mail, in the user's language: its line in the brief, and
//! the words it speaks first with about a mail that asks by a date. Sidecar's own
//! words around the mail's sender, subject and question, quoted.

use chrono_tz::Tz;
use sidecar_domain::Lang;

use crate::{MailAsk, MailHit};

/// "Ana Ruiz" or, with no name, the address.
fn sender(hit: &MailHit) -> &str {
    hit.from_name.as_deref().filter(|n| !n.trim().is_empty()).unwrap_or(&hit.from_address)
}

/// "Thursday 10 December, 18:00" / "jueves 10 de diciembre, 18:00"; a day alone when
/// the mail named no hour.
fn moment(ask: &MailAsk, zone: Tz, lang: Lang) -> String {
    let local = ask.when.with_timezone(&zone);
    let day = sidecar_dates::day_words(local.date_naive(), lang);
    if ask.all_day {
        day
    } else {
        format!("{day}, {}", local.format("%H:%M"))
    }
}

/// The brief's line for a mail: "Ana Ruiz: El piso (asks about Thursday 10 December,
/// 18:00)".
pub fn brief_line(hit: &MailHit, zone: Tz, lang: Lang) -> String {
    let subject = if hit.subject.trim().is_empty() { lang.pick("(no subject)", "(sin asunto)") } else { hit.subject.trim() };
    match &hit.ask {
        Some(ask) => match lang {
            Lang::En => format!("{}: {subject} (asks about {})", sender(hit), moment(ask, zone, lang)),
            Lang::Es => format!("{}: {subject} (pregunta por el {})", sender(hit), moment(ask, zone, lang)),
        },
        None => format!("{}: {subject}", sender(hit)),
    }
}

/// What Sidecar says first about a mail that asks by a date, or `None` when it asks
/// nothing.
pub fn ask_words(hit: &MailHit, zone: Tz, lang: Lang) -> Option<String> {
    let ask = hit.ask.as_ref()?;
    let subject = hit.subject.trim();
    Some(match lang {
        Lang::En => format!("{} asks about {} in a mail ({subject}): “{}”", sender(hit), moment(ask, zone, lang), ask.question),
        Lang::Es => format!("{} pregunta por el {} en un correo ({subject}): «{}»", sender(hit), moment(ask, zone, lang), ask.question),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const ZONE: Tz = chrono_tz::Europe::Madrid;

    fn ana(body: &str) -> MailHit {
        let sent = ZONE.with_ymd_and_hms(2026, 12, 7, 9, 0, 0).unwrap().with_timezone(&chrono::Utc);
        MailHit {
            id: 1,
            folder: "INBOX".into(),
            from_address: "ana@example.org".into(),
            from_name: Some("Ana Ruiz".into()),
            subject: "El piso".into(),
            sent_at: sent.to_rfc3339(),
            text: body.into(),
            attachments: vec![],
            cut: None,
            matters: true,
            ask: crate::ask_in(body, sent, ZONE),
        }
    }

    #[test]
    fn a_mail_that_asks_is_said_with_its_moment_in_both_languages() {
        let hit = ana("¿Quedamos el jueves a las 6 para ver el piso?");
        assert_eq!(brief_line(&hit, ZONE, Lang::En), "Ana Ruiz: El piso (asks about Thursday 10 December, 18:00)");
        assert_eq!(brief_line(&hit, ZONE, Lang::Es), "Ana Ruiz: El piso (pregunta por el jueves 10 de diciembre, 18:00)");
        assert_eq!(
            ask_words(&hit, ZONE, Lang::Es).unwrap(),
            "Ana Ruiz pregunta por el jueves 10 de diciembre, 18:00 en un correo (El piso): «¿Quedamos el jueves a las 6 para ver el piso?»"
        );
        assert!(ask_words(&hit, ZONE, Lang::En).unwrap().starts_with("Ana Ruiz asks about Thursday 10 December, 18:00 in a mail"));
    }

    #[test]
    fn a_mail_that_asks_nothing_is_its_sender_and_subject() {
        let hit = ana("Te mando las fotos.");
        assert_eq!(brief_line(&hit, ZONE, Lang::En), "Ana Ruiz: El piso");
        assert_eq!(ask_words(&hit, ZONE, Lang::En), None);
        let nameless = MailHit { from_name: None, subject: " ".into(), ..hit };
        assert_eq!(brief_line(&nameless, ZONE, Lang::Es), "ana@example.org: (sin asunto)");
    }
}
