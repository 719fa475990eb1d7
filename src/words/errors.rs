//! The core's errors in the user's language. English is each error's own `Display`
//! (thiserror); Spanish is written here, variant by variant. The matches are
//! exhaustive, so a new variant without Spanish words does not compile.
//!
//! Text that comes from elsewhere (a server's message, the operating system's reason)
//! is quoted as it came: it is not ours to translate.

use super::Lang;
use crate::attachments::AttachError;
use crate::backup::BackupError;
use crate::budget::limits::LimitsProblem;
use crate::data_service::DataError;
use crate::error::{said_once, CompanionError, Refusal};
use crate::knowledge::store::KnowledgeError;
use crate::llm::endpoint::ProbeProblem;
use crate::llm::router::RouteError;
use crate::llm::{LlmError, TimeoutPhase};
use crate::local_models::download::PullError;
use crate::local_models::gguf::GgufError;
use crate::local_models::library::LibraryError;
use crate::reminders::ics::IcsError;
use crate::settings::SettingsError;
use crate::settings_file::SettingsFileError;
use crate::store::StoreError;
use crate::tools::search_failure::SearchFailure;

/// A core error as the user reads it.
pub fn said(error: &CompanionError, lang: Lang) -> String {
    match lang {
        Lang::En => said_once(error),
        Lang::Es => companion(error),
    }
}

/// A model's failure as the user reads it (the chat's banner, a fallback note).
pub fn model_failed(error: &RouteError, lang: Lang) -> String {
    match lang {
        Lang::En => error.to_string(),
        Lang::Es => route(error),
    }
}

/// One provider's failure as the user reads it (Settings' connection test).
pub fn llm_error(error: &LlmError, lang: Lang) -> String {
    match lang {
        Lang::En => error.to_string(),
        Lang::Es => llm(error),
    }
}

/// Why a provider's model list could not be had (the header, Settings).
pub fn probe(problem: &ProbeProblem, lang: Lang) -> String {
    match lang {
        Lang::En => problem.to_string(),
        Lang::Es => match problem {
            ProbeProblem::RefusedKey(status) => format!("rechazó la clave: HTTP {status}"),
            ProbeProblem::NoAnswer(secs) => format!("sin respuesta en {secs} s"),
            ProbeProblem::Offline(_) => "este ordenador parece no tener conexión".into(),
            ProbeProblem::NotListening(url) => format!("no hay nada escuchando en {url}"),
            ProbeProblem::Http(status) => format!("respondió HTTP {status} a la lista de modelos"),
            ProbeProblem::Unreadable(why) => format!("no se pudo leer su lista de modelos: {why}"),
            ProbeProblem::Other(why) => why.clone(),
        },
    }
}

/// A provider's test in Settings that worked.
pub fn answered_in(model: &str, latency_ms: u64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{model} answered in {latency_ms} ms"),
        Lang::Es => format!("{model} respondió en {latency_ms} ms"),
    }
}

/// A failed model download as the user reads it.
pub fn download(error: &PullError, lang: Lang) -> String {
    match lang {
        Lang::En => error.to_string(),
        Lang::Es => pull(error),
    }
}

/// A backup, restore, export or import that failed, as the user reads it.
pub fn data(error: &DataError, lang: Lang) -> String {
    match lang {
        Lang::En => said_once(error),
        Lang::Es => match error {
            DataError::Store(e) => store(e),
            DataError::Backup(e) => backup(e),
            DataError::Write { path, source } => format!("no se puede escribir {}: {source}", path.display()),
            DataError::Unreadable(why) => why.clone(),
        },
    }
}

