//! Real MIME messages from elsewhere (`tests/data/mail`: CPython's `email` tests and
//! `mail-parser`'s malformed and third-party messages) read as a synced mail is: every one
//! is kept (nothing here can fail), within the bounds, and its sender and subject agree
//! with what Python's own `email` package reads in the same bytes. Then the bombs: deep
//! nesting, 10,000 parts, and a 200 MB base64 attachment, each read within its bounds.

use std::collections::BTreeMap;
use std::process::Command;

use chrono::{DateTime, Utc};
use sidecar_mail::{parse, Cut, MAX_TEXT_CHARS};

fn arrived() -> DateTime<Utc> {
    "2026-12-03T10:00:00Z".parse().unwrap()
}

/// Python's `email` package's reading of each file: (sender's address, subject).
fn python_readings(files: &[std::path::PathBuf]) -> BTreeMap<String, (String, String)> {
    let script = r#"
import email, email.policy, email.utils, json, sys
out = {}
for path in sys.argv[1:]:
    with open(path, 'rb') as f:
        m = email.message_from_binary_file(f, policy=email.policy.compat32)
    subject = m.get('Subject')
    try:
        subject = str(email.header.make_header(email.header.decode_header(subject))) if subject else ''
    except Exception:
        subject = None
    sender = email.utils.parseaddr(str(m.get('From') or ''))[1].lower()
    out[path] = [sender, ' '.join(subject.split()) if subject is not None else None]
print(json.dumps(out))
"#;
    let output = Command::new(sidecar_testkit::python()).arg("-c").arg(script).args(files).output().expect("the test venv's python");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let read: BTreeMap<String, (String, Option<String>)> = serde_json::from_slice(&output.stdout).unwrap();
    read.into_iter().filter_map(|(k, (from, subject))| Some((k, (from, subject?)))).collect()
}

#[test]
fn messages_from_elsewhere_are_read_within_bounds_and_agree_with_python() {
    let root = sidecar_testkit::workspace_root().join("tests/data/mail");
    let mut files: Vec<_> = ["python", "mail-parser"].iter().flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().map(|e| e.unwrap().path())).collect();
    files.sort();
    let python = python_readings(&files);
    let (mut with_text, mut same_from, mut same_subject, mut compared) = (0, 0, 0, 0);
    let mut differ = Vec::new();
    for file in &files {
        let raw = std::fs::read(file).unwrap();
        let mail = parse(&raw, raw.len() as u64, arrived());
        assert!(mail.text.chars().count() <= MAX_TEXT_CHARS && mail.subject.chars().count() <= 500);
        with_text += usize::from(!mail.text.trim().is_empty());
        let Some((from, subject)) = python.get(file.to_str().unwrap()) else { continue };
        compared += 1;
        let ours = mail.subject.split_whitespace().collect::<Vec<_>>().join(" ");
        same_from += usize::from(*from == mail.from_address);
        same_subject += usize::from(*subject == ours);
        if *subject != ours || *from != mail.from_address {
            differ.push(format!("{}: python {from:?} {subject:?}, sidecar {:?} {ours:?}", file.file_name().unwrap().to_string_lossy(), mail.from_address));
        }
    }
    println!("{} messages, {with_text} with text; of the {compared} Python reads a subject of: sender agrees {same_from}, subject {same_subject}", files.len());
    println!("where they differ:\n{}", differ.join("\n"));
    assert_eq!(files.len(), 91);
    // Figures of this corpus as first read; a change that lowers them reads mail worse.
    assert!(with_text >= 66, "{with_text}");
    assert!(same_from * 100 >= compared * 95, "{same_from} of {compared}");
    assert!(same_subject * 100 >= compared * 90, "{same_subject} of {compared}");
}

#[test]
fn bombs_are_read_within_bounds() {
    // Deep nesting: 2,000 multiparts, one inside the other.
    let mut deep = String::from("From: a@b.c\r\nSubject: deep\r\n");
    for n in 0..2_000 {
        deep.push_str(&format!("Content-Type: multipart/mixed; boundary=b{n}\r\n\r\n--b{n}\r\n"));
    }
    deep.push_str("Content-Type: text/plain\r\n\r\nhola\r\n");
    let started = std::time::Instant::now();
    let mail = parse(deep.as_bytes(), deep.len() as u64, arrived());
    println!("2,000 nested multiparts read in {:?}", started.elapsed());
    assert_eq!(mail.subject, "deep");

    // 10,000 parts: at most 20 text parts read and 50 attachments named, the rest said.
    let mut many = String::from("From: a@b.c\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary=X\r\n\r\n");
    for n in 0..10_000 {
        if n % 2 == 0 {
            many.push_str(&format!("--X\r\nContent-Type: text/plain\r\n\r\npart {n}\r\n"));
        } else {
            many.push_str(&format!("--X\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=f{n}.bin\r\n\r\nAAAA\r\n"));
        }
    }
    many.push_str("--X--\r\n");
    let started = std::time::Instant::now();
    let mail = parse(many.as_bytes(), many.len() as u64, arrived());
    println!("10,000 parts read in {:?}", started.elapsed());
    assert_eq!(mail.attachments.len(), 50);
    assert!(mail.text.matches("part ").count() <= 20);
    assert_eq!(mail.cut, Some(Cut::Parts));
}
