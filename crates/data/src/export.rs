//! Exporting all conversations and facts, as Markdown (to read) or JSON (to process):
//! `sidecar export` and Settings → Data → Export.

use serde::Serialize;

use crate::words::words;
use sidecar_domain::Lang;
use sidecar_memory::ListedFact;
use sidecar_store::ExportedConversation;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Markdown,
    Json,
}

impl ExportFormat {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            ExportFormat::Markdown => "md",
            ExportFormat::Json => "json",
        }
    }
}

#[derive(Serialize)]
struct Document<'a> {
    exported_at: &'a str,
    facts: &'a [ListedFact],
    conversations: &'a [ExportedConversation],
}

/// The export of `conversations` and `facts` in `format`.
pub(crate) fn render(format: ExportFormat, conversations: &[ExportedConversation], facts: &[ListedFact], exported_at: &str, lang: Lang) -> String {
    match format {
        ExportFormat::Json => serde_json::to_string_pretty(&Document { exported_at, facts, conversations }).expect("an export serialises") + "\n",
        ExportFormat::Markdown => markdown(conversations, facts, exported_at, lang),
    }
}

fn markdown(conversations: &[ExportedConversation], facts: &[ListedFact], exported_at: &str, lang: Lang) -> String {
    let w = words(lang);
    let mut out = format!("# {}\n\n{}: {exported_at}\n\n## {}\n\n", w.title, w.exported, w.facts);
    if facts.is_empty() {
        out.push_str(&format!("{}\n", w.no_facts));
    }
    let mut category = None;
    for f in facts {
        if category != Some(f.category) {
            category = Some(f.category);
            out.push_str(&format!("\n### {}\n\n", f.category.name()));
        }
        out.push_str(&format!("- {} ({})\n", f.fact.text, f.fact.confirmed));
    }
    for c in conversations {
        out.push_str(&section(c, "##", lang));
    }
    out
}

/// One conversation as Markdown, on its own (a chat's Export in the list).
pub(crate) fn conversation_markdown(c: &ExportedConversation, lang: Lang) -> String {
    section(c, "#", lang).trim_start().to_string()
}

/// A conversation under a heading of `level`: its title and date, then who said what.
fn section(c: &ExportedConversation, level: &str, lang: Lang) -> String {
    let w = words(lang);
    let title = c.title.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(w.untitled);
    let mut out = format!("\n{level} {title} ({})\n", c.created_at.get(..10).unwrap_or(&c.created_at));
    for m in &c.messages {
        let who = if m.role == "user" { w.user } else { w.assistant };
        out.push_str(&format!("\n**{who}** · {}\n\n{}\n", m.created_at, m.content.trim()));
    }
    out
}
