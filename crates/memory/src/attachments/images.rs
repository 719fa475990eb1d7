//! Images attached to a message, for models that take them. The bytes are kept in the
//! data directory under their SHA-256 (`attachments/<hash>.<ext>`), and the message
//! carries only a reference block. So the history, the search index and the context
//! count never hold base64; the request to the model loads the bytes.

use std::path::{Path, PathBuf};

use base64::Engine;
use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::{AttachError, Attachment, AttachmentKind, Unreadable};
use sidecar_llm::ChatMessage;
use sidecar_llm::ImagePart;
use sidecar_llm::Role;

/// Largest image sent: Anthropic's limit per image (OpenAI's is larger).
pub(crate) const MAX_IMAGE_BYTES: u64 = 5 * 1024 * 1024;
/// What one image is counted as in the context budget. OpenAI counts a 1024×1024
/// image at high detail as 765 tokens; Anthropic about (width × height) / 750, so
/// 1,398 at that size. Between the two, rounded up.
pub const IMAGE_TOKENS: usize = 1_000;
/// The folder of the data directory the images are kept in.
pub const FOLDER: &str = "attachments";

/// Where an image attachment's bytes are, and what they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct ImageFile {
    pub media_type: String,
    /// The file's name in the attachments folder (its SHA-256 and extension).
    pub file: String,
}

/// The media type of an image a model can be sent, from its first bytes.
pub(crate) fn media_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() > 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Keeps an image in `data_dir`'s attachments folder and returns it as an attachment.
pub(crate) fn keep(data_dir: &Path, name: &str, bytes: &[u8]) -> Result<Attachment, AttachError> {
    let Some(media) = media_type(bytes) else {
        // BMP, HEIC, TIFF: no model API here takes them.
        return Err(AttachError::NoText { name: name.into(), what: "image in a format models do not take; use PNG, JPEG, GIF or WebP" });
    };
    if bytes.len() as u64 > MAX_IMAGE_BYTES {
        return Err(AttachError::TooLarge { name: name.into(), mb: (bytes.len() as u64).div_ceil(1024 * 1024) });
    }
    let extension = media.trim_start_matches("image/");
    let file = format!("{}.{extension}", hex::encode(sha2::Sha256::digest(bytes)));
    let path = folder(data_dir).join(&file);
    if !path.exists() {
        std::fs::create_dir_all(folder(data_dir))
            .and_then(|()| sidecar_domain::write_atomically(&path, bytes))
            .map_err(|e| AttachError::Unreadable { name: name.into(), why: Unreadable::NotKept { folder: path.display().to_string(), why: e.to_string() } })?;
    }
    Ok(Attachment {
        name: name.replace('"', "'"),
        kind: AttachmentKind::Image,
        text: String::new(),
        cut: false,
        tokens: IMAGE_TOKENS,
        image: Some(ImageFile { media_type: media.to_string(), file }),
    })
}

fn folder(data_dir: &Path) -> PathBuf {
    data_dir.join(FOLDER)
}

/// Gives each user message of `messages` the images its attachment blocks name, read
/// from `data_dir`. An image no longer there is left out, and the block still says
/// an image was attached.
pub fn fill(messages: &mut [ChatMessage], data_dir: &Path) {
    for message in messages.iter_mut().filter(|m| m.role == Role::User && m.images.is_empty()) {
        for image in super::images_in(&message.content) {
            let path = folder(data_dir).join(&image.file);
            // The name is a hash we wrote; anything else is not read.
            if image.file.contains(['/', '\\']) || image.file.starts_with('.') {
                continue;
            }
            match std::fs::read(&path) {
                Ok(bytes) => message.images.push(ImagePart { media_type: image.media_type, data: base64::engine::general_purpose::STANDARD.encode(bytes) }),
                Err(error) => tracing::warn!(path = %path.display(), %error, "an attached image is missing"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn an_image_is_kept_by_its_hash_and_filled_into_its_message() {
        let dir = tempfile::tempdir().unwrap();
        let kept = keep(dir.path(), "cat.png", PNG).unwrap();
        let image = kept.image.clone().unwrap();
        assert_eq!(image.media_type, "image/png");
        assert!(dir.path().join(FOLDER).join(&image.file).exists());
        let content = super::super::compose("What is this?", &[kept]);
        let (typed, listed) = super::super::split(&content).unwrap();
        assert_eq!((typed.as_str(), listed[0].kind.as_str()), ("What is this?", "image"));
        let mut messages = vec![ChatMessage::system("s"), ChatMessage::user(content)];
        fill(&mut messages, dir.path());
        assert!(messages[0].images.is_empty());
        assert_eq!(messages[1].images.len(), 1);
        assert_eq!(base64::engine::general_purpose::STANDARD.decode(&messages[1].images[0].data).unwrap(), PNG);
    }

    #[test]
    fn formats_models_do_not_take_and_large_images_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(keep(dir.path(), "scan.bmp", b"BM\0\0\0\0"), Err(AttachError::NoText { .. })));
        let mut big = PNG.to_vec();
        big.resize(MAX_IMAGE_BYTES as usize + 1, 0);
        assert!(matches!(keep(dir.path(), "big.png", &big), Err(AttachError::TooLarge { mb: 6, .. })));
    }

    #[test]
    fn a_block_naming_a_path_outside_the_folder_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret.png"), PNG).unwrap();
        let content = "look\n\n<attachment name=\"x.png\" kind=\"image\" media=\"image/png\" file=\"../secret.png\">\n[image]\n</attachment>";
        let mut messages = vec![ChatMessage::user(content)];
        fill(&mut messages, dir.path());
        assert!(messages[0].images.is_empty());
    }
}
