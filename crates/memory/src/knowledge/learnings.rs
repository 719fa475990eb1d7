//! The `learnings.md` document: parsed line by line into headings, facts, and lines
//! it could not read, while keeping every line's original text. Rendering an
//! unchanged document gives back the file byte for byte; a malformed line is never
//! dropped, only reported with its line number.
//!
//! A fact line: `- [weight:N] fact | learned:YYYY-MM-DD | confirmed:YYYY-MM-DD`, then
//! `| superseded:YYYY-MM-DD` when a newer fact replaced it and `| critical` when the user
//! marked it important (`crítico`, `important` and `importante` are read too).
//!
//! Lines that are not UTF-8 are kept as the bytes they were (the file is the user's,
//! and a rewrite must not turn `caf\xe9` into a replacement character) and reported
//! as malformed with the first bad byte's column. So is a fact too long to be one.

use std::fmt;
use std::sync::LazyLock;

use chrono::NaiveDate;
use regex::Regex;
use serde::Serialize;

/// The fixed categories. Headings may be written in English or Spanish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize, ts_rs::TS)]
pub enum Category {
    Health,
    Preferences,
    Work,
    Relationships,
    Schedule,
    Goals,
    General,
}

impl Category {
    pub const ALL: [Category; 7] =
        [Category::Health, Category::Preferences, Category::Work, Category::Relationships, Category::Schedule, Category::Goals, Category::General];

    pub fn name(self) -> &'static str {
        match self {
            Category::Health => "Health",
            Category::Preferences => "Preferences",
            Category::Work => "Work",
            Category::Relationships => "Relationships",
            Category::Schedule => "Schedule",
            Category::Goals => "Goals",
            Category::General => "General",
        }
    }

    pub(crate) fn spanish_name(self) -> &'static str {
        match self {
            Category::Health => "Salud",
            Category::Preferences => "Preferencias",
            Category::Work => "Trabajo",
            Category::Relationships => "Relaciones",
            Category::Schedule => "Horarios",
            Category::Goals => "Metas",
            Category::General => "General",
        }
    }

    /// From an English or Spanish name, any case.
    pub fn parse(name: &str) -> Option<Self> {
        let name = name.trim().to_lowercase();
        Self::ALL.into_iter().find(|c| {
            c.name().eq_ignore_ascii_case(&name)
                || c.spanish_name().to_lowercase() == name
                || matches!((c, name.as_str()), (Category::Schedule, "agenda") | (Category::Goals, "objetivos"))
        })
    }
}

/// One remembered fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Fact {
    pub weight: u8,
    pub text: String,
    pub learned: NaiveDate,
    pub confirmed: NaiveDate,
    /// When a newer fact replaced it: kept and searchable, never sent as current.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub superseded: Option<NaiveDate>,
    /// Marked important by the user (the seeds' critical flag, D6): like a Health fact,
    /// never cut from the prompt and never replaced or moved without asking.
    pub critical: bool,
}

impl Fact {
    /// A fact first said `today`: weight 1, current, not marked important.
    pub fn new(text: &str, today: NaiveDate) -> Self {
        Self { weight: 1, text: text.to_string(), learned: today, confirmed: today, superseded: None, critical: false }
    }
}

impl fmt::Display for Fact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "- [weight:{}] {} | learned:{} | confirmed:{}", self.weight, self.text, self.learned.format("%Y-%m-%d"), self.confirmed.format("%Y-%m-%d"))?;
        if let Some(date) = self.superseded {
            write!(f, " | superseded:{}", date.format("%Y-%m-%d"))?;
        }
        if self.critical {
            write!(f, " | critical")?;
        }
        Ok(())
    }
}

/// What a line of the file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `## Category`.
    Heading(Category),
    /// A fact, under the category of the heading above it.
    Fact { category: Category, fact: Fact },
    /// Looks like a fact (a `- ` item) but does not follow the format.
    Malformed { reason: String },
    /// Anything else: the title, blank lines, comments, unknown headings.
    Other,
}

/// The longest fact saved (in characters): one short sentence.
pub(crate) const MAX_FACT_CHARS: usize = 300;

