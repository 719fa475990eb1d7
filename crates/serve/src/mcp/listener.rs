//! Accepts the loopback endpoint's connections under limits, so no local program can
//! take it down by opening connections and saying nothing: a request's head must arrive
//! within [`HEADER_TIMEOUT`], a connection with nothing in flight and nothing moving is
//! closed after [`IDLE_TIMEOUT`], at most [`MAX_CONNECTIONS`] are open at once (the next
//! one pushes out the oldest that has had no request in flight for [`SILENT_GRACE`], so
//! a real client still gets in however many silent ones there are; when every one is
//! busy, the next waits in the system's queue), and a failed accept (out of file descriptors) pauses the loop instead of
//! spinning. Failures are logged once per burst, with a count, never once each.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

use crate::api::ApiResponse;

/// How long a client has to send a request's head (line and headers).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a connection may sit with no request in flight and no bytes moving.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Connections open at once.
pub const MAX_CONNECTIONS: usize = 256;
/// How long a connection must have been silent before a newer one may push it out (a
/// client that just connected is about to send its request).
pub(crate) const SILENT_GRACE: Duration = Duration::from_millis(100);
/// How often a full endpoint looks again for a connection to push out.
const FULL_RECHECK: Duration = Duration::from_millis(20);
/// The longest pause after a failed accept (it doubles from 10 ms up to this).
const MAX_ACCEPT_PAUSE: Duration = Duration::from_secs(1);
/// The most a connection buffers of a request's head (hyper's floor is 8 KiB).
const MAX_BUFFER: usize = 64 * 1024;
/// How often one kind of trouble may be logged.
const LOG_EVERY: Duration = Duration::from_secs(10);

/// What answers one request.
pub(crate) type Answer = Arc<dyn Fn(hyper::Request<Incoming>) -> Pin<Box<dyn Future<Output = ApiResponse> + Send>> + Send + Sync>;

/// One open connection, as the cap sees it.
struct Open {
    stop: CancellationToken,
    /// Requests whose head arrived and whose answer is not wholly sent: a connection
    /// with one is a client being served, never pushed out.
    in_flight: Arc<AtomicUsize>,
    activity: Arc<Activity>,
}

impl Open {
    fn silent(&self) -> bool {
        self.in_flight.load(Ordering::Relaxed) == 0 && self.activity.idle_for() >= SILENT_GRACE
    }
}

/// Counts a request in flight until dropped (with its answer's body, once sent).
struct InFlight(Arc<AtomicUsize>);

impl InFlight {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::Relaxed);
        Self(count.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Counts one kind of trouble and logs it at most once per [`LOG_EVERY`].
struct Burst {
    what: &'static str,
    count: AtomicU64,
    logged: Mutex<Option<Instant>>,
}

impl Burst {
    const fn new(what: &'static str) -> Self {
        Self { what, count: AtomicU64::new(0), logged: Mutex::new(None) }
    }

    fn happened(&self, detail: &dyn std::fmt::Display) {
        self.count.fetch_add(1, Ordering::Relaxed);
        let mut logged = self.logged.lock().expect("burst lock");
        if logged.is_none_or(|at| at.elapsed() >= LOG_EVERY) {
            let count = self.count.swap(0, Ordering::Relaxed);
            tracing::warn!(count, last = %detail, "the local endpoint: {} (logged once per {} s)", self.what, LOG_EVERY.as_secs());
            *logged = Some(Instant::now());
        }
    }
}

/// The open connections, oldest first.
#[derive(Default)]
struct Registry {
    next: u64,
    open: BTreeMap<u64, Open>,
}

impl Registry {
    /// Room for one more: at the cap, the oldest silent connection is closed; `false`
    /// when none is silent.
    fn make_room(&mut self) -> bool {
        if self.open.len() < MAX_CONNECTIONS {
            return true;
        }
        let Some(oldest) = self.open.iter().find(|(_, o)| o.silent()).map(|(id, _)| *id) else { return false };
        if let Some(open) = self.open.remove(&oldest) {
            open.stop.cancel();
        }
        true
    }
}

/// Serves `answer` on `listener` until `stop` is cancelled.
pub(crate) async fn serve(listener: TcpListener, stop: CancellationToken, answer: Answer) {
    let registry = Arc::new(Mutex::new(Registry::default()));
    let (failed_accepts, full) = (Burst::new("accepting a connection failed"), Burst::new("every connection was busy, so new ones waited"));
    let mut pause = Duration::from_millis(10);
    loop {
        // Room first: a connection left in the system's queue is better than one taken
        // and dropped.
        let mut waited = false;
        while !registry.lock().expect("registry lock").make_room() {
            if !std::mem::replace(&mut waited, true) {
                full.happened(&MAX_CONNECTIONS);
            }
            tokio::select! {
                _ = tokio::time::sleep(FULL_RECHECK) => {}
                _ = stop.cancelled() => return,
            }
        }
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    pause = Duration::from_millis(10);
                    stream
                }
                Err(error) => {
                    // Out of descriptors, mostly: spinning would only fill the log.
                    failed_accepts.happened(&error);
                    tokio::select! {
                        _ = tokio::time::sleep(pause) => {}
                        _ = stop.cancelled() => return,
                    }
                    pause = (pause * 2).min(MAX_ACCEPT_PAUSE);
                    continue;
                }
            },
            _ = stop.cancelled() => return,
        };
        let open = Open { stop: stop.child_token(), in_flight: Arc::default(), activity: Arc::default() };
        let (open_stop, in_flight, activity) = (open.stop.clone(), open.in_flight.clone(), open.activity.clone());
        let id = {
            let mut registry = registry.lock().expect("registry lock");
            registry.next += 1;
            let id = registry.next;
            registry.open.insert(id, open);
            id
        };
        let (registry, answer) = (registry.clone(), answer.clone());
        tokio::spawn(async move {
            connection(stream, open_stop, in_flight, activity, answer).await;
            registry.lock().expect("registry lock").open.remove(&id);
        });
    }
}

