//! The core's errors in Spanish: what a Spanish-speaking user reads when a provider is
//! down, the network is gone, a form is refused or a file cannot be attached. Every
//! kind of error is worded, and none of them reads as English.

use std::sync::Arc;
use std::time::Duration;

use sidecar::events::{CoreEvent, ModelStatus};
use sidecar::words::Lang;
use sidecar::{Companion, CompanionError};
use sidecar_agent::ChatEvent;
use sidecar_domain::said_whole;
use sidecar_domain::Worded;
use sidecar_llm::GgufError;
use sidecar_llm::LibraryError;
use sidecar_llm::LlmError;
use sidecar_llm::ProbeProblem;
use sidecar_llm::ProviderInput;
use sidecar_llm::ProviderRefusal;
use sidecar_llm::PullError;
use sidecar_llm::RouteError;
use sidecar_llm::TimeoutPhase;
use sidecar_memory::AttachError;
use sidecar_settings::OutOfRange;

/// Words that give English away in a Spanish sentence (quoted server text aside).
const ENGLISH: [&str; 14] =
    [" the ", "cannot", "could not", " is ", " was ", "there is", " must ", " not ", " try ", "please", " and ", " with ", " pick ", " does "];

fn assert_spanish(text: &str) {
    let padded = format!(" {} ", text.to_lowercase());
    for word in ENGLISH {
        assert!(!padded.contains(word), "English ({word:?}) in: {text}");
    }
}

fn io() -> std::io::Error {
    std::io::Error::from_raw_os_error(2)
}

fn llm_errors() -> Vec<LlmError> {
    vec![
        LlmError::Unreachable { url: "http://127.0.0.1:9/v1".into(), detail: "x".into(), offline: false },
        LlmError::Unreachable { url: "https://api.example/v1".into(), detail: "x".into(), offline: true },
        LlmError::Timeout { phase: TimeoutPhase::Respond, after: Duration::from_secs(30) },
        LlmError::Http { status: 500, message: "boom".into(), retry_after: None },
        LlmError::Interrupted { detail: "eof".into() },
        LlmError::Empty,
        LlmError::Malformed { detail: "{".into() },
        LlmError::Provider { message: "overloaded".into(), retryable: true },
    ]
}

/// Every refusal of every feature, as the faces receive it (the assembly's error).
fn refusals() -> Vec<CompanionError> {
    use sidecar_agent::TurnError;
    use sidecar_channels::ChannelError;
    use sidecar_domain::AddressRefusal;
    use sidecar_domain::CannotWrite;
    use sidecar_memory::MeaningSetupError;
    use sidecar_reminders::ReminderError;
    use sidecar_tools::SearchSetupError;
    vec![
        ProviderRefusal::Name.into(),
        ProviderRefusal::NameTaken.into(),
        ProviderRefusal::Url.into(),
        ProviderRefusal::NoModelName.into(),
        ProviderRefusal::ModelList { url: "http://x/v1".into(), problem: ProbeProblem::Http(404) }.into(),
        CompanionError::NotAZone("Mars/Base".into()),
        ReminderError::NoPending(3).into(),
        ReminderError::Gone(3).into(),
        ReminderError::SnoozeMinutes(1440).into(),
        ReminderError::NoneToSnooze(3).into(),
        ReminderError::SnoozeCancelled(3).into(),
        ReminderError::NotAReminder(3).into(),
        TurnError::NoVersion(7).into(),
        TurnError::NoChatToOpen(4).into(),
        TurnError::NoChat(4).into(),
        ChannelError::TelegramOff.into(),
        ChannelError::NotABotToken.into(),
        TurnError::StoppedBeforeModel.into(),
        TurnError::StoppedWhileFolding.into(),
        TurnError::ShuttingDown.into(),
        OutOfRange { name: "temperature", low: "0".into(), high: "2".into() }.into(),
        SearchSetupError::from(AddressRefusal::NotAnAddress { text: "buscador".into(), example: "https://search.example.org" }).into(),
        SearchSetupError::from(AddressRefusal::NotHttp("ftp://x".into())).into(),
        SearchSetupError::SearxngNeedsAddress.into(),
        SearchSetupError::BraveNeedsKey.into(),
        MeaningSetupError::NeedsAddress.into(),
        MeaningSetupError::NoModel.into(),
        TurnError::NoCheckpoint(2).into(),
        TurnError::NotInAConversation(9).into(),
        CannotWrite { path: "/datos/exports/x.md".into(), why: "disco lleno".into() }.into(),
        ChannelError::WhatsAppSession("permiso denegado".into()).into(),
        TurnError::CheckpointStatus { id: 3, from: "completed", to: "in_progress" }.into(),
        sidecar_data::DataError::ShortPassphrase(10).into(),
        sidecar_data::DataError::Backup(sidecar_data::BackupError::Invalid { path: "/tmp/x".into(), why: sidecar_data::BadBackup::Sealed }).into(),
        sidecar_data::DataError::Backup(sidecar_data::BackupError::Invalid { path: "/tmp/x".into(), why: sidecar_data::BadBackup::WrongPassphrase }).into(),
        TurnError::IncognitoKeepsNothing.into(),
        sidecar_data::DataError::Knowledge(sidecar_memory::KnowledgeError::Stale { line: 3, expected: "vivo en Madrid".into() }).into(),
        CompanionError::Knowledge(sidecar_memory::KnowledgeError::ProposalGone),
        sidecar_desktop_features::LockError::Locked.into(),
        sidecar_desktop_features::LockError::Wrong.into(),
        sidecar_desktop_features::LockError::Short(4).into(),
        sidecar_desktop_features::LockError::Minutes { low: 1, high: 480 }.into(),
        sidecar_desktop_features::LockError::Keep("sin entropía".into()).into(),
        sidecar_data::DataError::NoKeychain("sin servicio de secretos".into()).into(),
        sidecar_data::DataError::Store(sidecar_store::StoreError::NoKey { path: "/datos/sidecar.db".into() }).into(),
        sidecar_data::DataError::Store(sidecar_store::StoreError::WrongKey { path: "/datos/sidecar.db".into() }).into(),
        sidecar_data::DataError::Store(sidecar_store::StoreError::InUse { path: "/datos/sidecar.db".into() }).into(),
        sidecar_data::DataError::Store(sidecar_store::StoreError::Convert { path: "/datos/sidecar.db".into(), detail: "disco lleno".into() }).into(),
    ]
}

