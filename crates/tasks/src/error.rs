//! What can go wrong when the user makes or changes a task, in both languages.

use sidecar_dates::DateError;
use sidecar_domain::Worded;
use sidecar_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum TasksError {
    #[error("a task needs something to do: say what Sidecar should do at its time")]
    NoPrompt,
    #[error("the task's instructions are {chars} characters long; a task keeps at most {limit}: shorten them, or put the long part in a note and ask the task to read it")]
    PromptTooLong { chars: usize, limit: usize },
    /// Words that could not be read as a time; the text says what to say instead.
    #[error(transparent)]
    When(#[from] DateError),
    #[error("there is no task {0}; `sidecar tasks list` shows them")]
    NoSuchTask(i64),
    #[error("there is no tool called {0:?} to give a task; the tools are: {1}")]
    UnknownTool(String, String),
    #[error("task {0} already ran for this time")]
    AlreadyRan(i64),
    #[error("skip older than must be from 1 to 10080 minutes (a week)")]
    SkipMinutes,
    #[error("{0:?} is not a time of day; write it as 07:30")]
    NotATime(String),
    #[error("a place for the weather is a town's name, at most {0} characters on one line (\"Madrid\")")]
    NotAPlace(usize),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Worded for TasksError {
    fn spanish(&self) -> String {
        match self {
            TasksError::NoPrompt => "una tarea necesita algo que hacer: di qué debe hacer Sidecar a su hora".into(),
            TasksError::PromptTooLong { chars, limit } => format!(
                "las instrucciones de la tarea tienen {chars} caracteres; una tarea guarda como mucho {limit}: acórtalas, o pon la parte larga en una nota y pide a la tarea que la lea"
            ),
            // Worded in the language of the words it could not read.
            TasksError::When(e) => e.to_string(),
            TasksError::NoSuchTask(id) => format!("no hay ninguna tarea {id}; `sidecar tasks list` las muestra"),
            TasksError::UnknownTool(name, all) => format!("no hay ninguna herramienta llamada {name:?} para darle a una tarea; las herramientas son: {all}"),
            TasksError::AlreadyRan(id) => format!("la tarea {id} ya se ejecutó para esta hora"),
            TasksError::NotATime(said) => format!("{said:?} no es una hora del día; escríbela como 07:30"),
            TasksError::NotAPlace(limit) => format!("el lugar del tiempo es el nombre de una ciudad, como mucho {limit} caracteres en una línea («Madrid»)"),
            TasksError::SkipMinutes => "«saltar si lleva más de» debe ir de 1 a 10080 minutos (una semana)".into(),
            TasksError::Store(e) => e.spanish(),
        }
    }
}
