//! A real IMAP server for tests: Dovecot (Debian's dovecot-imapd; `make test` installs
//! it), started in the foreground on a free loopback port with a configuration, a user
//! (ana@example.org / secret) and a mail folder of the test's own, and a second client
//! that plays the mail arriving and the user's other mail app (appending, deleting,
//! recreating a folder) over IMAP. Shared by the mail crate's tests and tests/it.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::TryStreamExt;

pub(crate) const USER: &str = "ana@example.org";
pub(crate) const PASSWORD: &str = "secret";

/// Dovecot, stopped when dropped.
pub(crate) struct Dovecot {
    child: Option<Child>,
    config: std::path::PathBuf,
    pub port: u16,
    /// The user's home, where the Maildir is.
    home: std::path::PathBuf,
    /// Who owns the mail (Debian's dovecot user when the test is root).
    owner: Option<(u32, u32)>,
}

type Writer = async_imap::Session<tokio::net::TcpStream>;

impl Dovecot {
    /// What the user types in Settings → Mail to connect to this server (plain, on
    /// loopback, the last 30 days).
    pub(crate) fn account(&self) -> sidecar_mail::Connect {
        sidecar_mail::Connect {
            address: USER.into(),
            server: sidecar_mail::MailServer { host: "127.0.0.1".into(), port: self.port, security: sidecar_mail::MailSecurity::Plain, hint: None },
            username: USER.into(),
            password: PASSWORD.into(),
            first_days: 30,
        }
    }

    pub(crate) async fn start(dir: &Path) -> Self {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        Self::start_on(dir, port).await
    }

    /// Starts on `port` (again, after [`Dovecot::stop`], keeping the mail).
    pub(crate) async fn start_on(dir: &Path, port: u16) -> Self {
        let root = is_root();
        // The mail processes may not run as root: Debian's `dovecot` user owns the mail.
        let (mail_user, login_user, internal_user) = if root {
            ("dovecot".to_string(), "dovenull".to_string(), "dovecot".to_string())
        } else {
            let me = output("id", &["-un"]);
            (me.clone(), me.clone(), me)
        };
        let home = dir.join("home");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(dir.join("run")).unwrap();
        std::fs::create_dir_all(dir.join("state")).unwrap();
        std::fs::write(dir.join("passwd"), format!("{USER}:{{PLAIN}}{PASSWORD}\n")).unwrap();
        let owner = root.then(|| (output("id", &["-u", &mail_user]).parse().unwrap(), output("id", &["-g", &mail_user]).parse().unwrap()));
        if let Some((uid, gid)) = owner {
            use std::os::unix::fs::PermissionsExt;
            std::os::unix::fs::chown(&home, Some(uid), Some(gid)).unwrap();
            // Dovecot's own users reach the folder the test made (a temporary folder is 0700).
            for folder in dir.ancestors().take(2) {
                let mut mode = std::fs::metadata(folder).unwrap().permissions();
                mode.set_mode(mode.mode() | 0o755);
                std::fs::set_permissions(folder, mode).unwrap();
            }
        }
        let d = dir.display();
        let config = dir.join("dovecot.conf");
        std::fs::write(
            &config,
            format!(
                "base_dir = {d}/run\nstate_dir = {d}/state\nlog_path = {d}/log\nprotocols = imap\nlisten = 127.0.0.1\nssl = no\n\
                 disable_plaintext_auth = no\nauth_mechanisms = plain login\nfirst_valid_uid = 0\n\
                 default_login_user = {login_user}\ndefault_internal_user = {internal_user}\n\
                 passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {d}/passwd\n}}\n\
                 userdb {{\n  driver = static\n  args = uid={mail_user} gid={mail_user} home={d}/home/%u\n}}\n\
                 mail_location = maildir:~/Maildir\n\
                 service imap-login {{\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n  inet_listener imaps {{\n    port = 0\n  }}\n  chroot =\n}}\n\
                 service anvil {{\n  chroot =\n}}\n"
            ),
        )
        .unwrap();
        let mut child = Command::new("dovecot")
            .arg("-F")
            .arg("-c")
            .arg(&config)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("dovecot (Debian's dovecot-imapd: make test installs it)");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Self { child: Some(child), config, port, home: home.join(USER), owner };
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("dovecot stopped at start ({status}): {}", std::fs::read_to_string(dir.join("log")).unwrap_or_default());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = child.kill();
        panic!("dovecot did not start: {}", std::fs::read_to_string(dir.join("log")).unwrap_or_default());
    }

