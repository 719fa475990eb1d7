//! One rule for the language of Sidecar's own answers: the language the user wrote in,
//! whatever the app's language is; and the debugging commands stay at the desk.

use sidecar_domain::Channel;

async fn open(dir: &std::path::Path, app_language: &str) -> std::sync::Arc<sidecar::Companion> {
    crate::support::core().settings(&format!("[user]\ntimezone = \"Europe/Madrid\"\n[desktop]\nlanguage = \"{app_language}\"\n")).open_in(dir).await
}

#[tokio::test]
async fn a_command_said_in_words_is_answered_in_the_language_it_was_said_in() {
    let dir = tempfile::tempdir().unwrap();
    let english_app = open(dir.path(), "en").await;
    let hushed = english_app.send("¡Cállate!").await.unwrap().reply;
    assert!(hushed.starts_with("Entendido, me callo"), "{hushed}");
    let help = english_app.send("/ayuda").await.unwrap().reply;
    assert!(help.starts_with("Comandos"), "{help}");
    // Reminders already followed the rule; they still do.
    let set = english_app.send("recuérdame regar las plantas mañana a las 9").await.unwrap().reply;
    assert!(set.starts_with("Hecho:"), "{set}");
    // No words to tell by: the app's language.
    assert!(english_app.send("/reminders clear").await.unwrap().reply.starts_with("Cancelled"));
    drop(english_app);
    let dir = tempfile::tempdir().unwrap();
    let spanish_app = open(dir.path(), "es").await;
    let hushed = spanish_app.send("be quiet").await.unwrap().reply;
    assert!(hushed.starts_with("Understood, I'll stay quiet"), "{hushed}");
}

#[tokio::test]
async fn proactive_debugging_commands_are_refused_from_phones() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), "en").await;
    let conversation = core.conversation();
    for command in ["/proactive tick", "/proactive reset", "/proactive context", "/proactive decide"] {
        let from_phone = conversation.submit(command.into(), Channel::Telegram).await.unwrap().reply;
        assert!(from_phone.contains("only at the computer"), "{command}: {from_phone}");
        let from_whatsapp = conversation.submit(command.into(), Channel::Whatsapp).await.unwrap().reply;
        assert!(from_whatsapp.contains("only at the computer"), "{command}: {from_whatsapp}");
    }
    // The state is for everyone; the desk keeps the debugging commands.
    assert!(!conversation.submit("/proactive status".into(), Channel::Telegram).await.unwrap().reply.contains("only at the computer"));
    let at_desk = conversation.submit("/proactive context".into(), Channel::Cli).await.unwrap().reply;
    assert!(at_desk.contains("tokens"), "{at_desk}");
}
