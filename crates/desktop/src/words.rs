//! What Settings → About says when Sidecar looks for an update or installs one.

use crate::updates::rules::AddressProblem;
use crate::updates::source::UpdateFailure;
use sidecar_domain::Lang;

/// Why this copy cannot update itself: it was built from source.
pub(crate) fn built_from_source(lang: Lang) -> String {
    match lang {
        Lang::En => "This copy of Sidecar was built from source, so it does not update itself: run `git pull` and `make run` in its folder.".into(),
        Lang::Es => "Esta copia de Sidecar se compiló desde el código, así que no se actualiza sola: ejecuta `git pull` y `make run` en su carpeta.".into(),
    }
}

/// Why this copy cannot update itself: a format the project does not publish yet.
pub(crate) fn format_not_updated(lang: Lang) -> String {
    match lang {
        Lang::En => "Sidecar installed this way cannot update itself yet; install the new version from where you got this one.".into(),
        Lang::Es => "Sidecar instalado de esta forma aún no puede actualizarse solo; instala la versión nueva desde donde obtuviste esta.".into(),
    }
}

/// No address to look at.
pub(crate) fn no_address(lang: Lang) -> String {
    match lang {
        Lang::En => "This build has no update address. Enter the address of a release's latest.json below.".into(),
        Lang::Es => "Esta versión no tiene dirección de actualizaciones. Escribe abajo la dirección del latest.json de una publicación.".into(),
    }
}

pub(crate) fn bad_address(problem: &AddressProblem, lang: Lang) -> String {
    match (problem, lang) {
        (AddressProblem::Unreadable, Lang::En) => "That is not an update address; it should start with https:// and end in latest.json.".into(),
        (AddressProblem::Unreadable, Lang::Es) => "Eso no es una dirección de actualizaciones; debe empezar por https:// y terminar en latest.json.".into(),
        (AddressProblem::NotEncrypted, Lang::En) => "Use an https:// address: plain http:// is only accepted for this computer (localhost).".into(),
        (AddressProblem::NotEncrypted, Lang::Es) => "Usa una dirección https://: http:// sin cifrar solo se acepta para este equipo (localhost).".into(),
    }
}

/// Installing was asked with no update found first.
pub(crate) fn nothing_to_install(lang: Lang) -> String {
    match lang {
        Lang::En => "There is no update to install; look for one first.".into(),
        Lang::Es => "No hay ninguna actualización que instalar; busca una primero.".into(),
    }
}

/// A look or an install that failed, with what to do.
pub(crate) fn failure(failure: &UpdateFailure, lang: Lang) -> String {
    match (failure, lang) {
        (UpdateFailure::Unreachable(why), Lang::En) => format!("Could not reach the update address ({why}). Check the connection and try again."),
        (UpdateFailure::Unreachable(why), Lang::Es) => {
            format!("No se pudo llegar a la dirección de actualizaciones ({why}). Revisa la conexión y vuelve a intentarlo.")
        }
        (UpdateFailure::NotAManifest(why), Lang::En) => format!("The update address did not answer with an update manifest ({why}). Check the address below."),
        (UpdateFailure::NotAManifest(why), Lang::Es) => {
            format!("La dirección de actualizaciones no respondió con un manifiesto de actualización ({why}). Revisa la dirección de abajo.")
        }
        (UpdateFailure::NothingForThisSystem(target), Lang::En) => {
            format!("The newest release has no package for this system ({target}). Install it from where you got Sidecar.")
        }
        (UpdateFailure::NothingForThisSystem(target), Lang::Es) => {
            format!("La última publicación no trae paquete para este sistema ({target}). Instálala desde donde obtuviste Sidecar.")
        }
        (UpdateFailure::BadSignature(_), Lang::En) => {
            "The update was refused: its signature does not match Sidecar's signing key, so it may not come from Sidecar's makers. Nothing was installed."
                .into()
        }
        (UpdateFailure::BadSignature(_), Lang::Es) => {
            "Se rechazó la actualización: su firma no coincide con la clave de Sidecar, así que puede no venir de sus autores. No se instaló nada.".into()
        }
        (UpdateFailure::InstallFailed(why), Lang::En) => {
            format!("The system did not install the update ({why}). Sidecar is unchanged; try again and enter your password when asked.")
        }
        (UpdateFailure::InstallFailed(why), Lang::Es) => {
            format!("El sistema no instaló la actualización ({why}). Sidecar sigue igual; vuelve a intentarlo e introduce tu contraseña cuando se pida.")
        }
    }
}

/// The notification when the daily look finds a newer version.
pub(crate) fn found(version: &str, lang: Lang) -> (String, String) {
    match lang {
        Lang::En => (format!("Sidecar {version} is available"), "Open Settings → About to see what changed and install it.".into()),
        Lang::Es => (format!("Sidecar {version} está disponible"), "Abre Ajustes → Acerca de para ver qué cambió e instalarla.".into()),
    }
}
