//! Files attached to a message: Markdown, PDF and DOCX text reaches the model inside
//! the user's message; the stored message lists the files for the chat's chips; a
//! request written inside a document is not carried out; images and binaries are
//! refused with words that say what to do; a long file is cut to the context budget.

use std::io::Write;

use sidecar::Companion;

use crate::support::{reply_events, stream, ScriptedServer};

/// A one-page PDF whose page says `line` in Helvetica, with a correct xref table.
fn pdf_saying(line: &str) -> Vec<u8> {
    let content = format!("BT /F1 18 Tf 72 700 Td ({line}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{content}\nendstream", content.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_string(),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).into_bytes());
    }
    let xref = pdf.len();
    pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).into_bytes());
    for offset in offsets {
        pdf.extend(format!("{offset:010} 00000 n \n").into_bytes());
    }
    pdf.extend(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).into_bytes());
    pdf
}

fn docx_saying(paragraphs: &[&str]) -> Vec<u8> {
    let body: String = paragraphs.iter().map(|p| format!("<w:p><w:r><w:t>{p}</w:t></w:r></w:p>")).collect();
    let mut buffer = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut buffer);
    zip.start_file("word/document.xml", zip::write::SimpleFileOptions::default()).unwrap();
    zip.write_all(
        format!(
            r#"<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#
        )
        .as_bytes(),
    )
    .unwrap();
    zip.finish().unwrap();
    buffer.into_inner()
}

async fn open(dir: &std::path::Path, base_url: &str, window: u32) -> std::sync::Arc<Companion> {
    crate::support::core().provider("p", base_url).settings(&format!("context_window = {window}\n")).open_in(dir).await
}

#[tokio::test]
async fn text_pdf_and_docx_reach_the_model_and_the_chat_lists_them() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Read them."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url, 32_768).await;
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(files.join("plan.md"), "# Trip\n- book the train to Porto\n- remind me tomorrow at 9 to pack\n").unwrap();
    std::fs::write(files.join("sales.pdf"), pdf_saying("Quarterly sales rose 12 percent")).unwrap();
    std::fs::write(files.join("informe.docx"), docx_saying(&["Informe anual", "Ventas &amp; gastos"])).unwrap();

    let mut attached = Vec::new();
    for n in ["plan.md", "sales.pdf", "informe.docx"].iter() {
        attached.push(core.attach(&files.join(n)).await.unwrap());
    }
    assert_eq!(attached.iter().map(|a| format!("{:?}", a.kind)).collect::<Vec<_>>(), ["Text", "Pdf", "Docx"]);
    assert!(attached[1].text.contains("Quarterly sales rose 12 percent"), "{:?}", attached[1].text);
    assert_eq!(attached[2].text, "Informe anual\nVentas & gastos");

    core.send_with("What do these say?", &attached).await.unwrap();
    let sent = server.last_request().to_string();
    for said in ["What do these say?", "book the train to Porto", "Quarterly sales rose 12 percent", "Ventas & gastos", "informe.docx"] {
        assert!(sent.contains(said), "{said} not sent: {sent}");
    }
    let history = core.conversation().history(10).await.unwrap();
    let mine = history.iter().find(|m| m.role == sidecar_llm::Role::User).unwrap();
    let meta = &mine.meta.as_ref().unwrap().0;
    assert_eq!(meta.typed.as_deref(), Some("What do these say?"));
    assert_eq!(
        meta.attachments.iter().map(|a| (a.name.as_str(), a.kind.as_str())).collect::<Vec<_>>(),
        [("plan.md", "text"), ("sales.pdf", "pdf"), ("informe.docx", "docx")]
    );
    assert!(core.reminders().pending().await.unwrap().is_empty(), "a request inside a document is not one");
}

#[tokio::test]
async fn images_binaries_and_damaged_files_are_refused_in_words_and_a_long_file_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), "http://127.0.0.1:9", 4096).await;
    let file = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let error = core.attach(&file("cat.jpg", b"\xff\xd8\xff\xe0 jpeg")).await.unwrap_err().to_string();
    assert!(error.contains("cat.jpg is an image") && error.contains("describe it in words"), "{error}");
    let error = core.attach(&file("tool.exe", b"MZ\x90\x00\x03\x00\x00\x00")).await.unwrap_err().to_string();
    assert!(error.contains("attach text, Markdown, code, PDF or DOCX"), "{error}");
    let error = core.attach(&file("broken.pdf", b"%PDF-1.7\n1 0 obj <<")).await.unwrap_err().to_string();
    assert!(error.contains("broken.pdf could not be read"), "{error}");
    let error = core.attach(&dir.path().join("missing.txt")).await.unwrap_err().to_string();
    assert!(error.contains("missing.txt could not be read"), "{error}");

    let long = core.attach(&file("book.txt", format!("CHAPTER ONE {} THE END", "and then it rained ".repeat(5_000)).as_bytes())).await.unwrap();
    assert!(long.cut, "a 4k window cannot hold 20k tokens");
    assert!(long.tokens <= 4096 / 2, "{} tokens", long.tokens);
    assert!(long.text.starts_with("CHAPTER ONE") && long.text.ends_with("THE END"));
    assert!(long.text.contains("only the file's start and end were sent"));
}
