//! The replies of recent calls, by device and call id: a call sent again after its link
//! dropped (the device keeps it until answered) joins the run under way or gets the
//! answer already made, so a message is sent to the model once.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::protocol::Outcome;

/// How long an answer is kept for a device that comes back.
const KEEP: Duration = Duration::from_secs(15 * 60);
/// The most answers kept (the oldest go first).
const MOST: usize = 10_000;

type Key = (i64, String);
/// A call's answer once made (`None` while it runs).
type Answer = watch::Receiver<Option<Outcome>>;

#[derive(Default)]
pub(crate) struct Replies {
    runs: Mutex<HashMap<Key, (Instant, Answer)>>,
}

/// A call's run: started here, or already under way (or done) from an earlier send.
pub(crate) enum Run {
    Start(watch::Sender<Option<Outcome>>, Answer),
    Joined(Answer),
}

impl Replies {
    pub(crate) fn run(&self, device: i64, id: &str) -> Run {
        let mut runs = self.runs.lock().expect("replies");
        let now = Instant::now();
        runs.retain(|_, (at, _)| now.duration_since(*at) < KEEP);
        if let Some((_, answer)) = runs.get(&(device, id.to_string())) {
            return Run::Joined(answer.clone());
        }
        if runs.len() >= MOST {
            if let Some(oldest) = runs.iter().min_by_key(|(_, (at, _))| *at).map(|(k, _)| k.clone()) {
                runs.remove(&oldest);
            }
        }
        let (tx, rx) = watch::channel(None);
        runs.insert((device, id.to_string()), (now, rx.clone()));
        Run::Start(tx, rx)
    }
}
