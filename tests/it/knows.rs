//! What Sidecar knows about you (issue 74): each fact learned in a chat names the
//! message it came from, and keeps naming it when the user corrects its words; a chat
//! deleted names nothing; a fact marked important is written so in learnings.md.

use sidecar_memory::Category;

use crate::forget::files_with;
use crate::support::{reply_events, stream, ScriptedServer};

/// Saves what the user says of the neighbour as a fact; answers anything else.
fn noting(request: &serde_json::Value) -> sidecar_testkit::Reply {
    let (said, answered) = crate::support::last_said(request);
    if said.contains("Eulalia") && !answered {
        let fact = r#"{"fact": "Su vecina Eulalia riega sus plantas", "category": "Relationships"}"#;
        return stream(sidecar_testkit::tool_call_events(&[("f1", "remember_fact", fact)]));
    }
    stream(reply_events(&["Anotado."]))
}

#[tokio::test]
async fn a_fact_names_the_message_it_was_learned_from_through_a_correction_until_its_chat_is_deleted() {
    let server = ScriptedServer::responding(noting).await;
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core().provider("p", &server.base_url).open_in(dir.path()).await;
    core.send("Hola, ¿qué tal?").await.unwrap();
    core.send("Mi vecina Eulalia me riega las plantas cuando viajo").await.unwrap();
    core.remember("Le gusta el té rojo", Category::Preferences).await.unwrap();
    let history = core.conversation().history(50).await.unwrap();
    let said = history.iter().find(|m| m.role == sidecar_llm::Role::User && m.content.contains("Eulalia")).unwrap();
    let line_of = |text: &str| core.knowledge().facts().into_iter().find(|f| f.fact.text == text).unwrap().line;

    let origins = core.knowledge().origins().await.unwrap();
    let eulalia = line_of("Su vecina Eulalia riega sus plantas");
    assert_eq!(origins.len(), 1, "the fact typed in Memory was learned in no chat: {origins:?}");
    assert_eq!((origins[0].line, origins[0].message_id), (eulalia, said.id));
    // The page's link opens that chat.
    assert_eq!(core.chats().open_at(said.id).await.unwrap(), said.conversation_id);

    // Corrected, it still names where it was learned.
    core.knowledge()
        .edit(eulalia, "Su vecina Eulalia riega sus plantas", "Su vecina Eulalia Ortega riega sus plantas los viernes", Category::Relationships)
        .await
        .unwrap();
    let origins = core.knowledge().origins().await.unwrap();
    assert_eq!(origins.iter().map(|o| o.message_id).collect::<Vec<_>>(), [said.id]);

    // Marked important: in the file, for the user to see and undo by hand too.
    let text = "Su vecina Eulalia Ortega riega sus plantas los viernes";
    core.knowledge().mark_important(line_of(text), text, true).unwrap();
    let file = std::fs::read_to_string(dir.path().join("knowledge/learnings.md")).unwrap();
    assert!(file.contains(&format!("{text} | learned:")) && file.lines().any(|l| l.contains(text) && l.ends_with("| critical")), "{file}");
    assert!(core.knowledge().facts().iter().any(|f| f.fact.text == text && f.fact.critical));
    assert!(core.knowledge().mark_important(line_of(text), "not what the line says", false).is_err(), "a stale line is refused");
    core.knowledge().mark_important(line_of(text), text, false).unwrap();
    assert!(!std::fs::read_to_string(dir.path().join("knowledge/learnings.md")).unwrap().contains("| critical"));

    // The chat deleted: the fact stays (it was not asked to go), naming nothing.
    core.chats().delete(said.conversation_id).await.unwrap();
    assert!(core.knowledge().origins().await.unwrap().is_empty());
    assert!(core.knowledge().facts().iter().any(|f| f.fact.text == text));
    core.shutdown().await;
}

/// Answers by quoting what was said (so a checkpoint holds it); the sister is kept as a
/// fact that does not name Ana.
fn quoting(request: &serde_json::Value) -> sidecar_testkit::Reply {
    let (said, answered) = crate::support::last_said(request);
    if said.contains("Lyon") && !answered {
        let fact = r#"{"fact": "Tiene una cuñada que vive en Lyon", "category": "Relationships"}"#;
        return stream(sidecar_testkit::tool_call_events(&[("f1", "remember_fact", fact)]));
    }
    stream(reply_events(&["Sobre eso: ", said.trim_matches('"')]))
}

