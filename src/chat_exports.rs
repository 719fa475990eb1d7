//! Reading another assistant's data export (`conversations.json` from ChatGPT or Claude)
//! so its history joins recall. Which one it is is read from its shape. A conversation
//! that cannot be read is reported by position and title; the others are imported.

use chrono::{DateTime, TimeZone, Utc};
use serde::Deserialize;
use serde_json::Value;

use crate::llm::Role;

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
    pub fn name(self) -> &'static str {
        match self {
            ExportKind::ChatGpt => "ChatGPT",
            ExportKind::Claude => "Claude",
        }
    }
}

/// A time from an export is believed from 1970 to now (a day of slack for clocks).
fn believable(at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    at.timestamp() >= 0 && at <= now + chrono::Duration::days(1)
}

/// The chats in `bytes`, and the problems (conversation number, 1-based, and why):
/// conversations that could not be read, and messages kept without their time or left
/// out, said once per conversation. A UTF-8 byte order mark is skipped.
pub fn read(bytes: &[u8], now: DateTime<Utc>) -> Result<(ExportKind, Vec<ExportedChat>, Vec<(usize, String)>), String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let all: Vec<Value> = serde_json::from_slice(bytes)
        .map_err(|e| format!("this is not a conversations.json from ChatGPT or Claude (a JSON list of conversations was expected: {e})"))?;
    let kind = match all.first() {
        None => return Ok((ExportKind::ChatGpt, Vec::new(), Vec::new())),
        Some(first) if first.get("mapping").is_some() => ExportKind::ChatGpt,
        Some(first) if first.get("chat_messages").is_some() => ExportKind::Claude,
        Some(_) => return Err("this JSON list is neither a ChatGPT export (conversations with a \"mapping\") nor a Claude export (conversations with \"chat_messages\")".into()),
    };
    let (mut chats, mut problems) = (Vec::new(), Vec::new());
    for (index, value) in all.into_iter().enumerate() {
        let read = match kind {
            ExportKind::ChatGpt => chatgpt(value),
            ExportKind::Claude => claude(value),
        };
        match read {
            Ok((mut chat, left_out)) => {
                if left_out > 0 {
                    problems.push((index + 1, format!("\"{}\": {left_out} message(s) without readable text left out", chat.title)));
                }
                let unbelievable = chat.messages.iter().filter(|m| m.timestamp.is_some_and(|t| !believable(t, now))).count();
                if unbelievable > 0 {
                    problems.push((index + 1, format!("\"{}\": {unbelievable} message time(s) not between 1970 and now; those messages are kept, dated at the import", chat.title)));
                    for m in &mut chat.messages {
                        m.timestamp = m.timestamp.filter(|t| believable(*t, now));
                    }
                }
                if !chat.messages.is_empty() {
                    chats.push(chat);
                }
            }
            Err(why) => problems.push((index + 1, why)),
        }
    }
    Ok((kind, chats, problems))
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
fn chatgpt(value: Value) -> Result<(ExportedChat, usize), String> {
    let conversation: GptConversation = serde_json::from_value(value).map_err(|e| format!("unreadable ChatGPT conversation: {e}"))?;
    let mut at = conversation.current_node.clone().ok_or("it has no current message")?;
    let mut path = Vec::new();
    let mut steps = 0;
    while let Some(node) = conversation.mapping.get(&at) {
        steps += 1;
        if steps > conversation.mapping.len() {
            return Err("its messages loop back on themselves".into());
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

fn claude(value: Value) -> Result<(ExportedChat, usize), String> {
    let conversation: ClaudeConversation = serde_json::from_value(value).map_err(|e| format!("unreadable Claude conversation: {e}"))?;
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
