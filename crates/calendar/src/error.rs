//! What can go wrong with a calendar, in both languages, with what to do.

use sidecar_domain::Worded;
use sidecar_store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum CalendarError {
    #[error("{0:?} is not a calendar address; it starts with https:// (for example https://cloud.example.com/remote.php/dav)")]
    NotAnAddress(String),
    #[error("{0:?} is not a calendar subscription's address; it starts with webcal://, https:// or http:// and ends in the calendar's .ics (your calendar app's \"share\" or \"public address\")")]
    NotAFeed(String),
    #[error("the subscribed calendar is larger than {0} MB; Sidecar reads smaller ones (subscribe to a shorter range if the calendar offers one)")]
    FeedTooLarge(usize),
    #[error("the subscribed calendar has more than {0} events; Sidecar reads smaller ones (subscribe to a shorter range if the calendar offers one)")]
    FeedTooMany(usize),
    #[error("the calendar server refused the user name or password; check them, or use an app password")]
    Refused(u16),
    /// A subscription's address answered 401 or 403: a public feed has no password.
    #[error("the subscription's server would not give the calendar: the address may have been made private or replaced; copy its public address again from your calendar app")]
    FeedRefused(u16),
    #[error("the calendar server answered with more than {0} MB, more than any calendar needs; Sidecar stopped reading it and keeps the last copy (ask the server's administrator, or connect another account)")]
    AnswerTooLarge(u64),
    /// The transport's own words (which may say "os error 111") go to the log where it
    /// is made, not to the user.
    #[error("the calendar server could not be reached: check that it is running and that this computer is online; the last copy is used until it answers")]
    Unreachable(String),
    #[error("the calendar server answered something unexpected: {0}")]
    Server(String),
    #[error("the event was changed on the calendar since Sidecar last read it; the calendar's version was kept")]
    Changed,
    #[error("the item is no longer on the calendar (deleted elsewhere); sync to see the calendar as it is")]
    Gone,
    #[error("an item of the calendar could not be read: {0}")]
    Unreadable(String),
    #[error("no calendar is connected; connect one in Settings → Calendar")]
    NoAccount,
    #[error("no calendar is chosen for Sidecar to write in; choose one in Settings → Calendar")]
    NoWritable,
    #[error("there is no event {0:?} that Sidecar made; Sidecar moves or deletes only the events it made")]
    NotSidecars(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Worded for CalendarError {
    fn spanish(&self) -> String {
        match self {
            CalendarError::NotAnAddress(url) => {
                format!("{url:?} no es una dirección de calendario; empieza por https:// (por ejemplo https://cloud.example.com/remote.php/dav)")
            }
            CalendarError::NotAFeed(url) => format!(
                "{url:?} no es la dirección de una suscripción de calendario; empieza por webcal://, https:// o http:// y termina en el .ics del calendario (la dirección \"pública\" o \"para compartir\" de tu app de calendario)"
            ),
            CalendarError::FeedTooLarge(mb) => {
                format!("el calendario suscrito ocupa más de {mb} MB; Sidecar lee calendarios más pequeños (suscríbete a un intervalo más corto si el calendario lo ofrece)")
            }
            CalendarError::Refused(_) => "el servidor del calendario rechazó el usuario o la contraseña; revísalos, o usa una contraseña de aplicación".into(),
            CalendarError::FeedTooMany(events) => {
                format!("el calendario suscrito tiene más de {events} eventos; Sidecar lee calendarios más pequeños (suscríbete a un intervalo más corto si el calendario lo ofrece)")
            }
            CalendarError::FeedRefused(_) => {
                "el servidor de la suscripción no quiso dar el calendario: puede que la dirección ya no sea pública o que la hayan cambiado; copia de nuevo su dirección pública desde tu app de calendario".into()
            }
            CalendarError::AnswerTooLarge(mb) => format!(
                "el servidor del calendario respondió con más de {mb} MB, más de lo que necesita cualquier calendario; Sidecar dejó de leerlo y conserva la última copia (pregunta a quien administra el servidor, o conecta otra cuenta)"
            ),
            CalendarError::Unreachable(_) => {
                "no se pudo llegar al servidor del calendario: comprueba que está en marcha y que este ordenador tiene conexión; se usa la última copia hasta que responda".into()
            }
            CalendarError::Server(what) => format!("el servidor del calendario respondió algo inesperado: {what}"),
            CalendarError::Changed => "el evento cambió en el calendario desde que Sidecar lo leyó; se conservó la versión del calendario".into(),
            CalendarError::Gone => "el elemento ya no está en el calendario (se borró en otro sitio); sincroniza para ver el calendario como está".into(),
            CalendarError::Unreadable(what) => format!("no se pudo leer un elemento del calendario: {what}"),
            CalendarError::NoAccount => "no hay ningún calendario conectado; conecta uno en Ajustes → Calendario".into(),
            CalendarError::NoWritable => "no hay ningún calendario elegido para que Sidecar escriba; elige uno en Ajustes → Calendario".into(),
            CalendarError::NotSidecars(uid) => format!("no hay ningún evento {uid:?} creado por Sidecar; Sidecar solo mueve o borra los eventos que creó"),
            CalendarError::Store(e) => e.spanish(),
        }
    }
}
