//! The notes folder: confined to it, atomic, never overwriting what changed on disk,
//! deleting to the system trash, and asking before each tool like any tool that acts.

use std::sync::Arc;

use serde_json::json;
use sidecar_actions::Choice;
use sidecar_actions::NotesError;
use sidecar_actions::NotesFolder;
use sidecar_actions::PermissionGate;
use sidecar_llm::ToolCall;
use sidecar_store::Store;
use sidecar_tools::CallScope;
use sidecar_tools::ToolRegistry;

use crate::support::asker::ScriptedAsker;

fn vault() -> (tempfile::TempDir, NotesFolder) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("vault/Projects")).unwrap();
    std::fs::write(dir.path().join("vault/Projects/plan.md"), "# Plan\nSee [[Ideas]] and buy bread.\n").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
    let folder = NotesFolder::open(&dir.path().join("vault")).unwrap();
    (dir, folder)
}

#[test]
fn nothing_outside_the_folder_is_reached() {
    let (dir, folder) = vault();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), dir.path().join("vault/leak.md")).unwrap();
    std::os::unix::fs::symlink(dir.path(), dir.path().join("vault/up")).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.path().join("vault/null.md")).unwrap();
    for path in ["../secret.txt", "/etc/passwd", "Projects/../../secret.txt", "leak.md", "up/secret.txt", "up/new.md", "null.md"] {
        assert!(matches!(folder.read(path), Err(NotesError::Outside(_))), "read {path}");
        assert!(matches!(folder.create(path, "x"), Err(NotesError::Outside(_)) | Err(NotesError::NotANote(_))), "create {path}");
    }
    assert!(matches!(folder.rename("Projects/plan.md", "../stolen.md"), Err(NotesError::Outside(_))));
    assert!(matches!(folder.delete("leak.md"), Err(NotesError::Outside(_))));
    assert_eq!(std::fs::read_to_string(dir.path().join("secret.txt")).unwrap(), "outside");
    assert!(!dir.path().join("stolen.md").exists());
}

#[test]
fn notes_are_written_whole_links_kept_and_a_note_changed_on_disk_is_not_overwritten() {
    let (dir, folder) = vault();
    let plan = dir.path().join("vault/Projects/plan.md");
    assert!(folder.read("Projects/plan.md").unwrap().contains("[[Ideas]]"));
    std::fs::write(&plan, "# Plan\nEdited in Obsidian meanwhile.\n").unwrap();
    assert!(matches!(folder.append("Projects/plan.md", "- [[Shopping]]"), Err(NotesError::ChangedOnDisk(_))));
    assert_eq!(std::fs::read_to_string(&plan).unwrap(), "# Plan\nEdited in Obsidian meanwhile.\n");
    folder.read("Projects/plan.md").unwrap();
    folder.append("Projects/plan.md", "- [[Shopping]]").unwrap();
    assert_eq!(std::fs::read_to_string(&plan).unwrap(), "# Plan\nEdited in Obsidian meanwhile.\n- [[Shopping]]\n");

    assert!(matches!(folder.create("Projects/plan.md", "again"), Err(NotesError::Exists(_))));
    folder.create_folder("Inbox").unwrap();
    folder.create("Inbox/idea.md", "An idea about [[Plan]]").unwrap();
    folder.rename("Inbox/idea.md", "Projects/idea.md").unwrap();
    let listed: Vec<_> = folder.list("Projects").unwrap().into_iter().map(|e| e.path).collect();
    assert_eq!(listed, ["Projects/idea.md", "Projects/plan.md"]);
    let found = sidecar_actions::search_notes(&folder, "shopping", 10).unwrap();
    assert_eq!(found.found[0].path, "Projects/plan.md");
    assert_eq!(found.found[0].lines, ["- [[Shopping]]"]);
    // No temporary file is left beside the notes.
    let names: Vec<_> = std::fs::read_dir(dir.path().join("vault/Projects")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn a_deleted_note_goes_to_the_trash_where_it_can_be_found() {
    let (dir, folder) = vault();
    let plan = dir.path().join("vault/Projects/plan.md").canonicalize().unwrap();
    folder.delete("Projects/plan.md").unwrap();
    assert!(!plan.exists());
    let trashed = trash::os_limited::list().unwrap();
    let item = trashed.iter().find(|i| i.original_path() == plan).expect("in the trash");
    trash::os_limited::purge_all([item.clone()]).unwrap();
}

#[tokio::test]
async fn every_note_tool_asks_and_the_read_only_switch_lets_reading_through_but_not_writing() {
    let (dir, folder) = vault();
    let gate = Arc::new(PermissionGate::new(Store::open(&dir.path().join("data")).await.unwrap(), sidecar_domain::system_clock(), Default::default()));
    let asker = Arc::new(ScriptedAsker::default());
    gate.set_asker(asker.clone());
    let mut registry = ToolRegistry::new().guarded_by(gate.clone());
    sidecar_actions::notes_tools(Arc::new(folder)).into_iter().for_each(|t| registry.register_shared(t));
    let call = |name: &str, arguments: serde_json::Value| ToolCall { id: "c".into(), name: name.into(), arguments: arguments.to_string() };

    let read = registry.run(&call("read_note", json!({"path": "Projects/plan.md"})), CallScope::default()).await;
    assert!(read.denied, "{}", read.content);
    gate.set_auto_read_only(true).unwrap();
    let read = registry.run(&call("read_note", json!({"path": "Projects/plan.md"})), CallScope::default()).await;
    assert!(!read.is_error && read.content.contains("[[Ideas]]") && read.content.contains("untrusted_content"), "{}", read.content);
    assert_eq!(asker.questions(), 1, "reading ran without asking");

    let create = registry.run(&call("create_note", json!({"path": "new.md", "content": "hola"})), CallScope::default()).await;
    assert!(create.denied && !dir.path().join("vault/new.md").exists(), "{}", create.content);
    asker.will(Choice::AllowOnce);
    let create = registry.run(&call("create_note", json!({"path": "new.md", "content": "hola"})), CallScope::default()).await;
    assert!(!create.is_error, "{}", create.content);
    assert_eq!(std::fs::read_to_string(dir.path().join("vault/new.md")).unwrap(), "hola");
    let question = asker.last();
    assert_eq!((question.server.as_str(), question.tool.as_str()), ("notes", "create_note"));
    assert_eq!(question.arguments, json!({"path": "new.md", "content": "hola"}));
}
