//! Backups, restore, export and imports from other assistants, on real SQLite and real
//! files: backup → restore gives back every row and every file byte for byte; a
//! corrupted or cut backup is refused with nothing changed; a running Sidecar is not
//! restored under.

use sidecar_data::WithSettings;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use sha2::{Digest, Sha256};
use sidecar::Companion;
use sidecar_data::BackupError;
use sidecar_data::ExportFormat;
use sidecar_memory::Category;

async fn open(dir: &Path) -> Arc<Companion> {
    crate::support::core().writes_to(&dir.join("settings.toml")).open_in(&dir.join("data")).await
}

/// Every row of every table (full-text indexes aside: they are rebuilt from the rows),
/// each value quoted so text, numbers, NULLs and blobs compare exactly.
async fn rows(core: &Companion) -> BTreeMap<String, Vec<String>> {
    let pool = core.store().pool();
    let tables: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' ORDER BY name")
            .fetch_all(pool)
            .await
            .unwrap();
    let mut all = BTreeMap::new();
    for (table,) in tables {
        let columns: Vec<(String,)> =
            sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT name FROM pragma_table_info('{table}')"))).fetch_all(pool).await.unwrap();
        let quoted: Vec<String> = columns.iter().map(|(c,)| format!("quote(\"{c}\")")).collect();
        let sql = format!("SELECT {} FROM \"{table}\" ORDER BY 1", quoted.join(" || '|' || "));
        let values: Vec<(String,)> = sqlx::query_as(sqlx::AssertSqlSafe(sql)).fetch_all(pool).await.unwrap();
        all.insert(table, values.into_iter().map(|(v,)| v).collect());
    }
    all
}

/// Every file under `dir` with its bytes.
pub(crate) fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(path.strip_prefix(dir).unwrap().to_string_lossy().to_string(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn knowledge(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files(&dir.join("data/knowledge"))
}

async fn fill(core: &Companion, messages: &[String], facts: &[String], profile: &str) {
    let lines: String = messages
        .iter()
        .enumerate()
        .map(|(i, m)| serde_json::json!({"role": if i % 2 == 0 { "user" } else { "assistant" }, "content": m}).to_string() + "\n")
        .collect();
    core.data().import_jsonl(lines.as_bytes()).await.unwrap();
    for fact in facts {
        core.knowledge().begin_turn();
        let _ = core.remember(fact, Category::General).await;
    }
    let (_, version) = core.knowledge().profile(sidecar_memory::ProfileFile::User).unwrap();
    core.knowledge().save_profile(sidecar_memory::ProfileFile::User, profile, &version).unwrap();
}

/// The whole decompressed content of a gzip file, or None when gzip finds it damaged.
fn gunzip(bytes: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut content = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut content).ok()?;
    Some(content)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn backup_then_restore_gives_back_every_row_and_file(
        messages in prop::collection::vec("\\PC{1,80}", 1..20),
        facts in prop::collection::vec("[a-zA-Záéñ ]{4,40}", 0..5),
        profile in "\\PC{0,200}",
        later in "\\PC{1,40}",
    ) {
        runtime().block_on(async {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("settings.toml"), "[user]\ntimezone = \"Europe/Madrid\"\n").unwrap();
            let core = open(dir.path()).await;
            fill(&core, &messages, &facts, &profile).await;
            let (before_rows, before_files) = (rows(&core).await, knowledge(dir.path()));
            let backup = core.data().back_up(Some(&dir.path().join("b"))).await.unwrap();

            // Life goes on after the backup: more messages, another profile, new settings.
            fill(&core, std::slice::from_ref(&later), &[], "changed").await;
            std::fs::write(dir.path().join("settings.toml"), "[user]\ntimezone = \"Asia/Tokyo\"\n").unwrap();
            core.shutdown().await;
            drop(core);

            let restored = sidecar_data::restore_backup(&backup.path, &dir.path().join("data"), Some(&dir.path().join("settings.toml")), chrono::Utc::now(), WithSettings::Restore, None).await.unwrap();
            prop_assert!(restored.aside.join("sidecar.db").exists(), "the replaced data is kept aside");
            let core = open(dir.path()).await;
            prop_assert_eq!(rows(&core).await, before_rows);
            prop_assert_eq!(knowledge(dir.path()), before_files);
            prop_assert_eq!(std::fs::read_to_string(dir.path().join("settings.toml")).unwrap(), "[user]\ntimezone = \"Europe/Madrid\"\n");
            core.shutdown().await;
            Ok(())
        })?;
    }

    #[test]
    fn a_corrupted_or_cut_backup_is_refused_with_nothing_changed(cut in any::<prop::sample::Index>(), flip in any::<prop::sample::Index>(), truncate in any::<bool>()) {
        runtime().block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let core = open(dir.path()).await;
            fill(&core, &["hola".into(), "qué tal".into(), "I live in Lisbon".into()], &["Likes green tea".into()], "# Perfil\n").await;
            let backup = core.data().back_up(Some(&dir.path().join("b"))).await.unwrap();
            fill(&core, &["after the backup".into()], &[], "after").await;
            core.shutdown().await;
            drop(core);

            let original = std::fs::read(&backup.path).unwrap();
            let mut bytes = original.clone();
            if truncate {
                bytes.truncate(cut.index(bytes.len()));
            } else {
                // Past gzip's 10-byte header, whose time and OS fields no reader checks.
                let at = 10 + flip.index(bytes.len() - 10);
                bytes[at] ^= 0x5a;
            }
            std::fs::write(&backup.path, &bytes).unwrap();
            // The lock that keeps a running Sidecar from being restored under is created
            // by the check itself; it holds no data.
            let data_files = || -> BTreeMap<String, String> {
                files(&dir.path().join("data"))
                    .into_iter()
                    .filter(|(name, _)| name != "scheduler.lock")
                    .map(|(name, bytes)| (name, hex::encode(Sha256::digest(&bytes))))
                    .collect()
            };
            let data_before = data_files();
            let outcome = sidecar_data::restore_backup(&backup.path, &dir.path().join("data"), None, chrono::Utc::now(), WithSettings::Keep, None).await;
            // Deflate can say the same bytes more than one way: a flip in a back-reference
            // inside a run of zeros (most of a database page) can copy the same zeros from
            // elsewhere. Such a file holds exactly what was backed up, so it restores.
            if gunzip(&bytes).is_some_and(|content| Some(content) == gunzip(&original)) {
                prop_assert!(outcome.is_ok(), "an intact content restores: {:?}", outcome);
            } else {
                prop_assert!(matches!(outcome, Err(BackupError::Invalid { .. })), "{:?}", outcome);
                prop_assert_eq!(data_files(), data_before, "nothing changed");
            }
            Ok(())
        })?;
    }
}

