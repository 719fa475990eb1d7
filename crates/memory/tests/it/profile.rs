//! The profile form over user.md and SOUL.md: what it saves is what the model is
//! told, what the user wrote by hand stays, and an edit made meanwhile in the files is
//! never overwritten.

use sidecar_domain::Lang;
use sidecar_memory::KnowledgeError;
use sidecar_memory::KnowledgeStore;
use sidecar_memory::ProfileFields;
use sidecar_memory::ProfileFile;

fn fields() -> ProfileFields {
    ProfileFields {
        name: "Ana Ruiz".into(),
        address_as: "Ana".into(),
        about: "Enfermera en el turno de noche; alérgica a los cacahuetes.".into(),
        answer_style: "Respuestas cortas, sin listas.".into(),
    }
}

#[test]
fn the_form_saves_into_the_files_and_the_prompt_sees_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = KnowledgeStore::open(dir.path(), Lang::Es).unwrap();
    let empty = store.profile_fields().unwrap();
    assert_eq!(empty.fields, ProfileFields::default());
    let saved = store.save_profile_fields(&fields(), &empty.user_version, &empty.soul_version, Lang::Es).unwrap();
    assert_eq!(saved.fields, fields());
    let (user, _) = store.profile(ProfileFile::User).unwrap();
    assert!(user.starts_with("# Perfil\n\n- Nombre: Ana Ruiz\n- Idioma: español\n- Llámame: Ana\n"), "{user}");
    assert!(user.contains("## Sobre mí\n\nEnfermera en el turno de noche"), "{user}");
    let (soul, _) = store.profile(ProfileFile::Soul).unwrap();
    // The character the plans describe is kept; the form adds its section.
    assert!(soul.starts_with("# Sidecar\n\n## Identidad\nSos Sidecar") && soul.contains("(vos, che)"), "{soul}");
    assert!(soul.contains("## Lo que no hacés") && soul.ends_with("## Cómo responder\n\nRespuestas cortas, sin listas.\n"), "{soul}");
    let (persona, block, _) = store.prompt_parts(chrono::NaiveDate::from_ymd_opt(2026, 11, 24).unwrap(), 500, |t| t.len() / 4);
    assert!(persona.contains("Respuestas cortas, sin listas."), "{persona}");
    assert!(block.contains("Ana Ruiz") && block.contains("alérgica a los cacahuetes"), "{block}");
}

#[test]
fn an_edit_made_in_the_file_meanwhile_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let store = KnowledgeStore::open(dir.path(), Lang::En).unwrap();
    let shown = store.profile_fields().unwrap();
    let user_path = dir.path().join("knowledge").join("user.md");
    let by_hand = "# Profile\n\n- Name: Ana\n\nWritten by hand in an editor.\n";
    std::fs::write(&user_path, by_hand).unwrap();
    let refused = store.save_profile_fields(&fields(), &shown.user_version, &shown.soul_version, Lang::En).unwrap_err();
    assert!(matches!(refused, KnowledgeError::ProfileStale { file: "user.md" }), "{refused}");
    assert!(refused.to_string().contains("reload it"), "{refused}");
    assert_eq!(std::fs::read_to_string(&user_path).unwrap(), by_hand);
    // Reloaded, the form shows the hand edit, and saving keeps the hand-written line.
    let again = store.profile_fields().unwrap();
    assert_eq!(again.fields.name, "Ana");
    store.save_profile_fields(&ProfileFields { address_as: "Annie".into(), ..again.fields }, &again.user_version, &again.soul_version, Lang::En).unwrap();
    let user = std::fs::read_to_string(&user_path).unwrap();
    assert_eq!(user, "# Profile\n\n- Name: Ana\n- Call me: Annie\n\nWritten by hand in an editor.\n");
}

#[test]
fn the_character_is_written_once_in_the_first_language_and_the_users_edits_win() {
    let dir = tempfile::tempdir().unwrap();
    let soul_path = dir.path().join("knowledge").join("SOUL.md");
    drop(KnowledgeStore::open(dir.path(), Lang::En).unwrap());
    let soul = std::fs::read_to_string(&soul_path).unwrap();
    assert!(soul.contains("You are Sidecar, a companion that lives on the user's computer") && soul.contains("Claim to be human."), "{soul}");
    std::fs::write(&soul_path, "# Sidecar\n\nTerse. Formal. No jokes.\n").unwrap();
    // A later start, even in another language, keeps the user's words.
    let store = KnowledgeStore::open(dir.path(), Lang::Es).unwrap();
    assert_eq!(store.profile(ProfileFile::Soul).unwrap().0, "# Sidecar\n\nTerse. Formal. No jokes.\n");
}