fn companion(error: &CompanionError) -> String {
    match error {
        CompanionError::Settings(e) => settings(e),
        CompanionError::Store(e) => store(e),
        CompanionError::UpgradeBackup(e) => format!(
            "Sidecar se actualizó y hace una copia de tus datos antes de actualizarlos, pero la copia falló ({}); no se cambió nada. Libera espacio en el disco y vuelve a abrir Sidecar",
            backup(e)
        ),
        CompanionError::ModelUnavailable(why) => format!("el modelo no está disponible: {why}"),
        CompanionError::Route(e) => route(e),
        CompanionError::TurnFailed(why) | CompanionError::InvalidInput(why) => why.clone(),
        CompanionError::Busy => "todavía se está escribiendo una respuesta; pulsa Detener primero".into(),
        CompanionError::QueuedCancelled => "el mensaje en cola se canceló antes de su turno".into(),
        CompanionError::NothingToRetry => "no hay ningún mensaje sin respuesta que reintentar".into(),
        CompanionError::NothingToRegenerate => "no hay ninguna respuesta que volver a escribir".into(),
        CompanionError::NotEditable => "solo se pueden editar tus propios mensajes de esta conversación".into(),
        CompanionError::EmptyMessage => "el mensaje está vacío".into(),
        // Date errors are worded in the language of the words they could not read.
        CompanionError::Date(e) => e.to_string(),
        CompanionError::Knowledge(e) => knowledge(e),
        CompanionError::Attach(e) => attach(e),
        CompanionError::Library(e) => library(e),
        CompanionError::Refused(e) => refusal(e),
        CompanionError::SettingsFile(e) => settings_file(e),
        CompanionError::Download(e) => pull(e),
        CompanionError::WebSearch(e) => web_search(e),
        CompanionError::Calendar(e) => match e {
            IcsError::Parse(why) => format!("esto no es un archivo iCalendar ({why}); expórtalo desde tu aplicación de calendario como .ics"),
            IcsError::TooDeep => "este calendario anida sus partes a demasiada profundidad (los calendarios usan 3 como mucho); está dañado o hecho para dañar, y no se importó nada".into(),
        },
    }
}

