//! What the link says to the user, in English and Spanish: each refusal with what to do.

use sidecar_domain::Lang;

use crate::client::{LinkState, Refusal};
use crate::error::{LinkError, PairingError};

pub fn pairing_error(error: PairingError, lang: Lang) -> String {
    match (error, lang) {
        (PairingError::NoCode, Lang::En) => "No pairing code is open. On the home Sidecar, open Settings → Devices and show a new code.".into(),
        (PairingError::NoCode, Lang::Es) => {
            "No hay ningún código abierto. En el Sidecar de casa, abre Ajustes → Dispositivos y muestra un código nuevo.".into()
        }
        (PairingError::Expired, Lang::En) => "That code expired (a code lasts 5 minutes). Show a new one on the home Sidecar.".into(),
        (PairingError::Expired, Lang::Es) => "Ese código caducó (dura 5 minutos). Muestra uno nuevo en el Sidecar de casa.".into(),
        (PairingError::Wrong { tries_left }, Lang::En) => format!("That is not the code. {tries_left} tries left."),
        (PairingError::Wrong { tries_left }, Lang::Es) => format!("Ese no es el código. Quedan {tries_left} intentos."),
        (PairingError::NoTriesLeft, Lang::En) => "Too many wrong codes: this one is closed. Show a new code on the home Sidecar.".into(),
        (PairingError::NoTriesLeft, Lang::Es) => "Demasiados códigos erróneos: este quedó cerrado. Muestra un código nuevo en el Sidecar de casa.".into(),
    }
}

pub fn refusal(refusal: &Refusal, lang: Lang) -> String {
    match (refusal, lang) {
        (Refusal::NotAllowed, Lang::En) => "The home Sidecar no longer allows this device. Pair it again with a new code.".into(),
        (Refusal::NotAllowed, Lang::Es) => "El Sidecar de casa ya no permite este dispositivo. Vuelve a emparejarlo con un código nuevo.".into(),
        (Refusal::CertificateChanged { expected, got }, Lang::En) => format!(
            "The home Sidecar's certificate changed ({got}, expected {expected}). If you did not reinstall it, someone may be in between: do not go on. Otherwise pair again."
        ),
        (Refusal::CertificateChanged { expected, got }, Lang::Es) => format!(
            "El certificado del Sidecar de casa cambió ({got}; se esperaba {expected}). Si no lo reinstalaste, alguien podría estar en medio: no sigas. Si no, vuelve a emparejar."
        ),
    }
}

pub fn state(state: &LinkState, lang: Lang) -> String {
    match (state, lang) {
        (LinkState::Connecting, Lang::En) => "Connecting to the home Sidecar…".into(),
        (LinkState::Connecting, Lang::Es) => "Conectando con el Sidecar de casa…".into(),
        (LinkState::Up, Lang::En) => "Connected to the home Sidecar.".into(),
        (LinkState::Up, Lang::Es) => "Conectado al Sidecar de casa.".into(),
        (LinkState::Down { .. }, Lang::En) => "The home Sidecar cannot be reached. What you type is kept and sent when it is back.".into(),
        (LinkState::Down { .. }, Lang::Es) => "No se llega al Sidecar de casa. Lo que escribas se guarda y se envía al volver.".into(),
        (LinkState::Refused { reason }, lang) => refusal(reason, lang),
    }
}

pub fn error(error: &LinkError, lang: Lang) -> String {
    match (error, lang) {
        (LinkError::Pairing(e), lang) => pairing_error(*e, lang),
        (LinkError::CertificateChanged { expected, got }, lang) => refusal(&Refusal::CertificateChanged { expected: expected.clone(), got: got.clone() }, lang),
        (LinkError::NotAllowed, lang) => refusal(&Refusal::NotAllowed, lang),
        (LinkError::Unreachable { address, .. }, Lang::En) => {
            format!("Cannot reach a Sidecar at {address}. Check the address, that the home Sidecar lets other devices in (Settings → Devices), and that both are on the same network.")
        }
        (LinkError::Unreachable { address, .. }, Lang::Es) => format!(
            "No se llega a ningún Sidecar en {address}. Revisa la dirección, que el Sidecar de casa deje entrar a otros dispositivos (Ajustes → Dispositivos) y que ambos estén en la misma red."
        ),
        (other, Lang::En) => other.to_string(),
        (other, Lang::Es) => format!("Error del enlace: {other}"),
    }
}
