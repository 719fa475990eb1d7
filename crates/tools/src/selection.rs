//! Which of the tools that come and go (MCP servers', the notes folder's) a turn
//! carries. Sidecar's own tools always go; the others are chosen from the last three
//! user turns, the latest weighing most: the note tools when the words are about
//! notes, MCP tools by relevance, within a token budget, after whatever the previous
//! turn used; the rest of the conversation's own tools (used before, or found by
//! `find_tools`) fill what the budget leaves. Pure: the chooser feeds it the scores.

use std::collections::{BTreeSet, HashMap};

/// Tokens of tool schemas a request may carry in all; the extra tools get what
/// Sidecar's own leave. (2,000 until scheduled tasks joined Sidecar's own: the extras
/// keep the share they had.)
pub const TOTAL_BUDGET_TOKENS: usize = 2_200;
/// Below this share of its words said an MCP tool waits for `find_tools`, when the
/// words choose (no embedder, or one whose scale is unknown). By meaning, the floor is
/// the embedder's own (`Thresholds::tool_floor` in the memory crate).
pub const WORDS_FLOOR: f32 = 0.25;
/// What a turn's relevance loses for each turn said since: a topic the user left
/// yields the budget to the one they are on.
pub(crate) const FADE_PER_TURN: f32 = 0.03;

/// A tool's relevance to the recent turns (latest first), from its relevance to each.
pub fn faded(per_turn: impl IntoIterator<Item = f32>) -> f32 {
    per_turn.into_iter().enumerate().map(|(age, score)| score - FADE_PER_TURN * age as f32).fold(0.0, f32::max)
}

/// Words that say the conversation is about the user's notes (English and Spanish).
const NOTE_WORDS: &[&str] =
    &["note", "notes", "nota", "notas", "obsidian", "vault", "bóveda", "apunt", "markdown", ".md", "journal", "diario", "write down", "anota"];

#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub name: String,
    /// `notes` for the notes folder's tools, the server's name for an MCP tool.
    pub server: String,
    /// Tokens its schema costs in a request.
    pub tokens: usize,
    /// Reading tools come first when the budget cannot hold a whole group.
    pub read_only: bool,
}

pub(crate) fn about_notes(recent: &str) -> bool {
    let lower = recent.to_lowercase();
    NOTE_WORDS.iter().any(|w| lower.contains(w))
}

