//! Claim-versus-action validation (agent mode 2.3): a reply that says it did something
//! must come with the tool call that does it. Models, especially small ones, often say
//! "I'll remind you" or "He borrado la nota" and call nothing.
//!
//! [`KINDS`] is the one table of the actions a reply can claim: each with the words that
//! claim it in English and Spanish, the tools that would have done it, and what the model
//! is told. Every claim in a sentence counts, not only the first ("Listo: cancelé el
//! recordatorio y agendé la reunión" claims two actions, and needs both tools).

use std::sync::LazyLock;

use regex::Regex;

/// An action a reply can claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claim {
    ReminderCancelled,
    ReminderSnoozed,
    Reminder,
    NoteRemoved,
    NoteMoved,
    Note,
    File,
    EventMoved,
    EventDeleted,
    Calendar,
    Task,
    Sent,
    Fact,
}

/// One row of the table: what a claim of the action says, and what backs it.
struct Kind {
    claim: Claim,
    /// The name of the check, as recorded in self-correction notes.
    check: &'static str,
    /// The words that claim it, English then Spanish, one alternative per line.
    words: &'static [&'static str],
    /// Whether a call of this tool (lower-cased) did it: Sidecar's own tools by name, a
    /// connected program's by what its name says (they are named by their servers).
    backed_by: fn(&str) -> bool,
    /// The self-correction note kept after such a claim (in the prompt for a day).
    lesson: &'static str,
    /// What the corrective retry tells the model.
    correction: &'static str,
}

fn says(tool: &str, words: &[&str]) -> bool {
    words.iter().any(|w| tool.contains(w))
}

