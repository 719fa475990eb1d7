//! A real CalDAV server for tests: Radicale (from PyPI, in the test venv), started on a
//! free loopback port with one user (ana / secret), and a phone's calendar app writing to
//! it over plain HTTP. Shared by the calendar crate's tests and tests/it.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub(crate) const USER: &str = "ana";
pub(crate) const PASSWORD: &str = "secret";

/// Radicale, stopped when dropped.
pub(crate) struct Radicale {
    child: Child,
    pub url: String,
}

impl Radicale {
    pub(crate) async fn start(dir: &Path, python: &Path) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        std::fs::write(dir.join("users"), format!("{USER}:{PASSWORD}\n")).unwrap();
        let mut child = Command::new(python)
            .args(["-m", "radicale", "--server-hosts", &format!("127.0.0.1:{port}"), "--storage-filesystem-folder"])
            .arg(dir.join("collections"))
            .args(["--auth-type", "htpasswd", "--auth-htpasswd-encryption", "plain", "--auth-htpasswd-filename"])
            .arg(dir.join("users"))
            .args(["--logging-level", "warning"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python -m radicale (the test venv: make test installs it)");
        let url = format!("http://127.0.0.1:{port}/");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Self { child, url };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = child.kill();
        let _ = child.wait();
        panic!("Radicale did not start");
    }

    pub(crate) fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn at(&self, href: &str) -> String {
        format!("{}{}", self.url.trim_end_matches('/'), href)
    }

    /// The phone's calendar app writes an item.
    pub(crate) async fn put(&self, href: &str, body: &str) {
        let put = reqwest::Client::new()
            .put(self.at(href))
            .basic_auth(USER, Some(PASSWORD))
            .header("Content-Type", "text/calendar")
            .body(body.to_string())
            .send()
            .await
            .unwrap();
        assert!(put.status().is_success(), "{}", put.status());
    }

    /// The phone's calendar app deletes an item.
    pub(crate) async fn delete(&self, href: &str) {
        let gone = reqwest::Client::new().delete(self.at(href)).basic_auth(USER, Some(PASSWORD)).send().await.unwrap();
        assert!(gone.status().is_success(), "{}", gone.status());
    }

    /// What the server holds at `href`, as the phone reads it; `None` when nothing.
    pub(crate) async fn get(&self, href: &str) -> Option<String> {
        let got = reqwest::Client::new().get(self.at(href)).basic_auth(USER, Some(PASSWORD)).send().await.unwrap();
        if !got.status().is_success() {
            return None;
        }
        got.text().await.ok()
    }
}

impl Drop for Radicale {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One event as a phone writes it, its times in Madrid.
pub(crate) fn event(uid: &str, summary: &str, start: &str, end: &str, extra: &str) -> String {
    format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;TZID=Europe/Madrid:{start}\r\n\
DTEND;TZID=Europe/Madrid:{end}\r\nSUMMARY:{summary}\r\n{extra}END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
}
