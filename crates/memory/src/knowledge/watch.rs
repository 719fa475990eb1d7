//! Picks up edits made to the knowledge files in any text editor while Sidecar runs.
//!
//! Polls size and modification time once a second rather than using inotify: editors
//! save by renaming a new file over the old one, which an inotify watch on the file
//! loses, and a stat of three files a second costs nothing measurable.

use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use super::store::{KnowledgeStore, LEARNINGS_FILE, SOUL_FILE, USER_FILE};
use crate::knowledge::events::MemoryEvent;
use sidecar_domain::Emitter;

pub const POLL_INTERVAL: Duration = Duration::from_secs(1);

type Fingerprint = Vec<Option<(SystemTime, u64)>>;

fn fingerprint(dir: &Path) -> Fingerprint {
    [SOUL_FILE, USER_FILE, LEARNINGS_FILE]
        .iter()
        .map(|name| std::fs::metadata(dir.join(name)).ok().map(|m| (m.modified().unwrap_or(SystemTime::UNIX_EPOCH), m.len())))
        .collect()
}

/// Runs until the task is dropped: when learnings.md was edited outside Sidecar, it is
/// re-read and a `KnowledgeChanged` event reports the lines that could not be read (or
/// the error). Sidecar's own writes raise no event. When the lines held out of the
/// prompt change (any file, any writer), a `KnowledgeSuspect` event says which they are now.
/// The first look compares the file with what the store holds, so an edit made between
/// the store's opening and this task's start counts too (a loaded machine starts the
/// loops seconds after the window shows the facts: an edit then went unnoticed).
pub fn watch(store: Arc<KnowledgeStore>, events: Emitter<MemoryEvent>, interval: Duration) -> impl Future<Output = ()> {
    let mut last: Option<Fingerprint> = None;
    let mut suspect = Vec::new();
    async move {
        loop {
            tokio::time::sleep(interval).await;
            let now = fingerprint(store.dir());
            if last.as_ref() == Some(&now) {
                continue;
            }
            last = Some(now);
            if let Some(event) = reload_event(&store) {
                events.publish(event);
            }
            let now_suspect = store.suspect_lines();
            if now_suspect != suspect {
                for line in &now_suspect {
                    tracing::warn!(file = line.file.name(), line = line.line, reason = ?line.reason, "a knowledge line reads as instructions from elsewhere; held out of the prompt (Bug 6)");
                }
                suspect = now_suspect.clone();
                events.publish(MemoryEvent::KnowledgeSuspect { lines: now_suspect });
            }
        }
    }
}

/// `None` when the change was Sidecar's own write (or only SOUL.md / user.md, which
/// are read afresh for every prompt).
fn reload_event(store: &KnowledgeStore) -> Option<MemoryEvent> {
    Some(match store.reload_if_changed() {
        Ok(None) => return None,
        Ok(Some(problems)) => {
            for bad in &problems {
                tracing::warn!(line = bad.line, reason = %bad.reason, "learnings.md line not understood after an edit; kept as it is");
            }
            MemoryEvent::KnowledgeChanged { problems, error: None }
        }
        Err(error) => {
            tracing::warn!(%error, "could not re-read the knowledge files");
            MemoryEvent::KnowledgeChanged { problems: Vec::new(), error: Some(error.to_string()) }
        }
    })
}
