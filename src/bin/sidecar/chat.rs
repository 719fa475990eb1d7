//! `ask`, `chat`, `history` and `status`: talking to Sidecar from the terminal.

use std::io::{BufRead, Write};
use std::sync::Arc;

use serde_json::json;
use sidecar::{Companion, CoreEvent};
use sidecar_agent::ChatEvent;

pub(crate) async fn ask(companion: &Arc<Companion>, text: &str, json: bool) -> anyhow::Result<i32> {
    let printer = (!json).then(|| Printer::start(companion));
    let mut events = companion.events().subscribe();
    let result = companion.send(text).await;
    let printed = match printer {
        Some(printer) => printer.finish().await,
        None => false,
    };
    match result {
        Ok(outcome) => {
            if json {
                let mut tool_calls = Vec::new();
                while let Ok(event) = events.try_recv() {
                    if let CoreEvent::Chat(ChatEvent::ToolFinished { name, is_error, denied, result, .. }) = event {
                        tool_calls.push(json!({"name": name, "is_error": is_error, "denied": denied, "result": result}));
                    }
                }
                println!(
                    "{}",
                    json!({
                        "reply": outcome.reply,
                        "usage": outcome.usage,
                        "cost_usd": outcome.meta.cost_usd,
                        "tool_calls": tool_calls,
                        "finish_reason": outcome.finish_reason,
                        "status": outcome.status,
                        "meta": outcome.meta,
                        "conversation_id": outcome.conversation_id,
                        "message_id": outcome.message_id,
                    })
                );
            } else {
                if printed {
                    println!();
                } else {
                    println!("{}", outcome.reply);
                }
                if outcome.status == sidecar_store::MessageStatus::Incomplete {
                    // The note is part of the stored reply, not of what streamed.
                    eprintln!("sidecar: {}", outcome.reply.rsplit("\n\n").next().unwrap_or_default());
                }
                if let Some(line) = cost_line(&outcome.meta) {
                    eprintln!("{line}");
                }
            }
            // A reply cut at the step limit is not a success a script should trust.
            Ok(if outcome.status == sidecar_store::MessageStatus::Incomplete { 2 } else { 0 })
        }
        Err(error) => {
            if json {
                println!("{}", json!({"error": error.to_string(), "retryable": error.is_retryable()}));
            } else {
                println!();
                eprintln!("sidecar: {error}");
            }
            Ok(1)
        }
    }
}

/// Prints reply deltas as they arrive, from the same event stream the desktop app
/// subscribes to, and the answers Sidecar gives itself (a command's, a reminder it set
/// before the model), which stream nothing. `finish` makes it print what is still
/// queued and return.
pub(crate) struct Printer {
    finish: tokio_util::sync::CancellationToken,
    task: tokio::task::JoinHandle<()>,
    /// Some reply text was printed.
    printed: Arc<std::sync::atomic::AtomicBool>,
}