#[tokio::test]
async fn forget_everything_about_ana_lists_first_then_forgets_what_stays_ticked_and_nothing_else() {
    let server = ScriptedServer::responding(quoting).await;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("app");
    let core = crate::support::core().provider("p", &server.base_url).open_in(&data).await;
    core.send("Ana me contó que su hermana vive en Lyon").await.unwrap();
    core.send("Me encanta el batido de banana con avena").await.unwrap();
    core.send("El cumpleaños de ÁNA es el catorce de marzo").await.unwrap();
    core.send("Ana y yo fuimos al cine Kursaal").await.unwrap();
    core.send("/checkpoint").await.unwrap();
    core.remember("Ana es alérgica a las nueces pecanas", Category::Health).await.unwrap();
    core.remember("Le gusta la banana madura", Category::Preferences).await.unwrap();

    let about = core.data().about("  ana ").await.unwrap();
    assert_eq!(about.name, "ana");
    let facts: Vec<&str> = about.facts.iter().map(|f| f.fact.text.as_str()).collect();
    assert_eq!(facts.len(), 2, "{facts:?}");
    assert!(facts.contains(&"Ana es alérgica a las nueces pecanas") && facts.contains(&"Tiene una cuñada que vive en Lyon"), "{facts:?}");
    let said: Vec<&str> = about.messages.iter().map(|m| m.excerpt.as_str()).collect();
    assert!(about.messages.iter().all(|m| !m.excerpt.contains("banana") || m.excerpt.contains("[Ana]")), "{said:?}");
    assert!(said.iter().any(|s| s.contains("[ÁNA]")), "accents and case aside: {said:?}");
    assert!(about.notes.iter().any(|n| n.kind == "checkpoint"), "the checkpoint quotes her: {:?}", about.notes);
    assert!(!about.more);
    // Nothing is gone until the user says.
    assert!(!files_with(&data, "catorce").is_empty() && !files_with(&data, "pecanas").is_empty());

    // The user unticks the cinema: kept, with its reply.
    let kursaal: Vec<i64> = about.messages.iter().filter(|m| m.excerpt.contains("Kursaal")).map(|m| m.message_id).collect();
    assert!(!kursaal.is_empty());
    let chosen = sidecar_data::ForgetChosen {
        facts: about.facts.iter().map(|f| sidecar_data::ChosenFact { line: f.line, text: f.fact.text.clone() }).collect(),
        messages: about.messages.iter().map(|m| m.message_id).filter(|id| !kursaal.contains(id)).collect(),
        notes: about.notes.clone(),
    };
    let gone = core.forget_about(&chosen).await.unwrap();
    assert_eq!((gone.facts, gone.changed), (2, 0), "{gone:?}");
    assert!(gone.messages >= 4 && gone.notes >= 1, "the questions with their replies, and the checkpoint: {gone:?}");
    for word in ["Lyon", "catorce", "pecanas", "cuñada"] {
        assert_eq!(files_with(&data, word), Vec::<String>::new(), "{word} is still in a file");
    }
    assert!(!files_with(&data, "Kursaal").is_empty(), "unticked, so kept");
    assert!(!files_with(&data, "batido").is_empty() && !files_with(&data, "madura").is_empty(), "banana is not Ana");
    let again = core.data().about("Ana").await.unwrap();
    assert!(again.facts.is_empty() && again.notes.is_empty() && again.messages.iter().all(|m| m.excerpt.contains("Kursaal")), "{again:?}");
    assert!(core.data().about(" ¿? ").await.unwrap().messages.is_empty(), "no words, nothing found");
    core.shutdown().await;
}

/// A backup made before a deletion may still hold what went: Settings names those
/// backups, and removing it from the backups makes a new one first, then removes them.
#[tokio::test]
async fn the_backups_made_before_a_deletion_are_named_and_removed_after_a_fresh_one() {
    let server = ScriptedServer::responding(noting).await;
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core().provider("p", &server.base_url).open_in(dir.path()).await;
    core.send("Mi contraseña del wifi es Girasol-Naranja").await.unwrap();
    assert_eq!(core.data().held_in_backups().await.unwrap(), sidecar_data::HeldInBackups { since: None, backups: vec![] });
    let before = core.data().back_up(None).await.unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let said = core.conversation().history(10).await.unwrap().into_iter().find(|m| m.content.contains("Girasol")).unwrap();
    core.forget_exchange(said.id).await.unwrap();
    let held = core.data().held_in_backups().await.unwrap();
    assert!(held.since.is_some());
    assert_eq!(held.backups, std::slice::from_ref(&before.path));

    assert_eq!(core.data().forget_in_backups().await.unwrap(), 1);
    assert!(!before.path.exists(), "the backup holding it is gone");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("backups")).unwrap().flatten().map(|e| e.path()).collect();
    assert_eq!(left.len(), 1, "a backup of everything kept was made first: {left:?}");
    assert!(core.data().held_in_backups().await.unwrap().backups.is_empty());
    // The new one holds none of it.
    let restored = tempfile::tempdir().unwrap();
    sidecar_data::restore_backup(&left[0], restored.path(), None, chrono::Utc::now(), sidecar_data::WithSettings::Keep, None).await.unwrap();
    assert_eq!(crate::forget::files_with(restored.path(), "Girasol"), Vec::<String>::new());
    core.shutdown().await;
}

/// A fact Sidecar noticed and saved without asking, and a "Remember this?" kept, name the
/// message they were said in too.
#[tokio::test]
async fn a_noticed_fact_saved_or_kept_names_the_message_it_was_said_in() {
    let server = ScriptedServer::responding(|_| stream(reply_events(&["Anotado."]))).await;
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::core().provider("p", &server.base_url).open_in(dir.path()).await;
    core.noticing().set_saves_without_asking(true).unwrap();
    core.send("Por cierto, soy alérgica a los frutos secos").await.unwrap();
    let history = core.conversation().history(10).await.unwrap();
    let said = history.iter().find(|m| m.content.contains("frutos secos")).unwrap();
    let noticed = core.knowledge().facts().into_iter().find(|f| f.fact.text.contains("frutos secos")).expect("saved without asking");
    let origins = core.knowledge().origins().await.unwrap();
    assert!(origins.iter().any(|o| o.line == noticed.line && o.message_id == said.id), "{origins:?}");
    // Kept from the chip, with the message it was said in.
    core.remember_from("Su hermano Pablo vive en Quito", Category::Relationships, said.id).await.unwrap();
    let kept = core.knowledge().facts().into_iter().find(|f| f.fact.text.contains("Quito")).unwrap();
    assert!(core.knowledge().origins().await.unwrap().iter().any(|o| o.line == kept.line && o.message_id == said.id));
    core.shutdown().await;
}
