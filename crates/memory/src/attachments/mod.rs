//! Files attached to a message: their text goes to the model inside the message, in a
//! block the core writes and reads back, so the history replays them and the chat can
//! show chips instead of the text.
//!
//! Text, Markdown and code are read as UTF-8; PDF and DOCX have their text extracted
//! ([`extract`]). A text longer than the budget keeps its start and end, cut in the
//! middle like a large tool result, and says so. Images go to models that take them
//! ([`images`]: kept in the data directory, named in the message by a block); for the
//! others they are refused with words that say why, as is anything that has no text.

mod extract;
pub(crate) mod images;
mod unreadable;

use serde::{Deserialize, Serialize};

use sidecar_domain::truncate_middle;
use sidecar_store::AttachedFile;
pub use unreadable::Unreadable;

/// Largest file read, in bytes: beyond this an attachment is refused before reading.
pub(crate) const MAX_BYTES: u64 = 25 * 1024 * 1024;
const OPEN: &str = "<attachment name=\"";
const CLOSE: &str = "</attachment>";

/// What kind of file an attachment was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum AttachmentKind {
    Text,
    Pdf,
    Docx,
    Image,
}

impl AttachmentKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Pdf => "pdf",
            Self::Docx => "docx",
            Self::Image => "image",
        }
    }
}

/// A file read for a message: its name, kind and the text the model will get.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Attachment {
    pub name: String,
    pub kind: AttachmentKind,
    pub text: String,
    /// The text was longer than the budget and cut in the middle.
    pub cut: bool,
    /// Tokens the text costs (an image: what it is counted as).
    pub tokens: usize,
    /// An image: where its bytes are kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub image: Option<images::ImageFile>,
}

/// Why a file could not be attached.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AttachError {
    #[error("{name} is an image, and the model that answers takes text only: describe it in words, paste its text, or pick a model that sees images")]
    Image { name: String },
    #[error("{name} is too large to attach ({mb} MB; the limit is 25 MB)")]
    TooLarge { name: String, mb: u64 },
    #[error("{name} has no text Sidecar can read (a {what}); attach text, Markdown, code, PDF or DOCX files")]
    NoText { name: String, what: &'static str },
    #[error("{name} could not be read: {why}")]
    Unreadable { name: String, why: Unreadable },
    #[error("{name} is not a file but a folder, pipe or device; pick a file")]
    NotAFile { name: String },
}

/// Reads `bytes` of the file called `name` into an attachment of at most
/// `budget_tokens` tokens.
pub(crate) fn read(name: &str, bytes: &[u8], budget_tokens: usize) -> Result<Attachment, AttachError> {
    if bytes.len() as u64 > MAX_BYTES {
        return Err(AttachError::TooLarge { name: name.into(), mb: bytes.len() as u64 / (1024 * 1024) });
    }
    let (kind, text) = match extract::sniff(name, bytes) {
        extract::Sniffed::Image => return Err(AttachError::Image { name: name.into() }),
        extract::Sniffed::Pdf => (AttachmentKind::Pdf, extract::pdf(bytes).map_err(|why| AttachError::Unreadable { name: name.into(), why })?),
        extract::Sniffed::Docx => (AttachmentKind::Docx, extract::docx(bytes).map_err(|why| AttachError::Unreadable { name: name.into(), why })?),
        extract::Sniffed::Binary(what) => return Err(AttachError::NoText { name: name.into(), what }),
        extract::Sniffed::Text(text) => (AttachmentKind::Text, text),
    };
    let text = text.replace(CLOSE, "</attachment >").trim().to_string();
    if text.is_empty() {
        return Err(AttachError::NoText { name: name.into(), what: if kind == AttachmentKind::Pdf { "scanned PDF" } else { "empty file" } });
    }
    let count = sidecar_llm::tokens::count;
    let whole = count(&text);
    let (text, cut) = if whole > budget_tokens {
        // The cut's note says the full text is stored; an attachment's is not.
        (truncate_middle(&text, budget_tokens, &count).replace("; the full text is stored …]", "; only the file's start and end were sent …]"), true)
    } else {
        (text, false)
    };
    let tokens = if cut { count(&text) } else { whole };
    Ok(Attachment { name: name.replace('"', "'"), kind, text, cut, tokens, image: None })
}

/// Opens the file at `path` as an attachment: an image is kept in `data_dir` when the
/// answering model `sees_images`, anything else is read as text within `budget_tokens`.
pub fn open(path: &std::path::Path, sees_images: bool, data_dir: &std::path::Path, budget_tokens: usize) -> Result<Attachment, AttachError> {
    let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let unreadable = |e: std::io::Error| AttachError::Unreadable { name: name.clone(), why: Unreadable::System(e.to_string()) };
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    // A pipe would block the read until something writes to it, maybe never.
    if !meta.is_file() {
        return Err(AttachError::NotAFile { name });
    }
    if meta.len() > MAX_BYTES {
        return Err(AttachError::TooLarge { name, mb: meta.len() / (1024 * 1024) });
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(std::fs::File::open(path).map_err(unreadable)?, MAX_BYTES + 1), &mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(AttachError::TooLarge { name, mb: bytes.len() as u64 / (1024 * 1024) });
    }
    if sees_images && matches!(extract::sniff(&name, &bytes), extract::Sniffed::Image) {
        return images::keep(data_dir, &name, &bytes);
    }
    read(&name, &bytes, budget_tokens)
}

