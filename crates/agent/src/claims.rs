//! Claim-versus-action validation: a reply that says it did something (set a
//! reminder, saved a fact, wrote a note, moved a file, added an event to the calendar,
//! sent a message) must come with the tool call that does it. Models, especially small
//! ones, often say "I'll remind you" or "He creado la nota" and call nothing.

use std::sync::LazyLock;

use regex::Regex;

/// An action a reply can claim, and the tools that would have done it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claim {
    Reminder,
    Note,
    File,
    Calendar,
    Sent,
    Fact,
}

impl Claim {
    /// In the order a sentence is read: the first whose words it says is the claim it
    /// makes ("He guardado la nota" is a note, not a fact).
    const ALL: [Claim; 6] = [Claim::Reminder, Claim::Note, Claim::File, Claim::Calendar, Claim::Sent, Claim::Fact];

    /// The name of the check, as recorded in self-correction notes.
    pub(crate) fn check_name(self) -> &'static str {
        match self {
            Claim::Reminder => "claimed_reminder_without_tool",
            Claim::Note => "claimed_note_without_tool",
            Claim::File => "claimed_file_change_without_tool",
            Claim::Calendar => "claimed_calendar_event_without_tool",
            Claim::Sent => "claimed_message_sent_without_tool",
            Claim::Fact => "claimed_fact_saved_without_tool",
        }
    }

    /// Whether a call of `tool` backs the claim: Sidecar's own tools by name, a
    /// connected program's by what its name says (they are named by their servers).
    fn backed_by(self, tool: &str) -> bool {
        let tool = tool.to_ascii_lowercase();
        let says = |words: &[&str]| words.iter().any(|w| tool.contains(w));
        match self {
            Claim::Reminder => ["set_reminder", "snooze_reminder"].contains(&tool.as_str()),
            Claim::Note => says(&["note", "append_content", "create_folder"]),
            Claim::File => says(&["file", "note", "move", "rename", "write", "delete", "folder", "append_content"]),
            Claim::Calendar => says(&["calendar", "event"]),
            Claim::Sent => says(&["send", "mail", "message", "telegram", "whatsapp", "sms", "post"]),
            Claim::Fact => tool == "remember_fact",
        }
    }

    fn pattern(self) -> &'static Regex {
        match self {
            Claim::Reminder => &REMINDER,
            Claim::Note => &NOTE,
            Claim::File => &FILE,
            Claim::Calendar => &CALENDAR,
            Claim::Sent => &SENT,
            Claim::Fact => &FACT,
        }
    }

    /// The self-correction note kept after such a claim (in the prompt for a day).
    fn lesson(self) -> &'static str {
        match self {
            Claim::Reminder => "You told the user a reminder was set without calling set_reminder. Call the tool first, then confirm.",
            Claim::Note => "You told the user a note was written without calling a note tool. Call the tool first, then confirm.",
            Claim::File => "You told the user a file was changed without calling a tool that changes it. Call the tool first, then confirm.",
            Claim::Calendar => "You told the user something was added to the calendar without calling a calendar tool. Call the tool first, then confirm.",
            Claim::Sent => "You told the user a message was sent without calling a tool that sends it. Call the tool first, then confirm.",
            Claim::Fact => "You told the user you saved a fact without calling remember_fact. Call the tool first, then confirm.",
        }
    }

    /// What the corrective retry tells the model.
    pub(crate) fn correction(self) -> &'static str {
        match self {
            Claim::Reminder => "Your last reply says a reminder was set, but you did not call set_reminder, so no reminder exists. Call set_reminder now if the user asked for one; otherwise answer again without claiming it.",
            Claim::Note => "Your last reply says a note was written, but you called no note tool, so no note was created or changed. Call the note tool now if the user asked for it; otherwise answer again without claiming it.",
            Claim::File => "Your last reply says a file was moved, saved or changed, but you called no tool that does that, so nothing changed on disk. Call the tool now if the user asked for it; otherwise answer again without claiming it.",
            Claim::Calendar => "Your last reply says something was added to the calendar, but you called no calendar tool, so the calendar did not change. Call one now if the user asked and one is available; otherwise answer again without claiming it (a reminder may do).",
            Claim::Sent => "Your last reply says a message was sent, but you called no tool that sends one, so nothing was sent. Call it now if the user asked and one is available; otherwise answer again without claiming it.",
            Claim::Fact => "Your last reply says you saved or will remember something, but you did not call remember_fact, so nothing was saved. Call remember_fact now if there is a fact worth keeping; otherwise answer again without claiming it.",
        }
    }
}

static REMINDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(i'?ve|i have|i)\s+(set|created|scheduled|added)\s+(up\s+)?(a|the|your|that)\s+reminder",
        r"|\bi('ll| will)\s+remind\s+you",
        r"|\breminder\s+(is\s+|has\s+been\s+)?(set|created|scheduled)",
        r"|\bte\s+(lo\s+)?recordar[ée]",
        r"|\b(cre[ée]|program[ée]|configur[ée]|agend[ée]|puse)\s+(el|un|tu|ese)\s+recordatorio",
        r"|\brecordatorio\s+(creado|programado|configurado|listo|agendado)",
    ))
    .expect("valid regex")
});

static NOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(i'?ve|i have|i)\s+(created|saved|written|wrote|made|added|updated|appended)\s+(a|the|your|that|this|it\s+to\s+(the|your))\s+note",
        r"|\bnote\s+(is\s+|has\s+been\s+)?(created|saved|written|updated)",
        r"|\b(he\s+)?(cread[oa]|cre[ée]|guardad[oa]|guard[ée]|escrito|escrib[íi]|a[ñn]adid[oa]|a[ñn]ad[íi]|agregad[oa]|agregu[ée]|actualizad[oa]|actualic[ée])\s+(la|una|tu|esa|en\s+(la|tu))\s+nota",
        r"|\bnota\s+(creada|guardada|actualizada|lista)",
    ))
    .expect("valid regex")
});

static FILE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(i'?ve|i have|i)\s+(moved|renamed|copied|deleted|saved|created|written|wrote)\s+(the|your|that|this|a)\s+(file|folder|document)",
        r"|\b(file|folder|document)\s+(is\s+|has\s+been\s+)?(moved|renamed|deleted|saved|created)",
        r"|\bmoved\s+the\s+(file|folder|document)",
        r"|\b(he\s+)?(movido|mov[íi]|renombrado|renombr[ée]|borrado|borr[ée]|guardado|guard[ée]|creado|cre[ée])\s+(el|tu|ese|este|un)\s+(archivo|fichero|documento)",
        r"|\b(archivo|fichero|documento)\s+(movido|renombrado|borrado|guardado|creado)",
    ))
    .expect("valid regex")
});

static CALENDAR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(added|put|scheduled|created|booked|saved)\s+(it|that|this|the\s+\w+|an?\s+\w+)?\s*(to|in|on|into)\s+(your|the)\s+calendar",
        r"|\b(calendar|event)\s+(is\s+|has\s+been\s+)?(updated|created|added|scheduled)",
        r"|\b(lo\s+|la\s+)?(agregu[ée]|a[ñn]ad[íi]|puse|anot[ée]|he\s+agregado|he\s+a[ñn]adido|he\s+puesto|he\s+anotado)\s+(\w+\s+)?(a|en)\s+(tu|el)\s+calendario",
        r"|\b(cre[ée]|he\s+creado|agend[ée]|he\s+agendado)\s+(el|un|tu)\s+evento",
        r"|\bevento\s+(creado|agendado|a[ñn]adido|agregado)",
    ))
    .expect("valid regex")
});

static SENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        // Sending to the user is the reply itself: "I sent you the link" claims nothing.
        r"(?i)\b(i'?ve|i have|i)\s+(sent|forwarded|emailed|texted|messaged)\s+(it|that|this|them|the\s+\w+|an?\s+\w+)\s+to\s+\w+",
        r"|\b(i'?ve|i have|i)\s+(emailed|texted|messaged)\s+(\p{Lu}\w*|your\s+\w+)",
        r"|\b(message|email|text)\s+(is\s+|has\s+been\s+|was\s+)?sent",
        r"|\b(se\s+lo|se\s+la|se\s+los|le)\s+(envi[ée]|mand[ée]|reenvi[ée]|he\s+enviado|he\s+mandado)",
        r"|\b(envi[ée]|mand[ée]|reenvi[ée]|he\s+enviado|he\s+mandado)\s+(el|un|tu)\s+(mensaje|correo|email|whatsapp|texto|informe)\s+a\s+\w+",
        r"|\b(mensaje|correo|email)\s+(enviado|mandado)",
    ))
    .expect("valid regex")
});

static FACT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\bi'?ve\s+(saved|noted|stored|remembered)\b",
        r"|\bi\s+have\s+(saved|noted|stored)\b",
        r"|\bi('ll| will)\s+(remember|keep\s+that\s+in\s+mind|make\s+a\s+note)",
        r"|\b(saved|noted)\s+(that|it)\s+(to|in)\s+(my\s+)?memory",
        r"|\b(lo\s+)?(he\s+)?(guardado|anotado)\b",
        r"|\b(guard[ée]|anot[ée])\s+(eso|que|tu|el\s+dato|esa)",
        r"|\blo\s+voy\s+a\s+recordar|\bme\s+lo\s+anoto|\blo\s+recordar[ée]",
    ))
    .expect("valid regex")
});

static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(can't|cannot|can not|unable|won't|don't|didn't|not able|no puedo|no pude|no es posible|no he|no voy)\b").expect("valid regex")
});

