//! A provider that is down never takes the chat with it: the offline model (the real
//! llama.cpp server with SmolLM2) is the last link of the automatic chain, and the
//! header's status is what a check found, not what settings say.

use std::sync::Arc;

use sidecar::events::ModelStatus;
use sidecar::Companion;
use sidecar_agent::ChatEvent;

use crate::support;

fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

async fn open(dir: &std::path::Path, base_url: &str, offline: bool) -> Arc<Companion> {
    let core = support::core().settings(&format!("[[providers]]\nid = \"ollama\"\nbase_url = \"{base_url}\"\nmodel = \"llama3.2\"\n[llm]\nmax_retries = 0\n"));
    if offline { core.offline() } else { core }.open_in(dir).await
}

#[tokio::test]
async fn with_the_provider_down_the_offline_model_answers_and_the_header_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), true).await;
    // Checked at start: not "Ready · llama3.2", and not "unavailable" either: the
    // offline model answers meanwhile, and the header says both.
    let checked = core.models().check().await;
    assert!(matches!(&checked, ModelStatus::StandingIn { down, reason, demo: true, .. } if down == "ollama" && !reason.is_empty()), "{checked:?}");
    let mut events = core.events().subscribe();
    let outcome = match core.send("Say hello in one short sentence.").await {
        Ok(outcome) => outcome,
        Err(error) => panic!("the offline model did not stand in: {error}; {:?}; its log: {}", core.models().status(), offline_log(dir.path())),
    };
    assert!(!outcome.reply.trim().is_empty());
    assert_eq!(outcome.meta.provider.as_deref(), Some("local"));
    assert_eq!(outcome.meta.fallback_from.as_deref(), Some("ollama"));
    // The context meter shows the window of the model that answers, not the down one's.
    let mut windows = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let sidecar::events::CoreEvent::Chat(ChatEvent::ContextUsage { meter, .. }) = event {
            windows.push(meter.window);
        }
    }
    assert!(!windows.is_empty() && windows.iter().all(|w| *w == 4096), "{windows:?}");
    // After the reply, the same state: it does not flip to "ready" and back.
    assert!(matches!(core.models().status(), ModelStatus::StandingIn { ref down, demo: true, .. } if down == "ollama"), "{:?}", core.models().status());
    core.shutdown().await;
}

/// The first-hour review's B1: with a provider that takes tools down, the demo model
/// stands in, and the prompt's budget is the demo's (which is sent no tools), so a
/// conversation goes on past three exchanges instead of failing on "584 of 584".
#[tokio::test]
async fn standing_in_the_demo_budgets_for_itself_not_for_the_down_providers_tools() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), true).await;
    core.models().check().await;
    let mut events = core.events().subscribe();
    for said in
        ["What is the capital of France?", "Thanks! And what is 2 + 2?", "ok. My favourite colour is green.", "Tell me a short joke.", "And another one."]
    {
        if let Err(error) = core.send(said).await {
            panic!("{said:?} failed while the demo stood in: {error}; its log: {}", offline_log(dir.path()));
        }
    }
    let mut budgets = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let sidecar::events::CoreEvent::Chat(ChatEvent::ContextUsage { meter, .. }) = event {
            budgets.push(meter.budget);
        }
    }
    // The demo's window less its reply's reserve: no tool definitions are taken from it.
    let settings = core.settings();
    let whole = 4096 - settings.llm.max_tokens.unwrap_or(1024) as usize;
    assert!(!budgets.is_empty() && budgets.iter().all(|b| *b == whole), "{budgets:?}");
    core.shutdown().await;
}

/// What the offline model's server wrote, for a failure's message.
fn offline_log(dir: &std::path::Path) -> String {
    let logs = dir.join("logs").join("local-model.log");
    std::fs::read_to_string(&logs).unwrap_or_else(|e| format!("({}: {e})", logs.display()))
}

#[tokio::test]
async fn without_an_offline_model_a_down_provider_is_said_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), false).await;
    let error = core.send("hello").await.unwrap_err().to_string();
    assert!(error.contains("could not reach the model server"), "{error}");
    assert!(matches!(core.models().status(), ModelStatus::Unavailable { .. }), "{:?}", core.models().status());
    let checked = core.models().check().await;
    assert!(matches!(&checked, ModelStatus::Unavailable { message } if message.contains("Start it, or pick another provider")), "{checked:?}");
}

