//! Telling a file's kind from its first bytes (and name), and the text inside PDF and
//! DOCX files: `pdf-extract` for PDF (lopdf underneath), the `zip` crate and quick-xml
//! for DOCX's `word/document.xml` (paragraphs, tabs, line breaks).

use std::io::Read;

use super::Unreadable;

/// What a file turned out to be.
pub(crate) enum Sniffed {
    Image,
    Pdf,
    Docx,
    /// No text to read: what it seems to be.
    Binary(&'static str),
    Text(String),
}

const IMAGE_MAGIC: &[&[u8]] = &[b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"RIFF", b"BM"];
const IMAGE_NAMES: &[&str] = &[".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".heic", ".tif", ".tiff"];
/// Largest DOCX body read: a zip bomb stops here.
const MAX_DOCX_XML: u64 = 64 * 1024 * 1024;

pub(crate) fn sniff(name: &str, bytes: &[u8]) -> Sniffed {
    let lower = name.to_lowercase();
    if bytes.starts_with(b"%PDF") {
        return Sniffed::Pdf;
    }
    if IMAGE_MAGIC.iter().any(|m| bytes.starts_with(m)) && (IMAGE_NAMES.iter().any(|e| lower.ends_with(e)) || !bytes.starts_with(b"RIFF")) {
        return Sniffed::Image;
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return if lower.ends_with(".docx") { Sniffed::Docx } else { Sniffed::Binary("zip archive") };
    }
    match std::str::from_utf8(bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)) {
        Ok(text) if !text.contains('\0') => Sniffed::Text(text.to_string()),
        _ if IMAGE_NAMES.iter().any(|e| lower.ends_with(e)) => Sniffed::Image,
        _ => Sniffed::Binary("binary file"),
    }
}

pub(crate) fn pdf(bytes: &[u8]) -> Result<String, Unreadable> {
    // lopdf panics on some malformed files; a bad attachment must not take the app down.
    let extracted = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem(bytes)).map_err(|_| Unreadable::PdfDamaged)?;
    let text = extracted.map_err(|e| Unreadable::PdfLocked(e.to_string()))?;
    // pdf-extract leaves runs of blank lines between blocks.
    let mut out = String::new();
    let mut blank = 0;
    for line in text.lines().map(str::trim_end) {
        blank = if line.is_empty() { blank + 1 } else { 0 };
        if blank < 2 {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

pub(crate) fn docx(bytes: &[u8]) -> Result<String, Unreadable> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| Unreadable::NotWord(e.to_string()))?;
    let mut xml = String::new();
    archive
        .by_name("word/document.xml")
        .map_err(|_| Unreadable::NoDocumentXml)?
        .take(MAX_DOCX_XML)
        .read_to_string(&mut xml)
        .map_err(|e| Unreadable::DocumentDamaged(e.to_string()))?;
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut out = String::new();
    let mut in_text = false;
    loop {
        match reader.read_event().map_err(|e| Unreadable::DocumentDamaged(e.to_string()))? {
            quick_xml::events::Event::Start(e) if e.name().as_ref() == b"w:t" => in_text = true,
            quick_xml::events::Event::End(e) if e.name().as_ref() == b"w:t" => in_text = false,
            quick_xml::events::Event::End(e) if e.name().as_ref() == b"w:p" => out.push('\n'),
            quick_xml::events::Event::Empty(e) if e.name().as_ref() == b"w:tab" => out.push('\t'),
            quick_xml::events::Event::Empty(e) if e.name().as_ref() == b"w:br" => out.push('\n'),
            quick_xml::events::Event::Text(t) if in_text => out.push_str(&t.unescape().map_err(|e| Unreadable::DocumentDamaged(e.to_string()))?),
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn docx_with(body: &str) -> Vec<u8> {
        let mut buffer = std::io::Cursor::new(Vec::new());
        let mut zip = zip::ZipWriter::new(&mut buffer);
        zip.start_file("word/document.xml", zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(format!(r#"<?xml version="1.0"?><w:document xmlns:w="x"><w:body>{body}</w:body></w:document>"#).as_bytes()).unwrap();
        zip.finish().unwrap();
        buffer.into_inner()
    }

    #[test]
    fn a_word_document_gives_its_paragraphs() {
        let bytes = docx_with(
            r#"<w:p><w:r><w:t>Informe</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">Ventas &amp; </w:t><w:tab/><w:t>gastos</w:t></w:r></w:p>"#,
        );
        assert_eq!(docx(&bytes).unwrap(), "Informe\nVentas & \tgastos\n");
        assert!(docx(b"PK\x03\x04 not really").is_err());
    }
}