#[test]
fn every_kind_of_core_error_has_spanish_words() {
    use sidecar_agent::TurnError;
    let mut all: Vec<CompanionError> = vec![
        TurnError::Busy.into(),
        TurnError::QueuedCancelled.into(),
        TurnError::NothingToRetry.into(),
        TurnError::NothingToRegenerate.into(),
        TurnError::NotEditable.into(),
        TurnError::Empty(sidecar_domain::EmptyMessage).into(),
        CompanionError::Route(RouteError::NoProviders),
        CompanionError::Store(sidecar_store::StoreError::CreateDir { path: "/datos".into(), source: io() }),
        CompanionError::Store(sidecar_store::StoreError::Damaged { path: "/datos/s.db".into(), detail: "malformed".into() }),
        CompanionError::Knowledge(sidecar_memory::KnowledgeError::Stale { line: 3, expected: "vivo en Madrid".into() }),
        CompanionError::Attach(AttachError::Image { name: "foto.png".into() }),
        CompanionError::Attach(AttachError::TooLarge { name: "a.pdf".into(), mb: 40 }),
        CompanionError::Attach(AttachError::NoText { name: "a.bin".into(), what: "binario" }),
        CompanionError::Library(LibraryError::Unknown("qwen".into())),
        CompanionError::Library(LibraryError::NotAModel(GgufError::Truncated { path: "m.gguf".into() })),
        CompanionError::Calendar(sidecar_reminders::IcsError::TooDeep),
        CompanionError::SettingsFile(sidecar_settings::SettingsFileError::Parse { path: "/c/settings.toml".into(), message: "línea 2".into() }),
    ];
    use sidecar_tools::SearchFailure;
    all.extend(
        [
            SearchFailure::Unreachable { service: "SearXNG", detail: "dns".into() },
            SearchFailure::Refused,
            SearchFailure::Status { service: "Brave Search", code: 401 },
            SearchFailure::Cut { service: "DuckDuckGo", detail: "reset".into() },
            SearchFailure::NotJson { service: "SearXNG", detail: "<html>".into() },
            SearchFailure::NoAddress,
            SearchFailure::NoKey,
        ]
        .map(CompanionError::WebSearch),
    );
    all.extend(llm_errors().into_iter().map(|error| CompanionError::Route(RouteError::Failed { provider_id: "ollama".into(), error, streamed: false })));
    all.extend(refusals());
    for error in &all {
        let es = said_whole(error, Lang::Es);
        assert_spanish(&es);
        assert_ne!(es, said_whole(error, Lang::En), "the same words in both languages: {es}");
    }
    let pulls = [
        PullError::Offline("dns".into()),
        PullError::Interrupted { received: 10, reason: "reset".into() },
        PullError::NoSpace { need_mb: 900, free_mb: 100, dir: "/modelos".into() },
        PullError::TooLarge { size_mb: 9000, ram_mb: 4000 },
        PullError::Checksum { expected: "aa".into(), actual: "bb".into() },
    ];
    for pull in &pulls {
        assert_spanish(&pull.said_in(Lang::Es));
    }
    for problem in [ProbeProblem::RefusedKey(401), ProbeProblem::NoAnswer(5), ProbeProblem::Offline("x".into()), ProbeProblem::NotListening("http://x".into())]
    {
        assert_spanish(&problem.said_in(Lang::Es));
    }
    // English stays each error's own words.
    let busy = CompanionError::from(sidecar_agent::TurnError::Busy);
    assert_eq!(said_whole(&busy, Lang::En), busy.to_string());
}

