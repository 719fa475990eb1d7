//! Why a web search failed: typed, so Settings' "Try it" can say it in the user's
//! language (`Worded`, below), while the model reads the English words as a tool result.

/// One failed search on the service chosen in Settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchFailure {
    #[error("{service} could not be reached ({detail}): check the connection, or choose another service in Settings → Web search")]
    Unreachable { service: &'static str, detail: String },
    #[error("DuckDuckGo refused the search (it took Sidecar for a robot). Try again later, or choose SearXNG or Brave in Settings → Web search")]
    Refused,
    #[error("{service} answered HTTP {code}: try again later, or choose another service in Settings → Web search")]
    Status { service: &'static str, code: u16 },
    #[error("{service}'s answer was cut: {detail}")]
    Cut { service: &'static str, detail: String },
    #[error("{service} sent something that is not JSON: {detail}")]
    NotJson { service: &'static str, detail: String },
    #[error("SearXNG needs the address of an instance: set it in Settings → Web search")]
    NoAddress,
    #[error("Brave Search needs an API key: add it in Settings → Web search")]
    NoKey,
}

impl From<SearchFailure> for super::ToolError {
    fn from(failure: SearchFailure) -> Self {
        super::ToolError::Failed(failure.to_string())
    }
}

impl sidecar_domain::Worded for SearchFailure {
    fn spanish(&self) -> String {
        match self {
            SearchFailure::Unreachable { service, detail } => {
                format!("no se pudo contactar con {service} ({detail}): comprueba la conexión, o elige otro servicio en Ajustes → Búsqueda web")
            }
            SearchFailure::Refused => {
                "DuckDuckGo rechazó la búsqueda (tomó a Sidecar por un robot). Prueba más tarde, o elige SearXNG o Brave en Ajustes → Búsqueda web".into()
            }
            SearchFailure::Status { service, code } => {
                format!("{service} respondió HTTP {code}: prueba más tarde, o elige otro servicio en Ajustes → Búsqueda web")
            }
            SearchFailure::Cut { service, detail } => format!("la respuesta de {service} llegó cortada: {detail}"),
            SearchFailure::NotJson { service, detail } => format!("{service} envió algo que no es JSON: {detail}"),
            SearchFailure::NoAddress => "SearXNG necesita la dirección de una instancia: ponla en Ajustes → Búsqueda web".into(),
            SearchFailure::NoKey => "Brave Search necesita una clave de API: añádela en Ajustes → Búsqueda web".into(),
        }
    }
}