impl Printer {
    fn start(companion: &Arc<Companion>) -> Self {
        let mut events = companion.events().subscribe();
        let finish = tokio_util::sync::CancellationToken::new();
        let done = finish.clone();
        let printed = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let saw_text = printed.clone();
        let store = companion.store().clone();
        let task = tokio::spawn(async move {
            // After a self-answer, what the model adds streams as its own paragraph.
            let mut after_answer = false;
            let mut print = async |event: CoreEvent| match event {
                CoreEvent::Chat(ChatEvent::Delta { text, .. }) => {
                    if std::mem::take(&mut after_answer) {
                        print!("\n\n");
                    }
                    saw_text.store(true, std::sync::atomic::Ordering::Relaxed);
                    print!("{text}");
                    let _ = std::io::stdout().flush();
                }
                CoreEvent::Chat(ChatEvent::TurnFinished { message_id, meta, .. }) if meta.intent || meta.command => {
                    if let Ok(Some(answer)) = store.conversations().message(message_id).await {
                        saw_text.store(true, std::sync::atomic::Ordering::Relaxed);
                        print!("{}", answer.content);
                        let _ = std::io::stdout().flush();
                        after_answer = true;
                    }
                }
                CoreEvent::Chat(ChatEvent::ToolStarted { name, arguments, .. }) => eprintln!("\n[tool] {name} {arguments}"),
                CoreEvent::Chat(ChatEvent::ToolFinished { name, denied: true, result, .. }) => eprintln!("[tool] {name} did not run: {}", refusal(&result)),
                CoreEvent::Chat(ChatEvent::ToolFinished { name, is_error: true, result, .. }) => eprintln!("[tool] {name} failed: {result}"),
                CoreEvent::Chat(ChatEvent::Notice { notice, .. }) => eprintln!("\n[{}]", describe_notice(&notice)),
                _ => {}
            };
            loop {
                tokio::select! {
                    biased;
                    event = events.recv() => match event {
                        Ok(event) => print(event).await,
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(_) => return,
                    },
                    _ = done.cancelled() => break,
                }
            }
            // Every event of the turn was published before it returned.
            while let Ok(event) = events.try_recv() {
                print(event).await;
            }
        });
        Self { finish, task, printed }
    }

    /// Prints what is left of the turn; whether any reply text was printed.
    async fn finish(self) -> bool {
        self.finish.cancel();
        let _ = self.task.await;
        self.printed.load(std::sync::atomic::Ordering::Relaxed)
    }
}

pub(crate) fn describe_notice(notice: &sidecar::events::Notice) -> String {
    use sidecar::events::Notice;
    match notice {
        Notice::Retrying { provider, attempt, delay_ms, reason } => {
            format!("{provider} failed ({reason}); retry {attempt} in {:.1} s", *delay_ms as f64 / 1000.0)
        }
        Notice::FallingBack { from, to, reason } => format!("{from} failed ({reason}); {to} answers instead"),
        Notice::Continued { attempt } => format!("reply cut at the length limit; continuing ({attempt})"),
        Notice::Corrected { .. } => "the reply claimed an action it did not take; asking again".into(),
        Notice::IterationCap => "stopped at the step limit for one reply".into(),
        Notice::TimedOut => "the reply ran out of time".into(),
        Notice::Summarizing => "summarising older messages to make room".into(),
        Notice::PlanGoesOn { done, total } => format!("{done} of {total} steps done; going on"),
    }
}

/// "gpt-4o-mini · 1,234 in / 56 out · $0.0012", for under a reply.
pub(crate) fn cost_line(meta: &sidecar_store::MessageMeta) -> Option<String> {
    let usage = meta.usage?;
    let cost = match meta.cost_usd {
        Some(cost) => format!("${cost:.4}"),
        None => "price unknown".into(),
    };
    let mut line = format!("[{} · {} in / {} out · {cost}", meta.model.as_deref().unwrap_or("model"), usage.input_tokens, usage.output_tokens);
    match (&meta.fallback_from, &meta.fallback_reason) {
        (Some(from), Some(why)) => line.push_str(&format!(" · fallback for {from}: {why}")),
        (Some(from), None) => line.push_str(&format!(" · fallback for {from}")),
        _ => {}
    }
    line.push(']');
    Some(line)
}