/// One connection, until it ends, idles out, or is stopped.
async fn connection(stream: TcpStream, stop: CancellationToken, in_flight: Arc<AtomicUsize>, activity: Arc<Activity>, answer: Answer) {
    let service = {
        let in_flight = in_flight.clone();
        hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let counted = InFlight::new(&in_flight);
            let answer = answer.clone();
            async move {
                let response = answer(request).await;
                // The request stays in flight until its body is sent or dropped.
                let response = response.map(|body| {
                    body.map_frame(move |frame| {
                        let _kept_until_sent = &counted;
                        frame
                    })
                    .boxed()
                });
                Ok::<_, std::convert::Infallible>(response)
            }
        })
    };
    let io = TokioIo::new(Watched { inner: stream, activity: activity.clone() });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(HEADER_TIMEOUT).max_buf_size(MAX_BUFFER);
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);
    let mut check = tokio::time::interval(IDLE_TIMEOUT / 4);
    loop {
        tokio::select! {
            served = &mut connection => {
                if let Err(error) = served {
                    tracing::debug!(%error, "a local endpoint connection ended");
                }
                return;
            }
            _ = check.tick() => {
                if in_flight.load(Ordering::Relaxed) == 0 && activity.idle_for() >= IDLE_TIMEOUT {
                    return;
                }
            }
            _ = stop.cancelled() => return,
        }
    }
}

/// When bytes last moved on a connection, in milliseconds since it opened.
struct Activity {
    opened: Instant,
    last_ms: AtomicU64,
}

impl Default for Activity {
    fn default() -> Self {
        Self { opened: Instant::now(), last_ms: AtomicU64::new(0) }
    }
}

impl Activity {
    fn touch(&self) {
        self.last_ms.store(self.opened.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        self.opened.elapsed().saturating_sub(Duration::from_millis(self.last_ms.load(Ordering::Relaxed)))
    }
}

/// A stream that notes when bytes move either way.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(in_flight: usize, silent_for: Duration) -> Open {
        let activity = Activity { opened: Instant::now() - silent_for, last_ms: AtomicU64::new(0) };
        Open { stop: CancellationToken::new(), in_flight: Arc::new(AtomicUsize::new(in_flight)), activity: Arc::new(activity) }
    }

    #[test]
    fn at_the_cap_the_oldest_silent_connection_makes_room_and_busy_or_new_ones_are_kept() {
        let mut registry = Registry::default();
        let mut tokens = Vec::new();
        for id in 0..MAX_CONNECTIONS as u64 {
            let entry = match id {
                3 | 7 => open(0, Duration::from_secs(5)), // silent
                1 => open(0, Duration::ZERO),             // just connected
                _ => open(1, Duration::from_secs(5)),     // a request in flight
            };
            tokens.push(entry.stop.clone());
            registry.open.insert(id, entry);
        }
        assert!(registry.make_room());
        assert!(tokens[3].is_cancelled() && !registry.open.contains_key(&3), "the oldest silent connection went");
        assert_eq!(tokens.iter().filter(|t| t.is_cancelled()).count(), 1);
        registry.open.insert(1000, open(1, Duration::ZERO));
        assert!(registry.make_room() && tokens[7].is_cancelled(), "the next silent one");
        registry.open.insert(1001, open(1, Duration::ZERO));
        assert!(!registry.make_room(), "none is silent: the next one waits");
        assert!(!tokens[1].is_cancelled(), "a connection that just came is given its moment");
    }
}