/// A tool as words, for comparing it with what the user said: its own name in plain
/// words (`write_file`, `writeFile` → "write file"), its server and its description.
/// The model-facing `mcp__server__` prefix would only add noise.
pub fn tool_text(own_name: &str, server: &str, description: &str) -> String {
    let mut words = String::with_capacity(own_name.len() + 4);
    let mut previous_lower = false;
    for c in own_name.chars() {
        if c == '_' || c == '-' {
            words.push(' ');
        } else {
            if c.is_uppercase() && previous_lower {
                words.push(' ');
            }
            words.extend(c.to_lowercase());
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    match server {
        "" => format!("{words}: {description}"),
        server => format!("{words} ({server}): {description}"),
    }
}

/// Words too common in tool names to say which tool is meant.
const PLAIN_NAME_WORDS: &[&str] = &["get", "set", "the", "and", "for", "with", "from", "new", "mcp", "tool"];

fn words_of(text: &str, shortest: usize) -> BTreeSet<String> {
    text.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= shortest).map(str::to_string).collect()
}

/// A word said stands for a tool's word when one begins the other ("files", "file").
fn said_any(said: &BTreeSet<String>, word: &str) -> bool {
    said.iter().any(|s| s.starts_with(word) || word.starts_with(s.as_str()))
}

/// How much of a tool the recent turns name, without an embedder: the words of its
/// own name (`write_file`: write, file) count most, its description's longer words
/// the rest. `tool_text` is "name words (server): description".
pub fn word_overlap(recent: &str, tool_text: &str) -> f32 {
    let said = words_of(recent, 3);
    let (name, description) = tool_text.split_once(':').unwrap_or((tool_text, ""));
    let name = name.split_once('(').map_or(name, |(own, _)| own);
    let name_words: Vec<String> = words_of(name, 3).into_iter().filter(|w| !PLAIN_NAME_WORDS.contains(&w.as_str())).collect();
    let described = words_of(description, 4);
    let share = |words: &mut dyn Iterator<Item = &String>, count: usize| {
        if count == 0 {
            0.0
        } else {
            words.filter(|w| said_any(&said, w)).count() as f32 / count as f32
        }
    };
    let named = share(&mut name_words.iter(), name_words.len());
    let told = share(&mut described.iter(), described.len());
    if name_words.is_empty() {
        told
    } else {
        0.6 * named + 0.4 * told
    }
}

/// The tools a conversation already has: what the last turn used, and the others it
/// used or found before.
#[derive(Debug, Clone, Default)]
pub struct Kept {
    pub last_turn: BTreeSet<String>,
    pub conversation: BTreeSet<String>,
}

/// The extra tools this turn carries, within `budget` tokens of schemas: what the last
/// turn used first, then by relevance to `turns` (latest first): the note tools rank
/// first when the latest turn is about notes and just above the floor when only an
/// earlier one was (reading ones first either way); MCP tools by `scores`; then the
/// conversation's other tools, as room is left.
pub fn choose(candidates: &[Candidate], turns: &[&str], kept: &Kept, scores: &HashMap<String, f32>, floor: f32, budget: usize) -> BTreeSet<String> {
    let mut chosen = BTreeSet::new();
    let mut spent = 0;
    for candidate in candidates.iter().filter(|c| kept.last_turn.contains(&c.name)) {
        if spent + candidate.tokens <= budget {
            spent += candidate.tokens;
            chosen.insert(candidate.name.clone());
        }
    }
    let notes = match turns.iter().position(|turn| about_notes(turn)) {
        Some(0) => f32::INFINITY,
        Some(_) => floor,
        None => f32::NEG_INFINITY,
    };
    let relevance = |c: &Candidate| if c.server == "notes" { notes } else { scores.get(&c.name).copied().unwrap_or(0.0) };
    let mut ranked: Vec<&Candidate> = candidates.iter().filter(|c| !chosen.contains(&c.name)).collect();
    ranked.sort_by(|a, b| relevance(b).total_cmp(&relevance(a)).then_with(|| b.read_only.cmp(&a.read_only)).then_with(|| a.name.cmp(&b.name)));
    for candidate in ranked {
        if relevance(candidate) < floor || spent + candidate.tokens > budget {
            continue;
        }
        spent += candidate.tokens;
        chosen.insert(candidate.name.clone());
    }
    for candidate in candidates.iter().filter(|c| kept.conversation.contains(&c.name)) {
        if !chosen.contains(&candidate.name) && spent + candidate.tokens <= budget {
            spent += candidate.tokens;
            chosen.insert(candidate.name.clone());
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A floor by meaning, as an embedder gives one.
    const FLOOR: f32 = 0.82;

    fn last(names: &BTreeSet<String>) -> Kept {
        Kept { last_turn: names.clone(), conversation: BTreeSet::new() }
    }

    #[test]
    fn the_conversations_own_tools_fill_what_the_turns_topic_leaves() {
        let all = [candidate("read_note", "notes", 60), candidate("mcp__sheet__edit", "sheet", 200), candidate("mcp__fs__write_file", "fs", 200)];
        let kept = Kept { last_turn: BTreeSet::new(), conversation: BTreeSet::from(["mcp__sheet__edit".to_string()]) };
        let scores = HashMap::from([("mcp__fs__write_file".to_string(), 0.9)]);
        // Room for all: the topic's tools and the conversation's.
        let roomy = choose(&all, &["write the file, and read my notes"], &kept, &scores, FLOOR, 900);
        assert_eq!(roomy, BTreeSet::from(["read_note".into(), "mcp__fs__write_file".into(), "mcp__sheet__edit".into()]));
        // Tight: what the message is about comes first.
        let tight = choose(&all, &["write the file, and read my notes"], &kept, &scores, FLOOR, 300);
        assert_eq!(tight, BTreeSet::from(["read_note".into(), "mcp__fs__write_file".into()]));
        // Nothing about anything: the conversation's own.
        assert_eq!(choose(&all, &["thanks"], &kept, &HashMap::new(), FLOOR, 900), BTreeSet::from(["mcp__sheet__edit".into()]));
    }

    fn candidate(name: &str, server: &str, tokens: usize) -> Candidate {
        Candidate { name: name.into(), server: server.into(), tokens, read_only: name.starts_with("read") }
    }

    #[test]
    fn notes_by_their_words_mcp_by_relevance_within_the_budget_and_last_turns_tools_stay() {
        let all = [
            candidate("read_note", "notes", 60),
            candidate("mcp__time__convert_time", "time", 150),
            candidate("mcp__fs__write_file", "fs", 200),
            candidate("mcp__fs__read_file", "fs", 800),
            candidate("mcp__everything__echo", "everything", 50),
        ];
        let scores: HashMap<String, f32> =
            [("mcp__time__convert_time", 0.9), ("mcp__fs__read_file", 0.85), ("mcp__fs__write_file", 0.82), ("mcp__everything__echo", 0.5)]
                .into_iter()
                .map(|(n, s)| (n.to_string(), s))
                .collect();
        let sticky = BTreeSet::from(["mcp__everything__echo".to_string()]);
        let chosen = choose(&all, &["¿Qué hora es en Tokio? Anótalo en mis notas"], &last(&sticky), &scores, FLOOR, 900);
        // read_file does not fit in what is left of the budget; write_file does.
        assert_eq!(chosen, BTreeSet::from(["mcp__everything__echo", "mcp__fs__write_file", "mcp__time__convert_time", "read_note"].map(String::from)));
        let plain = choose(&all, &["hello"], &Kept::default(), &HashMap::new(), FLOOR, 900);
        assert!(plain.is_empty());
        // A tight budget keeps what the last turn used before anything new.
        let tight = choose(&all, &["¿Qué hora es en Tokio? Anótalo en mis notas"], &last(&sticky), &scores, FLOOR, 120);
        assert_eq!(tight, BTreeSet::from(["mcp__everything__echo", "read_note"].map(String::from)));
        // Notes two turns ago: what the latest turn is about comes first.
        let moved_on = choose(&all, &["¿Qué hora es en Tokio?", "gracias", "Anótalo en mis notas"], &Kept::default(), &scores, FLOOR, 160);
        assert_eq!(moved_on, BTreeSet::from(["mcp__time__convert_time"].map(String::from)));
        let room = choose(&all, &["¿Qué hora es en Tokio?", "gracias", "Anótalo en mis notas"], &Kept::default(), &scores, FLOOR, 230);
        assert_eq!(room, BTreeSet::from(["mcp__time__convert_time", "read_note"].map(String::from)));
    }

    #[test]
    fn a_tool_reads_as_plain_words() {
        assert_eq!(tool_text("write_file", "files", "Writes."), "write file (files): Writes.");
        assert_eq!(tool_text("get-sum", "everything", "Adds."), "get sum (everything): Adds.");
        assert_eq!(tool_text("ResearchFinder", "", "Finds papers."), "research finder: Finds papers.");
        assert_eq!(tool_text("SEOTool", "", "x"), "seotool: x");
    }

    #[test]
    fn an_older_turn_counts_a_little_less() {
        assert_eq!(faded([0.70, 0.90]), 0.87);
        assert_eq!(faded([0.85, 0.86]), 0.85);
        assert_eq!(faded([]), 0.0);
    }

    #[test]
    fn word_overlap_counts_the_tools_name_most() {
        assert!(word_overlap("convert the time in Tokyo", "convert time (time): Convert time between timezones") >= 0.5);
        assert_eq!(word_overlap("hola", "echo (everything): Echoes the message"), 0.0);
        let write = "write file (files): Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning.";
        assert!(word_overlap("Write a file called todo.txt with my shopping list", write) >= WORDS_FLOOR);
        assert!(
            word_overlap(
                "Can you list the files in my project folder?",
                "list directory (files): Get a detailed listing of all files and directories in a specified path."
            ) >= WORDS_FLOOR
        );
        // "get" names no tool.
        assert!(word_overlap("get me a coffee", "get env (everything): Returns all environment variables") < WORDS_FLOOR);
    }
}
