//! Log setup shared by the desktop app and the CLI: structured `tracing` lines on
//! standard error, filtered by `RUST_LOG` when set.

/// Installs the subscriber; `default_filter` applies when `RUST_LOG` is unset.
pub fn init(default_filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter));
    // A second call (tests, embedding) keeps the first subscriber.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
