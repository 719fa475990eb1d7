//! Reading another assistant's data export (`conversations.json` from ChatGPT or Claude)
//! so its history joins recall. Which one it is is read from its shape. A conversation
//! that cannot be read is reported by position and title; the others are imported.

use chrono::{DateTime, TimeZone, Utc};
use serde::Deserialize;
use serde_json::Value;

use crate::history_import::believable;
use crate::problem::{ImportProblem, NotAnExport, NEITHER};
use sidecar_llm::Role;

/// One conversation ready to store, oldest message first.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportedChat {
    pub title: String,
    pub messages: Vec<ExportedTurn>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExportedTurn {
    pub role: Role,
    pub content: String,
    pub timestamp: Option<DateTime<Utc>>,
    pub external_id: Option<String>,
}

/// Where an export came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    ChatGpt,
    Claude,
}

impl ExportKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ExportKind::ChatGpt => "ChatGPT",
            ExportKind::Claude => "Claude",
        }
    }
}

/// A problem with an export: the conversation's number (1-based) and why.
pub(crate) type Problem = (usize, ImportProblem);

/// The chats in `bytes`, and the problems (conversation number, 1-based, and why):
/// conversations that could not be read, and messages kept without their time or left
/// out, said once per conversation. A UTF-8 byte order mark is skipped. The list is
/// read one conversation at a time, so a large export never sits in memory twice.
pub fn read(bytes: &[u8], now: DateTime<Utc>) -> Result<(ExportKind, Vec<ExportedChat>, Vec<Problem>), NotAnExport> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut export = Export { now, kind: None, chats: Vec::new(), problems: Vec::new() };
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let outcome = serde::Deserializer::deserialize_seq(&mut json, &mut export).and_then(|()| json.end());
    match outcome {
        Ok(()) => Ok((export.kind.unwrap_or(ExportKind::ChatGpt), export.chats, export.problems)),
        Err(e) if e.to_string().starts_with(NEITHER) => Err(NotAnExport::Neither),
        Err(e) => Err(NotAnExport::NotAList(e.to_string())),
    }
}

/// Takes the export's conversations as they are read.
struct Export {
    now: DateTime<Utc>,
    /// Which app, from the first conversation's shape.
    kind: Option<ExportKind>,
    chats: Vec<ExportedChat>,
    problems: Vec<Problem>,
}

impl<'de> serde::de::Visitor<'de> for &mut Export {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of conversations")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut number = 0;
        while let Some(value) = seq.next_element::<Value>()? {
            number += 1;
            self.take(number, value).map_err(serde::de::Error::custom)?;
        }
        Ok(())
    }
}

impl Export {
    fn take(&mut self, number: usize, value: Value) -> Result<(), &'static str> {
        let kind = match self.kind {
            Some(kind) => kind,
            None if value.get("mapping").is_some() => *self.kind.insert(ExportKind::ChatGpt),
            None if value.get("chat_messages").is_some() => *self.kind.insert(ExportKind::Claude),
            None => return Err(NEITHER),
        };
        let read = match kind {
            ExportKind::ChatGpt => chatgpt(value),
            ExportKind::Claude => claude(value),
        };
        let now = self.now;
        match read {
            Ok((mut chat, left_out)) => {
                if left_out > 0 {
                    self.problems.push((number, ImportProblem::LeftOut { title: chat.title.clone(), count: left_out }));
                }
                let unbelievable = chat.messages.iter().filter(|m| m.timestamp.is_some_and(|t| !believable(t, now))).count();
                if unbelievable > 0 {
                    self.problems.push((number, ImportProblem::Undated { title: chat.title.clone(), count: unbelievable }));
                    for m in &mut chat.messages {
                        m.timestamp = m.timestamp.filter(|t| believable(*t, now));
                    }
                }
                if !chat.messages.is_empty() {
                    self.chats.push(chat);
                }
            }
            Err(why) => self.problems.push((number, why)),
        }
        Ok(())
    }
}

#[derive(Deserialize)]
struct GptConversation {
    #[serde(default)]
    title: Option<String>,
    mapping: std::collections::HashMap<String, GptNode>,
    #[serde(default)]
    current_node: Option<String>,
}

