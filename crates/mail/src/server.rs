//! Where a mailbox is: the server, its port and how the connection is secured, filled
//! in from the address for the usual providers.

use serde::{Deserialize, Serialize};
use sidecar_domain::Lang;

/// How the connection to the server is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum MailSecurity {
    /// TLS from the first byte (port 993).
    Tls,
    /// Plain, then STARTTLS before the password (port 143; Proton Bridge's 1143).
    StartTls,
    /// No encryption: only to a server on this computer.
    Plain,
}

/// A mail server as Settings → Mail fills it in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct MailServer {
    pub host: String,
    pub port: u16,
    pub security: MailSecurity,
    /// Words for Settings: what this provider asks for (an app password, the Bridge).
    pub hint: Option<String>,
}

/// The server for `address`'s provider, when it is one Sidecar knows, with what that
/// provider asks for said in `lang`; `None`: the user types it (any Dovecot, a company's
/// server).
pub fn preset(address: &str, lang: Lang) -> Option<MailServer> {
    let domain = address.rsplit_once('@')?.1.trim().to_ascii_lowercase();
    let (host, port, security, en, es) = match domain.as_str() {
        "fastmail.com" | "fastmail.fm" => (
            "imap.fastmail.com",
            993,
            MailSecurity::Tls,
            "an app password (Settings → Privacy & MailSecurity → App passwords)",
            "una contraseña de aplicación (Ajustes → Privacidad y seguridad → Contraseñas de aplicación)",
        ),
        "icloud.com" | "me.com" | "mac.com" => {
            ("imap.mail.me.com", 993, MailSecurity::Tls, "an app-specific password (account.apple.com)", "una contraseña específica de app (account.apple.com)")
        }
        "gmail.com" | "googlemail.com" => (
            "imap.gmail.com",
            993,
            MailSecurity::Tls,
            "an app password (myaccount.google.com → MailSecurity); signing in with Google is not supported yet",
            "una contraseña de aplicación (myaccount.google.com → Seguridad); iniciar sesión con Google aún no está disponible",
        ),
        "outlook.com" | "hotmail.com" | "live.com" | "msn.com" => (
            "outlook.office365.com",
            993,
            MailSecurity::Tls,
            "an app password; signing in with Microsoft is not supported yet",
            "una contraseña de aplicación; iniciar sesión con Microsoft aún no está disponible",
        ),
        "proton.me" | "protonmail.com" | "pm.me" => (
            "127.0.0.1",
            1143,
            MailSecurity::StartTls,
            "Proton Mail Bridge running on this computer, with the password it shows",
            "Proton Mail Bridge en marcha en este ordenador, con la contraseña que muestra",
        ),
        _ => return None,
    };
    Some(MailServer { host: host.into(), port, security, hint: Some(lang.pick(en, es).into()) })
}

/// Whether `host` is this computer, the one place plain IMAP may go.
pub(crate) fn is_this_computer(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_providers_are_filled_in_and_others_typed() {
        assert_eq!(preset("ana@Gmail.com", Lang::En).map(|s| (s.host, s.port)), Some(("imap.gmail.com".to_string(), 993)));
        assert_eq!(preset("ana@proton.me", Lang::Es).map(|s| s.security), Some(MailSecurity::StartTls));
        assert_eq!(preset("ana@example.org", Lang::En), None);
        assert_eq!(preset("not an address", Lang::En), None);
    }

    #[test]
    fn plain_imap_only_to_this_computer() {
        assert!(is_this_computer("127.0.0.1") && is_this_computer("localhost") && is_this_computer("[::1]"));
        assert!(!is_this_computer("imap.example.org") && !is_this_computer("10.0.0.2"));
    }
}