#[tokio::test]
async fn a_restore_is_refused_while_sidecar_runs_on_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let backup = core.data().back_up(None).await.unwrap();
    assert!(backup.path.starts_with(dir.path().join("data/backups")));
    let _scheduler = core.reminders().scheduler().unwrap().expect("this process runs the scheduler");
    let refused = core.data().backups().restore(&backup.path, chrono::Utc::now(), WithSettings::Keep, None).await.unwrap_err();
    assert!(refused.to_string().contains("Quit it"), "{refused}");
}

#[tokio::test]
async fn daily_backups_are_written_once_a_day_and_pruned_to_seven_days_and_four_weeks() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let backups = core.data().backups();
    let start = chrono::NaiveDate::from_ymd_opt(2026, 9, 1).unwrap();
    for day in 0..40 {
        let today = start + chrono::Duration::days(day);
        assert!(backups.daily(chrono::Utc::now(), today).await.unwrap().is_some());
        assert!(backups.daily(chrono::Utc::now(), today).await.unwrap().is_none(), "once a day");
    }
    let kept = backups.automatic();
    assert_eq!(kept.len(), 11, "{kept:?}");
    assert_eq!(kept.last().unwrap().0, start + chrono::Duration::days(39));
}

#[tokio::test]
async fn export_writes_every_conversation_and_fact_as_markdown_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    fill(&core, &["I moved to Madrid".into(), "Nice!".into()], &["Lives in Madrid".into()], "x").await;
    let markdown = core.data().export(ExportFormat::Markdown).await.unwrap();
    assert!(markdown.contains("Lives in Madrid") && markdown.contains("I moved to Madrid") && markdown.contains("**Sidecar**"), "{markdown}");
    let json: serde_json::Value = serde_json::from_str(&core.data().export(ExportFormat::Json).await.unwrap()).unwrap();
    assert_eq!(json["conversations"][0]["messages"][1]["content"], "Nice!");
    assert_eq!(json["facts"][0]["text"], "Lives in Madrid");
    let path = core.data().export_to_file(ExportFormat::Json).await.unwrap();
    assert!(path.starts_with(dir.path().join("data/exports")) && path.extension().unwrap() == "json");
}