#[tokio::test]
async fn a_reachable_provider_checks_ready_and_removing_it_clears_the_header() {
    let server = wiremock::MockServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("{}/v1", server.uri()), false).await;
    assert_eq!(core.models().check().await, ModelStatus::Ready { provider: "ollama".into(), model: "llama3.2".into(), demo: false });
    core.provider_admin().remove_provider("ollama").unwrap();
    assert!(!matches!(core.models().status(), ModelStatus::Ready { ref provider, .. } if provider == "ollama"), "{:?}", core.models().status());
}

fn scripted(base_url: &str) -> sidecar_llm::Provider {
    let settings: sidecar_settings::ProviderSettings = toml::from_str(&format!("id = \"demo\"\nbase_url = \"{base_url}\"\nmodel = \"m\"\n")).unwrap();
    sidecar_llm::Provider::from_settings(&settings, sidecar_settings::Settings::default().llm.timeouts(), &Default::default())
}

/// The demo model's guard, fed a reply that loops on two lines (what SmolLM2 wrote for
/// "Say hi in three words."): the stream is stopped, the reply cut where the loop began
/// and marked; a reply at the length limit is marked and never continued.
#[tokio::test]
async fn a_demo_reply_that_loops_or_runs_long_is_cut_and_marked() {
    use crate::support::{delta, finish, stream, ScriptedServer};
    use sidecar_llm::ChatMessage;
    use sidecar_llm::ChatRequest;
    use sidecar_llm::FinishReason;
    let mut looping = vec![delta("Hi there friend!\n")];
    for _ in 0..500 {
        looping.push(delta("- In\n"));
        looping.push(delta("- The\n"));
    }
    looping.push(finish("length"));
    let long = vec![delta("Hello! I am a small model and"), finish("length")];
    let server = ScriptedServer::start(vec![stream(looping), stream(long)]).await;
    let provider = scripted(&server.base_url);
    let request = ChatRequest { messages: vec![ChatMessage::user("Say hi in three words.")], tools: Vec::new(), max_tokens: Some(1024), general_cap: true };
    let policy = sidecar_llm::RetryPolicy::default();
    let mut shown = String::new();
    let routed = sidecar_llm::complete_demo(&provider, &policy, &request, |t| shown.push_str(t), |_| {}, sidecar_domain::Lang::En).await.unwrap();
    assert_eq!(server.last_request()["max_tokens"], sidecar_llm::DEMO_MAX_TOKENS, "the demo's short limit, not the 1,024 asked");
    let reply = routed.completion.text;
    assert!(reply.starts_with("Hi there friend!\n- In\n- The\n\n[Cut: the demo model began repeating itself."), "{reply:?}");
    assert_eq!(routed.completion.finish_reason, Some(FinishReason::Stop));
    assert!(shown.len() < 200, "the stream stopped once it looped: {} bytes shown", shown.len());
    assert!(shown.ends_with("Add a real model in Settings for proper answers.]"), "the mark streams too");
    // Spanish words, Spanish mark; a reply at the limit is marked, not continued.
    let request = ChatRequest { messages: vec![ChatMessage::user("Dime hola en tres palabras.")], ..request };
    let routed = sidecar_llm::complete_demo(&provider, &policy, &request, |_| {}, |_| {}, sidecar_domain::Lang::En).await.unwrap();
    assert_eq!(routed.completion.finish_reason, Some(FinishReason::Stop));
    assert!(
        routed
            .completion
            .text
            .ends_with("[El modelo de demostración solo escribe respuestas cortas. Añade un modelo real en Ajustes para respuestas más largas.]"),
        "{}",
        routed.completion.text
    );
}

