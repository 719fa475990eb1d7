//! Two Sidecars on one machine, two data folders and two processes: the home core is
//! `sidecar daemon` listening on loopback, the second device is the `sidecar` CLI of
//! another data folder. Pairing with the code the core shows, the certificate the same
//! on both sides, a message sent from the device answered by the core's model, what the
//! device keeps for itself refused by the core, and a revoked device refused at once.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};

use crate::support::{reply_events, stream, ScriptedServer};

fn sidecar(data: &std::path::Path, base_url: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sidecar"));
    cmd.env("SIDECAR_DATA_DIR", data)
        .env("SIDECAR_CONFIG", data.join("settings.toml"))
        .env("SIDECAR_LLM_BASE_URL", base_url)
        .env("SIDECAR_LLM_MODEL", "scripted")
        .env("SIDECAR_RUNTIME", "off")
        .env("SIDECAR_NO_KEYCHAIN", "1");
    cmd
}

async fn run(mut cmd: Command) -> Output {
    tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
}

fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

struct Daemon(Child);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_device_pairs_with_the_home_core_talks_to_it_and_is_revoked() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Hola", " desde casa"]))).await;
    let (home, laptop) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let address = format!("127.0.0.1:{}", free_port());
    let out = run({
        let mut c = sidecar(home.path(), &server.base_url);
        c.args(["devices", "listen", &address]);
        c
    })
    .await;
    assert!(out.status.success(), "{}", said(&out));
    let mut child = sidecar(home.path(), &server.base_url).arg("daemon").stderr(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.contains("delivering reminders"), "{line}");
    let _daemon = Daemon(child);

    // The code and the certificate, shown on the home core (another process than the daemon).
    let shown = run({
        let mut c = sidecar(home.path(), &server.base_url);
        c.args(["devices", "code", "--json"]);
        c
    })
    .await;
    let shown: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();

    let wrong = run({
        let mut c = sidecar(laptop.path(), &server.base_url);
        c.args(["devices", "pair", &address, "0000 0000", "--name", "Laptop"]);
        c
    })
    .await;
    if shown["code"] != "0000 0000" {
        assert_eq!(wrong.status.code(), Some(1));
        assert!(said(&wrong).contains("4 tries left"), "{}", said(&wrong));
    }
    let paired = run({
        let mut c = sidecar(laptop.path(), &server.base_url);
        c.args(["devices", "pair", &address, shown["code"].as_str().unwrap(), "--name", "Laptop"]);
        c
    })
    .await;
    assert!(paired.status.success(), "{}", said(&paired));
    assert!(said(&paired).contains(shown["fingerprint"].as_str().unwrap()), "the device shows the certificate the core shows: {}", said(&paired));

    // A message typed on the laptop is answered by the home core's model, and kept there.
    let sent = run({
        let mut c = sidecar(laptop.path(), &server.base_url);
        c.args(["devices", "call", "send_message", r#"{"text": "¿Me oyes desde el portátil?"}"#]);
        c
    })
    .await;
    assert!(sent.status.success(), "{}", said(&sent));
    let outcome: serde_json::Value = serde_json::from_slice(&sent.stdout).unwrap();
    assert_eq!(outcome["reply"], "Hola desde casa");
    assert_eq!(crate::support::said(&server.last_request()["messages"][1]), "¿Me oyes desde el portátil?");
    let history = run({
        let mut c = sidecar(home.path(), &server.base_url);
        c.args(["history", "--json"]);
        c
    })
    .await;
    assert!(String::from_utf8_lossy(&history.stdout).contains("desde el portátil"), "the message is the home core's");

    // What a device keeps for itself is not run on the core.
    let local = run({
        let mut c = sidecar(laptop.path(), &server.base_url);
        c.args(["devices", "call", "voice_start"]);
        c
    })
    .await;
    assert_eq!(local.status.code(), Some(1));
    assert!(said(&local).contains("runs on the device itself"), "{}", said(&local));

    let listed = run({
        let mut c = sidecar(home.path(), &server.base_url);
        c.args(["devices", "list", "--json"]);
        c
    })
    .await;
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let device = &listed["view"]["devices"][0];
    assert_eq!(device["name"], "Laptop");
    assert!(device["last_seen"].is_string(), "its last activity is shown: {listed}");
    let revoked = run({
        let mut c = sidecar(home.path(), &server.base_url);
        c.args(["devices", "revoke", &device["id"].to_string()]);
        c
    })
    .await;
    assert!(revoked.status.success(), "{}", said(&revoked));
    let refused = run({
        let mut c = sidecar(laptop.path(), &server.base_url);
        c.args(["devices", "call", "list_chats"]);
        c
    })
    .await;
    assert_eq!(refused.status.code(), Some(1));
    assert!(said(&refused).contains("no longer allows this device"), "{}", said(&refused));
}
