//! The link between two Sidecars on loopback, with real TLS, a real store and the real
//! WebSocket: pairing and its refusals, calls and events, a certificate that changed, a
//! revoked device, plain HTTP, and a link cut in the middle of a reply. The core's
//! commands here are a test's own (`Recorder`); the assembly's are tested with the app.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use sidecar_domain::Clock;
use sidecar_link::{
    pair, Addressed, CallFailure, Calls, Device, Devices, Identity, LinkClient, LinkError, LinkServer, LinkState, Listening, PairingError, Refusal,
};
use sidecar_store::Store;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, Notify};

/// Commands for the tests: `echo` answers its arguments, `slow` waits to be let go,
/// anything else answers an error; every run is counted.
#[derive(Default)]
struct Recorded {
    runs: AtomicUsize,
    release: Notify,
}

struct Recorder {
    recorded: Arc<Recorded>,
    events: broadcast::Sender<Addressed>,
}

impl Calls for Recorder {
    fn call(&self, device: Device, name: String, args: Value) -> BoxFuture<'static, Result<Value, Value>> {
        self.recorded.runs.fetch_add(1, Ordering::SeqCst);
        let recorded = self.recorded.clone();
        Box::pin(async move {
            match name.as_str() {
                "echo" => Ok(json!({ "device": device.name, "args": args })),
                "slow" => {
                    recorded.release.notified().await;
                    Ok(json!("done"))
                }
                _ => Err(json!({ "message": format!("no command {name}"), "retryable": false })),
            }
        })
    }

    fn events(&self) -> broadcast::Receiver<Addressed> {
        self.events.subscribe()
    }
}

/// A home core on loopback, with a clock the test moves.
struct Home {
    server: Arc<LinkServer>,
    listening: Listening,
    recorded: Arc<Recorded>,
    events: broadcast::Sender<Addressed>,
    now: Arc<Mutex<DateTime<Utc>>>,
    _dir: tempfile::TempDir,
}

impl Home {
    async fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let now = Arc::new(Mutex::new(Utc.with_ymd_and_hms(2026, 12, 4, 9, 0, 0).unwrap()));
        let moved = now.clone();
        let clock = Clock::new(Arc::new(move || *moved.lock().unwrap()), chrono_tz::UTC);
        let store = Store::open(dir.path()).await.unwrap().with_clock(clock.clone());
        let identity = Identity::load_or_make(&dir.path().join("link")).unwrap();
        let recorded = Arc::new(Recorded::default());
        let events = broadcast::channel(64).0;
        let calls = Arc::new(Recorder { recorded: recorded.clone(), events: events.clone() });
        let server = LinkServer::new(identity, Arc::new(Devices::new(store)), calls);
        let listening = server.listen("127.0.0.1:0".parse().unwrap()).await.unwrap();
        Self { server, listening, recorded, events, now, _dir: dir }
    }

    fn address(&self) -> String {
        self.listening.address.to_string()
    }

    fn later(&self, minutes: i64) {
        *self.now.lock().unwrap() += chrono::Duration::minutes(minutes);
    }

    async fn paired(&self, name: &str) -> sidecar_link::Paired {
        let code = self.server.devices().open_code().await.unwrap();
        pair(&self.address(), &code.code, name).await.unwrap()
    }
}

async fn until_state(client: &LinkClient, wanted: impl Fn(&LinkState) -> bool) -> LinkState {
    let mut state = client.state();
    let seen = tokio::time::timeout(Duration::from_secs(10), state.wait_for(|s| wanted(s))).await.expect("the state in time").expect("a state").clone();
    seen
}

#[tokio::test]
async fn a_paired_device_calls_the_core_and_hears_its_events() {
    let home = Home::start().await;
    let paired = home.paired("Laptop").await;
    assert_eq!(paired.fingerprint, home.server.fingerprint(), "the certificate pinned is the core's, shown on both sides");
    assert!(paired.token.starts_with("sk-sidecar-device-"));

    let client = LinkClient::connect(&home.address(), paired.fingerprint, &paired.token);
    let answer = client.call("echo", json!({ "text": "hola" })).await.unwrap();
    assert_eq!(answer, json!({ "device": "Laptop", "args": { "text": "hola" } }));
    let failed = client.call("nothing", Value::Null).await.unwrap_err();
    assert_eq!(failed, CallFailure::Answered(json!({ "message": "no command nothing", "retryable": false })));

    let mut events = client.events();
    home.events.send(Addressed::everyone(json!({ "kind": "reminder_fired", "id": 7 }))).unwrap();
    let event = tokio::time::timeout(Duration::from_secs(5), events.recv()).await.unwrap().unwrap();
    assert_eq!(event["id"], 7);

    let devices = home.server.devices().list().await.unwrap();
    assert_eq!(devices.len(), 1);
    assert_eq!(devices[0].name, "Laptop");
    assert!(devices[0].last_seen.is_some(), "the device's last activity is shown");
}

