//! Backups sealed with a passphrase (issue 74): with one set, every backup is an age file
//! that holds none of the user's words readably; it is restored on another data folder
//! with the passphrase, refused without it or with a wrong one (nothing changed), and a
//! byte changed in it is refused as damage. The app's restore opens it when asked, so the
//! next start needs no one to type it.

use std::path::Path;

use sidecar_data::{apply_pending_restore, restore_backup, schedule_restore, BackupError, BadBackup, Passphrase, RestoreNote, WithSettings};
use sidecar_memory::Category;

const PASSPHRASE: &str = "la maceta turquesa del balcón";

fn holds(path: &Path, word: &str) -> bool {
    std::fs::read(path).unwrap().windows(word.len()).any(|w| w == word.as_bytes())
}

fn refusal(result: Result<sidecar_data::Restored, BackupError>) -> BadBackup {
    match result {
        Err(BackupError::Invalid { why, .. }) => why,
        other => panic!("not refused as invalid: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sealed_backup_opens_only_with_its_passphrase_on_another_computer() {
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core().open_in(&dir.path().join("home")).await;
    let history = serde_json::json!({"role": "user", "content": "Mi vecina Zenobia Quintanilla guarda la llave"}).to_string() + "\n";
    core.data().import_jsonl(history.as_bytes()).await.unwrap();
    core.remember("Zenobia es mi vecina", Category::Relationships).await.unwrap();

    assert!(!core.data().backup_seal().sealed, "plain until a passphrase is set");
    let short = core.data().seal_backups("1234").unwrap_err().to_string();
    assert!(short.contains("at least 10 characters"), "{short}");
    let seal = core.data().seal_backups(PASSPHRASE).unwrap();
    assert!(seal.sealed && seal.storage.is_some(), "{seal:?}");
    let backup = core.data().back_up(Some(&dir.path().join("usb"))).await.unwrap();
    assert!(sidecar_data::is_sealed(&backup.path).unwrap());
    for word in ["Zenobia", "Quintanilla", "vecina", "sidecar.db", "manifest"] {
        assert!(!holds(&backup.path, word), "{word} is readable in the sealed backup");
    }

    // Another computer: refused without the passphrase and with a wrong one, nothing made.
    let other = dir.path().join("laptop");
    std::fs::create_dir_all(&other).unwrap();
    let now = chrono::Utc::now();
    assert!(matches!(refusal(restore_backup(&backup.path, &other, None, now, WithSettings::Keep, None).await), BadBackup::Sealed));
    let wrong = Passphrase::new("la maceta azul del balcón");
    let refused = refusal(restore_backup(&backup.path, &other, None, now, WithSettings::Keep, wrong.as_ref()).await);
    assert!(matches!(refused, BadBackup::WrongPassphrase), "{refused}");
    assert!(!other.join("sidecar.db").exists(), "nothing was restored");
    // A byte changed in the sealed data is found by age's own check.
    let tampered = dir.path().join("tampered.sidecar-backup");
    let mut bytes = std::fs::read(&backup.path).unwrap();
    let middle = bytes.len() - 40;
    bytes[middle] ^= 0x20;
    std::fs::write(&tampered, &bytes).unwrap();
    let right = Passphrase::new(PASSPHRASE);
    assert!(matches!(refusal(restore_backup(&tampered, &other, None, now, WithSettings::Keep, right.as_ref()).await), BadBackup::Damaged(_)));
    assert!(!other.join("sidecar.db").exists(), "nothing was restored");
    // With it: everything is back.
    let restored = restore_backup(&backup.path, &other, None, now, WithSettings::Keep, right.as_ref()).await.unwrap();
    assert!(restored.files >= 2, "{restored:?}");
    let laptop = crate::support::core().open_in(&other).await;
    assert!(!laptop.recall_service().search("Zenobia llave", 500).await.unwrap().hits.is_empty(), "the message is back");
    assert!(laptop.knowledge().facts().iter().any(|f| f.fact.text.contains("Zenobia")), "and the fact");
    laptop.shutdown().await;

    // From the app: a sealed backup is opened when the restore is asked for.
    let phone = dir.path().join("third");
    std::fs::create_dir_all(&phone).unwrap();
    let asked = schedule_restore(&phone, &backup.path, None).unwrap_err();
    assert!(matches!(asked, BackupError::Invalid { why: BadBackup::Sealed, .. }), "{asked}");
    schedule_restore(&phone, &backup.path, right.as_ref()).unwrap();
    let note = apply_pending_restore(&phone, None, now).await.unwrap();
    assert!(matches!(note, RestoreNote::Restored { .. }), "{note:?}");
    let leftovers: Vec<_> =
        std::fs::read_dir(&phone).unwrap().flatten().map(|e| e.file_name()).filter(|n| n.to_string_lossy().ends_with(".sidecar-backup")).collect();
    assert!(leftovers.is_empty(), "the opened copy is removed: {leftovers:?}");

    // No passphrase: backups are plain again.
    assert!(!core.data().seal_backups("").unwrap().sealed);
    let plain = core.data().back_up(Some(&dir.path().join("usb"))).await.unwrap();
    assert!(!sidecar_data::is_sealed(&plain.path).unwrap());
    core.shutdown().await;
}
