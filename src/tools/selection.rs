//! Which of the tools that come and go (MCP servers', the notes folder's) a turn
//! carries. Sidecar's own tools always go; the others are chosen from the last three
//! user turns: the note tools when the words are about notes, MCP tools by relevance
//! within a token budget, and whatever the previous turn used or `find_tools` asked
//! for. Pure: the chooser feeds it the scores.

use std::collections::{BTreeSet, HashMap};

/// Tokens of tool schemas a request may carry in all; the extra tools get what
/// Sidecar's own leave.
pub const TOTAL_BUDGET_TOKENS: usize = 2_000;
/// Below this relevance an MCP tool waits for `find_tools` (cosine by meaning; the
/// share of its words said, without an embedder).
pub const MEANING_FLOOR: f32 = 0.80;
pub const WORDS_FLOOR: f32 = 0.25;

/// Words that say the conversation is about the user's notes (English and Spanish).
const NOTE_WORDS: &[&str] = &["note", "notes", "nota", "notas", "obsidian", "vault", "bóveda", "apunt", "markdown", ".md", "journal", "diario", "write down", "anota"];

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

pub fn about_notes(recent: &str) -> bool {
    let lower = recent.to_lowercase();
    NOTE_WORDS.iter().any(|w| lower.contains(w))
}

/// The share of a tool's own words (its name's parts and its description's longer
/// words) that the recent turns say; the fallback when no embedder is at hand.
pub fn word_overlap(recent: &str, tool_text: &str) -> f32 {
    let said = recent.to_lowercase();
    let words: BTreeSet<String> = tool_text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() >= 4)
        .map(str::to_string)
        .collect();
    if words.is_empty() {
        return 0.0;
    }
    words.iter().filter(|w| said.contains(w.as_str())).count() as f32 / words.len() as f32
}

/// The extra tools this turn carries, within `budget` tokens of schemas: what the last
/// turn used first, then the note tools (in their order) when the turns are about notes,
/// then MCP tools by relevance.
pub fn choose(candidates: &[Candidate], recent: &str, sticky: &BTreeSet<String>, scores: &HashMap<String, f32>, floor: f32, budget: usize) -> BTreeSet<String> {
    let mut chosen = BTreeSet::new();
    let mut spent = 0;
    let notes = about_notes(recent);
    let mut note_tools: Vec<&Candidate> = candidates.iter().filter(|c| notes && c.server == "notes").collect();
    note_tools.sort_by_key(|c| !c.read_only);
    let first = candidates.iter().filter(|c| sticky.contains(&c.name)).chain(note_tools);
    for candidate in first {
        if !chosen.contains(&candidate.name) && spent + candidate.tokens <= budget {
            spent += candidate.tokens;
            chosen.insert(candidate.name.clone());
        }
    }
    let mut ranked: Vec<&Candidate> = candidates.iter().filter(|c| c.server != "notes" && !chosen.contains(&c.name)).collect();
    ranked.sort_by(|a, b| score(scores, b).total_cmp(&score(scores, a)).then_with(|| a.name.cmp(&b.name)));
    for candidate in ranked {
        if score(scores, candidate) < floor || spent + candidate.tokens > budget {
            continue;
        }
        spent += candidate.tokens;
        chosen.insert(candidate.name.clone());
    }
    chosen
}

fn score(scores: &HashMap<String, f32>, candidate: &Candidate) -> f32 {
    scores.get(&candidate.name).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let scores: HashMap<String, f32> = [("mcp__time__convert_time", 0.9), ("mcp__fs__read_file", 0.85), ("mcp__fs__write_file", 0.82), ("mcp__everything__echo", 0.5)]
            .into_iter()
            .map(|(n, s)| (n.to_string(), s))
            .collect();
        let sticky = BTreeSet::from(["mcp__everything__echo".to_string()]);
        let chosen = choose(&all, "¿Qué hora es en Tokio? Anótalo en mis notas", &sticky, &scores, MEANING_FLOOR, 900);
        // read_file does not fit in what is left of the budget; write_file does.
        assert_eq!(chosen, BTreeSet::from(["mcp__everything__echo", "mcp__fs__write_file", "mcp__time__convert_time", "read_note"].map(String::from)));
        let plain = choose(&all, "hello", &BTreeSet::new(), &HashMap::new(), MEANING_FLOOR, 900);
        assert!(plain.is_empty());
        // A tight budget keeps what the last turn used before anything new.
        let tight = choose(&all, "¿Qué hora es en Tokio? Anótalo en mis notas", &sticky, &scores, MEANING_FLOOR, 120);
        assert_eq!(tight, BTreeSet::from(["mcp__everything__echo", "read_note"].map(String::from)));
    }

    #[test]
    fn word_overlap_counts_the_tools_words_said() {
        assert!(word_overlap("convert the time in Tokyo", "convert_time: Convert time between timezones") >= 0.5);
        assert_eq!(word_overlap("hola", "echo: Echoes the message"), 0.0);
    }
}
