//! A mail that asks something by a date ("¿Te va bien el jueves a las 6?"): the question
//! and the moment it names, read by Sidecar's own date reader, never by a model. The
//! brief says it beside the mail, and Sidecar may speak first about it, once.
//!
//! Only the mail's own words count: lines quoted from an earlier mail ("> …") and
//! everything after a reply's "On … wrote:" are left out, so a reply does not ask
//! again what the user asked.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::Serialize;
use sidecar_domain::Lang;

/// The longest question quoted to the user.
const QUESTION_CHARS: usize = 200;
/// How much of a mail is looked at for a question.
const READ_CHARS: usize = 4_000;
/// How far after its sending a mail's question may look: a day said with no year
/// that has passed is read as next year's ("the dinner on 1 December?" asked on the 7th),
/// which is no question to answer now.
const AHEAD_DAYS: i64 = 90;

/// A question in a mail with the moment it names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct MailAsk {
    /// The question as the mail has it, on one line, cut to 200 characters.
    pub question: String,
    /// The moment it names, read from the mail's words at the time it was sent.
    pub when: DateTime<Utc>,
    /// The mail named a day with no hour.
    pub all_day: bool,
}

/// The first question in `body` that names a moment after `sent` and within
/// [`AHEAD_DAYS`] of it (read in `zone`).
pub fn ask_in(body: &str, sent: DateTime<Utc>, zone: Tz) -> Option<MailAsk> {
    let own = own_words(body);
    questions(&own).into_iter().find_map(|question| {
        let options = sidecar_dates::Options {
            bare_hour: sidecar_dates::BareHour::Afternoon,
            ..sidecar_dates::Options::new(sidecar_dates::written_in(&question, Lang::En))
        };
        let split = sidecar_dates::extract(&question, sent, zone, options).ok()?;
        let ahead = split.when.at - sent;
        (ahead > chrono::Duration::zero() && ahead <= chrono::Duration::days(AHEAD_DAYS)).then(|| MailAsk {
            question: cut(&question),
            when: split.when.at,
            all_day: split.when.all_day,
        })
    })
}

/// The mail's own lines, before any quoted reply.
fn own_words(body: &str) -> String {
    let head: String = body.chars().take(READ_CHARS).collect();
    let mut own = Vec::new();
    for line in head.lines() {
        let trimmed = line.trim();
        let lower = trimmed.to_lowercase();
        let reply_header = (lower.starts_with("on ") && lower.ends_with("wrote:")) || (lower.starts_with("el ") && lower.ends_with("escribió:"));
        if reply_header || trimmed.starts_with("-----Original") || trimmed.starts_with("-------- Mensaje original") {
            break;
        }
        if !trimmed.starts_with('>') {
            own.push(trimmed);
        }
    }
    own.join(" ")
}

/// The sentences that are questions: ending in "?" (from an opening "¿" when there is
/// one, else from the end of the sentence before).
fn questions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match c {
            '.' | '!' | '¡' | '\n' => start = at + c.len_utf8(),
            '¿' => start = at,
            '?' => {
                let question = text[start..at + 1].trim();
                if question.chars().any(char::is_alphanumeric) {
                    found.push(question.split_whitespace().collect::<Vec<_>>().join(" "));
                }
                start = at + 1;
            }
            _ => {}
        }
    }
    found
}

fn cut(question: &str) -> String {
    match question.char_indices().nth(QUESTION_CHARS) {
        Some((at, _)) => format!("{}…", question[..at].trim_end()),
        None => question.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const ZONE: Tz = chrono_tz::Europe::Madrid;

    /// Monday 7 December 2026, 10:00 in Madrid.
    fn monday() -> DateTime<Utc> {
        ZONE.with_ymd_and_hms(2026, 12, 7, 10, 0, 0).unwrap().with_timezone(&Utc)
    }

    fn local(ask: &MailAsk) -> String {
        ask.when.with_timezone(&ZONE).format("%a %d %H:%M").to_string()
    }

    #[test]
    fn a_question_with_a_day_and_an_hour_in_spanish_or_english() {
        let ask = ask_in("Hola!\n\nHe visto el piso. ¿Te va bien el jueves a las 18:00 para verlo? Un abrazo, Ana", monday(), ZONE).unwrap();
        assert_eq!(ask.question, "¿Te va bien el jueves a las 18:00 para verlo?");
        assert_eq!(local(&ask), "Thu 10 18:00");
        let ask = ask_in("Hi. Could we meet tomorrow at 3pm? Thanks", monday(), ZONE).unwrap();
        assert_eq!(ask.question, "Could we meet tomorrow at 3pm?");
        assert_eq!(local(&ask), "Tue 08 15:00");
        assert!(!ask.all_day);
    }

    #[test]
    fn a_bare_hour_is_the_afternoons_as_people_meeting_mean_it() {
        let ask = ask_in("¿Quedamos el jueves a las 6 para ver el piso?", monday(), ZONE).unwrap();
        assert_eq!(local(&ask), "Thu 10 18:00");
        let ask = ask_in("Are you free on Thursday at 9?", monday(), ZONE).unwrap();
        assert_eq!(local(&ask), "Thu 10 09:00");
    }

    #[test]
    fn a_day_alone_is_asked_about_all_day() {
        let ask = ask_in("Can you send the papers by Friday?", monday(), ZONE).unwrap();
        assert!(ask.all_day);
        assert_eq!(ask.when.with_timezone(&ZONE).format("%a %d").to_string(), "Fri 11");
    }

    #[test]
    fn no_question_no_date_a_past_date_or_a_quoted_one_asks_nothing() {
        assert_eq!(ask_in("Nos vemos el jueves a las 6 de la tarde.", monday(), ZONE), None, "no question");
        assert_eq!(ask_in("¿Qué tal estás?", monday(), ZONE), None, "no date");
        assert_eq!(ask_in("Did you like the dinner on 1 December?", monday(), ZONE), None, "a past day");
        let reply = "Perfecto, gracias.\n\nEl lun, 7 dic 2026 a las 9:00, Ana <ana@example.org> escribió:\n> ¿Te va bien el jueves a las 18:00?";
        assert_eq!(ask_in(reply, monday(), ZONE), None, "the question was the user's own, quoted");
        assert_eq!(ask_in("Ok.\n> Can we meet tomorrow at 3pm?", monday(), ZONE), None);
    }

    #[test]
    fn a_long_question_is_cut_and_a_hostile_one_costs_little() {
        let long = format!("¿{} el jueves a las 18:00?", "muy ".repeat(100));
        let ask = ask_in(&long, monday(), ZONE).unwrap();
        assert!(ask.question.chars().count() <= QUESTION_CHARS + 1 && ask.question.ends_with('…'));
        let flood = "? ¿ ".repeat(200_000);
        assert_eq!(ask_in(&flood, monday(), ZONE), None);
    }
}