#[tokio::test]
async fn an_event_for_one_device_reaches_it_alone() {
    let home = Home::start().await;
    let (laptop, desk) = (home.paired("Laptop").await, home.paired("Desk").await);
    let laptop_link = LinkClient::connect(&home.address(), laptop.fingerprint, &laptop.token);
    let desk_link = LinkClient::connect(&home.address(), desk.fingerprint, &desk.token);
    // Up is kept even when no one watched it happen (the desk's, while the laptop's
    // was awaited).
    for link in [&laptop_link, &desk_link] {
        until_state(link, |s| *s == LinkState::Up).await;
    }
    // Up on the device's side may come a moment before the core counts the link.
    tokio::time::timeout(Duration::from_secs(5), async {
        while home.server.present().attached().len() < 2 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("both devices attached");
    let (mut on_laptop, mut on_desk) = (laptop_link.events(), desk_link.events());
    home.events.send(Addressed { event: json!({ "n": 1 }), only: Some(vec![desk.device.id]) }).unwrap();
    home.events.send(Addressed::everyone(json!({ "n": 2 }))).unwrap();
    let first_on_desk = tokio::time::timeout(Duration::from_secs(5), on_desk.recv()).await.unwrap().unwrap();
    assert_eq!(first_on_desk["n"], 1, "the desk hears what was for it");
    let first_on_laptop = tokio::time::timeout(Duration::from_secs(5), on_laptop.recv()).await.unwrap().unwrap();
    assert_eq!(first_on_laptop["n"], 2, "the laptop never heard the desk's event");
    drop(desk_link);
    tokio::time::timeout(Duration::from_secs(5), async {
        while home.server.present().attached() != [laptop.device.id] {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("a device that left is no longer attached");
}

#[tokio::test]
async fn pairing_refuses_a_wrong_an_expired_and_a_sixth_code() {
    let home = Home::start().await;
    let address = home.address();
    let refused = |r: Result<sidecar_link::Paired, LinkError>| match r {
        Err(LinkError::Pairing(e)) => e,
        other => panic!("a pairing refusal, got {other:?}"),
    };
    assert_eq!(refused(pair(&address, "1234 5678", "X").await), PairingError::NoCode);

    let code = home.server.devices().open_code().await.unwrap();
    let wrong = if code.code.starts_with('9') { "0000 0000" } else { "9999 9999" };
    for left in (1..5).rev() {
        assert_eq!(refused(pair(&address, wrong, "X").await), PairingError::Wrong { tries_left: left });
    }
    assert_eq!(refused(pair(&address, wrong, "X").await), PairingError::NoTriesLeft);
    assert_eq!(refused(pair(&address, &code.code, "X").await), PairingError::NoTriesLeft, "the sixth try is refused even when right");

    let code = home.server.devices().open_code().await.unwrap();
    home.later(6);
    assert_eq!(refused(pair(&address, &code.code, "X").await), PairingError::Expired);
    assert!(home.server.devices().list().await.unwrap().is_empty(), "no device was paired");
}

#[tokio::test]
async fn a_changed_certificate_is_refused_and_nothing_is_sent() {
    let home = Home::start().await;
    let paired = home.paired("Laptop").await;
    // Another core (another certificate) answers at an address the device trusts.
    let impostor = Home::start().await;
    let client = LinkClient::connect(&impostor.address(), paired.fingerprint, &paired.token);
    let state = until_state(&client, |s| matches!(s, LinkState::Refused { .. })).await;
    let LinkState::Refused { reason: Refusal::CertificateChanged { expected, got } } = state else { panic!("{state:?}") };
    assert_eq!(expected, home.server.fingerprint().to_string());
    assert_eq!(got, impostor.server.fingerprint().to_string());
    assert!(matches!(client.call("echo", Value::Null).await, Err(CallFailure::Refused(Refusal::CertificateChanged { .. }))));
    assert_eq!(impostor.recorded.runs.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_revoked_device_is_cut_off_at_once() {
    let home = Home::start().await;
    let paired = home.paired("Phone").await;
    let client = LinkClient::connect(&home.address(), paired.fingerprint, &paired.token);
    client.call("echo", Value::Null).await.unwrap();
    assert!(home.server.devices().revoke(paired.device.id).await.unwrap());
    let state = until_state(&client, |s| matches!(s, LinkState::Refused { .. })).await;
    assert_eq!(state, LinkState::Refused { reason: Refusal::NotAllowed });
    assert_eq!(client.call("echo", Value::Null).await, Err(CallFailure::Refused(Refusal::NotAllowed)));
    // A new link with the same token is refused before it opens.
    let again = LinkClient::connect(&home.address(), paired.fingerprint, &paired.token);
    assert_eq!(until_state(&again, |s| matches!(s, LinkState::Refused { .. })).await, LinkState::Refused { reason: Refusal::NotAllowed });
    assert!(home.server.devices().list().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_device_revoked_by_another_process_is_cut_off_within_seconds() {
    let home = Home::start().await;
    let paired = home.paired("Phone").await;
    let client = LinkClient::connect(&home.address(), paired.fingerprint, &paired.token);
    client.call("echo", Value::Null).await.unwrap();
    // Another process (`sidecar devices revoke`) on the same data: its own store and Devices.
    let elsewhere = Devices::new(Store::open(home._dir.path()).await.unwrap());
    assert!(elsewhere.revoke(paired.device.id).await.unwrap());
    let state = until_state(&client, |s| matches!(s, LinkState::Refused { .. })).await;
    assert_eq!(state, LinkState::Refused { reason: Refusal::NotAllowed });
}

#[tokio::test]
async fn plain_http_gets_no_answer() {
    let home = Home::start().await;
    let mut tcp = TcpStream::connect(home.listening.address).await.unwrap();
    tcp.write_all(b"GET /link HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut answer)).await;
    assert!(!answer.starts_with(b"HTTP/"), "plain HTTP must not be answered: {:?}", String::from_utf8_lossy(&answer));
}

/// A TCP relay between the device and the core that the test can cut.
struct Relay {
    address: SocketAddr,
    cut: broadcast::Sender<()>,
}

impl Relay {
    async fn to(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let cut = broadcast::channel::<()>(4).0;
        let cutter = cut.clone();
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let mut cut = cutter.subscribe();
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(target).await else { return };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = cut.recv() => {}
                    }
                });
            }
        });
        Self { address, cut }
    }
}

#[tokio::test]
async fn a_link_cut_mid_reply_runs_the_call_once_and_answers_it_once() {
    let home = Home::start().await;
    let paired = home.paired("Laptop").await;
    let relay = Relay::to(home.listening.address).await;
    let client = Arc::new(LinkClient::connect(&relay.address.to_string(), paired.fingerprint, &paired.token));
    until_state(&client, |s| *s == LinkState::Up).await;

    let slow = tokio::spawn({
        let client = client.clone();
        async move { client.call("slow", Value::Null).await }
    });
    while home.recorded.runs.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The link drops while the core works on the reply.
    relay.cut.send(()).unwrap();
    until_state(&client, |s| matches!(s, LinkState::Down { .. })).await;
    // Typed while down: kept, and sent once the link is back.
    let typed = tokio::spawn({
        let client = client.clone();
        async move { client.call("echo", json!("typed offline")).await }
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    home.recorded.release.notify_waiters();
    assert_eq!(tokio::time::timeout(Duration::from_secs(15), slow).await.unwrap().unwrap(), Ok(json!("done")));
    assert_eq!(tokio::time::timeout(Duration::from_secs(15), typed).await.unwrap().unwrap().unwrap()["args"], "typed offline");
    assert_eq!(home.recorded.runs.load(Ordering::SeqCst), 2, "the cut call ran once, the typed one once");
    assert_eq!(client.waiting(), 0);
}
