//! What Sidecar says on the phone channels itself: the pairing replies, the notice to
//! strangers, the bot's command menu, and how a channel that is down is described.

use sidecar_domain::Channel;
use sidecar_domain::Lang;

/// Said to a chat that is not paired. Nothing it writes reaches the model.
pub(crate) fn private_bot(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Este es un Sidecar privado: solo responde a su dueño. Si eres tú, abre Sidecar → Ajustes → Canales y envía aquí /start con el código que aparece.",
        Lang::En => "This is a private Sidecar: it only answers its owner. If that is you, open Sidecar → Settings → Channels and send /start here with the code shown there.",
    }
}

/// Said when a chat pairs with the right code.
pub(crate) fn paired(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Listo: este chat está vinculado con tu Sidecar. Escríbeme cuando quieras; los recordatorios también llegarán aquí cuando no estés en el escritorio.",
        Lang::En => "Done: this chat is paired with your Sidecar. Write whenever you like; reminders reach you here too when you are away from the desk.",
    }
}

/// A voice note the channel's server would not hand over.
pub(crate) fn voice_note_unfetched(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "No pude descargar esa nota de voz. Vuelve a enviarla, o escríbeme.",
        Lang::En => "I couldn't download that voice note. Send it again, or write instead.",
    }
}

/// `/start` from a chat that is already paired.
pub(crate) fn already_paired(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Este chat ya está vinculado. Escríbeme lo que quieras, o prueba /status.",
        Lang::En => "This chat is already paired. Write me anything, or try /status.",
    }
}

/// `/start` with a wrong or expired code.
pub(crate) fn wrong_code(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Ese código no es válido o caducó. Abre Sidecar → Ajustes → Canales para ver el código actual.",
        Lang::En => "That code is not valid or has expired. Open Sidecar → Settings → Channels to see the current code.",
    }
}

/// Said to a chat once pairing is locked after too many wrong codes.
pub(crate) fn pairing_locked(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => {
            "Demasiados códigos equivocados: la vinculación está bloqueada un rato. Si eres el dueño, pide un código nuevo en Sidecar → Ajustes → Canales."
        }
        Lang::En => "Too many wrong codes: pairing is locked for a while. If you own this Sidecar, get a new code in Sidecar → Settings → Channels.",
    }
}

/// What the desk is told when someone kept guessing the pairing code (title, body).
pub(crate) fn pairing_locked_alert(lang: Lang) -> (String, String) {
    use crate::telegram::guard::{LOCKOUT, MAX_WRONG_CODES};
    let minutes = LOCKOUT.num_minutes();
    match lang {
        Lang::Es => (
            "Alguien intentó vincular tu bot de Telegram".into(),
            format!("{MAX_WRONG_CODES} códigos equivocados seguidos: el código se anuló y la vinculación queda bloqueada {minutes} minutos. Si eras tú, pulsa «Vincular un chat» para un código nuevo."),
        ),
        Lang::En => (
            "Someone tried to pair with your Telegram bot".into(),
            format!("{MAX_WRONG_CODES} wrong codes in a row: the code was voided and pairing is locked for {minutes} minutes. If that was you, press Pair a chat for a new code."),
        ),
    }
}

/// The bot's command menu: (command, description).
pub(crate) fn command_menu(lang: Lang) -> [(&'static str, &'static str); 4] {
    match lang {
        Lang::Es => [
            ("quiet", "Silencio: /quiet 2h, /quiet here, /quiet off"),
            ("reminders", "Tus recordatorios pendientes"),
            ("status", "Estado de Sidecar y sus canales"),
            ("checkpoint", "Guarda el estado del trabajo actual"),
        ],
        Lang::En => [
            ("quiet", "Silence: /quiet 2h, /quiet here, /quiet off"),
            ("reminders", "Your pending reminders"),
            ("status", "Sidecar's state and its channels"),
            ("checkpoint", "Save the state of the current work"),
        ],
    }
}

/// The desktop's word when a phone channel stays down (W1).
pub(crate) fn channel_down(channel: &str, since_hm: &str, reason: &str, lang: Lang) -> (String, String) {
    match lang {
        Lang::Es => (
            format!("{channel} está desconectado"),
            format!("Sin conexión desde las {since_hm} ({reason}). Sidecar reintenta solo; lo que llegue mientras tanto no se pierde."),
        ),
        Lang::En => (
            format!("{channel} is disconnected"),
            format!("Down since {since_hm} ({reason}). Sidecar keeps retrying on its own; nothing sent meanwhile is lost."),
        ),
    }
}

/// A channel is back after being down.
pub(crate) fn channel_back(channel: &str, lang: Lang) -> String {
    match lang {
        Lang::Es => format!("{channel} vuelve a estar conectado."),
        Lang::En => format!("{channel} is connected again."),
    }
}

/// Why no Telegram pairing code is given while the bot cannot reach Telegram.
pub(crate) fn pairing_while_down(reason: &str, lang: Lang) -> String {
    match lang {
        Lang::Es => format!("Telegram no está conectado ({reason}), así que el bot no leería el código. Vuelve a intentarlo cuando esté conectado."),
        Lang::En => format!("Telegram is not connected ({reason}), so the bot would not read the code. Try again once it is connected."),
    }
}

/// While WhatsApp waits for its QR code to be scanned.
pub(crate) fn scan_qr(lang: Lang) -> String {
    match lang {
        Lang::Es => "Escanea el código QR con WhatsApp en tu móvil: Ajustes → Dispositivos vinculados → Vincular un dispositivo.".into(),
        Lang::En => "Scan the QR code with WhatsApp on your phone: Settings → Linked devices → Link a device.".into(),
    }
}

/// The QR codes expired unscanned (W2); new ones are on their way.
pub(crate) fn qr_expired(lang: Lang) -> String {
    match lang {
        Lang::Es => "El código QR caducó sin escanearse; se está generando uno nuevo.".into(),
        Lang::En => "The QR code expired before it was scanned; a new one is being made.".into(),
    }
}

/// The phone unlinked Sidecar.
pub(crate) fn whatsapp_unlinked(lang: Lang) -> String {
    match lang {
        Lang::Es => "WhatsApp desvinculó a Sidecar desde el móvil; escanea un código QR nuevo para volver a vincularlo.".into(),
        Lang::En => "WhatsApp unlinked Sidecar from the phone; scan a new QR code to link it again.".into(),
    }
}

/// A channel's name, as the desktop says it.
pub(crate) fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::Telegram => "Telegram",
        Channel::Whatsapp => "WhatsApp",
        Channel::Desktop => "Desktop",
        Channel::Cli => "Terminal",
        Channel::Api => "API",
        Channel::Device => "Device",
    }
}

/// Telegram is on but has no bot token to start with.
pub(crate) fn needs_token(lang: Lang) -> &'static str {
    match lang {
        Lang::Es => "Activado, falta el token del bot",
        Lang::En => "On, waiting for a bot token",
    }
}