/// The self-correction note for the check named `check` (a [`Claim::check_name`]).
pub(crate) fn lesson_of(check: &str) -> Option<&'static str> {
    Claim::ALL.into_iter().find(|claim| claim.check_name() == check).map(Claim::lesson)
}

/// The first action the reply claims without having called a tool that does it.
/// `called` are the tools run during this turn. Each sentence makes at most one claim:
/// the first kind ([`Claim::ALL`]) whose words it says.
pub(crate) fn unbacked_claim(reply: &str, called: &[String]) -> Option<Claim> {
    let sentences = reply.split(['.', '!', '?', '\n']).filter(|s| !NEGATION.is_match(s));
    for sentence in sentences {
        let Some(claim) = Claim::ALL.into_iter().find(|claim| claim.pattern().is_match(sentence)) else { continue };
        if !called.iter().any(|tool| claim.backed_by(tool)) {
            return Some(claim);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none() -> Vec<String> {
        Vec::new()
    }

    #[test]
    fn english_and_spanish_claims_are_caught() {
        for text in [
            "Done! I've set a reminder for 9am tomorrow.",
            "Sure, I'll remind you at 5.",
            "Your reminder is set.",
            "Listo, te recordaré mañana a las 9.",
            "Ya creé el recordatorio.",
        ] {
            assert_eq!(unbacked_claim(text, &none()), Some(Claim::Reminder), "{text}");
        }
        for text in ["Got it, I'll remember that you like tea.", "Lo he guardado.", "Anoté eso, gracias.", "Lo voy a recordar."] {
            assert_eq!(unbacked_claim(text, &none()), Some(Claim::Fact), "{text}");
        }
    }

    #[test]
    fn notes_files_calendar_and_messages_are_caught_in_both_languages() {
        for (text, claim) in [
            ("He creado la nota con la lista de la compra.", Claim::Note),
            ("Listo, guardé la nota en Proyectos.", Claim::Note),
            ("I've created a note called Trip ideas.", Claim::Note),
            ("Your note has been updated.", Claim::Note),
            ("I moved the file to Archive.", Claim::File),
            ("Done: I've renamed the file.", Claim::File),
            ("He movido el archivo a la carpeta Viejos.", Claim::File),
            ("I added it to your calendar for Friday.", Claim::Calendar),
            ("The event has been created.", Claim::Calendar),
            ("Lo agregué a tu calendario.", Claim::Calendar),
            ("Ya creé el evento para el jueves.", Claim::Calendar),
            ("I sent it to Ana.", Claim::Sent),
            ("I've emailed the report to your boss.", Claim::Sent),
            ("Se lo envié a Ana.", Claim::Sent),
            ("Mensaje enviado.", Claim::Sent),
        ] {
            assert_eq!(unbacked_claim(text, &none()), Some(claim), "{text}");
        }
    }

    #[test]
    fn each_claim_is_backed_by_the_tools_that_do_it() {
        let called = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(unbacked_claim("He guardado la nota.", &called(&["create_note"])), None, "a note, not a fact");
        assert_eq!(unbacked_claim("He guardado la nota.", &called(&["remember_fact"])), Some(Claim::Note));
        assert_eq!(unbacked_claim("I moved the file to Archive.", &called(&["move_note"])), None);
        assert_eq!(unbacked_claim("I moved the file to Archive.", &called(&["files__move_file"])), None, "a connected program's tool");
        assert_eq!(unbacked_claim("I added it to your calendar.", &called(&["set_reminder"])), Some(Claim::Calendar));
        assert_eq!(unbacked_claim("I added it to your calendar.", &called(&["gcal__create_event"])), None);
        assert_eq!(unbacked_claim("I sent it to Ana.", &called(&["web_search"])), Some(Claim::Sent));
        assert_eq!(unbacked_claim("I sent it to Ana.", &called(&["mail__send_email"])), None);
    }

    #[test]
    fn a_matching_tool_call_backs_the_claim() {
        let called = vec!["set_reminder".to_string()];
        assert_eq!(unbacked_claim("I've set a reminder for 9.", &called), None);
        // A different tool does not.
        let other = vec!["get_current_time".to_string()];
        assert_eq!(unbacked_claim("I've set a reminder for 9.", &other), Some(Claim::Reminder));
    }

    #[test]
    fn negations_and_plain_talk_are_not_claims() {
        for text in [
            "I can't set reminders yet, sorry.",
            "No puedo crear recordatorios todavía.",
            "Do you want me to remind you tomorrow?",
            "The weather in Madrid is sunny.",
            "Remember to drink water!",
            "I couldn't add it to your calendar: there is no calendar connected.",
            "No pude enviar el mensaje.",
            "Do you want me to send it to Ana?",
            "The file you sent is a PDF.",
            "Tu nota dice que el vuelo sale a las 9.",
            "I sent you the link earlier in this chat.",
            "Te mandé el enlace arriba.",
        ] {
            assert_eq!(unbacked_claim(text, &none()), None, "{text}");
        }
    }
}