/// In the order a claim is read where two kinds' words overlap: the more particular
/// first ("He borrado la nota" is a note removed, not a file; "He guardado la nota" a
/// note, not a fact).
const KINDS: &[Kind] = &[
    Kind {
        claim: Claim::ReminderCancelled,
        check: "claimed_reminder_cancelled_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(cancel+ed|deleted|removed|cleared)\s+(the|your|that|this|a)\s+reminder",
            r"\breminder\s+(is\s+|has\s+been\s+|was\s+)?(cancel+ed|deleted|removed)",
            r"\b(he\s+)?(cancelad[oa]|cancel[ée]|borrad[oa]|borr[ée]|eliminad[oa]|elimin[ée]|quitad[oa]|quit[ée])\s+(el|tu|ese|este)\s+recordatorio",
            r"\brecordatorio\s+(cancelado|borrado|eliminado)",
        ],
        backed_by: |tool| tool == "cancel_reminder",
        lesson: "You told the user a reminder was cancelled without calling cancel_reminder. Call the tool first, then confirm.",
        correction: "Your last reply says a reminder was cancelled, but you did not call cancel_reminder, so the reminder still stands. Call cancel_reminder now if the user asked for it; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::ReminderSnoozed,
        check: "claimed_reminder_snoozed_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(snoozed|postponed|pushed\s+back|delayed|moved)\s+(the|your|that|this|a)\s+reminder",
            r"\breminder\s+(is\s+|has\s+been\s+|was\s+)?(snoozed|postponed|pushed\s+back)",
            r"\b(he\s+)?(pospuesto|pospuse|aplazad[oa]|aplac[ée]|retrasad[oa]|retras[ée]|movid[oa]|mov[íi])\s+(el|tu|ese|este)\s+recordatorio",
            r"\brecordatorio\s+(pospuesto|aplazado|retrasado)",
        ],
        backed_by: |tool| tool == "snooze_reminder",
        lesson: "You told the user a reminder was snoozed without calling snooze_reminder. Call the tool first, then confirm.",
        correction: "Your last reply says a reminder was snoozed or put off, but you did not call snooze_reminder, so it will ring when it was set to. Call snooze_reminder now if the user asked for it; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::Reminder,
        check: "claimed_reminder_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(set|created|scheduled|added)\s+(up\s+)?(a|the|your|that)\s+reminder",
            r"\bi('ll| will)\s+remind\s+you",
            r"\breminder\s+(is\s+|has\s+been\s+)?(set|created|scheduled)",
            r"\bte\s+(lo\s+)?recordar[ée]",
            r"\b(cre[ée]|program[ée]|configur[ée]|agend[ée]|puse)\s+(el|un|tu|ese)\s+recordatorio",
            r"\brecordatorio\s+(creado|programado|configurado|listo|agendado)",
        ],
        backed_by: |tool| ["set_reminder", "snooze_reminder"].contains(&tool),
        lesson: "You told the user a reminder was set without calling set_reminder. Call the tool first, then confirm.",
        correction: "Your last reply says a reminder was set, but you did not call set_reminder, so no reminder exists. Call set_reminder now if the user asked for one; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::NoteRemoved,
        check: "claimed_note_deleted_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(deleted|removed|trashed|erased)\s+(the|your|that|this|a)\s+note",
            r"\bnote\s+(is\s+|has\s+been\s+|was\s+)?(deleted|removed|trashed)",
            r"\b(he\s+)?(borrad[oa]|borr[ée]|eliminad[oa]|elimin[ée]|quitad[oa]|quit[ée])\s+(la|tu|esa|esta)\s+nota",
            r"\bnota\s+(borrada|eliminada)",
        ],
        backed_by: |tool| says(tool, &["delete", "remove", "trash"]),
        lesson: "You told the user a note was deleted without calling a tool that deletes it. Call the tool first, then confirm.",
        correction: "Your last reply says a note was deleted, but you called no tool that deletes it, so the note is still there. Call the tool now if the user asked for it; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::NoteMoved,
        check: "claimed_note_moved_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(moved|renamed|filed)\s+(the|your|that|this|a)\s+note",
            r"\bnote\s+(is\s+|has\s+been\s+|was\s+)?(moved|renamed)",
            r"\b(he\s+)?(movid[oa]|mov[íi]|renombrad[oa]|renombr[ée]|pasad[oa]|pas[ée])\s+(la|tu|esa|esta)\s+nota",
            r"\bnota\s+(movida|renombrada)",
        ],
        backed_by: |tool| says(tool, &["move", "rename"]),
        lesson: "You told the user a note was moved or renamed without calling a tool that does it. Call the tool first, then confirm.",
        correction: "Your last reply says a note was moved or renamed, but you called no tool that does that, so the note is where it was. Call the tool now if the user asked for it; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::Note,
        check: "claimed_note_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(created|saved|written|wrote|made|added|updated|appended)\s+(a|the|your|that|this|it\s+to\s+(the|your))\s+note",
            r"\bnote\s+(is\s+|has\s+been\s+)?(created|saved|written|updated)",
            r"\b(he\s+)?(cread[oa]|cre[ée]|guardad[oa]|guard[ée]|escrito|escrib[íi]|a[ñn]adid[oa]|a[ñn]ad[íi]|agregad[oa]|agregu[ée]|actualizad[oa]|actualic[ée])\s+(la|una|tu|esa|en\s+(la|tu))\s+nota",
            r"\bnota\s+(creada|guardada|actualizada|lista)",
        ],
        backed_by: |tool| says(tool, &["note", "append_content", "create_folder"]),
        lesson: "You told the user a note was written without calling a note tool. Call the tool first, then confirm.",
        correction: "Your last reply says a note was written, but you called no note tool, so no note was created or changed. Call the note tool now if the user asked for it; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::File,
        check: "claimed_file_change_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(moved|renamed|copied|deleted|saved|created|written|wrote)\s+(the|your|that|this|a)\s+(file|folder|document)",
            r"\b(file|folder|document)\s+(is\s+|has\s+been\s+)?(moved|renamed|deleted|saved|created)",
            r"\bmoved\s+the\s+(file|folder|document)",
            r"\b(he\s+)?(movido|mov[íi]|renombrado|renombr[ée]|borrado|borr[ée]|guardado|guard[ée]|creado|cre[ée])\s+(el|tu|ese|este|un)\s+(archivo|fichero|documento)",
            r"\b(archivo|fichero|documento)\s+(movido|renombrado|borrado|guardado|creado)",
        ],
        backed_by: |tool| says(tool, &["file", "note", "move", "rename", "write", "delete", "folder", "append_content"]),
        lesson: "You told the user a file was changed without calling a tool that changes it. Call the tool first, then confirm.",
        correction: "Your last reply says a file was moved, saved or changed, but you called no tool that does that, so nothing changed on disk. Call the tool now if the user asked for it; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::EventMoved,
        check: "claimed_event_moved_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(moved|rescheduled|pushed\s+back|changed)\s+(the|your|that|this)\s+(event|meeting|appointment)",
            r"\b(event|meeting|appointment)\s+(is\s+|has\s+been\s+|was\s+)?(moved|rescheduled)",
            r"\b(he\s+)?(movid[oa]|mov[íi]|cambiad[oa]|cambi[ée]|pasad[oa]|pas[ée]|reprogramad[oa]|reprogram[ée])\s+(el|la|tu|ese|esa|este|esta)\s+(evento|reuni[óo]n|cita)",
            r"\b(evento|reuni[óo]n|cita)\s+(movid[oa]|reprogramad[oa]|cambiad[oa])",
        ],
        backed_by: |tool| tool == "move_event" || (says(tool, &["calendar", "event"]) && says(tool, &["move", "update", "patch", "edit", "reschedule"])),
        lesson: "You told the user a calendar event was moved without calling a tool that moves it. Call the tool first, then confirm.",
        correction: "Your last reply says a calendar event was moved, but you called no tool that moves it, so it is still when it was. Call one now if the user asked and one is available; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::EventDeleted,
        check: "claimed_event_deleted_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(deleted|removed|cancel+ed)\s+(the|your|that|this)\s+(event|meeting|appointment)",
            r"\b(event|meeting|appointment)\s+(is\s+|has\s+been\s+|was\s+)?(deleted|removed|cancel+ed)",
            r"\b(he\s+)?(borrad[oa]|borr[ée]|eliminad[oa]|elimin[ée]|cancelad[oa]|cancel[ée]|quitad[oa]|quit[ée])\s+(el|la|tu|ese|esa|este|esta)\s+(evento|reuni[óo]n|cita)",
            r"\b(evento|reuni[óo]n|cita)\s+(borrad[oa]|eliminad[oa]|cancelad[oa])",
        ],
        backed_by: |tool| tool == "delete_event" || (says(tool, &["calendar", "event"]) && says(tool, &["delete", "remove", "cancel"])),
        lesson: "You told the user a calendar event was deleted without calling a tool that deletes it. Call the tool first, then confirm.",
        correction: "Your last reply says a calendar event was deleted or cancelled, but you called no tool that does that, so it is still in the calendar. Call one now if the user asked and one is available; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::Calendar,
        check: "claimed_calendar_event_without_tool",
        words: &[
            r"\b(added|put|scheduled|created|booked|saved)\s+(it|that|this|the\s+\w+|an?\s+\w+)?\s*(to|in|on|into)\s+(your|the)\s+calendar",
            r"\b(calendar|event)\s+(is\s+|has\s+been\s+)?(updated|created|added|scheduled)",
            r"\b(lo\s+|la\s+)?(agregu[ée]|a[ñn]ad[íi]|puse|anot[ée]|he\s+agregado|he\s+a[ñn]adido|he\s+puesto|he\s+anotado)\s+(\w+\s+)?(a|en)\s+(tu|el)\s+calendario",
            r"\b(cre[ée]|he\s+creado|agend[ée]|he\s+agendado)\s+(el|la|un|una|tu)\s+(evento|reuni[óo]n|cita)",
            r"\b(evento|reuni[óo]n|cita)\s+(creada?|agendada?|a[ñn]adida?|agregada?)",
        ],
        backed_by: |tool| says(tool, &["calendar", "event"]),
        lesson: "You told the user something was added to the calendar without calling a calendar tool. Call the tool first, then confirm.",
        correction: "Your last reply says something was added to the calendar, but you called no calendar tool, so the calendar did not change. Call one now if the user asked and one is available; otherwise answer again without claiming it (a reminder may do).",
    },
    Kind {
        claim: Claim::Task,
        check: "claimed_task_scheduled_without_tool",
        words: &[
            r"\b(i'?ve|i have|i)\s+(scheduled|set\s+up|created|added)\s+(a|the|your|that|this)\s+(\w+\s+)?task",
            r"\btask\s+(is\s+|has\s+been\s+|was\s+)?(scheduled|set\s+up|created)",
            r"\b(he\s+)?(programad[oa]|program[ée]|cread[oa]|cre[ée]|configurad[oa]|configur[ée]|agendad[oa]|agend[ée])\s+(la|una|tu|esa|esta)\s+tarea",
            r"\btarea\s+(programada|creada|configurada)",
        ],
        backed_by: |tool| tool == "schedule_task",
        lesson: "You told the user a task was scheduled without calling schedule_task. Call the tool first, then confirm.",
        correction: "Your last reply says a task was scheduled, but you did not call schedule_task, so nothing will run. Call schedule_task now if the user asked for it; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::Sent,
        check: "claimed_message_sent_without_tool",
        words: &[
            // Sending to the user is the reply itself: "I sent you the link" claims nothing.
            r"\b(i'?ve|i have|i)\s+(sent|forwarded|emailed|texted|messaged)\s+(it|that|this|them|the\s+\w+|an?\s+\w+)\s+to\s+\w+",
            r"\b(i'?ve|i have|i)\s+(emailed|texted|messaged)\s+(\p{Lu}\w*|your\s+\w+)",
            r"\b(message|email|text)\s+(is\s+|has\s+been\s+|was\s+)?sent",
            r"\b(se\s+lo|se\s+la|se\s+los|le)\s+(envi[ée]|mand[ée]|reenvi[ée]|he\s+enviado|he\s+mandado)",
            r"\b(envi[ée]|mand[ée]|reenvi[ée]|he\s+enviado|he\s+mandado)\s+(el|un|tu)\s+(mensaje|correo|email|whatsapp|texto|informe)\s+a\s+\w+",
            r"\b(mensaje|correo|email)\s+(enviado|mandado)",
        ],
        backed_by: |tool| says(tool, &["send", "mail", "message", "telegram", "whatsapp", "sms", "post"]),
        lesson: "You told the user a message was sent without calling a tool that sends it. Call the tool first, then confirm.",
        correction: "Your last reply says a message was sent, but you called no tool that sends one, so nothing was sent. Call it now if the user asked and one is available; otherwise answer again without claiming it.",
    },
    Kind {
        claim: Claim::Fact,
        check: "claimed_fact_saved_without_tool",
        words: &[
            r"\bi'?ve\s+(saved|noted|stored|remembered)\b",
            r"\bi\s+have\s+(saved|noted|stored)\b",
            r"\bi('ll| will)\s+(remember|keep\s+that\s+in\s+mind|make\s+a\s+note)",
            r"\b(saved|noted)\s+(that|it)\s+(to|in)\s+(my\s+)?memory",
            r"\b(lo\s+)?(he\s+)?(guardado|anotado)\b",
            r"\b(guard[ée]|anot[ée])\s+(eso|que|tu|el\s+dato|esa)",
            r"\blo\s+voy\s+a\s+recordar|\bme\s+lo\s+anoto|\blo\s+recordar[ée]",
        ],
        backed_by: |tool| tool == "remember_fact",
        lesson: "You told the user you saved a fact without calling remember_fact. Call the tool first, then confirm.",
        correction: "Your last reply says you saved or will remember something, but you did not call remember_fact, so nothing was saved. Call remember_fact now if there is a fact worth keeping; otherwise answer again without claiming it.",
    },
];

