//! Why a file's text could not be read, in English (`Display`) and Spanish
//! ([`Unreadable::spanish`]); the system's and the readers' own reasons are quoted as
//! they came.

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// The system's reason.
    #[error("{0}")]
    System(String),
    #[error("the PDF is damaged")]
    PdfDamaged,
    #[error("the PDF is damaged or encrypted ({0})")]
    PdfLocked(String),
    #[error("not a Word document ({0})")]
    NotWord(String),
    #[error("not a Word document (no word/document.xml)")]
    NoDocumentXml,
    #[error("the document is damaged ({0})")]
    DocumentDamaged(String),
    #[error("it could not be kept in {folder}: {why}")]
    NotKept { folder: String, why: String },
}

impl Unreadable {
    pub(crate) fn spanish(&self) -> String {
        match self {
            Unreadable::System(why) => why.clone(),
            Unreadable::PdfDamaged => "el PDF está dañado".into(),
            Unreadable::PdfLocked(why) => format!("el PDF está dañado o cifrado ({why})"),
            Unreadable::NotWord(why) => format!("no es un documento de Word ({why})"),
            Unreadable::NoDocumentXml => "no es un documento de Word (no tiene word/document.xml)".into(),
            Unreadable::DocumentDamaged(why) => format!("el documento está dañado ({why})"),
            Unreadable::NotKept { folder, why } => format!("no se pudo guardar en {folder}: {why}"),
        }
    }
}