    pub(crate) fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("doveadm").arg("-c").arg(&self.config).arg("stop").stdout(Stdio::null()).stderr(Stdio::null()).status();
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The user's other mail app (or the world sending mail): a session of its own.
    pub(crate) async fn writer(&self) -> Writer {
        let tcp = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await.unwrap();
        let mut client = async_imap::Client::new(tcp);
        client.read_response().await.unwrap().unwrap();
        client.login(USER, PASSWORD).await.map_err(|(e, _)| e).unwrap()
    }

    /// A mail arrives in `folder`; its UID.
    pub(crate) async fn deliver(&self, folder: &str, raw: &str) -> u32 {
        let mut w = self.writer().await;
        // It arrived when its Date says (what IMAP's SINCE reads).
        let arrived = raw
            .lines()
            .find_map(|l| l.strip_prefix("Date: "))
            .and_then(|d| chrono::DateTime::parse_from_rfc2822(d.trim()).ok())
            .map(|d| d.format("\"%d-%b-%Y %H:%M:%S %z\"").to_string());
        w.append(folder, None, arrived.as_deref(), raw.replace('\n', "\r\n").replace("\r\r\n", "\r\n").as_bytes()).await.unwrap();
        let mailbox = w.examine(folder).await.unwrap();
        let _ = w.logout().await;
        mailbox.uid_next.unwrap() - 1
    }

    /// The user deletes the mail `uid` of `folder` in another app.
    pub(crate) async fn delete(&self, folder: &str, uid: u32) {
        let mut w = self.writer().await;
        w.select(folder).await.unwrap();
        let _: Vec<_> = w.uid_store(uid.to_string(), "+FLAGS (\\Deleted)").await.unwrap().try_collect().await.unwrap();
        let _: Vec<_> = w.expunge().await.unwrap().try_collect().await.unwrap();
        let _ = w.logout().await;
    }

    /// The folder is deleted and made again: a new UIDVALIDITY, the same mail in it.
    pub(crate) async fn recreate(&self, folder: &str, mails: &[String]) {
        let mut w = self.writer().await;
        w.delete(folder).await.unwrap();
        w.create(folder).await.unwrap();
        let _ = w.logout().await;
        for mail in mails {
            self.deliver(folder, mail).await;
        }
    }

    /// The flags of every mail of `folder` (Sidecar must leave them as they were).
    pub(crate) async fn flags(&self, folder: &str) -> Vec<String> {
        let mut w = self.writer().await;
        w.examine(folder).await.unwrap();
        let fetched: Vec<_> = w.uid_fetch("1:*", "FLAGS").await.unwrap().try_collect().await.unwrap();
        let _ = w.logout().await;
        fetched.iter().map(|f| format!("{:?}", f.flags().collect::<Vec<_>>())).collect()
    }

    /// Mails written straight into the Inbox's Maildir (as a migration or a restore
    /// would), which Dovecot indexes when the folder is next opened: thousands in seconds.
    pub(crate) fn fill_inbox(&self, mails: impl Iterator<Item = String>) {
        let new = self.home.join("Maildir/new");
        for folder in ["Maildir", "Maildir/new", "Maildir/cur", "Maildir/tmp"] {
            std::fs::create_dir_all(self.home.join(folder)).unwrap();
        }
        for (n, mail) in mails.enumerate() {
            std::fs::write(new.join(format!("1700000000.M{n}P1.test")), mail.replace('\n', "\r\n")).unwrap();
        }
        if let Some((uid, gid)) = self.owner {
            let chown = |path: &Path| std::os::unix::fs::chown(path, Some(uid), Some(gid)).unwrap();
            chown(&self.home);
            for folder in ["Maildir", "Maildir/new", "Maildir/cur", "Maildir/tmp"] {
                chown(&self.home.join(folder));
            }
            for entry in std::fs::read_dir(&new).unwrap() {
                chown(&entry.unwrap().path());
            }
        }
    }

    pub(crate) async fn create(&self, folder: &str) {
        let mut w = self.writer().await;
        w.create(folder).await.unwrap();
        let _ = w.logout().await;
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        self.stop();
    }
}

fn is_root() -> bool {
    output("id", &["-u"]) == "0"
}

fn output(program: &str, args: &[&str]) -> String {
    String::from_utf8(Command::new(program).args(args).output().unwrap().stdout).unwrap().trim().to_string()
}

/// A mail as a sender's program writes it.
pub(crate) fn mail(from: &str, subject: &str, date: &str, body: &str) -> String {
    format!(
        "From: {from}\nTo: {USER}\nSubject: {subject}\nDate: {date}\nMessage-ID: <{}@test>\nContent-Type: text/plain; charset=utf-8\n\n{body}\n",
        fastrand_id(subject)
    )
}

fn fastrand_id(seed: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    seed.hash(&mut h);
    std::time::SystemTime::now().hash(&mut h);
    format!("{:x}", h.finish())
}