fn web_search(failure: &SearchFailure) -> String {
    match failure {
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

fn settings_file(error: &SettingsFileError) -> String {
    match error {
        SettingsFileError::Read { path, source } => format!("no se puede leer {path}: {source}"),
        SettingsFileError::Parse { path, message } => format!("{path} no es TOML válido, así que no se ha cambiado: {message}"),
        SettingsFileError::Write { path, source } => format!("no se puede escribir {path}: {source}"),
    }
}

fn settings(error: &SettingsError) -> String {
    match error {
        SettingsError::Read { path, source } => format!("no se puede leer el archivo de ajustes {}: {source}", path.display()),
        SettingsError::Parse { path, message } => format!("el archivo de ajustes {} no es TOML válido: {message}", path.display()),
        SettingsError::Invalid { path, message } => format!("archivo de ajustes {}: {message}", path.display()),
    }
}

fn store(error: &StoreError) -> String {
    match error {
        StoreError::CreateDir { path, source } => format!("no se puede crear la carpeta de datos {path}: {source}"),
        StoreError::Open { path, source } => format!("no se puede abrir la base de datos {path}: {source}"),
        StoreError::Damaged { path, detail } => format!(
            "la base de datos {path} está dañada ({detail}). Sidecar no la ha cambiado. Cierra Sidecar y restaura el archivo desde una copia, o apártalo para empezar con una vacía"
        ),
        StoreError::Newer { path, found, known } => format!(
            "la base de datos {path} la escribió un Sidecar más nuevo (su versión {found}; este Sidecar conoce hasta la {known}). Sidecar no la cambió: actualiza Sidecar o abre otra carpeta de datos"
        ),
        StoreError::Migrate(e) => format!("no se puede actualizar el esquema de la base de datos: {e}"),
        StoreError::Query(e) => format!("error de la base de datos: {e}"),
    }
}

fn route(error: &RouteError) -> String {
    match error {
        RouteError::NoProviders => "no hay ningún modelo configurado para esto; añade un proveedor en Ajustes".into(),
        // Said in the user's language where it was made.
        RouteError::OverBudget { reason } => reason.clone(),
        RouteError::Failed { error, .. } => llm(error),
    }
}

fn llm(error: &LlmError) -> String {
    match error {
        LlmError::Unreachable { url, offline: true, .. } => {
            format!("no se pudo contactar con el servidor del modelo en {url}: este ordenador parece no tener conexión. Revisa la conexión de red")
        }
        LlmError::Unreachable { url, .. } => {
            format!("no se pudo contactar con el servidor del modelo en {url}: no responde. ¿Está en marcha, y es correcta la dirección en Ajustes?")
        }
        LlmError::Timeout { phase, after } => {
            let what = match phase {
                TimeoutPhase::Connect => "aceptar la conexión",
                TimeoutPhase::Respond => "empezar a responder",
                TimeoutPhase::Stream => "enviar más de la respuesta",
            };
            format!(
                "el proveedor dejó de responder: no llegó a {what} en {} s. Inténtalo de nuevo, o elige un modelo más rápido en el menú de modelos",
                after.as_secs_f64()
            )
        }
        LlmError::Http { status, message, .. } => format!("el servidor del modelo respondió HTTP {status}: {message}"),
        LlmError::Interrupted { detail } => {
            format!("la respuesta se cortó antes de terminar: {detail}. Lo que llegó se conserva; pulsa Reintentar (o vuelve a preguntar) para seguir")
        }
        LlmError::Empty => "el proveedor envió una respuesta vacía. Inténtalo de nuevo; si sigue pasando, revisa el nombre del modelo en Ajustes".into(),
        LlmError::Malformed { detail } => format!("el servidor del modelo envió algo que no es una respuesta válida: {detail}"),
        LlmError::Provider { message, .. } => format!("el proveedor informó de un error: {message}"),
    }
}

fn knowledge(error: &KnowledgeError) -> String {
    match error {
        KnowledgeError::Read { path, source } => format!("no se puede leer {path}: {source}"),
        KnowledgeError::Write { path, source } => format!("no se puede guardar {path}: {source}; el cambio no se aplicó"),
        KnowledgeError::Stale { line, expected } => {
            format!("learnings.md cambió desde que se mostró (la línea {line} ya no es «{expected}»); recarga y vuelve a intentarlo")
        }
        KnowledgeError::ProfileStale { file } => format!("{file} cambió en el disco desde que se abrió; vuelve a cargarlo y repite el cambio"),
        KnowledgeError::Invalid(why) => why.clone(),
    }
}

fn attach(error: &AttachError) -> String {
    match error {
        AttachError::Image { name } => {
            format!(
                "{name} es una imagen y el modelo que responde solo recibe texto: descríbela con palabras, pega su texto o elige un modelo que vea imágenes"
            )
        }
        AttachError::TooLarge { name, mb } => format!("{name} es demasiado grande para adjuntarlo ({mb} MB; el límite es 25 MB)"),
        AttachError::NoText { name, what } => {
            format!("{name} no tiene texto que Sidecar pueda leer ({what}); adjunta archivos de texto, Markdown, código, PDF o DOCX")
        }
        AttachError::Unreadable { name, why } => format!("no se pudo leer {name}: {why}"),
        AttachError::NotAFile { name } => format!("{name} no es un archivo sino una carpeta, una tubería o un dispositivo; elige un archivo"),
    }
}

fn library(error: &LibraryError) -> String {
    match error {
        LibraryError::Unknown(name) => format!("no hay ningún modelo llamado «{name}» en la carpeta de modelos; `sidecar models list` los muestra"),
        LibraryError::Exists(name) => format!("ya hay un modelo llamado «{name}» en la carpeta de modelos"),
        LibraryError::NotAModel(e) => gguf(e),
        LibraryError::Io { path, source } => format!("no se puede usar la carpeta de modelos {path}: {source}"),
    }
}

fn gguf(error: &GgufError) -> String {
    match error {
        GgufError::NotGguf(path) => format!("{path} no es un archivo de modelo GGUF (no empieza por «GGUF»)"),
        GgufError::Version { path, version } => format!("{path} es un archivo GGUF de la versión {version}, que no se admite (se admiten de la 1 a la 3)"),
        GgufError::Truncated { path } => format!("{path} termina dentro de su cabecera: el archivo está cortado o dañado"),
        GgufError::TooDeep { path } => format!("{path} anida sus metadatos a demasiada profundidad: está dañado o no es un modelo real"),
        GgufError::Incomplete { path, have, need } => {
            format!("{path} está cortado: sus tensores necesitan {need} bytes y el archivo tiene {have}. Descárgalo de nuevo")
        }
        GgufError::Io { path, source } => format!("no se puede leer {path}: {source}"),
    }
}

fn pull(error: &PullError) -> String {
    match error {
        PullError::NotGgufUrl(url) => {
            format!("{url} no apunta a un archivo .gguf; da el enlace de descarga del archivo (en Hugging Face: el enlace «download» del archivo, con /resolve/)")
        }
        PullError::AlreadyInstalled(name) => format!("{name} ya está descargado"),
        PullError::Http { status, url } => format!("el servidor respondió {status} para {url}"),
        PullError::Interrupted { received, reason } => {
            format!("la descarga se detuvo tras {received} bytes ({reason}); descarga otra vez para seguir donde se quedó")
        }
        PullError::Offline(_) => "no se pudo empezar la descarga: este ordenador parece no tener conexión. Conéctate a la red y vuelve a descargar".into(),
        PullError::Paused { received } => format!("en pausa tras {received} bytes; descarga otra vez para seguir"),
        PullError::NoSpace { need_mb, free_mb, dir } => {
            format!("no hay espacio suficiente: el modelo necesita {need_mb} MB más y quedan {free_mb} MB libres en {dir}")
        }
        PullError::TooLarge { size_mb, ram_mb } => format!(
            "el modelo ocupa {size_mb} MB y este equipo tiene {ram_mb} MB de memoria: no funcionaría bien; elige un modelo más pequeño (o usa --allow-large)"
        ),
        PullError::NoEnd { received, limit } => format!(
            "el servidor envió {received} bytes, más de lo anunciado o de lo que este equipo podría usar ({limit} bytes), así que la descarga se detuvo y se borró"
        ),
        PullError::Checksum { expected, actual } => format!("la descarga no coincide con su SHA-256 (se esperaba {expected}, llegó {actual}); se ha borrado"),
        PullError::NotAModel(e) => format!("el archivo descargado no es un modelo que llama.cpp pueda cargar, así que se ha borrado: {}", gguf(e)),
        PullError::Io { path, source } => format!("no se puede escribir la descarga en {path}: {source}"),
    }
}

fn backup(error: &BackupError) -> String {
    match error {
        BackupError::Write { path, source } => format!("no se puede escribir la copia {}: {source}", path.display()),
        BackupError::Read { path, source } => format!("no se puede leer la copia {}: {source}", path.display()),
        BackupError::Snapshot(why) => format!("no se puede copiar la base de datos: {why}"),
        BackupError::Invalid { path, why } => format!("{} no es una copia de Sidecar utilizable: {why}. No se ha cambiado nada", path.display()),
        BackupError::InUse { dir } => {
            format!("Sidecar está abierto (la app o el servicio usan {}). Ciérralo y vuelve a restaurar", dir.display())
        }
        BackupError::Swap { why, aside } => {
            format!("la restauración se detuvo al colocar los archivos ({why}); tus datos de antes están en {}", aside.display())
        }
    }
}

fn refusal(refusal: &Refusal) -> String {
    match refusal {
        Refusal::ProviderName => "el nombre solo puede llevar letras, cifras, - y _".into(),
        Refusal::ProviderNameTaken => "«local» es el nombre del modelo sin conexión; elige otro".into(),
        Refusal::ProviderUrl => "la URL base debe ser una dirección http:// o https://".into(),
        Refusal::NoModelName => "falta el nombre del modelo".into(),
        Refusal::ModelList { url, problem } => format!("no se pudieron listar los modelos de {url}: {}", probe(problem, Lang::Es)),
        Refusal::NotAZone(name) => format!("«{name}» no es una zona horaria IANA (como «Europe/Madrid»)"),
        Refusal::NotAnAmount(currency) => format!("escribe una cantidad mayor que cero, en {currency}"),
        Refusal::BudgetLimits(problem) => match problem {
            LimitsProblem::NotAnAmount(currency) => format!("un límite es una cantidad de cero o más, en {currency}"),
            LimitsProblem::BadRate(currency) => format!("el cambio es cuántos {currency} vale un dólar estadounidense, más que cero"),
            LimitsProblem::BadCurrency(code) => format!("la moneda es un código de tres letras como EUR o USD, no «{code}»"),
        },
        Refusal::NotSpontaneous(_) => "ese mensaje no es un mensaje espontáneo".into(),
        Refusal::NoPendingReminder(_) => "ese recordatorio ya no está pendiente".into(),
        Refusal::ReminderGone(_) => "ese recordatorio ya no existe".into(),
        Refusal::SnoozeMinutes(max) => format!("los minutos deben ir de 1 a {max}"),
        Refusal::NoReminderToSnooze(_) => "no hay ningún recordatorio así que posponer".into(),
        Refusal::SnoozeCancelled(_) => "ese recordatorio se canceló; no se puede posponer".into(),
        Refusal::NotAReminder(_) => "ese mensaje no es un recordatorio".into(),
        Refusal::NoVersion(number) => format!("la respuesta no tiene versión {number}"),
        Refusal::NoChatToOpen(_) => "esa conversación no existe (o es historial importado, que no se puede continuar)".into(),
        Refusal::NoChat(_) => "esa conversación no existe".into(),
        Refusal::TelegramOff => "Telegram no está en marcha aquí: actívalo y guarda primero un token de bot".into(),
        Refusal::NotABotToken => "eso no parece un token de bot (@BotFather da uno como 123456789:AA…)".into(),
        Refusal::StoppedBeforeModel => "detenido antes de que el modelo estuviera listo".into(),
        Refusal::StoppedWhileFolding => "detenido mientras se resumían los mensajes antiguos".into(),
        Refusal::ShuttingDown => "Sidecar se está cerrando".into(),
        Refusal::NotAnAddress { text, example } => format!("«{text}» no es una dirección; escríbela entera, como {example}"),
        Refusal::NotHttp(text) => format!("«{text}» debe empezar por http:// o https://"),
        Refusal::SearxngNeedsAddress => "SearXNG necesita la dirección de una instancia, como https://search.example.org".into(),
        Refusal::BraveNeedsKey => "Brave Search necesita una clave de API (gratis en api-dashboard.search.brave.com)".into(),
        Refusal::EmbeddingsNeedAddress => "Escribe la dirección del servicio, como http://localhost:11434/v1".into(),
        Refusal::NoEmbeddingModel => "Indica el modelo de embeddings, como nomic-embed-text".into(),
        Refusal::NoCheckpoint(id) => format!("no hay ningún punto de control #{id}"),
        Refusal::NotInAConversation(_) => "ese mensaje no está en ninguna conversación".into(),
        Refusal::CannotWrite { path, why } => format!("no se puede escribir {path}: {why}"),
        Refusal::WhatsAppSession(why) => format!("no se puede borrar la sesión de WhatsApp: {why}"),
        Refusal::CheckpointStatus { id, from, to } => {
            let state = |s: &str| {
                match s {
                    "in_progress" => "en curso",
                    "paused" => "en pausa",
                    "resumed" => "retomado",
                    "completed" => "completado",
                    "abandoned" => "abandonado",
                    other => other,
                }
                .to_string()
            };
            format!("el punto de control #{id} está {} y no puede pasar a {}", state(from), state(to))
        }
        Refusal::NotABackupFile(what) => format!("{what} no es un archivo de copia de seguridad"),
        Refusal::OutOfRange { name, low, high } => {
            let name = match *name {
                "temperature" => "la temperatura",
                "top_p" => "top-p",
                "repeat_penalty" => "la penalización por repetición",
                "max_tokens" => "la longitud máxima de respuesta",
                "context" => "el contexto",
                other => other,
            };
            format!("{name} debe ir de {low} a {high}")
        }
    }
}