pub(crate) async fn status(companion: &Companion, json: bool) -> anyhow::Result<i32> {
    let settings = companion.settings();
    let chain: Vec<_> = settings.chat_chain().iter().map(|p| json!({"id": p.id, "kind": p.kind, "model": p.model, "base_url": p.base_url})).collect();
    let report = companion.usage_report().await?;
    let (total, day) = (report.all_time, report.today);
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({
                "data_dir": companion.data_dir(),
                "chat_chain": chain,
                "offline_model": chain.is_empty(),
                "usage": {"today": day, "all_time": total},
            }))?
        );
        return Ok(0);
    }
    println!("Data: {}", companion.data_dir().display());
    if chain.is_empty() {
        println!("Chat model: the offline model (no provider configured)");
    } else {
        for p in settings.chat_chain() {
            println!("Chat model: {} ({}, {})", p.model, p.id, p.base_url);
        }
    }
    for (label, t) in [("Today", &day), ("All time", &total)] {
        println!(
            "{label}: {} calls, {} tokens in, {} out, ${:.4}{}",
            t.calls,
            t.input_tokens,
            t.output_tokens,
            t.cost_usd,
            if t.unpriced_calls > 0 { format!(" (+{} calls with unknown price)", t.unpriced_calls) } else { String::new() }
        );
    }
    let m = total.turns;
    println!(
        "Replies: {}; context cut to fit in {}; claimed actions caught {}; tool rules repeated {}; multi-step tasks finished {}, left {}",
        m.turns, m.truncated, m.claimed_without_acting, m.reinforced, m.plans_finished, m.plans_abandoned
    );
    Ok(0)
}

pub(crate) async fn history(companion: &Companion, json: bool, limit: u32) -> anyhow::Result<i32> {
    let messages = companion.conversation().history(limit).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&messages)?);
        return Ok(0);
    }
    if messages.is_empty() {
        println!("No messages yet. Try: sidecar ask \"hello\"");
    }
    for m in messages {
        let marker = match m.status {
            sidecar_store::MessageStatus::Complete => "",
            sidecar_store::MessageStatus::Stopped => " (stopped)",
            sidecar_store::MessageStatus::Interrupted => " (interrupted)",
            sidecar_store::MessageStatus::Incomplete => " (incomplete)",
            sidecar_store::MessageStatus::Error => " (error)",
        };
        println!("[{}] {}{}:\n{}\n", m.created_at, m.role.as_str(), marker, m.content);
    }
    Ok(0)
}

/// How often `sidecar chat` looks for reminders and messages Sidecar sent on its own.
const PROACTIVE_POLL: std::time::Duration = std::time::Duration::from_secs(1);

/// Prints what Sidecar says on its own while the chat is open: reminders and
/// spontaneous messages, whichever process delivered them (this one, the app or the
/// daemon), read from the shared history.
fn print_proactive(companion: &Arc<Companion>) -> anyhow::Result<tokio::task::JoinHandle<()>> {
    let companion = companion.clone();
    Ok(tokio::spawn(async move {
        let mut seen = companion.store().conversations().latest_message_id().await.unwrap_or(0);
        loop {
            tokio::time::sleep(PROACTIVE_POLL).await;
            let Ok(said) = companion.store().conversations().proactive_messages_after(seen).await else { continue };
            for message in said {
                seen = message.id;
                let at = chrono::DateTime::parse_from_rfc3339(&message.created_at)
                    .map(|t| t.with_timezone(&companion.zone()).format("%H:%M").to_string())
                    .unwrap_or_default();
                println!("\r[{at}] {}", message.content);
                print!("> ");
                let _ = std::io::stdout().flush();
            }
        }
    }))
}

pub(crate) async fn chat(companion: &Arc<Companion>) -> anyhow::Result<i32> {
    println!("Sidecar chat. Type a message and press Enter; /exit or Ctrl+D quits, Ctrl+C stops a reply.");
    // Reminders are delivered from here when no app or daemon does it.
    let cancel = tokio_util::sync::CancellationToken::new();
    if let Some(deliveries) = companion.deliveries(Arc::new(|_| {}), cancel.clone())? {
        tokio::spawn(deliveries);
    }
    let printer = print_proactive(companion)?;
    let terminal = Arc::new(Terminal::new(companion.clone()));
    companion.permissions().set_asker(Arc::new(crate::asking::TerminalAsker { lines: terminal.lines.clone(), lang: companion.lang() }));
    sidecar_channels::serve(terminal, companion.conversation().clone(), companion.channels().questions()).await;
    println!();
    printer.abort();
    cancel.cancel();
    Ok(0)
}

