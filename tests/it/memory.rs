//! Memory through the companion: knowledge files created on first run, the
//! remember_fact tool (three per turn), facts and profile in the next prompt, the CLI.

use std::process::Command;
use std::sync::Arc;

use crate::support::{reply_events, stream, tool_call_events, ScriptedServer};
use sidecar::Companion;

async fn open(dir: &std::path::Path, base_url: &str) -> Arc<Companion> {
    crate::support::core().provider("p", base_url).settings("[user]\ntimezone = \"Europe/Madrid\"\n").open_in(dir).await
}

#[tokio::test]
async fn remember_fact_saves_to_learnings_and_the_next_prompt_knows_it() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[
            ("a", "remember_fact", r#"{"fact": "Es celíaco, no puede comer gluten", "category": "Health"}"#),
            ("b", "remember_fact", r#"{"fact": "Le gusta el té verde", "category": "Preferencias"}"#),
            ("c", "remember_fact", r#"{"fact": "Trabaja como enfermera", "category": "Work"}"#),
            ("d", "remember_fact", r#"{"fact": "Tiene un gato llamado Miso", "category": "Relationships"}"#),
        ])),
        stream(reply_events(&["Anotado."])),
        stream(reply_events(&["Claro: nada de gluten."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    for file in ["SOUL.md", "user.md", "learnings.md"] {
        assert!(dir.path().join("knowledge").join(file).exists(), "{file} created on first run");
    }
    core.send("Soy celíaca, me gusta el té verde, soy enfermera y tengo un gato, Miso").await.unwrap();

    // Three saves per turn: the fourth was refused and said so to the model.
    let second = server.requests.lock().unwrap()[1].clone();
    let results: Vec<String> =
        second["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").map(|m| m["content"].as_str().unwrap().to_string()).collect();
    assert!(results[0].contains("new fact under Health"), "{}", results[0]);
    assert!(results[1].contains("Preferences"), "{results:?}");
    assert!(results[3].contains("at most 3"), "{}", results[3]);
    let file = std::fs::read_to_string(dir.path().join("knowledge/learnings.md")).unwrap();
    assert!(file.contains("- [weight:1] Es celíaco, no puede comer gluten | learned:"), "{file}");
    assert!(!file.contains("Miso"));
    assert_eq!(core.knowledge().facts().len(), 3);

    // The next turn's system prompt carries them, wrapped as data.
    core.send("¿Qué no puedo comer?").await.unwrap();
    let third = server.last_request();
    let system = third["messages"][0]["content"].as_str().unwrap();
    let knowledge = &system[system.find("<user_knowledge>").expect("knowledge block")..];
    assert!(knowledge.contains("## Health\n- Es celíaco, no puede comer gluten"), "{system}");
    assert!(knowledge.contains("remember_fact"));
}

#[tokio::test]
async fn an_edit_outside_sidecar_is_picked_up_on_reload_and_bad_lines_are_reported() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["ok"]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    let path = dir.path().join("knowledge/learnings.md");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("- [weight:4] Vive en Rosario | learned:2026-01-01 | confirmed:2026-11-01\n- Vive en Rosario pero sin formato\n");
    std::fs::write(&path, &text).unwrap();
    let problems = core.knowledge().reload().unwrap();
    assert_eq!(problems.len(), 1);
    assert!(problems[0].text.contains("sin formato"));
    assert_eq!(core.knowledge().facts().len(), 1);
}

#[tokio::test]
async fn the_cli_remembers_and_lists_facts_in_spanish_templates() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sidecar"))
            .env("SIDECAR_DATA_DIR", dir.path())
            .env("SIDECAR_CONFIG", dir.path().join("none.toml"))
            .env(sidecar_memory::AUTOMATIC_ENV, "local")
            .env("SIDECAR_LANG", "es")
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["remember", "--json", "Salud", "Es", "alérgico", "al", "maní"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#"{"action":"new","category":"Health"}"#);
    let out = run(&["remember", "--json", "Health", "es alergico al mani"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains(r#""action":"reinforced","category":"Health","weight":2"#));
    let out = run(&["remember", "Health", "Es alérgico a la nuez"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "Saved under Health.");
    let out = run(&["facts", "--json"]);
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let texts: Vec<&str> = listed["facts"].as_array().unwrap().iter().map(|f| f["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["Es alérgico al maní", "Es alérgico a la nuez"]);
    assert_eq!(listed["facts"][0]["weight"], 2);
    let learnings = std::fs::read_to_string(dir.path().join("knowledge/learnings.md")).unwrap();
    assert!(learnings.starts_with("# Aprendizajes"), "{learnings}");
    // No category: picked from the words, as the chat's tool does.
    let out = run(&["remember", "--json", "Me encanta el café de especialidad"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#"{"action":"new","category":"Preferences"}"#);
    let out = run(&["remember", "--json", "Trabajo de enfermera en el turno de noche"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#"{"action":"new","category":"Work"}"#);
}

#[tokio::test]
async fn recall_finds_old_messages_and_facts_accent_insensitively_with_sources() {
    let server = ScriptedServer::start(vec![
        stream(reply_events(&["Qué bueno, Rosario es linda."])),
        stream(tool_call_events(&[("r", "recall", r#"{"query": "rosario"}"#)])),
        stream(reply_events(&["Vivís en Rosario."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    core.send("Me mudé a Rosário el año pasado").await.unwrap();
    core.remember("Vive en Rosario con su gato", sidecar_memory::Category::General).await.unwrap();

    let results = core.recall_service().search("rosario", 2000).await.unwrap();
    let sources: Vec<(&str, &str)> = results.hits.iter().map(|h| (h.source.as_str(), h.label.as_str())).collect();
    assert!(sources.contains(&("message", "user")), "{sources:?}");
    assert!(sources.contains(&("message", "assistant")));
    assert!(sources.contains(&("fact", "General")));
    let user_hit = results.hits.iter().find(|h| h.label == "user").unwrap();
    assert!(user_hit.snippet.contains("[Rosário]"), "{}", user_hit.snippet);
    assert!(!user_hit.timestamp.is_empty());
    // FTS syntax in a query is just words.
    assert!(core.recall_service().search("\"unbalanced AND (", 2000).await.unwrap().hits.is_empty());

    // The model can recall too.
    core.send("¿dónde vivo?").await.unwrap();
    let tool_result =
        server.last_request()["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "tool").unwrap()["content"].as_str().unwrap().to_string();
    // Under a day's line, a fact by kind and id, a message by id alone.
    assert!(tool_result.starts_with('[') && tool_result.contains("\n- fact ") && tool_result.contains(" user: Me mudé"), "{tool_result}");
}

#[tokio::test]
async fn the_cli_imports_jsonl_and_recall_shows_the_original_ids_within_a_budget() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("old.jsonl");
    let mut lines = vec![
        r#"{"role":"user","content":"My dentist is Dr. Okafor on Main Street","timestamp":"2024-03-01T10:00:00Z","id":"wa-1"}"#.to_string(),
        r#"{"role":"assistant","content":"Noted, Dr. Okafor.","id":7}"#.to_string(),
        "not json".to_string(),
        r#"{"role":"tool","content":"x"}"#.to_string(),
    ];
    for i in 0..40 {
        lines.push(format!(r#"{{"role":"user","content":"dentist appointment number {i} was fine"}}"#));
    }
    std::fs::write(&file, lines.join("\n")).unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sidecar"))
            .env("SIDECAR_DATA_DIR", dir.path().join("data"))
            .env("SIDECAR_CONFIG", dir.path().join("none.toml"))
            .env(sidecar_memory::AUTOMATIC_ENV, "local")
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["import", "--json", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "problems make the exit code 2");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["imported"], 42);
    assert_eq!(report["problems"][0]["line"], 3);
    assert_eq!(report["problems"][1]["line"], 4);

    let out = run(&["recall", "--json", "--budget", "200", "okafor"]);
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hits = found["hits"].as_array().unwrap();
    let original = hits.iter().find(|h| h["external_id"] == "wa-1").expect("the WhatsApp message");
    assert_eq!(original["timestamp"], "2024-03-01T10:00:00.000Z", "stored in the store's own form, so times sort");
    assert!(original["snippet"].as_str().unwrap().contains("[Okafor]"));
    assert!(hits.iter().any(|h| h["external_id"] == "7"));
    let out = run(&["recall", "--json", "--budget", "120", "dentist"]);
    let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(found["tokens"].as_u64().unwrap() <= 120);
    assert!(found["omitted"].as_u64().unwrap() > 0, "{found}");
    // The imported archive does not replace the current conversation.
    let out = run(&["history", "--json"]);
    let history: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(history.is_empty(), "{history:?}");
}

#[tokio::test]
async fn recall_matches_word_prefixes() {
    let core = crate::support::core().open().await;
    core.remember("Allergic to peanuts", sidecar_memory::Category::Health).await.unwrap();
    let hits = core.recall_service().search("peanut", 500).await.unwrap().hits;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].snippet, "Allergic to [peanuts]");
}

#[tokio::test]
async fn leftovers_of_a_killed_write_are_cleaned_up_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let knowledge = dir.path().join("knowledge");
    std::fs::create_dir_all(&knowledge).unwrap();
    std::fs::write(knowledge.join(".learnings.md.4194305.tmp"), "half a fi").unwrap();
    std::fs::write(knowledge.join("notes.tmp.md"), "mine").unwrap();
    let _core = crate::support::core().open_in(dir.path()).await;
    assert!(!knowledge.join(".learnings.md.4194305.tmp").exists());
    assert!(knowledge.join("notes.tmp.md").exists(), "other files are left alone");
    assert!(knowledge.join("learnings.md").exists());
}

#[tokio::test]
async fn facts_are_edited_moved_and_deleted_and_stale_edits_are_refused() {
    use sidecar_memory::Category;
    use sidecar_memory::KnowledgeError;
    let core = crate::support::core().open().await;
    core.remember("Likes green tea", Category::Preferences).await.unwrap();
    core.remember("Takes blood pressure pills", Category::Health).await.unwrap();
    let knowledge = core.knowledge();
    let tea = core.knowledge().facts().into_iter().find(|f| f.fact.text == "Likes green tea").unwrap();

    knowledge.edit(tea.line, "Likes green tea", "Likes green and | black tea", Category::Preferences).await.unwrap();
    let edited = core.knowledge().facts().into_iter().find(|f| f.fact.text.contains("black")).unwrap();
    assert_eq!(edited.fact.text, "Likes green and / black tea");
    assert_eq!((edited.fact.learned, edited.fact.weight), (tea.fact.learned, tea.fact.weight));

    // The old line number and text no longer match: refused, nothing changes.
    let error = knowledge.delete(tea.line, "Likes green tea").await.unwrap_err();
    assert!(matches!(error, KnowledgeError::Stale { .. }), "{error}");

    let pills = core.knowledge().facts().into_iter().find(|f| f.category == Category::Health).unwrap();
    knowledge.edit(pills.line, &pills.fact.text, &pills.fact.text, Category::Schedule).await.unwrap();
    assert_eq!(core.knowledge().facts().iter().find(|f| f.fact.text.contains("pills")).unwrap().category, Category::Schedule);

    let edited = core.knowledge().facts().into_iter().find(|f| f.fact.text.contains("black")).unwrap();
    knowledge.delete(edited.line, &edited.fact.text).await.unwrap();
    let file = std::fs::read_to_string(core.dir.path().join("knowledge/learnings.md")).unwrap();
    assert!(!file.contains("black tea") && file.contains("## Schedule\n- [weight:1] Takes blood pressure pills"), "{file}");
    assert!(matches!(knowledge.edit(1, "x", "  ", Category::General).await.unwrap_err(), KnowledgeError::Invalid(_)));
}

/// Bug 9, the seed's own example: "Acordate que me gustan las películas de Nolan" and a
/// model that calls `remember_fact` three times with near-identical wordings leaves one
/// fact; two different things said of someone in one reply stay two.
#[tokio::test]
async fn bug_09_three_rewordings_of_one_taste_in_one_reply_leave_one_fact() {
    let server = ScriptedServer::start(vec![
        stream(tool_call_events(&[
            ("a", "remember_fact", r#"{"fact": "le gustan películas de Nolan", "category": "Preferences"}"#),
            ("b", "remember_fact", r#"{"fact": "fan de Christopher Nolan", "category": "Preferences"}"#),
            ("c", "remember_fact", r#"{"fact": "prefiere cine de Nolan", "category": "Preferences"}"#),
        ])),
        stream(reply_events(&["¡Anotado!"])),
        stream(tool_call_events(&[
            ("f", "remember_fact", r#"{"fact": "Le encantan las películas de Tarantino", "category": "Preferences"}"#),
            ("g", "remember_fact", r#"{"fact": "Es fan de Quentin Tarantino", "category": "Preferences"}"#),
            ("h", "remember_fact", r#"{"fact": "Prefiere el cine de Tarantino", "category": "Preferences"}"#),
        ])),
        stream(reply_events(&["¡Qué bueno!"])),
        stream(tool_call_events(&[
            ("d", "remember_fact", r#"{"fact": "Mi hermana Laura vive en Madrid", "category": "Relationships"}"#),
            ("e", "remember_fact", r#"{"fact": "Laura es enfermera", "category": "Relationships"}"#),
        ])),
        stream(reply_events(&["Anotado."])),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &server.base_url).await;
    core.send("Acordate que me gustan las películas de Nolan").await.unwrap();
    // Sidecar keeps the user's words itself ("Acordate que…"); the model's three calls
    // then reinforce it once and are not saved again.
    let texts: Vec<String> = core.knowledge().facts().iter().map(|f| f.fact.text.clone()).collect();
    assert_eq!(texts, ["me gustan las películas de Nolan"]);
    let second = server.requests.lock().unwrap()[1].clone();
    let results: Vec<String> =
        second["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "tool").map(|m| m["content"].as_str().unwrap().to_string()).collect();
    assert!(results[0].contains("reinforced"), "{results:?}");
    assert!(results[1].contains("not saved again") && results[2].contains("not saved again"), "{results:?}");

    // Said without "acordate", the model alone saves it: once.
    core.send("Las películas de Tarantino me encantan, ¿sabías?").await.unwrap();
    let texts: Vec<String> = core.knowledge().facts().iter().map(|f| f.fact.text.clone()).collect();
    assert_eq!(texts, ["me gustan las películas de Nolan", "Le encantan las películas de Tarantino"]);

    core.send("Mi hermana Laura vive en Madrid y es enfermera").await.unwrap();
    assert_eq!(core.knowledge().facts().len(), 4, "two things said of Laura are two facts: {:?}", core.knowledge().facts());
}
