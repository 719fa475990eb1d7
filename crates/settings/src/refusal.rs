//! Why a loaded settings file is refused: one variant per check in `validate.rs`, each
//! naming the key and the value, said in English (`Display`) and Spanish
//! ([`Refusal::spanish`]), so the window says it in the language it speaks.

/// A value in settings.toml that no code path can use.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    #[error("{key} must be a number of seconds from {low} to {high}, not {value}")]
    Seconds { key: String, low: f64, high: f64, value: f64 },
    #[error("{key} must be from {low} to {high}, not {value}")]
    Whole { key: String, low: u64, high: u64, value: u64 },
    #[error("context.max_history_turns ({turns}) must not be below context.min_turns_to_keep ({keep}): lower that one or raise this")]
    HistoryBelowKept { turns: usize, keep: usize },
    #[error("channels.telegram.api_url must be a URL like https://api.telegram.org, not \"{0}\"")]
    TelegramUrl(String),
    #[error("{key} must be an amount in US dollars of zero or more, not {value}")]
    Amount { key: String, value: f64 },
    #[error("budget.usd_rate must be how many {currency} one US dollar is (more than zero), not {value}")]
    Rate { currency: String, value: f64 },
    #[error("budget.currency must be a three-letter currency code like EUR or USD, not \"{0}\"")]
    Currency(String),
    #[error("prices.\"{model}\".{field} must be a price of zero or more, not {value}")]
    Price { model: String, field: &'static str, value: f64 },
    #[error("updates.address must be an https:// address (plain http:// only to this computer, localhost), not \"{0}\"")]
    UpdatesAddress(String),
    #[error("routing.{purpose} names provider \"{id}\", which no [[providers]] entry defines")]
    UnknownProvider { purpose: &'static str, id: String },
    #[error("user.all_day_time must be an hour like \"09:00\", not \"{0}\"")]
    AllDayTime(String),
    #[error("memory.embeddings.url must be the endpoint's address, like http://localhost:11434/v1, not \"{0}\"")]
    EmbeddingsUrl(String),
    #[error("memory.embeddings.model must name the embedding model (for example nomic-embed-text)")]
    EmbeddingsModel,
    #[error("two providers share the id \"{0}\"")]
    SharedId(String),
    #[error("provider \"{0}\": base_url must start with http:// or https://")]
    BaseUrl(String),
}

impl Refusal {
    /// The refusal in Spanish (the keys stay as the file spells them).
    pub fn spanish(&self) -> String {
        match self {
            Refusal::Seconds { key, low, high, value } => format!("{key} debe ser un número de segundos de {low} a {high}, no {value}"),
            Refusal::Whole { key, low, high, value } => format!("{key} debe estar entre {low} y {high}, no {value}"),
            Refusal::HistoryBelowKept { turns, keep } => {
                format!("context.max_history_turns ({turns}) no puede ser menor que context.min_turns_to_keep ({keep}): baja ese o sube este")
            }
            Refusal::TelegramUrl(url) => format!("channels.telegram.api_url debe ser una URL como https://api.telegram.org, no \"{url}\""),
            Refusal::Amount { key, value } => format!("{key} debe ser una cantidad en dólares estadounidenses de cero o más, no {value}"),
            Refusal::Rate { currency, value } => format!("budget.usd_rate debe ser cuántos {currency} vale un dólar estadounidense (más que cero), no {value}"),
            Refusal::Currency(code) => format!("budget.currency debe ser un código de moneda de tres letras como EUR o USD, no \"{code}\""),
            Refusal::Price { model, field, value } => format!("prices.\"{model}\".{field} debe ser un precio de cero o más, no {value}"),
            Refusal::UpdatesAddress(address) => {
                format!("updates.address debe ser una dirección https:// (http:// solo hacia este ordenador, localhost), no \"{address}\"")
            }
            Refusal::UnknownProvider { purpose, id } => format!("routing.{purpose} nombra el proveedor \"{id}\", que ninguna entrada [[providers]] define"),
            Refusal::AllDayTime(t) => format!("user.all_day_time debe ser una hora como \"09:00\", no \"{t}\""),
            Refusal::EmbeddingsUrl(url) => format!("memory.embeddings.url debe ser la dirección del servicio, como http://localhost:11434/v1, no \"{url}\""),
            Refusal::EmbeddingsModel => "memory.embeddings.model debe nombrar el modelo de embeddings (por ejemplo nomic-embed-text)".into(),
            Refusal::SharedId(id) => format!("dos proveedores comparten el id \"{id}\""),
            Refusal::BaseUrl(id) => format!("proveedor \"{id}\": base_url debe empezar por http:// o https://"),
        }
    }
}
