//! Log setup shared by the desktop app and the CLI: structured `tracing` lines on
//! standard error (filtered by `RUST_LOG` when set) and, where a data dir is known, a
//! daily file in its `logs/` folder that a desktop user can find and attach to a bug
//! report. Spans carry ids (turn, tick, delivery), never message text or keys, and
//! every line goes through the redactor (`crate::redact`) on its way out.

use std::path::{Path, PathBuf};

use crate::redact::{Redactor, Scrubbing};
use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer, Registry};

/// Daily files kept; older ones are deleted as new days begin.
pub(crate) const KEPT_DAYS: usize = 7;
/// What goes to the file unless `RUST_LOG` says otherwise.
const FILE_FILTER: &str = "info,tao=warn,wry=warn,sqlx=warn";
/// Log files are `sidecar.YYYY-MM-DD.log`.
const FILE_PREFIX: &str = "sidecar";

/// The folder of the daily log files, under the data dir.
pub fn log_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("logs")
}

/// Keeps the file writer flushing; drop it only when the process ends.
#[must_use = "the log file stops being written when this is dropped"]
pub struct LogGuard(#[allow(dead_code)] Option<WorkerGuard>);

/// A layer writing the daily file in `dir`, and the guard that flushes it.
pub(crate) fn file_layer<S>(dir: &Path, redactor: Redactor) -> std::io::Result<(impl Layer<S> + Send + Sync, WorkerGuard)>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    std::fs::create_dir_all(dir)?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(FILE_PREFIX)
        .filename_suffix("log")
        .max_log_files(KEPT_DAYS)
        .build(dir)
        .map_err(std::io::Error::other)?;
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(FILE_FILTER));
    let scrubbed = move || Scrubbing { writer: writer.clone(), redactor: redactor.clone() };
    let layer = tracing_subscriber::fmt::layer().with_writer(scrubbed).with_ansi(false).with_filter(filter);
    Ok((layer, guard))
}

/// Installs the subscriber, every line scrubbed by `redactor` (the one `Secrets` is
/// given, so a key it reads later is removed from lines written after): standard error with `default_filter` when `RUST_LOG` is
/// unset, and the daily file in `log_dir` when given. A file that cannot be opened is
/// reported on standard error; logging to the terminal goes on.
pub fn init(default_filter: &str, log_dir: Option<&Path>, redactor: &Redactor) -> LogGuard {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    let on_stderr = redactor.clone();
    let stderr = tracing_subscriber::fmt::layer().with_writer(move || Scrubbing { writer: std::io::stderr(), redactor: on_stderr.clone() }).with_filter(filter);
    let (file, guard) = match log_dir.map(|dir| file_layer::<Registry>(dir, redactor.clone())) {
        Some(Ok((layer, guard))) => (Some(layer), Some(guard)),
        Some(Err(error)) => {
            eprintln!("sidecar: cannot write the log file ({error}); logging to the terminal only");
            (None, None)
        }
        None => (None, None),
    };
    // A second call (tests, embedding) keeps the first subscriber.
    let _ = Registry::default().with(file).with(stderr).try_init();
    LogGuard(guard)
}
