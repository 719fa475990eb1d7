//! Message sources: every message from every source goes through the one inbox, and
//! each answer goes back to the source it came from, said on its channel.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;

use sidecar_channels::serve;
use sidecar_channels::IncomingMessage;
use sidecar_channels::MessageSource;
use sidecar_proactive::Channel;

use crate::support::{reply_events, Reply, ScriptedServer};

/// A source that delivers scripted messages and keeps the answers it was given.
struct Scripted {
    channel: Channel,
    inbox: Mutex<VecDeque<String>>,
    answers: Mutex<Vec<(String, String)>>,
}

impl Scripted {
    fn new(channel: Channel, messages: &[&str]) -> Arc<Self> {
        Arc::new(Self { channel, inbox: Mutex::new(messages.iter().map(|m| m.to_string()).collect()), answers: Mutex::default() })
    }
}

impl MessageSource for Scripted {
    fn channel(&self) -> Channel {
        self.channel
    }
    fn next(&self) -> BoxFuture<'_, Option<IncomingMessage>> {
        Box::pin(async move {
            // Taken only when polled: a dropped `next` loses nothing.
            let next = self.inbox.lock().unwrap().pop_front();
            next.map(|content| IncomingMessage { id: content.clone(), channel: self.channel, user_id: "me".into(), content, received_at: chrono::Utc::now() })
        })
    }
    fn send_response<'a>(
        &'a self,
        to: &'a IncomingMessage,
        answer: Result<sidecar::TurnOutcome, sidecar_agent::TurnError>,
    ) -> BoxFuture<'a, Result<(), sidecar_channels::PhoneError>> {
        let content = answer.map(|outcome| outcome.reply).unwrap_or_else(|error| error.to_string());
        self.answers.lock().unwrap().push((to.content.clone(), content));
        Box::pin(async { Ok(()) })
    }
    fn is_connected(&self) -> bool {
        true
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sources_share_the_inbox_and_each_gets_its_own_answers() {
    let server = ScriptedServer::responding(|request| {
        let asked = crate::support::said(request["messages"].as_array().unwrap().last().unwrap());
        // Slow enough that a command read after two turns is answered while they wait.
        Reply::Stream { events: reply_events(&[&format!("re: {asked}")]), delay: Duration::from_millis(100) }
    })
    .await;
    let core = crate::support::core().settings(&format!("[[providers]]\nid = \"s\"\nbase_url = \"{}\"\nmodel = \"m\"\n", server.base_url)).open().await;
    let terminal = Scripted::new(Channel::Cli, &["one", "two", "/status"]);
    let window = Scripted::new(Channel::Desktop, &["three", "four"]);

    let (a, b) = tokio::join!(
        serve(terminal.clone(), core.conversation().clone(), core.channels().questions()),
        serve(window.clone(), core.conversation().clone(), core.channels().questions())
    );
    assert_eq!((a, b), (3, 2));

    let answers = terminal.answers.lock().unwrap().clone();
    // The command was answered at once, by Sidecar, while the turns waited their turn
    // (at the latest before the second, which waits for the first's whole reply).
    let status = answers.iter().position(|(said, _)| said == "/status").expect("the command is answered");
    assert!(answers[status].1.starts_with("Model: "), "{:?}", answers[status]);
    let turns: Vec<_> = answers.iter().filter(|(said, _)| said != "/status").cloned().collect();
    assert_eq!(turns, [("one".into(), "re: one".into()), ("two".into(), "re: two".into())]);
    assert!(status < answers.iter().position(|(said, _)| said == "two").unwrap(), "{answers:?}");
    assert_eq!(*window.answers.lock().unwrap(), [("three".to_string(), "re: three".to_string()), ("four".into(), "re: four".into())]);

    // The history says where each was said; a reply is said where its message was.
    let history = core.conversation().history(50).await.unwrap();
    for (said, channel) in [("one", Channel::Cli), ("re: two", Channel::Cli), ("three", Channel::Desktop), ("re: four", Channel::Desktop)] {
        let message = history.iter().find(|m| m.content == said).unwrap();
        assert_eq!(message.channel, Some(channel), "{said}");
    }
    // One turn at a time: every user message is followed by its own answer.
    // (Commands and their answers aside: they are answered at once, out of turn.)
    let command = |m: &&sidecar_store::Message| m.content.starts_with('/') || m.meta.as_ref().is_some_and(|meta| meta.0.command);
    let turns: Vec<&str> = history.iter().filter(|m| !command(m)).map(|m| m.content.as_str()).collect();
    for pair in turns.chunks(2) {
        assert_eq!(pair[1], format!("re: {}", pair[0]));
    }
}
