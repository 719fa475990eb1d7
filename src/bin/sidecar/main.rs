//! `sidecar`: the command-line face of the same core the desktop app uses, on the same
//! data directory.

use std::path::PathBuf;
mod asking;
mod budget;
mod chat;
mod connections;
mod data;
mod devices;
mod mcp;
mod memory;
mod models;
mod pipe;
mod reminders;
mod tasks;
mod voice;

use chat::{ask, chat, history, status};
use memory::{facts, import, recall, remember};
use reminders::{daemon, parse_date, remind, reminders};

use anyhow::Context;
use clap::{Parser, Subcommand};
use sidecar::{Companion, CompanionOptions};

#[derive(Parser)]
#[command(
    name = "sidecar",
    version,
    about = "Sidecar, your desktop AI companion, from the command line",
    long_about = "Sidecar, your desktop AI companion, from the command line.\n\n\
        Uses the same data directory as the desktop app. With no provider configured, \
        the offline model is started: llama.cpp's server from the runtime folder beside the \
        program (../lib/sidecar, which `make run` builds and the packages install).\n\n\
        Environment: SIDECAR_DATA_DIR, SIDECAR_CONFIG, SIDECAR_LLM_BASE_URL, \
        SIDECAR_LLM_MODEL, SIDECAR_LLM_API_KEY, SIDECAR_RUNTIME (another runtime folder, or \
        `off`), SIDECAR_EMBEDDINGS (what the automatic embedder is: `local` or `gemma`), \
        SIDECAR_EMBEDDER_WEIGHTS, SIDECAR_BACKUP_PASSPHRASE (what opens an encrypted backup \
        to restore), RUST_LOG."
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
    /// Saves a fact about you: `remember "Allergic to peanuts"` picks the category from
    /// its words, as the chat does; `remember Health "…"` names it (Health,
    /// Preferences, Work, Relationships, Schedule, Goals or General; Spanish names work too).
    Remember {
        /// Print the outcome as JSON.
        #[arg(long)]
        json: bool,
        /// An optional category, then the fact (several words are joined with spaces).
        #[arg(required = true, num_args = 1..)]
        words: Vec<String>,
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
    /// Imports history into recall: JSON lines (one message per line with `role`,
    /// `content`, and optional `timestamp` and `id`, kept and shown by recall), or the
    /// `conversations.json` of a ChatGPT or Claude data export.
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
    /// Prints the words of a recording (WAV, or OGG/Opus as phones send voice notes),
    /// heard offline by the speech model; exits 1 saying what to do when it cannot be.
    Transcribe {
        /// Print one JSON object: `text`, `lang`, `seconds` (or `error` and `message`).
        #[arg(long)]
        json: bool,
        /// The language spoken (default: told from the recording).
        #[arg(long, value_enum)]
        lang: Option<voice::SpokenIn>,
        file: PathBuf,
    },
    /// Sets a reminder: WHEN as you would say it ("in 30 minutes", "mañana a las 9",
    /// "every Monday at 9", ISO 8601), then what to remind you of. Exits 1 if WHEN
    /// is unclear, saying how to put it.
    Remind {
        /// Print the stored reminder as JSON.
        #[arg(long)]
        json: bool,
        /// One sentence ("call mum tomorrow at 9"), or the time then the text
        /// ("in 30 minutes" stretch).
        #[arg(required = true, num_args = 1..)]
        words: Vec<String>,
    },
    /// Scheduled tasks: work Sidecar does on its own at a time you set (add, list, run,
    /// pause, resume, rm).
    Tasks {
        #[command(subcommand)]
        command: tasks::TasksCommand,
    },
    /// Lists reminders: upcoming, recurring, delivered and late.
    Reminders {
        /// Print one JSON object with `upcoming`, `recurring`, `delivered`, `late`, `zone`.
        #[arg(long)]
        json: bool,
        /// Print the pending reminders as an iCalendar (.ics) file instead.
        #[arg(long, conflicts_with = "json")]
        ics: bool,
        /// Add the events of an iCalendar (.ics) file as reminders.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "ics"])]
        import: Option<std::path::PathBuf>,
    },
    /// Runs the reminder scheduler and the spontaneous loop headless, with OS
    /// notifications and messages printed here, until Ctrl+C. Exits 1 if the desktop
    /// app (or another daemon) already runs them for this data directory.
    Daemon,
    /// The local model manager: list, pull (resumable, verified), use, rm, import.
    Models {
        #[command(subcommand)]
        command: models::ModelsCommand,
    },
    /// MCP servers: tools from other programs, and what each may do without asking.
    Mcp {
        #[command(subcommand)]
        command: mcp::McpCommand,
    },
    /// Programs that use Sidecar as a server: allow them, with scopes, or revoke them.
    Connections {
        #[command(subcommand)]
        command: connections::ConnectionsCommand,
    },
    /// One Sidecar on every device: on the home core, where other devices reach it, a
    /// pairing code, the paired devices; on another device, pairing and calling.
    Devices {
        #[command(subcommand)]
        command: devices::DevicesCommand,
    },
    /// Writes a backup: a snapshot of the database, the knowledge files and settings
    /// (never keys), with a manifest of checksums. DEST: a folder or a file (default:
    /// the data directory's backups/).
    Backup {
        #[arg(long)]
        json: bool,
        dest: Option<PathBuf>,
    },
    /// Whether the database is encrypted at rest; `on` encrypts it at the next start (its
    /// key in the system keychain), `off` makes it plain again at the next start.
    Encryption {
        #[arg(long)]
        json: bool,
        #[arg(value_enum)]
        turn: Option<data::Turn>,
    },
    /// Restores a backup after checking every checksum; the data it replaces is kept
    /// in the data directory's before-restore-… folder. Quit the app first. An
    /// encrypted backup is opened with SIDECAR_BACKUP_PASSPHRASE, else with the
    /// passphrase this computer keeps for its own backups.
    Restore {
        #[arg(long)]
        json: bool,
        /// Also put back the backup's settings.toml (providers, channels, paired chats):
        /// without it they are kept as they are, and what they would change is shown.
        #[arg(long)]
        with_settings: bool,
        file: PathBuf,
    },
    /// Exports every conversation and fact as Markdown or JSON (to standard output,
    /// or to --output FILE); with --checkpoints, every checkpoint as Markdown instead.
    Export {
        #[arg(long, value_enum, default_value = "markdown")]
        format: data::ExportChoice,
        #[arg(long)]
        output: Option<PathBuf>,
        /// Every checkpoint (the saved state of earlier work), newest first.
        #[arg(long, conflicts_with = "format")]
        checkpoints: bool,
    },
    /// The budget: each limit with what was spent and reserved today or this month
    /// (amounts in `[budget] currency`); `allow AMOUNT` lets AMOUNT more through today.
    Budget {
        #[arg(long)]
        json: bool,
        #[command(subcommand)]
        command: Option<budget::BudgetCommand>,
    },
    /// Spending over the last 7 and 30 days per model and purpose, and this month's
    /// projection; --json prints every day of the last 30.
    Usage {
        #[arg(long)]
        json: bool,
    },
    /// Shows the configured models, the data directory, and token use and cost.
    Status {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

#[tokio::main]
async fn main() {
    pipe::end_quietly_when_closed();
    let cli = Cli::parse();
    let log_dir = sidecar_domain::log_dir(&sidecar_domain::data_dir(cli.data_dir.as_deref()));
    // One redactor for the process: the log writer scrubs with it, and `Secrets` gives
    // it every key it reads.
    let redactor = sidecar_domain::Redactor::default();
    let log_guard = sidecar_domain::init_logging("warn", Some(&log_dir), &redactor);
    let code = match run(cli, redactor).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sidecar: {}", sidecar::error::said_once(e.as_ref()));
            1
        }
    };
    // `exit` skips destructors: flush the log file first.
    drop(log_guard);
    std::process::exit(code);
}