/// How an English claim opens ("I've moved…"); the same claim later in a sentence
/// often drops it ("…and moved the meeting to Friday").
const SUBJECT: &str = r"\b(i'?ve|i have|i)\s+";
const CONTINUED: &str = r"\b(and|then|also)\s+";

/// Each kind's words as one case-blind pattern, in the order of [`KINDS`].
static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    KINDS
        .iter()
        .map(|kind| {
            let continued = kind.words.iter().filter_map(|words| words.strip_prefix(SUBJECT)).map(|rest| format!("{CONTINUED}{rest}"));
            let all: Vec<String> = kind.words.iter().map(|w| w.to_string()).chain(continued).collect();
            Regex::new(&format!("(?i){}", all.join("|"))).expect("valid claim words")
        })
        .collect()
});

static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(can't|cannot|can not|unable|won't|don't|didn't|not able|no puedo|no pude|no es posible|no he|no voy)\b").expect("valid regex")
});

impl Claim {
    fn kind(self) -> &'static Kind {
        KINDS.iter().find(|kind| kind.claim == self).expect("every claim has a row")
    }

    /// The name of the check, as recorded in self-correction notes.
    pub(crate) fn check_name(self) -> &'static str {
        self.kind().check
    }

    /// What the corrective retry tells the model.
    pub(crate) fn correction(self) -> &'static str {
        self.kind().correction
    }
}

