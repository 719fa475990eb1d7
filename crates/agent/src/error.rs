//! Why a turn, a conversation or a checkpoint could not do what was asked, worded in
//! both languages. The turn reaches the layers below it (models, memory, reminders,
//! proactivity), so their errors travel inside this one as they are.

use sidecar_dates::DateError;
use sidecar_domain::CannotWrite;
use sidecar_domain::EmptyMessage;
use sidecar_domain::Worded;
use sidecar_llm::ModelUnavailable;
use sidecar_llm::RouteError;
use sidecar_memory::AttachError;
use sidecar_memory::KnowledgeError;
use sidecar_proactive::ProactiveError;
use sidecar_reminders::ReminderError;
use sidecar_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    #[error("a reply is still being written; press Stop first")]
    Busy,
    #[error("the queued message was cancelled before its turn")]
    QueuedCancelled,
    #[error("there is no unanswered message to retry")]
    NothingToRetry,
    #[error("there is no reply to write again")]
    NothingToRegenerate,
    #[error("only your own messages in this conversation can be edited")]
    NotEditable,
    #[error("the reply has no version {0}")]
    NoVersion(u32),
    #[error("conversation {0} does not exist (or is imported history, which cannot be continued)")]
    NoChatToOpen(i64),
    #[error("conversation {0} does not exist")]
    NoChat(i64),
    #[error("message {0} is not in any conversation")]
    NotInAConversation(i64),
    #[error("there is no checkpoint #{0}")]
    NoCheckpoint(i64),
    #[error("checkpoint #{id} is {} and cannot become {}", from.replace('_', " "), to.replace('_', " "))]
    CheckpointStatus { id: i64, from: &'static str, to: &'static str },
    #[error("an incognito chat keeps no checkpoints: nothing said in it is saved. Leave it (New chat) to save your work")]
    IncognitoKeepsNothing,
    #[error("stopped before the model was ready")]
    StoppedBeforeModel,
    #[error("stopped while older messages were being summarised")]
    StoppedWhileFolding,
    #[error("Sidecar is shutting down")]
    ShuttingDown,
    /// The turn ended without a reply; the words are the turn's own, in the user's language.
    #[error("{0}")]
    Failed(String),
    #[error(transparent)]
    Empty(#[from] EmptyMessage),
    #[error(transparent)]
    Unavailable(#[from] ModelUnavailable),
    #[error(transparent)]
    Route(#[from] RouteError),
    /// Words that could not be read as a time; the text says what to say instead.
    #[error(transparent)]
    Date(#[from] DateError),
    #[error(transparent)]
    Knowledge(#[from] KnowledgeError),
    #[error(transparent)]
    Attach(#[from] AttachError),
    #[error(transparent)]
    Reminders(#[from] ReminderError),
    #[error(transparent)]
    Proactive(#[from] ProactiveError),
    #[error(transparent)]
    CannotWrite(#[from] CannotWrite),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl TurnError {
    /// Whether asking again may work: the model failed or was away, or the turn was
    /// stopped on its way.
    pub fn is_retryable(&self) -> bool {
        match self {
            TurnError::Route(e) => e.is_retryable(),
            TurnError::Unavailable(_) | TurnError::Failed(_) => true,
            TurnError::StoppedBeforeModel | TurnError::StoppedWhileFolding | TurnError::ShuttingDown => true,
            _ => false,
        }
    }
}

impl Worded for TurnError {
    fn spanish(&self) -> String {
        match self {
            TurnError::Busy => "todavía se está escribiendo una respuesta; pulsa Detener primero".into(),
            TurnError::QueuedCancelled => "el mensaje en cola se canceló antes de su turno".into(),
            TurnError::NothingToRetry => "no hay ningún mensaje sin respuesta que reintentar".into(),
            TurnError::NothingToRegenerate => "no hay ninguna respuesta que volver a escribir".into(),
            TurnError::NotEditable => "solo se pueden editar tus propios mensajes de esta conversación".into(),
            TurnError::NoVersion(number) => format!("la respuesta no tiene versión {number}"),
            TurnError::NoChatToOpen(_) => "esa conversación no existe (o es historial importado, que no se puede continuar)".into(),
            TurnError::NoChat(_) => "esa conversación no existe".into(),
            TurnError::NotInAConversation(_) => "ese mensaje no está en ninguna conversación".into(),
            TurnError::NoCheckpoint(id) => format!("no hay ningún punto de control #{id}"),
            TurnError::CheckpointStatus { id, from, to } => {
                format!("el punto de control #{id} está {} y no puede pasar a {}", checkpoint_state(from), checkpoint_state(to))
            }
            TurnError::IncognitoKeepsNothing => {
                "un chat de incógnito no guarda puntos de control: nada de lo que se dice en él se guarda. Sal de él (Nuevo chat) para guardar tu trabajo"
                    .into()
            }
            TurnError::StoppedBeforeModel => "detenido antes de que el modelo estuviera listo".into(),
            TurnError::StoppedWhileFolding => "detenido mientras se resumían los mensajes antiguos".into(),
            TurnError::ShuttingDown => "Sidecar se está cerrando".into(),
            TurnError::Failed(why) => why.clone(),
            TurnError::Empty(e) => e.spanish(),
            TurnError::Unavailable(e) => e.spanish(),
            TurnError::Route(e) => e.spanish(),
            // Worded in the language of the words it could not read.
            TurnError::Date(e) => e.to_string(),
            TurnError::Knowledge(e) => e.spanish(),
            TurnError::Attach(e) => e.spanish(),
            TurnError::Reminders(e) => e.spanish(),
            TurnError::Proactive(e) => e.spanish(),
            TurnError::CannotWrite(e) => e.spanish(),
            TurnError::Store(e) => e.spanish(),
        }
    }
}

fn checkpoint_state(state: &str) -> &str {
    match state {
        "in_progress" => "en curso",
        "paused" => "en pausa",
        "resumed" => "retomado",
        "completed" => "completado",
        "abandoned" => "abandonado",
        other => other,
    }
}