async fn run(cli: Cli, redactor: sidecar_domain::Redactor) -> anyhow::Result<i32> {
    let options =
        CompanionOptions { channel: sidecar_proactive::Channel::Cli, ..CompanionOptions::resolve(cli.data_dir.as_deref(), cli.config.as_deref(), redactor)? };
    if let Command::ParseDate { json, tz, now, text } = &cli.command {
        // Pure: no data directory or database needed.
        let configured = tz.as_deref().or(options.settings.user.timezone.as_deref());
        let all_day = options.settings.user.all_day_time();
        let lang = sidecar_settings::language_of(options.settings.desktop.language);
        return parse_date(&text.join(" "), configured, tz.is_some(), now.as_deref(), *json, all_day, lang);
    }
    if let Command::Transcribe { json, lang, file } = &cli.command {
        // Files and the model only: no data directory needed.
        let ui = sidecar_settings::language_of(options.settings.desktop.language);
        return voice::transcribe(options.settings.local_model.runtime.as_deref(), file, *lang, ui, *json);
    }
    if let Command::Restore { json, file, with_settings } = &cli.command {
        // Files only: the database must not be open while it is replaced.
        return data::restore(&options, file, *json, *with_settings).await;
    }
    if let Command::Devices { command } = &cli.command {
        // A device's side (pairing, calling the home core) opens no data of its own.
        if let Some(code) = devices::on_this_device(&options, command).await {
            return code;
        }
    }
    let companion = Companion::open(options).await.context("cannot open Sidecar's data")?;
    for warning in companion.warnings() {
        eprintln!("sidecar: {warning}");
    }
    if let Command::Daemon = cli.command {
        return daemon(&companion).await;
    }
    let stopper = companion.clone();
    tokio::spawn(async move {
        while tokio::signal::ctrl_c().await.is_ok() {
            stopper.conversation().stop();
        }
    });
    if matches!(cli.command, Command::Ask { .. } | Command::Chat | Command::Tasks { .. }) {
        // Their turns may use the servers' tools: start them first.
        if let Err(error) = companion.mcp().reload() {
            eprintln!("sidecar: the MCP servers were not started: {error}");
        }
        companion.mcp().settle(std::time::Duration::from_secs(60)).await;
    }
    let code = match cli.command {
        Command::Ask { json, text } => ask(&companion, &text.join(" "), json).await?,
        Command::History { json, limit } => history(&companion, json, limit).await?,
        Command::Chat => chat(&companion).await?,
        Command::Status { json } => status(&companion, json).await?,
        Command::Budget { json, command } => budget::budget(&companion, command, json).await?,
        Command::Usage { json } => budget::usage(&companion, json).await?,
        Command::Models { command } => models::models(&companion, command).await?,
        Command::Mcp { command } => mcp::mcp(&companion, command).await?,
        Command::Connections { command } => connections::connections(&companion, command).await?,
        Command::Devices { command } => devices::on_the_home_core(&companion, command).await?,
        Command::Remember { json, words } => remember(&companion, &words, json).await?,
        Command::Facts { json } => facts(&companion, json)?,
        Command::Recall { json, budget, query } => recall(&companion, &query.join(" "), budget, json).await?,
        Command::Import { json, file } => import(&companion, &file, json).await?,
        Command::Backup { json, dest } => data::backup(&companion, dest.as_deref(), json).await?,
        Command::Encryption { json, turn } => data::encryption(&companion, turn, json)?,
        Command::Export { format, output, checkpoints } => data::export(&companion, format, checkpoints, output.as_deref()).await?,
        Command::Restore { .. } => unreachable!("answered before the data is opened"),
        Command::Remind { json, words } => remind(&companion, &words, json).await?,
        Command::Reminders { json, ics, import } => reminders(&companion, json, ics, import.as_deref()).await?,
        Command::Tasks { command } => tasks::tasks(&companion, command).await?,
        Command::ParseDate { .. } | Command::Transcribe { .. } => unreachable!("answered before the data is opened"),
        Command::Daemon => unreachable!("runs until stopped"),
    };
    companion.shutdown().await;
    Ok(code)
}