const CHATGPT: &str = r#"[{"title": "Trip planning", "current_node": "c",
  "mapping": {
    "root": {"id": "root", "message": null, "parent": null, "children": ["a"]},
    "a": {"id": "a", "message": {"id": "a", "author": {"role": "user"}, "create_time": 1700000000.5, "content": {"content_type": "text", "parts": ["Where should I go in Portugal?"]}}, "parent": "root", "children": ["b", "old"]},
    "old": {"id": "old", "message": {"id": "old", "author": {"role": "assistant"}, "create_time": 1700000001, "content": {"content_type": "text", "parts": ["An answer that was regenerated"]}}, "parent": "a", "children": []},
    "b": {"id": "b", "message": {"id": "b", "author": {"role": "assistant"}, "create_time": 1700000002, "content": {"content_type": "text", "parts": ["Try Porto and the Douro valley."]}}, "parent": "a", "children": ["c"]},
    "c": {"id": "c", "message": {"id": "c", "author": {"role": "user"}, "create_time": 1700000003, "content": {"content_type": "text", "parts": ["Thanks!"]}}, "parent": "b", "children": []}
  }},
  {"title": "Broken", "mapping": {}}]"#;

const CLAUDE: &str = r#"[{"uuid": "x", "name": "Recetas", "created_at": "2024-05-01T10:00:00Z",
  "chat_messages": [
    {"uuid": "m1", "sender": "human", "text": "¿Cómo hago un gazpacho?", "content": [{"type": "text", "text": "¿Cómo hago un gazpacho?"}], "created_at": "2024-05-01T10:00:00Z"},
    {"uuid": "m2", "sender": "assistant", "text": "Tomate, pepino, pimiento, ajo y aceite.", "content": [], "created_at": "2024-05-01T10:00:05Z"}
  ]}]"#;

#[tokio::test]
async fn chatgpt_and_claude_exports_join_recall_with_their_ids_and_dates() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    let report = core.data().import_chat_export(CHATGPT.as_bytes()).await.unwrap();
    assert_eq!((report.from.as_str(), report.conversations, report.messages), ("ChatGPT", 1, 3));
    assert_eq!(report.problems.len(), 1, "the broken conversation is reported: {:?}", report.problems);
    let hits = core.recall_service().search("Douro", 500).await.unwrap().hits;
    assert_eq!(hits[0].external_id.as_deref(), Some("b"));
    assert!(hits[0].timestamp.starts_with("2023-11-14"), "{}", hits[0].timestamp);
    assert!(core.recall_service().search("regenerated", 500).await.unwrap().hits.is_empty(), "only the branch shown in ChatGPT is imported");

    let report = core.data().import_chat_export(CLAUDE.as_bytes()).await.unwrap();
    assert_eq!((report.from.as_str(), report.messages), ("Claude", 2));
    let hits = core.recall_service().search("gazpacho", 500).await.unwrap().hits;
    assert_eq!(hits[0].external_id.as_deref(), Some("m1"));
    let titles: Vec<(Option<String>,)> = sqlx::query_as("SELECT title FROM conversations").fetch_all(core.store().pool()).await.unwrap();
    assert!(titles.contains(&(Some("Recetas".into()),)), "imported chats keep their titles: {titles:?}");

    let refused = core.data().import_chat_export(b"{\"not\": \"a list\"}").await.unwrap_err();
    assert!(refused.to_string().contains("ChatGPT or Claude"), "{refused}");
}

/// A restore asked for from the app is carried out at the next start, before the store
/// opens, and said once; a bad file is refused with why, and never asked again.
#[tokio::test]
async fn a_restore_asked_for_in_the_app_happens_at_the_next_start_and_is_said_once() {
    use sidecar_data::apply_pending_restore;
    use sidecar_data::schedule_restore;
    use sidecar_data::take_restore_result;
    use sidecar_data::RestoreNote;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let core = open(dir.path()).await;
    core.send("before the backup").await.ok();
    let backup = core.data().back_up(None).await.unwrap();
    core.send("after the backup").await.ok();
    schedule_restore(&data, &backup.path, None).unwrap();
    core.shutdown().await;
    drop(core);
    // The next start: the noted restore runs first.
    let note = apply_pending_restore(&data, None, chrono::Utc::now()).await.expect("a restore was noted");
    assert!(matches!(&note, RestoreNote::Restored { files, .. } if *files > 0), "{note:?}");
    assert!(apply_pending_restore(&data, None, chrono::Utc::now()).await.is_none(), "once only");
    let core = open(dir.path()).await;
    let said: Vec<String> = core.conversation().history(20).await.unwrap().into_iter().map(|m| m.content).collect();
    assert!(said.iter().any(|m| m == "before the backup") && !said.iter().any(|m| m == "after the backup"), "{said:?}");
    assert_eq!(take_restore_result(&data), Some(note));
    assert_eq!(take_restore_result(&data), None, "said once");
    core.shutdown().await;
    drop(core);
    // A file that is no backup: refused with why; the next start is a plain start.
    let junk = dir.path().join("junk.tar.gz");
    std::fs::write(&junk, b"not a backup").unwrap();
    schedule_restore(&data, &junk, None).unwrap();
    let note = apply_pending_restore(&data, None, chrono::Utc::now()).await.unwrap();
    assert!(matches!(&note, RestoreNote::Refused { why, .. } if !why.is_empty()), "{note:?}");
    assert!(apply_pending_restore(&data, None, chrono::Utc::now()).await.is_none());
    assert!(schedule_restore(&data, &dir.path().join("missing.tar.gz"), None).is_err());
}