/// A fact line longer than this (in characters) is not read as a fact: it is
/// reported, and kept as it is, instead of filling every prompt.
pub(crate) const MAX_LINE_FACT_CHARS: usize = 2_000;
/// How much of a malformed line a report shows.
const REPORTED_CHARS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    /// The line as it is in the file, without its `\n` (a `\r` before it is kept);
    /// for a line that is not UTF-8, its lossy reading (for reports only).
    pub raw: String,
    /// The exact bytes of a line that is not UTF-8, written back untouched.
    bytes: Option<Vec<u8>>,
    pub kind: Kind,
    /// Set when the fact was changed: `raw` is re-rendered on save.
    dirty: bool,
}

/// A line the parser could not read, for the UI and the logs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Malformed {
    /// 1-based.
    pub line: usize,
    pub text: String,
    pub reason: String,
}

/// The file as lines split on `\n`: joining them back with `\n` gives the exact
/// original, whatever its line endings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learnings {
    lines: Vec<Line>,
    /// `\r\n` line breaks, for lines written anew.
    crlf: bool,
}

impl Default for Learnings {
    fn default() -> Self {
        Self::parse("")
    }
}

static FACT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*[-*]\s*\[weight:\s*(\d{1,3})\]\s*(.+?)\s*\|\s*learned:\s*(\d{4}-\d{2}-\d{2})\s*\|\s*confirmed:\s*(\d{4}-\d{2}-\d{2})(?:\s*\|\s*superseded:\s*(\d{4}-\d{2}-\d{2}))?(?i:\s*\|\s*(critical|cr[ií]tico|importante?))?\s*$")
        .expect("valid regex")
});
/// A fact line with parts missing, as people write them by hand: the words, and what of
/// the weight and dates is there.
static LOOSE_FACT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*[-*]\s*(?:\[weight:\s*(\d{1,3})\]\s*)?([^|\[\]]+?)\s*(?:\|\s*learned:\s*(\d{4}-\d{2}-\d{2}))?\s*(?:\|\s*confirmed:\s*(\d{4}-\d{2}-\d{2}))?\s*$",
    )
    .expect("valid regex")
});
static HEADING: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*##\s+(.+?)\s*$").expect("valid regex"));

impl Learnings {
    /// Parses any text; never fails.
    pub fn parse(text: &str) -> Self {
        Self::from_bytes(text.as_bytes())
    }

