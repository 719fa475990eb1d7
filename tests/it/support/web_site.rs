//! A folder published by Python's own web server on loopback (`python -m http.server`):
//! what a calendar's public `.ics` address is. It dates files to the second and answers
//! `If-Modified-Since` with 304, as simple web hosts do.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The web server, stopped when dropped (or by [`WebSite::stop`]).
pub(crate) struct WebSite {
    child: Child,
    pub folder: PathBuf,
    pub port: u16,
}

impl WebSite {
    /// Publishes `folder` (made if missing).
    pub(crate) async fn start(folder: &Path, python: &Path) -> Self {
        std::fs::create_dir_all(folder).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(python)
            .args(["-m", "http.server", "--bind", "127.0.0.1", &port.to_string(), "--directory"])
            .arg(folder)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python -m http.server");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Self { child, folder: folder.to_path_buf(), port }
    }

    /// The address of `name` in the folder.
    pub(crate) fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}", self.port)
    }

    pub(crate) fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for WebSite {
    fn drop(&mut self) {
        self.stop();
    }
}