#[derive(Deserialize)]
struct GptNode {
    #[serde(default)]
    message: Option<GptMessage>,
    #[serde(default)]
    parent: Option<String>,
}

#[derive(Deserialize)]
struct GptMessage {
    id: String,
    author: GptAuthor,
    #[serde(default)]
    create_time: Option<f64>,
    content: Value,
}

#[derive(Deserialize)]
struct GptAuthor {
    role: String,
}

/// ChatGPT keeps every branch of an edited chat; the one shown is the path from
/// `current_node` up to the root. Also how many of its user or assistant messages had
/// no text to read (`parts` missing or not a list).
fn chatgpt(value: Value) -> Result<(ExportedChat, usize), ImportProblem> {
    let conversation: GptConversation =
        serde_json::from_value(value).map_err(|e| ImportProblem::UnreadableConversation { app: "ChatGPT", why: e.to_string() })?;
    let mut at = conversation.current_node.clone().ok_or(ImportProblem::NoCurrentMessage)?;
    let mut path = Vec::new();
    let mut steps = 0;
    while let Some(node) = conversation.mapping.get(&at) {
        steps += 1;
        if steps > conversation.mapping.len() {
            return Err(ImportProblem::Loop);
        }
        if let Some(message) = &node.message {
            path.push(message);
        }
        match &node.parent {
            Some(parent) => at = parent.clone(),
            None => break,
        }
    }
    path.reverse();
    let mut left_out = 0;
    let messages = path
        .into_iter()
        .filter_map(|m| {
            let role = match m.author.role.as_str() {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                _ => return None,
            };
            let Some(parts) = m.content.get("parts").and_then(Value::as_array) else {
                // Images, code runs and other content types carry no text to recall.
                left_out += usize::from(m.content.get("content_type").and_then(Value::as_str).is_none_or(|t| t == "text"));
                return None;
            };
            let content = parts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n").trim().to_string();
            (!content.is_empty()).then(|| ExportedTurn {
                role,
                content,
                timestamp: m.create_time.filter(|t| t.is_finite()).and_then(|t| Utc.timestamp_millis_opt((t * 1000.0) as i64).single()),
                external_id: Some(m.id.clone()),
            })
        })
        .collect();
    Ok((ExportedChat { title: conversation.title.unwrap_or_default(), messages }, left_out))
}

#[derive(Deserialize)]
struct ClaudeConversation {
    #[serde(default)]
    name: Option<String>,
    chat_messages: Vec<ClaudeMessage>,
}

#[derive(Deserialize)]
struct ClaudeMessage {
    #[serde(default)]
    uuid: Option<String>,
    sender: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    content: Vec<Value>,
    #[serde(default)]
    created_at: Option<String>,
}

fn claude(value: Value) -> Result<(ExportedChat, usize), ImportProblem> {
    let conversation: ClaudeConversation =
        serde_json::from_value(value).map_err(|e| ImportProblem::UnreadableConversation { app: "Claude", why: e.to_string() })?;
    let messages = conversation
        .chat_messages
        .into_iter()
        .filter_map(|m| {
            let role = match m.sender.as_str() {
                "human" => Role::User,
                "assistant" => Role::Assistant,
                _ => return None,
            };
            let from_parts: Vec<&str> =
                m.content.iter().filter(|c| c.get("type").and_then(Value::as_str) == Some("text")).filter_map(|c| c.get("text")?.as_str()).collect();
            let content = if from_parts.is_empty() { m.text.clone().unwrap_or_default() } else { from_parts.join("\n") };
            let content = content.trim().to_string();
            (!content.is_empty()).then(|| ExportedTurn {
                role,
                content,
                timestamp: m.created_at.as_deref().and_then(|t| DateTime::parse_from_rfc3339(t).ok()).map(|t| t.with_timezone(&Utc)),
                external_id: m.uuid,
            })
        })
        .collect();
    Ok((ExportedChat { title: conversation.name.unwrap_or_default(), messages }, 0))
}
