//! Property tests for every file format Sidecar reads from outside: model files
//! (GGUF), calendars (.ics) and chat exports (ChatGPT, Claude, JSON lines). Each starts
//! from a good file and feeds it cut, bit-flipped, nested and oversized, on a small
//! stack: the reader answers with a clear error or a bounded result, never a panic or
//! a stack overflow.

use chrono::TimeZone;
use proptest::prelude::*;

use sidecar_llm::read_gguf_info;
use sidecar_llm::GgufError;

/// Runs `work` on a thread with a 256 kB stack: a reader that recurses per level of
/// input would overflow it.
fn on_small_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(256 << 10).spawn(work).unwrap().join().expect("no panic, no stack overflow")
}

fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc.with_ymd_and_hms(2026, 11, 18, 9, 0, 0).unwrap()
}

// ---- GGUF -------------------------------------------------------------------------

fn gguf_string(out: &mut Vec<u8>, text: &str) {
    out.extend((text.len() as u64).to_le_bytes());
    out.extend(text.as_bytes());
}

/// A small but whole GGUF v3: three metadata entries (one an array of strings) and two
/// F32 tensors whose data follows, aligned.
fn good_gguf() -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend(2u64.to_le_bytes()); // tensors
    out.extend(3u64.to_le_bytes()); // metadata entries
    gguf_string(&mut out, "general.architecture");
    out.extend(8u32.to_le_bytes());
    gguf_string(&mut out, "llama");
    gguf_string(&mut out, "tokenizer.ggml.tokens");
    out.extend(9u32.to_le_bytes());
    out.extend(8u32.to_le_bytes());
    out.extend(3u64.to_le_bytes());
    for token in ["a", "bc", "def"] {
        gguf_string(&mut out, token);
    }
    gguf_string(&mut out, "llama.context_length");
    out.extend(4u32.to_le_bytes());
    out.extend(2048u32.to_le_bytes());
    for (name, offset) in [("a.weight", 0u64), ("b.weight", 64)] {
        gguf_string(&mut out, name);
        out.extend(1u32.to_le_bytes()); // dimensions
        out.extend(16u64.to_le_bytes()); // 16 floats
        out.extend(0u32.to_le_bytes()); // F32
        out.extend(offset.to_le_bytes());
    }
    out.resize(out.len().div_ceil(32) * 32, 0);
    out.extend(std::iter::repeat_n(0x3f, 128)); // the two tensors' data
    out
}

fn read_gguf(bytes: Vec<u8>) -> Result<sidecar_llm::GgufInfo, GgufError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.gguf");
    std::fs::write(&path, bytes).unwrap();
    on_small_stack(move || read_gguf_info(&path))
}

#[test]
fn the_good_gguf_reads() {
    let info = read_gguf(good_gguf()).unwrap();
    assert_eq!((info.architecture.as_deref(), info.context_length), (Some("llama"), Some(2048)));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Cut anywhere, a model file is refused: in its header as cut, in its data as
    /// incomplete.
    #[test]
    fn a_gguf_cut_anywhere_is_refused(keep_per_mille in 0u64..1000) {
        let whole = good_gguf();
        let keep = (whole.len() as u64 * keep_per_mille / 1000) as usize;
        let error = read_gguf(whole[..keep].to_vec()).unwrap_err();
        prop_assert!(matches!(error, GgufError::NotGguf(_) | GgufError::Truncated { .. } | GgufError::Incomplete { .. }), "{error:?}");
        prop_assert!(!error.to_string().is_empty());
    }

    /// Bytes overwritten anywhere (counts and lengths made huge, kinds made unknown):
    /// an answer, never a panic, an overflow or an allocation of what the file claims.
    #[test]
    fn a_gguf_with_bytes_overwritten_gets_an_answer(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u64>()), 1..6)) {
        let mut bytes = good_gguf();
        for (at, value) in edits {
            let at = at.index(bytes.len().saturating_sub(8));
            bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        }
        if let Err(error) = read_gguf(bytes) {
            prop_assert!(!error.to_string().is_empty());
        }
    }

    /// Arrays inside arrays to any depth: refused past a few levels.
    #[test]
    fn a_gguf_nesting_arrays_deeply_is_refused(levels in 9usize..5_000) {
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(0u64.to_le_bytes());
        out.extend(1u64.to_le_bytes());
        gguf_string(&mut out, "x.nested");
        out.extend(9u32.to_le_bytes());
        for _ in 0..levels {
            out.extend(9u32.to_le_bytes());
            out.extend(1u64.to_le_bytes());
        }
        out.extend(4u32.to_le_bytes());
        out.extend(0u64.to_le_bytes());
        let read = read_gguf(out);
        prop_assert!(matches!(read, Err(GgufError::TooDeep { .. })), "{read:?}");
    }
}

