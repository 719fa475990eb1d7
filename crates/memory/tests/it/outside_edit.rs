//! A hand edit of learnings.md that Sidecar's own write meets before the watcher has
//! looked (it looks once a second): the write keeps the edit, and the watcher's next
//! look still reports it, with the line it could not read. The same when the Memory
//! view reads the file's facts first.

use chrono::NaiveDate;
use sidecar_domain::Lang;
use sidecar_memory::{Category, KnowledgeStore};

/// Adds a fact and a line Sidecar cannot read to learnings.md, as a text editor would;
/// returns the file.
fn hand_edit(data: &std::path::Path) -> std::path::PathBuf {
    let file = data.join("knowledge").join("learnings.md");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("- [weight:2] Plays the cello | learned:2026-11-01 | confirmed:2026-11-20\n- [weight:x] broken line\n");
    std::fs::write(&file, &text).unwrap();
    file
}

#[tokio::test]
async fn a_write_right_after_a_hand_edit_keeps_the_edit_and_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = KnowledgeStore::open(dir.path(), Lang::En).unwrap();
    let file = hand_edit(dir.path());

    store.save("Lives in Lisbon", Category::General, NaiveDate::from_ymd_opt(2026, 12, 6).unwrap()).await.unwrap();

    let on_disk = std::fs::read_to_string(&file).unwrap();
    assert!(on_disk.contains("Plays the cello"), "the hand edit was written over:\n{on_disk}");
    assert!(on_disk.contains("Lives in Lisbon"), "{on_disk}");
    assert!(store.facts().iter().any(|f| f.fact.text == "Plays the cello"));
    let problems = store.reload_if_changed().unwrap().expect("the edit is reported");
    assert!(problems.iter().any(|p| p.text.contains("broken line")), "{problems:?}");
    assert!(store.reload_if_changed().unwrap().is_none(), "reported once");
}

#[test]
fn the_memory_view_reading_a_hand_edit_first_leaves_it_for_the_watcher_to_report() {
    let dir = tempfile::tempdir().unwrap();
    let store = KnowledgeStore::open(dir.path(), Lang::En).unwrap();
    hand_edit(dir.path());

    store.catch_up().unwrap();
    assert!(store.facts().iter().any(|f| f.fact.text == "Plays the cello"), "the view lists the edit at once");
    let problems = store.reload_if_changed().unwrap().expect("the watcher still reports the edit");
    assert!(problems.iter().any(|p| p.text.contains("broken line")), "{problems:?}");
    assert!(store.reload_if_changed().unwrap().is_none(), "reported once");
}