/// One conversation on its own, as Markdown: its title, who said what, nothing else.
#[tokio::test]
async fn one_conversation_is_exported_on_its_own_as_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path()).await;
    fill(&core, &["I moved to Madrid".into(), "Nice!".into()], &["Lives in Madrid".into()], "x").await;
    let first = core.store().export_rows().conversations().await.unwrap()[0].id;
    core.store().chat_list().rename(first, Some("Moving")).await.unwrap();
    let path = core.data().export_conversation_to_file(first).await.unwrap();
    assert!(path.starts_with(dir.path().join("data/exports")) && path.extension().unwrap() == "md");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# Moving (") && text.contains("I moved to Madrid") && text.contains("Nice!"), "{text}");
    assert!(!text.contains("Lives in Madrid"), "facts are not part of one conversation: {text}");
    let missing = core.data().export_conversation_to_file(9_999).await.unwrap_err().to_string();
    assert!(missing.contains("no conversation 9999"), "{missing}");
}

/// An update that brings new migrations backs the data up first (a backup that
/// restores like any other), then migrates once; a database from a newer Sidecar is
/// refused with what to do, and its file is left exactly as it was.
#[tokio::test]
async fn an_upgrade_backs_up_first_and_a_newer_database_is_refused_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let core = open(dir.path()).await;
    core.send("/status").await.unwrap();
    let newest: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations").fetch_one(core.store().pool()).await.unwrap();
    core.shutdown().await;
    drop(core);
    let backups = |dir: &Path| -> Vec<String> {
        std::fs::read_dir(dir.join("backups")).map(|e| e.flatten().map(|e| e.file_name().to_string_lossy().to_string()).collect()).unwrap_or_default()
    };
    assert!(backups(&data).iter().all(|b| !b.starts_with("before-upgrade")), "no upgrade, no backup");

    // As if the data came from the Sidecar before the newest migration.
    let db = data.join("sidecar.db");
    {
        let store = sidecar_store::Store::open(&data).await.unwrap();
        sqlx::query("DELETE FROM _sqlx_migrations WHERE version = ?").bind(newest).execute(store.pool()).await.unwrap();
        // The newest migration's own change undone: an idle checkpoint's kind is
        // accepted either way, so there is nothing to undo; the version alone is gone.
        store.close().await;
    }
    let core = open(dir.path()).await;
    let made: Vec<String> = backups(&data).into_iter().filter(|b| b.starts_with("before-upgrade-")).collect();
    assert_eq!(made.len(), 1, "{made:?}");
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE version = ?").bind(newest).fetch_one(core.store().pool()).await.unwrap();
    assert_eq!(applied, 1, "migrated once");
    assert!(core.conversation().history(10).await.unwrap().iter().any(|m| m.content == "/status"), "nothing lost");
    core.shutdown().await;
    drop(core);
    let _again = open(dir.path()).await;
    drop(_again);
    assert_eq!(backups(&data).iter().filter(|b| b.starts_with("before-upgrade-")).count(), 1, "the next start has nothing to upgrade");

    // A newer Sidecar's migration: refused, and the file not touched.
    {
        let store = sidecar_store::Store::open(&data).await.unwrap();
        sqlx::query("INSERT INTO _sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (99991231000000, 'from the future', CURRENT_TIMESTAMP, 1, x'00', 0)")
            .execute(store.pool())
            .await
            .unwrap();
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(store.pool()).await.unwrap();
        store.close().await;
    }
    let before = std::fs::read(&db).unwrap();
    let refused = crate::support::core().try_open_in(&data).await.err().expect("refused").to_string();
    assert!(refused.contains("written by a newer Sidecar (its version 99991231000000") && refused.contains("update Sidecar"), "{refused}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "the newer database is left as it was");
}
