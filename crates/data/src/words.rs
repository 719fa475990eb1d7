//! The headings and speaker names of a Markdown export.

use sidecar_domain::Lang;

pub(crate) struct ExportWords {
    pub title: &'static str,
    pub exported: &'static str,
    pub facts: &'static str,
    pub no_facts: &'static str,
    pub untitled: &'static str,
    pub user: &'static str,
    pub assistant: &'static str,
}

pub(crate) fn words(lang: Lang) -> ExportWords {
    match lang {
        Lang::En => ExportWords {
            title: "Sidecar: everything remembered",
            exported: "Exported",
            facts: "Facts",
            no_facts: "No facts saved.",
            untitled: "Untitled conversation",
            user: "You",
            assistant: "Sidecar",
        },
        Lang::Es => ExportWords {
            title: "Sidecar: todo lo que recuerda",
            exported: "Exportado",
            facts: "Datos",
            no_facts: "No hay datos guardados.",
            untitled: "Conversación sin título",
            user: "Tú",
            assistant: "Sidecar",
        },
    }
}