    /// Parses the file's bytes, whatever they are; never fails.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let crlf = bytes.windows(2).any(|w| w == b"\r\n");
        let mut category = Category::General;
        let lines = bytes
            .split(|b| *b == b'\n')
            .map(|piece| match std::str::from_utf8(piece) {
                Ok(raw) => {
                    let kind = classify(raw.strip_suffix('\r').unwrap_or(raw), &mut category);
                    Line { raw: raw.to_string(), bytes: None, kind, dirty: false }
                }
                Err(e) => {
                    let column = String::from_utf8_lossy(&piece[..e.valid_up_to()]).chars().count() + 1;
                    let reason = format!("not UTF-8 text: byte 0x{:02X} at column {column}; the line is kept exactly as it is", piece[e.valid_up_to()]);
                    let raw = String::from_utf8_lossy(piece).into_owned();
                    Line { raw, bytes: Some(piece.to_vec()), kind: Kind::Malformed { reason }, dirty: false }
                }
            })
            .collect();
        Self { lines, crlf }
    }

    /// A new file with the title and every category heading.
    pub fn template(spanish: bool) -> Self {
        let mut text = String::from(if spanish { "# Aprendizajes\n" } else { "# Learnings\n" });
        for c in Category::ALL {
            text.push_str(&format!("\n## {}\n", c.name()));
        }
        Self::parse(&text)
    }

    /// The document as text (lines that are not UTF-8 read lossily: for display).
    pub fn render(&self) -> String {
        String::from_utf8_lossy(&self.render_bytes()).into_owned()
    }

    /// The document as the bytes to write: unchanged lines exactly as they were read.
    pub fn render_bytes(&self) -> Vec<u8> {
        let cr = if self.crlf { "\r" } else { "" };
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            match (&line.kind, line.dirty, &line.bytes) {
                (Kind::Fact { fact, .. }, true, _) => out.extend_from_slice(format!("{fact}{cr}").as_bytes()),
                (_, _, Some(bytes)) => out.extend_from_slice(bytes),
                _ => out.extend_from_slice(line.raw.as_bytes()),
            }
        }
        out
    }

    fn new_line(&self, text: String, kind: Kind) -> Line {
        let raw = if self.crlf { format!("{text}\r") } else { text };
        Line { raw, bytes: None, kind, dirty: false }
    }

    /// Where lines appended to the file go: before the empty piece that a final
    /// line break leaves.
    fn end(&self) -> usize {
        match self.lines.last() {
            Some(last) if last.raw.is_empty() => self.lines.len() - 1,
            _ => self.lines.len(),
        }
    }

    /// Every fact with its category and index (for updates).
    pub fn facts(&self) -> impl Iterator<Item = (usize, Category, &Fact)> {
        self.lines.iter().enumerate().filter_map(|(i, line)| match &line.kind {
            Kind::Fact { category, fact } => Some((i, *category, fact)),
            _ => None,
        })
    }

    pub fn malformed(&self) -> Vec<Malformed> {
        self.lines
            .iter()
            .enumerate()
            .filter_map(|(i, line)| match &line.kind {
                Kind::Malformed { reason } => Some(Malformed { line: i + 1, text: shortened(&line.raw), reason: reason.clone() }),
                _ => None,
            })
            .collect()
    }

    /// The fact a malformed line at `index` surely means, written in the format, with the
    /// category of its heading: the words with a weight of 1 and today's dates when they
    /// are missing, a weight out of range brought to 1–10, a missing `confirmed` the day
    /// it was learned. `None` when the line is not that sure (words with a `|` or a
    /// bracket left over, a date that is not one, bytes that are not text, a line too
    /// long to be a fact).
    pub(crate) fn repaired(&self, index: usize, today: NaiveDate) -> Option<(Category, Fact)> {
        let line = self.lines.get(index)?;
        if !matches!(line.kind, Kind::Malformed { .. }) || line.bytes.is_some() {
            return None;
        }
        let raw = line.raw.strip_suffix('\r').unwrap_or(&line.raw);
        let caps = LOOSE_FACT.captures(raw)?;
        let text = caps[2].trim();
        if text.is_empty() || text.chars().count() > MAX_FACT_CHARS {
            return None;
        }
        let date = |i: usize| caps.get(i).map(|d| NaiveDate::parse_from_str(d.as_str(), "%Y-%m-%d").ok());
        let learned = date(3).unwrap_or(Some(today))?;
        let confirmed = date(4).unwrap_or(Some(learned))?;
        let weight = caps.get(1).map_or(1, |w| w.as_str().parse::<u32>().unwrap_or(1).clamp(1, 10) as u8);
        let category = self.lines[..index]
            .iter()
            .rev()
            .find_map(|l| match l.kind {
                Kind::Heading(c) => Some(c),
                _ => None,
            })
            .unwrap_or(Category::General);
        Some((category, Fact { weight, text: text.to_string(), learned, confirmed: confirmed.max(learned), superseded: None, critical: false }))
    }

    /// Puts `fact` in place of the malformed line at `index` (see [`Learnings::repaired`]).
    pub(crate) fn repair(&mut self, index: usize, category: Category, fact: Fact) {
        if let Some(line) = self.lines.get_mut(index) {
            if matches!(line.kind, Kind::Malformed { .. }) {
                line.kind = Kind::Fact { category, fact };
                line.dirty = true;
            }
        }
    }

    /// Replaces the fact at line `index` (from [`facts`]).
    pub(crate) fn update(&mut self, index: usize, fact: Fact) {
        if let Some(line) = self.lines.get_mut(index) {
            if let Kind::Fact { fact: old, .. } = &mut line.kind {
                *old = fact;
                line.dirty = true;
            }
        }
    }

    /// Moves the fact at `index` to the end of `category`'s section.
    pub(crate) fn move_to(&mut self, index: usize, category: Category, fact: Fact) {
        if index < self.lines.len() && matches!(self.lines[index].kind, Kind::Fact { .. }) {
            self.lines.remove(index);
            self.insert(category, fact);
        }
    }

    /// Deletes the fact at `index`.
    pub(crate) fn remove(&mut self, index: usize) {
        if index < self.lines.len() && matches!(self.lines[index].kind, Kind::Fact { .. }) {
            self.lines.remove(index);
        }
    }

    /// Adds a fact at the end of its category's section, creating the heading if the
    /// file has none.
    pub(crate) fn insert(&mut self, category: Category, fact: Fact) {
        let line = Line { raw: String::new(), bytes: None, kind: Kind::Fact { category, fact }, dirty: true };
        let heading = self.lines.iter().position(|l| l.kind == Kind::Heading(category));
        if self.lines.len() == 1 && self.lines[0].raw.is_empty() {
            // An empty file: the section starts at the top and ends with a line break.
            self.lines[0] = self.new_line(String::new(), Kind::Other);
        }
        let at = match heading {
            Some(h) => {
                // After the last fact or malformed item of the section (before blank lines
                // and the next heading).
                let mut at = h + 1;
                for (i, l) in self.lines.iter().enumerate().skip(h + 1) {
                    match &l.kind {
                        Kind::Heading(_) => break,
                        Kind::Fact { .. } | Kind::Malformed { .. } => at = i + 1,
                        Kind::Other if HEADING.is_match(&l.raw) || l.raw.trim_start().starts_with('#') => break,
                        Kind::Other => {}
                    }
                }
                at
            }
            None => {
                let mut at = self.end();
                if at > 0 && !self.lines[at - 1].raw.trim().is_empty() {
                    let blank = self.new_line(String::new(), Kind::Other);
                    self.lines.insert(at, blank);
                    at += 1;
                }
                let heading = self.new_line(format!("## {}", category.name()), Kind::Heading(category));
                self.lines.insert(at, heading);
                at + 1
            }
        };
        self.lines.insert(at, line);
    }
}

