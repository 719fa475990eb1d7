//! Images attached in the chat go to models that see them, in each wire format's own
//! shape, and stay with their message in later turns; for a model that does not, the
//! attachment is refused in words, and a fallback that cannot see is told so.

use base64::Engine;
use sidecar::Companion;

use crate::support::{reply_events, stream, ScriptedServer};

/// The smallest real PNG: one transparent pixel.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async fn open(dir: &std::path::Path, providers: &[(&str, &str, &str)]) -> std::sync::Arc<Companion> {
    let mut text = String::new();
    for (id, url, model) in providers {
        text.push_str(&format!("[[providers]]\nid = \"{id}\"\nbase_url = \"{url}\"\nmodel = \"{model}\"\n"));
    }
    text.push_str("[llm]\nmax_retries = 0\n");
    crate::support::core().settings(&text).open_in(&dir.join("data")).await
}

fn photo(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("pixel.png");
    std::fs::write(&path, base64::engine::general_purpose::STANDARD.decode(PIXEL).unwrap()).unwrap();
    path
}

#[tokio::test]
async fn an_image_goes_to_a_model_that_sees_and_stays_with_its_message() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["A single pixel."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &[("openai", &server.base_url, "gpt-4o-mini")]).await;
    let image = core.attach(&photo(dir.path())).await.unwrap();
    assert_eq!(format!("{:?}", image.kind), "Image");
    core.send_with("What is in this picture?", &[image]).await.unwrap();

    let sent = server.last_request();
    let user = sent["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "user").unwrap().clone();
    let parts = user["content"].as_array().expect("content parts when an image goes with the text");
    assert_eq!(parts[0]["type"], "text");
    assert!(parts[0]["text"].as_str().unwrap().starts_with("What is in this picture?"));
    assert_eq!(parts[1]["image_url"]["url"], format!("data:image/png;base64,{PIXEL}"));
    // No base64 in the stored message: the history, search and the context count see a reference.
    let history = core.conversation().history(10).await.unwrap();
    let mine = history.iter().find(|m| m.role == sidecar_llm::Role::User).unwrap();
    assert!(!mine.content.contains(PIXEL) && mine.content.len() < 400, "{}", mine.content);
    assert_eq!(mine.meta.as_ref().unwrap().0.attachments[0].kind, "image");

    // The next turn still shows the model the picture asked about.
    core.send("And what colour is it?").await.unwrap();
    let again = server.last_request().to_string();
    assert!(again.contains(PIXEL) && again.contains("And what colour is it?"));
}

#[tokio::test]
async fn a_model_that_cannot_see_refuses_the_image_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &[("ollama", "http://127.0.0.1:9/v1", "llama3.2")]).await;
    let error = core.attach(&photo(dir.path())).await.unwrap_err();
    assert!(error.to_string().contains("pixel.png is an image, and the model that answers takes text only"), "{error}");
    assert!(sidecar_domain::said_whole(&error, sidecar::words::Lang::Es).contains("elige un modelo que vea imágenes"));
    assert!(!dir.path().join("data/attachments").exists(), "nothing kept");
}

#[tokio::test]
async fn a_fallback_that_cannot_see_is_told_the_image_was_not_shown() {
    let blind = ScriptedServer::responding(|_| stream(reply_events(&["I cannot see it."]))).await;
    let dir = tempfile::tempdir().unwrap();
    // The first model sees but is down; the second answers without the image.
    let core = open(dir.path(), &[("openai", "http://127.0.0.1:9/v1", "gpt-4o"), ("local", &blind.base_url, "llama3.2")]).await;
    let image = core.attach(&photo(dir.path())).await.unwrap();
    let outcome = core.send_with("Describe this", &[image]).await.unwrap();
    assert_eq!(outcome.meta.fallback_from.as_deref(), Some("openai"));
    let sent = blind.last_request().to_string();
    assert!(!sent.contains(PIXEL) && !sent.contains("image_url"), "no image to a model that cannot see");
    assert!(sent.contains("this model cannot see images"), "{sent}");
}

#[test]
fn anthropic_gets_the_image_as_a_base64_block_before_the_text() {
    use sidecar_llm::ChatMessage;
    use sidecar_llm::ChatRequest;
    use sidecar_llm::ImagePart;
    let mut message = ChatMessage::user("What is this?");
    message.images.push(ImagePart { media_type: "image/png".into(), data: PIXEL.into() });
    let request = ChatRequest { messages: vec![message], ..Default::default() };
    let body = sidecar_llm::anthropic_request_body("claude-sonnet-4-5", &request, &Default::default());
    let content = &body["messages"][0]["content"];
    assert_eq!(content[0]["type"], "image");
    assert_eq!(content[0]["source"]["media_type"], "image/png");
    assert_eq!(content[0]["source"]["data"], PIXEL);
    assert_eq!(content[1]["text"], "What is this?");
}

#[tokio::test]
async fn a_backup_holds_the_images_and_a_restore_puts_them_back() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["ok"]))).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &[("openai", &server.base_url, "gpt-4o")]).await;
    let image = core.attach(&photo(dir.path())).await.unwrap();
    let kept = dir.path().join("data/attachments").join(&image.image.as_ref().unwrap().file);
    core.send_with("Look", &[image]).await.unwrap();
    let backup = core.data().back_up(None).await.unwrap();
    core.shutdown().await;
    drop(core);
    std::fs::remove_dir_all(dir.path().join("data/attachments")).unwrap();
    sidecar_data::restore_backup(&backup.path, &dir.path().join("data"), None, chrono::Utc::now(), sidecar_data::WithSettings::Keep, None).await.unwrap();
    assert_eq!(std::fs::read(&kept).unwrap(), base64::engine::general_purpose::STANDARD.decode(PIXEL).unwrap());
}