/// The whole path with the real demo model behind a dead provider, with the default
/// reply limit and auto-continue: a short answer, never continued, said to be the
/// fallback.
#[tokio::test]
async fn a_dead_provider_then_a_short_answer_from_the_demo() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), true).await;
    let outcome = core.send("Say hi in three words.").await.expect("the demo answers");
    assert_eq!(outcome.meta.fallback_from.as_deref(), Some("ollama"));
    assert_eq!(outcome.meta.continued, 0, "never continued");
    let output = outcome.meta.usage.map_or(0, |u| u.output_tokens);
    assert!(output <= sidecar_llm::DEMO_MAX_TOKENS, "{output} tokens");
    let body = outcome.reply.split("\n\n[").next().unwrap();
    assert_eq!(sidecar_llm::repeats_from(body), None, "no loop left in the reply: {body:?}");
    core.shutdown().await;
}

/// The first-hour finding: with a provider configured but down, a reminder
/// Sidecar set itself was followed by a demo reply that contradicted it. The demo does
/// not stand in after Sidecar answered: its answer is the reply, nothing after it.
#[tokio::test]
async fn after_sidecar_acted_a_down_provider_leaves_its_answer_alone() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), true).await;
    let mut events = core.events().subscribe();
    let outcome = core.send("remind me to stretch in 10 minutes").await.expect("Sidecar's own answer");
    assert!(outcome.meta.intent, "{outcome:?}");
    assert!(outcome.reply.contains("stretch"), "{}", outcome.reply);
    assert_eq!(core.reminders().pending().await.unwrap().len(), 1);
    let history = core.conversation().history(10).await.unwrap();
    let said: Vec<_> = history.iter().map(|m| (m.role.as_str(), m.content.as_str())).collect();
    assert_eq!(said.len(), 2, "the question and Sidecar's answer, no model reply: {said:?}");
    while let Ok(event) = events.try_recv() {
        assert!(!matches!(event, sidecar::events::CoreEvent::Chat(ChatEvent::TurnFailed { .. })), "no error under Sidecar's answer: {event:?}");
        assert!(!matches!(event, sidecar::events::CoreEvent::Chat(ChatEvent::Delta { .. })), "no demo words: {event:?}");
    }
    assert!(matches!(core.models().status(), ModelStatus::StandingIn { ref down, demo: true, .. } if down == "ollama"), "{:?}", core.models().status());
    // A plain message still gets the demo standing in.
    let plain = core.send("Say hello in one short sentence.").await.expect("the offline model stands in");
    assert_eq!(plain.meta.provider.as_deref(), Some("local"));
    core.shutdown().await;
}

/// With no network, the words say so: not "nothing is listening" nor "is it running?".
#[tokio::test]
async fn with_no_network_the_error_says_the_computer_is_offline() {
    let dir = tempfile::tempdir().unwrap();
    // .invalid never resolves (RFC 6761), as every name does with no network.
    let core = open(dir.path(), "https://api.example.invalid/v1", false).await;
    let error = core.send("hello").await.unwrap_err().to_string();
    assert!(error.contains("this computer seems to be offline") && error.contains("Check the network connection"), "{error}");
    assert!(!error.contains("Is it running"), "{error}");
    let checked = core.models().check().await;
    assert!(matches!(&checked, ModelStatus::Unavailable { message } if message.contains("seems to be offline")), "{checked:?}");
}

/// A scheduled task whose provider is down is not run by the demo standing in (it would
/// deliver an invented result as the task's, the first hour's M2): the run fails and
/// says the provider could not be reached, while the chat still gets the stand-in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_whose_provider_is_down_fails_rather_than_the_demo_inventing() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &format!("http://127.0.0.1:{}/v1", closed_port()), true).await;
    let request = sidecar_tasks::TaskRequest {
        title: Some("Headlines".into()),
        prompt: "Look up the top tech headlines".into(),
        when: "every day at 18:00".into(),
        tools: vec![],
        catch_up: sidecar_tasks::CatchUp::RunNow,
        always_deliver: true,
    };
    let task = core.add_task(&request).await.unwrap();
    core.task_runner().run_now(task.id).await.unwrap();
    let view = core.tasks().list(chrono::Utc::now(), sidecar_domain::Lang::En).await.unwrap().remove(0);
    assert_eq!(view.runs.iter().map(|r| r.state).collect::<Vec<_>>(), [sidecar_tasks::RunState::Failed]);
    let said = view.runs[0].outcome.clone().unwrap_or_default();
    assert!(said.contains("could not reach the model server"), "{said}");
}