/// The self-correction note for the check named `check` (a [`Claim::check_name`]).
pub(crate) fn lesson_of(check: &str) -> Option<&'static str> {
    KINDS.iter().find(|kind| kind.check == check).map(|kind| kind.lesson)
}

/// Every action `sentence` claims, in the order said. Where two kinds' words cover the
/// same words, the earlier row of [`KINDS`] is the claim.
fn claims_in(sentence: &str) -> Vec<Claim> {
    let mut found: Vec<(std::ops::Range<usize>, Claim)> = Vec::new();
    for (kind, pattern) in KINDS.iter().zip(PATTERNS.iter()) {
        for hit in pattern.find_iter(sentence) {
            if !found.iter().any(|(taken, _)| taken.start < hit.end() && hit.start() < taken.end) {
                found.push((hit.range(), kind.claim));
            }
        }
    }
    found.sort_by_key(|(range, _)| range.start);
    found.into_iter().map(|(_, claim)| claim).collect()
}

/// The first action the reply claims without having called a tool that does it, every
/// claim of every sentence looked at. `called` are the tools run during this turn. A
/// question, or a sentence that says it could not do something, claims nothing.
pub(crate) fn unbacked_claim(reply: &str, called: &[String]) -> Option<Claim> {
    let called: Vec<String> = called.iter().map(|tool| tool.to_ascii_lowercase()).collect();
    reply
        .split_inclusive(['.', '!', '?', '\n'])
        .filter(|sentence| !sentence.ends_with('?') && !NEGATION.is_match(sentence))
        .flat_map(claims_in)
        .find(|claim| !called.iter().any(|tool| (claim.kind().backed_by)(tool)))
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
    fn every_kind_in_the_table_is_caught_in_both_languages() {
        for (text, claim) in [
            ("Done, I've cancelled the reminder for the dentist.", Claim::ReminderCancelled),
            ("Ya cancelé el recordatorio del dentista.", Claim::ReminderCancelled),
            ("Recordatorio eliminado.", Claim::ReminderCancelled),
            ("I've snoozed the reminder for 10 minutes.", Claim::ReminderSnoozed),
            ("He pospuesto el recordatorio una hora.", Claim::ReminderSnoozed),
            ("I deleted the note about the trip.", Claim::NoteRemoved),
            ("He borrado la nota.", Claim::NoteRemoved),
            ("I moved the note to Archive.", Claim::NoteMoved),
            ("Listo, moví la nota a Proyectos.", Claim::NoteMoved),
            ("I've moved the meeting to Thursday at 10.", Claim::EventMoved),
            ("He cambiado la cita al jueves.", Claim::EventMoved),
            ("I've deleted the event from your calendar.", Claim::EventDeleted),
            ("Cancelé la reunión del lunes.", Claim::EventDeleted),
            ("I've scheduled a daily task that checks the prices.", Claim::Task),
            ("He programado una tarea para cada mañana.", Claim::Task),
            ("Agendé la reunión con Ana.", Claim::Calendar),
        ] {
            assert_eq!(unbacked_claim(text, &none()), Some(claim), "{text}");
        }
        // Every row has a lesson found by its check's name, and the names are distinct.
        for kind in KINDS {
            assert_eq!(lesson_of(kind.check), Some(kind.lesson));
            assert_eq!(KINDS.iter().filter(|k| k.check == kind.check || k.claim == kind.claim).count(), 1, "{}", kind.check);
        }
    }

    #[test]
    fn each_new_kind_needs_its_own_tool() {
        let called = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        for (text, right, wrong) in [
            ("Ya cancelé el recordatorio.", "cancel_reminder", "set_reminder"),
            ("I've snoozed the reminder.", "snooze_reminder", "cancel_reminder"),
            ("He borrado la nota.", "delete_note", "create_note"),
            ("I moved the note to Archive.", "move_note", "append_content"),
            ("I've moved the meeting to Thursday.", "move_event", "create_event"),
            ("I've deleted the event.", "delete_event", "move_event"),
            ("He programado una tarea.", "schedule_task", "set_reminder"),
        ] {
            assert_eq!(unbacked_claim(text, &called(&[right])), None, "{text} with {right}");
            assert!(unbacked_claim(text, &called(&[wrong])).is_some(), "{text} with {wrong}");
        }
        assert_eq!(unbacked_claim("I've moved the meeting.", &called(&["gcal__update_event"])), None, "a connected calendar's tool");
    }

    #[test]
    fn every_claim_of_a_sentence_counts_not_only_the_first() {
        let called = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        let text = "Listo: cancelé el recordatorio y agendé la reunión.";
        assert_eq!(unbacked_claim(text, &none()), Some(Claim::ReminderCancelled));
        assert_eq!(unbacked_claim(text, &called(&["cancel_reminder"])), Some(Claim::Calendar), "the second claim is checked too");
        assert_eq!(unbacked_claim(text, &called(&["create_event"])), Some(Claim::ReminderCancelled));
        assert_eq!(unbacked_claim(text, &called(&["cancel_reminder", "create_event"])), None);
        let english = "Done: I've cancelled the reminder and moved the meeting to Friday.";
        assert_eq!(unbacked_claim(english, &called(&["cancel_reminder"])), Some(Claim::EventMoved));
        // Two kinds' words over the same words are one claim: a note saved is not a fact too.
        assert_eq!(unbacked_claim("He guardado la nota.", &called(&["create_note"])), None);
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
            "Shall I look it up and set a reminder for you?",
            "¿Quieres que cancele el recordatorio y agende la reunión?",
            "The file you sent is a PDF.",
            "Tu nota dice que el vuelo sale a las 9.",
            "I sent you the link earlier in this chat.",
            "Te mandé el enlace arriba.",
        ] {
            assert_eq!(unbacked_claim(text, &none()), None, "{text}");
        }
    }
}