/// The message the model gets: what the user typed, then each attachment's block.
pub fn compose(typed: &str, attachments: &[Attachment]) -> String {
    let mut out = typed.trim().to_string();
    for a in attachments {
        let cut = if a.cut { " cut=\"middle\"" } else { "" };
        match &a.image {
            Some(image) => {
                out.push_str(&format!("\n\n{OPEN}{}\" kind=\"image\" media=\"{}\" file=\"{}\">\n[image]\n{CLOSE}", a.name, image.media_type, image.file))
            }
            None => out.push_str(&format!("\n\n{OPEN}{}\" kind=\"{}\"{cut}>\n{}\n{CLOSE}", a.name, a.kind.as_str(), a.text)),
        }
    }
    out
}

/// Where the attachment blocks of `content` start, when it has any.
fn first_block(content: &str) -> Option<usize> {
    content.find(&format!("\n\n{OPEN}")).or_else(|| content.starts_with(OPEN).then_some(0))
}

/// The attachment blocks of `content` (everything after what was typed), to keep them
/// when the typed part is edited.
pub fn blocks(content: &str) -> Option<&str> {
    split(content)?;
    let first = first_block(content)?;
    Some(&content[first..])
}

/// The images the attachment blocks of `content` name.
pub(crate) fn images_in(content: &str) -> Vec<images::ImageFile> {
    let Some(first) = first_block(content) else { return Vec::new() };
    let attribute = |head: &str, name: &str| head.split(&format!("{name}=\"")).nth(1).and_then(|v| v.split('"').next()).map(str::to_string);
    content[first..]
        .split(OPEN)
        .filter_map(|block| block.split(">\n").next())
        .filter(|head| head.contains("kind=\"image\""))
        .filter_map(|head| Some(images::ImageFile { media_type: attribute(head, "media")?, file: attribute(head, "file")? }))
        .collect()
}

/// What the user typed and the attachments listed, when `content` carries any.
pub fn split(content: &str) -> Option<(String, Vec<AttachedFile>)> {
    let first = first_block(content)?;
    let typed = content[..first].trim().to_string();
    let mut attached = Vec::new();
    let mut rest = &content[first..];
    while let Some(at) = rest.find(OPEN) {
        let head_end = rest[at..].find(">\n")? + at;
        let head = &rest[at + OPEN.len()..head_end];
        let name = head.split('"').next()?.to_string();
        let kind = head.split("kind=\"").nth(1)?.split('"').next()?.to_string();
        attached.push(AttachedFile { name, kind, cut: head.contains("cut=\"middle\"") });
        let close = rest[head_end..].find(CLOSE)? + head_end;
        rest = &rest[close + CLOSE.len()..];
    }
    Some((typed, attached))
}

impl sidecar_domain::Worded for AttachError {
    fn spanish(&self) -> String {
        match self {
            AttachError::Image { name } => {
                format!(
                    "{name} es una imagen y el modelo que responde solo recibe texto: descríbela con palabras, pega su texto o elige un modelo que vea imágenes"
                )
            }
            AttachError::TooLarge { name, mb } => format!("{name} es demasiado grande para adjuntarlo ({mb} MB; el límite es 25 MB)"),
            AttachError::NoText { name, what } => {
                format!("{name} no tiene texto que Sidecar pueda leer ({what}); adjunta archivos de texto, Markdown, código, PDF o DOCX")
            }
            AttachError::Unreadable { name, why } => format!("no se pudo leer {name}: {}", why.spanish()),
            AttachError::NotAFile { name } => format!("{name} no es un archivo sino una carpeta, una tubería o un dispositivo; elige un archivo"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_composed_message_splits_back_into_what_was_typed_and_its_files() {
        let notes = read("notes.md", "# Plan\n- buy milk\n</attachment> inside".as_bytes(), 1000).unwrap();
        let code = read("main.rs", b"fn main() {}\n", 1000).unwrap();
        let message = compose("  Summarise these ", &[notes, code]);
        let (typed, attached) = split(&message).unwrap();
        assert_eq!(typed, "Summarise these");
        assert_eq!(attached.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["notes.md", "main.rs"]);
        assert!(message.contains("- buy milk"));
        assert_eq!(split("just words, <attachment name=\"x\"> in the middle"), None);
        let edited = format!("Only the plan{}", blocks(&message).unwrap());
        assert_eq!(split(&edited).unwrap().1.len(), 2, "an edit keeps the files");
    }

    #[test]
    fn a_long_text_is_cut_in_the_middle_and_says_so() {
        let text = format!("START {} END", "word ".repeat(20_000));
        let attached = read("long.txt", text.as_bytes(), 500).unwrap();
        assert!(attached.cut && attached.tokens <= 520, "{}", attached.tokens);
        assert!(attached.text.starts_with("START") && attached.text.ends_with("END"));
        let (_, listed) = split(&compose("", &[attached])).unwrap();
        assert!(listed[0].cut);
    }

    #[test]
    fn images_binaries_and_empty_files_are_refused_with_what_to_do() {
        let png = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0];
        assert_eq!(read("cat.png", &png, 100), Err(AttachError::Image { name: "cat.png".into() }));
        assert!(matches!(read("a.bin", &[0, 159, 146, 150, 0, 1], 100), Err(AttachError::NoText { .. })));
        assert!(matches!(read("empty.txt", b"  \n", 100), Err(AttachError::NoText { .. })));
        assert!(matches!(read("bad.pdf", b"%PDF-1.4 garbage", 100), Err(AttachError::Unreadable { .. })));
    }
}