#[test]
fn a_timeout_says_what_to_do_not_a_settings_key() {
    let error = LlmError::Timeout { phase: TimeoutPhase::Stream, after: Duration::from_secs(60) };
    for lang in [Lang::En, Lang::Es] {
        let said = error.said_in(lang);
        assert!(!said.contains("settings.toml") && !said.contains("_secs"), "{said}");
    }
    assert!(error.said_in(Lang::Es).contains("elige un modelo más rápido"));
}

fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn open_in_spanish(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    crate::support::core()
        .settings(&format!(
            "[desktop]\nlanguage = \"es\"\n[[providers]]\nid = \"ollama\"\nbase_url = \"{base_url}\"\nmodel = \"llama3.2\"\n[llm]\nmax_retries = 0\n"
        ))
        .open_in(dir)
        .await
}

/// A provider that is down, in a Spanish app: the chat's banner and the header say so
/// in Spanish, with what to do.
#[tokio::test]
async fn a_down_provider_is_said_in_spanish_in_the_chat_and_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_in_spanish(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port())).await;
    let mut events = core.events().subscribe();
    let error = core.send("hola").await.unwrap_err();
    let mut banner = None;
    while let Ok(event) = events.try_recv() {
        if let CoreEvent::Chat(ChatEvent::TurnFailed { message, .. }) = event {
            banner = Some(message);
        }
    }
    let banner = banner.expect("the chat hears the failure");
    assert!(banner.contains("no se pudo contactar con el servidor del modelo"), "{banner}");
    assert_spanish(&banner);
    assert_eq!(banner, said_whole(&error, Lang::Es));
    let checked = core.models().check().await;
    let ModelStatus::Unavailable { message } = checked else { panic!("{checked:?}") };
    assert!(message.contains("no hay nada escuchando"), "{message}");
}

/// With no network the Spanish words say the computer is offline, not that the
/// server is down.
#[tokio::test]
async fn with_no_network_spanish_says_there_is_no_connection() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_in_spanish(dir.path(), "https://api.example.invalid/v1").await;
    let error = core.send("hola").await.unwrap_err();
    let said = said_whole(&error, Lang::Es);
    assert!(said.contains("parece no tener conexión") && !said.contains("¿Está en marcha"), "{said}");
    let checked = core.models().check().await;
    assert!(matches!(&checked, ModelStatus::Unavailable { message } if message.contains("parece no tener conexión")), "{checked:?}");
}

/// Settings' provider form: a refusal and a failed connection test in Spanish.
#[tokio::test]
async fn the_provider_form_refuses_and_tests_in_spanish() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_in_spanish(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port())).await;
    let input = |id: &str, url: &str| ProviderInput {
        id: id.into(),
        kind: sidecar_settings::ProviderKind::Openai,
        base_url: url.into(),
        model: "m".into(),
        api_key: None,
        api_key_env: None,
        tools: true,
        context_window: None,
        sampling: Default::default(),
        vision: None,
    };
    let refused = core.provider_admin().save_provider(input("mi proveedor", "https://x/v1")).unwrap_err();
    assert_eq!(said_whole(&refused, Lang::Es), "el nombre solo puede llevar letras, cifras, - y _");
    let test = core.provider_admin().test_provider(input("b", &format!("http://127.0.0.1:{}/v1", closed_port()))).await;
    assert!(!test.ok);
    assert!(test.message.starts_with("no se pudo contactar"), "{}", test.message);
    assert_spanish(&test.message);
}