// ---- iCalendar --------------------------------------------------------------------

fn good_calendar() -> String {
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\n\
     BEGIN:VEVENT\r\nUID:1\r\nSUMMARY:dentist\r\nDESCRIPTION:bring the card\r\nDTSTART;TZID=Europe/Madrid:20261120T100000\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VEVENT\r\n\
     BEGIN:VEVENT\r\nUID:2\r\nSUMMARY:standup\r\nDTSTART:20261119T081500Z\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nEND:VEVENT\r\n\
     BEGIN:VTODO\r\nUID:3\r\nSUMMARY:taxes\r\nDUE;VALUE=DATE:20270401\r\nEND:VTODO\r\n\
     END:VCALENDAR\r\n"
        .to_string()
}

type IcsResult = Result<(Vec<sidecar_reminders::Imported>, sidecar_reminders::Skipped), String>;

fn read_ics(text: String) -> IcsResult {
    on_small_stack(move || {
        sidecar_reminders::import(&text, now(), chrono_tz::Europe::Madrid, chrono::NaiveTime::from_hms_opt(9, 0, 0).unwrap(), sidecar_domain::Lang::En)
            .map_err(|e| e.to_string())
    })
}

/// What any calendar import may give: texts within the cap, nothing in the past,
/// repeats no more often than the floor.
fn bounded(found: &[sidecar_reminders::Imported]) -> Result<(), TestCaseError> {
    use sidecar_reminders::MAX_TITLE_CHARS;
    for event in found {
        prop_assert!(event.message.chars().count() <= MAX_TITLE_CHARS + 1, "{} characters", event.message.chars().count());
        prop_assert!(event.due_at >= now() - chrono::Duration::seconds(1), "{event:?}");
        if let (Some(rule), Some(start)) = (&event.rrule, event.series_start) {
            let next = sidecar_dates::upcoming(rule, start, event.zone, now(), 4);
            prop_assert!(next.windows(2).all(|w| w[1] - w[0] >= chrono::Duration::minutes(15)), "{rule}: {next:?}");
        }
    }
    Ok(())
}

#[test]
fn the_good_calendar_reads() {
    let (found, skipped) = read_ics(good_calendar()).unwrap();
    assert_eq!((found.len(), skipped.unreadable.len()), (3, 0), "{found:?} {skipped:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// A calendar cut anywhere: refused with what is wrong, or (cut between parts)
    /// read as far as it goes.
    #[test]
    fn a_calendar_cut_anywhere_gets_an_answer(keep in 0usize..600) {
        let text = good_calendar();
        let keep = keep.min(text.len());
        match read_ics(text[..keep].to_string()) {
            Ok((found, _)) => bounded(&found)?,
            Err(error) => prop_assert!(!error.is_empty()),
        }
    }

    /// Parts nested to any depth, a title of any length, any repeat rule, lines of any
    /// bytes: an answer within the bounds.
    #[test]
    fn a_hostile_calendar_gets_an_answer_within_bounds(
        depth in 0usize..400,
        title_len in 0usize..40_000,
        freq in prop::sample::select(vec!["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY", "NONSENSE"]),
        interval in 0u32..100,
        by in prop::sample::select(vec!["", ";BYMINUTE=0,5,10,15,20", ";BYHOUR=1,2,3;BYMINUTE=0,1", ";COUNT=3", ";UNTIL=20200101T000000Z", ";BYSETPOS=-1;BYDAY=MO"]),
        junk in "\\PC{0,40}",
    ) {
        let nested = "BEGIN:VALARM\r\n".repeat(depth) + &"END:VALARM\r\n".repeat(depth);
        let title = "x".repeat(title_len);
        let text = format!(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//p//EN\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:{title}\r\nDTSTART:20200101T000000Z\r\nRRULE:FREQ={freq};INTERVAL={interval}{by}\r\nX-JUNK:{junk}\r\n{nested}END:VEVENT\r\nEND:VCALENDAR\r\n"
        );
        match read_ics(text) {
            Ok((found, _)) => bounded(&found)?,
            Err(error) => prop_assert!(!error.is_empty()),
        }
    }
}

// ---- Chat exports -----------------------------------------------------------------

const CHATGPT: &str = r#"[{"title": "Trip", "current_node": "b", "mapping": {
  "root": {"id": "root", "message": null, "parent": null, "children": ["a"]},
  "a": {"id": "a", "message": {"id": "a", "author": {"role": "user"}, "create_time": 1700000000.5, "content": {"content_type": "text", "parts": ["Where in Portugal?"]}}, "parent": "root", "children": ["b"]},
  "b": {"id": "b", "message": {"id": "b", "author": {"role": "assistant"}, "create_time": 1700000002, "content": {"content_type": "text", "parts": ["Porto."]}}, "parent": "a", "children": []}}},
 {"uuid": "x", "name": "Recetas", "chat_messages": []}]"#;

