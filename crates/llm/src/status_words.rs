//! What a provider's HTTP status means to a person, and what to do about it: the
//! errors say "the provider refused the API key", never "HTTP 401" (the first-hour
//! p5). The number stays in the log.

use sidecar_domain::Lang;

/// "the provider refused the API key; check it in Settings → Model providers".
pub(crate) fn http_meaning(status: u16, lang: Lang) -> String {
    let (en, es) = match status {
        401 | 403 => (
            "the provider refused the API key; check it in Settings → Model providers",
            "el proveedor rechazó la clave de API; revísala en Ajustes → Proveedores de modelos",
        ),
        404 => (
            "the provider does not know this model or address; check both in Settings → Model providers",
            "el proveedor no conoce este modelo o esta dirección; revisa ambos en Ajustes → Proveedores de modelos",
        ),
        408 | 504 => ("the provider took too long to answer; try again", "el proveedor tardó demasiado en responder; inténtalo de nuevo"),
        413 => (
            "the provider says the message is too long; shorten it or attach less",
            "el proveedor dice que el mensaje es demasiado largo; acórtalo o adjunta menos",
        ),
        429 => (
            "the provider says there were too many requests, or the account's credit is used up; wait a moment, or check the account",
            "el proveedor dice que hubo demasiadas peticiones, o que se agotó el crédito de la cuenta; espera un momento o revisa la cuenta",
        ),
        500..=599 => {
            ("the provider's server had a problem; try again in a moment", "el servidor del proveedor tuvo un problema; inténtalo de nuevo en un momento")
        }
        400..=499 => ("the provider refused the request", "el proveedor rechazó la petición"),
        _ => ("the provider answered with an error", "el proveedor respondió con un error"),
    };
    lang.pick(en, es).to_string()
}

/// The status in words, then what the server said, if anything: "the provider refused
/// the API key; check it in Settings → Model providers. It said: “Incorrect API key”".
pub(crate) fn http_error(status: u16, message: &str, lang: Lang) -> String {
    let meaning = http_meaning(status, lang);
    match message.trim() {
        "" => meaning,
        said => lang.pick(format!("{meaning}. It said: “{said}”"), format!("{meaning}. Dijo: «{said}»")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_said_in_words_with_what_to_do() {
        assert!(http_meaning(401, Lang::En).contains("refused the API key"));
        assert!(http_meaning(401, Lang::Es).contains("rechazó la clave"));
        assert!(http_meaning(503, Lang::En).contains("try again"));
        for status in [400, 401, 404, 418, 429, 500, 302] {
            for lang in Lang::ALL {
                assert!(!http_meaning(status, lang).contains("HTTP"), "{status}");
            }
        }
    }
}