/// The gate's words out of a denied call's JSON result.
fn refusal(result: &str) -> String {
    serde_json::from_str::<serde_json::Value>(result).ok().and_then(|v| v["error"].as_str().map(str::to_string)).unwrap_or_else(|| result.to_string())
}

/// The terminal as a message source: a line typed is a message; its reply streams as
/// it is written (answers nothing streamed, a command's or an error, are printed whole).
/// One at a time: the next prompt comes once the answer is printed.
struct Terminal {
    companion: Arc<Companion>,
    lines: Arc<tokio::sync::Mutex<tokio::sync::mpsc::Receiver<String>>>,
    printer: std::sync::Mutex<Option<Printer>>,
    answered: tokio::sync::Semaphore,
}

impl Terminal {
    fn new(companion: Arc<Companion>) -> Self {
        let (lines_tx, lines) = tokio::sync::mpsc::channel::<String>(1);
        std::thread::spawn(move || {
            // Bytes, not `lines()`: a line that is not UTF-8 (a file in another
            // encoding piped in) is said and skipped; the lines after it still count.
            let mut stdin = std::io::stdin().lock();
            let mut number = 0;
            loop {
                let mut bytes = Vec::new();
                match stdin.read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => number += 1,
                }
                let line = match String::from_utf8(bytes) {
                    Ok(line) => line.trim_end_matches(['\n', '\r']).to_string(),
                    Err(e) => {
                        eprintln!(
                            "sidecar: line {number} skipped: it is not UTF-8 text (byte 0x{:02X} at column {})",
                            e.as_bytes()[e.utf8_error().valid_up_to()],
                            e.utf8_error().valid_up_to() + 1
                        );
                        continue;
                    }
                };
                if lines_tx.blocking_send(line).is_err() {
                    break;
                }
            }
        });
        Self { companion, lines: Arc::new(tokio::sync::Mutex::new(lines)), printer: std::sync::Mutex::new(None), answered: tokio::sync::Semaphore::new(1) }
    }
}

impl sidecar_channels::MessageSource for Terminal {
    fn channel(&self) -> sidecar_proactive::Channel {
        sidecar_proactive::Channel::Cli
    }

    fn next(&self) -> futures_util::future::BoxFuture<'_, Option<sidecar_channels::IncomingMessage>> {
        Box::pin(async move {
            let answered = self.answered.acquire().await.ok()?;
            let mut lines = self.lines.lock().await;
            loop {
                print!("> ");
                let _ = std::io::stdout().flush();
                let line = lines.recv().await?;
                let line = line.trim();
                if line == "/exit" || line == "/quit" {
                    return None;
                }
                if line.is_empty() {
                    continue;
                }
                *self.printer.lock().expect("printer lock") = Some(Printer::start(&self.companion));
                // Given back when the answer is printed.
                answered.forget();
                return Some(sidecar_channels::IncomingMessage {
                    id: String::new(),
                    channel: self.channel(),
                    user_id: std::env::var("USER").unwrap_or_default(),
                    content: line.to_string(),
                    received_at: self.companion.clock().now(),
                });
            }
        })
    }

    fn send_response<'a>(
        &'a self,
        _to: &'a sidecar_channels::IncomingMessage,
        answer: Result<sidecar::TurnOutcome, sidecar_agent::TurnError>,
    ) -> futures_util::future::BoxFuture<'a, Result<(), sidecar_channels::PhoneError>> {
        let printer = self.printer.lock().expect("printer lock").take();
        Box::pin(async move {
            let streamed = match printer {
                Some(printer) => printer.finish().await,
                None => false,
            };
            match answer {
                Ok(_) if streamed => println!(),
                Ok(outcome) => println!("{}", outcome.reply),
                Err(error) => {
                    println!();
                    eprintln!("sidecar: {error}");
                }
            }
            self.answered.add_permits(1);
            Ok(())
        })
    }

    fn is_connected(&self) -> bool {
        true
    }
}
