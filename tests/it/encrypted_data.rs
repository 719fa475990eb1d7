//! The database encrypted at rest as a person turns it on (issue 74): `sidecar encryption
//! on` with a real keychain (GNOME Keyring over the Secret Service; each command a new
//! login session on the same keyring files, as a person logs in day after day), the next
//! start converts the history of today with nothing lost, a copy without the key reads as
//! nothing, a backup stays restorable on another computer, and `off` makes it plain again.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::support::{reply_events, Reply, ScriptedServer};

const SECRET: &str = "Zanahoriaquebrada";

struct Person {
    home: PathBuf,
    data: PathBuf,
    base_url: String,
}

impl Person {
    /// `sidecar ARGS` in a login session of this person's with the keychain unlocked.
    fn logged_in(&self, args: &[&str]) -> Output {
        let unlock = "printf 'it-password\\n' | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec \"$0\" \"$@\"";
        let mut command = Command::new("dbus-run-session");
        command.args(["--", "sh", "-c", unlock, env!("CARGO_BIN_EXE_sidecar")]).args(args);
        self.sidecar(command).output().unwrap()
    }

    /// `sidecar ARGS` where no keychain answers (another computer, a locked session).
    fn without_keychain(&self, args: &[&str]) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_sidecar"));
        command.args(args).env("SIDECAR_NO_KEYCHAIN", "1");
        self.sidecar(command).output().unwrap()
    }

    fn sidecar(&self, mut command: Command) -> Command {
        command
            .env_remove("SIDECAR_NO_KEYCHAIN")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .env("HOME", &self.home)
            .env("XDG_DATA_HOME", self.home.join("share"))
            .env("SIDECAR_DATA_DIR", &self.data)
            .env("SIDECAR_CONFIG", self.data.join("absent-settings.toml"))
            .env("SIDECAR_LLM_BASE_URL", &self.base_url)
            .env("SIDECAR_LLM_MODEL", "scripted")
            .env("SIDECAR_RUNTIME", "off")
            .env("SIDECAR_LANG", "en");
        command
    }
}

fn said(out: &Output) -> String {
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn holds(path: &Path, word: &str) -> bool {
    let bytes = std::fs::read(path).unwrap();
    bytes.windows(word.len()).any(|w| w == word.as_bytes())
}

fn sqlite3_count(path: &Path) -> Output {
    Command::new("sqlite3").arg(path).arg("SELECT count(*) FROM messages").output().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encryption_turned_on_converts_todays_history_and_off_makes_it_plain() {
    let replies = (0..3).map(|i| Reply::Stream { events: reply_events(&[&format!("Anotado {i}.")]), delay: Duration::ZERO }).collect();
    let server = ScriptedServer::start(replies).await;
    let dir = tempfile::tempdir().unwrap();
    let person = Person { home: dir.path().join("home"), data: dir.path().join("data"), base_url: server.base_url.clone() };
    std::fs::create_dir_all(person.home.join("share")).unwrap();
    let db = person.data.join("sidecar.db");

    let person = tokio::task::spawn_blocking(move || {
        // Today's history, plain, as every Sidecar so far kept it.
        for i in 0..3 {
            said(&person.logged_in(&["ask", &format!("La clave {i} del trastero: {SECRET}")]));
        }
        assert!(String::from_utf8_lossy(&sqlite3_count(&db).stdout).trim() == "6");

        // Without a keychain that keeps keys, turning it on is refused and nothing changes.
        let refused = person.without_keychain(&["encryption", "on"]);
        assert!(!refused.status.success());
        assert!(
            String::from_utf8_lossy(&refused.stderr).contains("no system keychain can keep the database's key"),
            "{}",
            String::from_utf8_lossy(&refused.stderr)
        );

        let on = said(&person.logged_in(&["encryption", "on"]));
        assert!(on.contains("the next start encrypts it"), "{on}");
        // The next start converts it; the history is all there.
        let history = said(&person.logged_in(&["history", "--json", "--limit", "10"]));
        let history: Vec<serde_json::Value> = serde_json::from_str(&history).unwrap();
        assert_eq!(history.iter().filter(|m| m["content"].as_str().unwrap().contains(SECRET)).count(), 3, "{history:?}");
        assert!(said(&person.logged_in(&["encryption"])).contains("The database is encrypted"));
        assert!(!holds(&db, SECRET), "the encrypted file shows what was said");
        let read = sqlite3_count(&db);
        assert!(String::from_utf8_lossy(&read.stderr).contains("not a database"), "{}", String::from_utf8_lossy(&read.stderr));

        // The same folder where the keychain does not answer: refused, saying what to do.
        let locked = person.without_keychain(&["history"]);
        assert!(!locked.status.success());
        let why = String::from_utf8_lossy(&locked.stderr);
        assert!(why.contains("its key is not in this computer's keychain") && why.contains("Log in to your desktop"), "{why}");

        // A backup is opened on another computer without this one's keychain.
        let backup = dir.path().join("backup.sidecar-backup");
        said(&person.logged_in(&["backup", backup.to_str().unwrap()]));
        let elsewhere = Person { home: dir.path().join("other-home"), data: dir.path().join("other-data"), base_url: person.base_url.clone() };
        said(&elsewhere.without_keychain(&["restore", backup.to_str().unwrap()]));
        let restored: Vec<serde_json::Value> = serde_json::from_str(&said(&elsewhere.without_keychain(&["history", "--json", "--limit", "10"]))).unwrap();
        assert_eq!(restored.len(), 6);

        // Off: the next start makes it plain again, and the key leaves the keychain.
        assert!(said(&person.logged_in(&["encryption", "off"])).contains("the next start makes it plain again"));
        said(&person.logged_in(&["history"]));
        assert_eq!(String::from_utf8_lossy(&sqlite3_count(&db).stdout).trim(), "6");
        assert!(said(&person.logged_in(&["encryption"])).contains("The database is plain."));
        person
    })
    .await
    .unwrap();
    drop(person);
}