const CLAUDE: &str = r#"[{"uuid": "x", "name": "Recetas", "created_at": "2024-05-01T10:00:00Z", "chat_messages": [
  {"uuid": "m1", "sender": "human", "text": "¿Gazpacho?", "content": [], "created_at": "2024-05-01T10:00:00Z"},
  {"uuid": "m2", "sender": "assistant", "text": "Tomate.", "content": [], "created_at": "2024-05-01T10:00:05Z"}]}]"#;

fn read_export(bytes: Vec<u8>) -> Result<usize, sidecar_data::NotAnExport> {
    on_small_stack(move || sidecar_data::read_chat_export(&bytes, now()).map(|(_, chats, _)| chats.iter().map(|c| c.messages.len()).sum()))
}

#[test]
fn the_good_exports_read() {
    assert_eq!(read_export(CHATGPT.as_bytes().to_vec()), Ok(2));
    assert_eq!(read_export(CLAUDE.as_bytes().to_vec()), Ok(2));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// An export cut anywhere is refused as a whole: nothing half-read is stored.
    #[test]
    fn an_export_cut_anywhere_is_refused(claude in any::<bool>(), keep_per_mille in 0usize..1000) {
        let whole = if claude { CLAUDE } else { CHATGPT }.as_bytes();
        let keep = whole.len() * keep_per_mille / 1000;
        let read = read_export(whole[..keep].to_vec());
        prop_assert!(read.as_ref().is_err_and(|e| !e.to_string().is_empty()), "{keep} bytes: {read:?}");
    }

    /// JSON nested to any depth where a message or a part is expected: refused, not an
    /// overflow.
    #[test]
    fn an_export_nesting_deeply_is_refused_or_read(depth in 1usize..20_000, in_parts in any::<bool>()) {
        let deep = "[".repeat(depth) + &"]".repeat(depth);
        let text = if in_parts {
            CHATGPT.replacen(r#"["Porto."]"#, &deep, 1)
        } else {
            format!(r#"[{{"title": "t", "mapping": {deep}}}]"#)
        };
        if let Ok(messages) = read_export(text.into_bytes()) {
            prop_assert!(messages <= 2);
        }
    }

    /// JSON lines of any bytes: every line is read or reported by number.
    #[test]
    fn json_lines_of_any_bytes_are_read_or_reported(lines in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..80), 0..30)) {
        let mut bytes = Vec::new();
        for line in &lines {
            bytes.extend(line.iter().filter(|b| **b != b'\n'));
            bytes.push(b'\n');
        }
        let file = on_small_stack(move || sidecar_data::read_history_export(&bytes, now(), chrono_tz::Europe::Madrid));
        let blank = lines.iter().filter(|l| String::from_utf8_lossy(l).replace('\n', "").trim().is_empty()).count();
        prop_assert!(file.lines.len() + file.problems.len() + blank >= lines.len(), "every line accounted for");
    }
}