fn classify(raw: &str, category: &mut Category) -> Kind {
    if let Some(caps) = HEADING.captures(raw) {
        return match Category::parse(&caps[1]) {
            Some(c) => {
                *category = c;
                Kind::Heading(c)
            }
            None => Kind::Other,
        };
    }
    let trimmed = raw.trim_start();
    if !(trimmed.starts_with("- ") || trimmed.starts_with("* ") || trimmed == "-" || trimmed.starts_with("-[")) {
        return Kind::Other;
    }
    if raw.len() > MAX_LINE_FACT_CHARS && raw.chars().count() > MAX_LINE_FACT_CHARS {
        return Kind::Malformed {
            reason: format!("longer than {MAX_LINE_FACT_CHARS} characters: a fact is one short sentence; the line is kept but not used"),
        };
    }
    let Some(caps) = FACT.captures(raw) else {
        return Kind::Malformed { reason: malformed_reason(trimmed) };
    };
    let weight: u32 = caps[1].parse().unwrap_or(0);
    let dates = (NaiveDate::parse_from_str(&caps[3], "%Y-%m-%d"), NaiveDate::parse_from_str(&caps[4], "%Y-%m-%d"));
    let superseded = caps.get(5).map(|d| NaiveDate::parse_from_str(d.as_str(), "%Y-%m-%d"));
    match (weight, dates, superseded) {
        (1..=10, (Ok(learned), Ok(confirmed)), None | Some(Ok(_))) => Kind::Fact {
            category: *category,
            fact: Fact {
                weight: weight as u8,
                text: caps[2].to_string(),
                learned,
                confirmed,
                superseded: superseded.and_then(Result::ok),
                critical: caps.get(6).is_some(),
            },
        },
        (1..=10, _, _) => Kind::Malformed { reason: "a date is not a real date (YYYY-MM-DD)".into() },
        _ => Kind::Malformed { reason: "the weight must be between 1 and 10".into() },
    }
}

/// The start of a long line, for a report.
fn shortened(raw: &str) -> String {
    match raw.char_indices().nth(REPORTED_CHARS) {
        Some((at, _)) => format!("{}…", &raw[..at]),
        None => raw.to_string(),
    }
}

fn malformed_reason(item: &str) -> String {
    if !item.contains("[weight:") {
        "missing [weight:N]".into()
    } else if !item.contains("learned:") {
        "missing | learned:YYYY-MM-DD".into()
    } else if !item.contains("confirmed:") {
        "missing | confirmed:YYYY-MM-DD".into()
    } else {
        "does not follow - [weight:N] fact | learned:YYYY-MM-DD | confirmed:YYYY-MM-DD".into()
    }
}
