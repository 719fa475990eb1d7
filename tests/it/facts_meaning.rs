//! Facts by meaning, with a real embedder (multilingual-e5-small, or EmbeddingGemma with
//! `SIDECAR_TEST_EMBEDDER=gemma`, as `make test` runs them too): the plans' Bug 1 and Bug
//! 8 scenarios in their own sentences, in Spanish and in English, end with one current
//! fact each; the related-but-different facts of Bug 3 and Bug 11 stay apart; without an
//! embedder the word rules decide alone.

use std::sync::Arc;

use sidecar::Companion;
use sidecar_memory::Category;
use sidecar_memory::SaveOutcome;

async fn open(dir: &std::path::Path, meaning: bool) -> Arc<Companion> {
    crate::support::open_on(dir, &if meaning { crate::support::test_backend() } else { "off".to_string() }).await
}

/// The current facts: (category, text, weight).
fn current(core: &Companion) -> Vec<(Category, String, u8)> {
    core.knowledge().facts().into_iter().filter(|f| f.fact.superseded.is_none()).map(|f| (f.category, f.fact.text, f.fact.weight)).collect()
}

#[tokio::test]
async fn bug_08_coffee_every_day_and_loving_coffee_are_one_fact_kept_in_health() {
    for (habit, love) in [("Tomo café todos los días", "Me encanta el café"), ("I drink coffee every day", "I love coffee")] {
        let dir = tempfile::tempdir().unwrap();
        let core = open(dir.path(), true).await;
        assert_eq!(core.remember(habit, Category::Health).await.unwrap(), SaveOutcome::New { category: Category::Health });
        let outcome = core.remember(love, Category::Preferences).await.unwrap();
        assert_eq!(outcome, SaveOutcome::KeptInHealth { requested: Category::Preferences, weight: 2 }, "{love:?}");
        assert_eq!(current(&core), [(Category::Health, habit.to_string(), 2)], "one fact, the wording that says more");
        let fact = core.knowledge().facts().remove(0).fact;
        assert!(fact.learned <= fact.confirmed, "both dates kept");
    }
}

#[tokio::test]
async fn bug_08_outside_health_the_repeat_moves_to_the_newer_category() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), true).await;
    core.remember("Me gusta el café", Category::General).await.unwrap();
    let outcome = core.remember("Me encanta el café", Category::Preferences).await.unwrap();
    assert_eq!(outcome, SaveOutcome::Moved { from: Category::General, to: Category::Preferences, weight: 2 });
    assert_eq!(current(&core).len(), 1);
}

#[tokio::test]
async fn bug_01_a_job_left_is_history_and_the_new_one_is_the_only_current_fact() {
    // The seed's sentences: the correction does not name the old job.
    for (job, change) in [("Trabajo en Google", "Renuncié, ahora estoy en startup"), ("I work at Google", "I quit, now I'm at a startup")] {
        let dir = tempfile::tempdir().unwrap();
        let core = open(dir.path(), true).await;
        core.remember(job, Category::Work).await.unwrap();
        assert_eq!(core.remember(job, Category::Work).await.unwrap(), SaveOutcome::Reinforced { category: Category::Work, weight: 2 });
        let outcome = core.remember(change, Category::Work).await.unwrap();
        assert_eq!(outcome, SaveOutcome::Superseded { category: Category::Work, old: job.to_string() }, "{change:?}");
        assert_eq!(current(&core), [(Category::Work, change.to_string(), 1)]);
        let old = core.knowledge().facts().into_iter().find(|f| f.fact.text == job).expect("the old job is kept as history");
        assert!(old.fact.superseded.is_some());
        let (_, block, _) = core.knowledge().prompt_parts(chrono::Utc::now().date_naive(), 600, |t| t.split_whitespace().count());
        assert!(block.contains("startup") && !block.contains(&format!("- {job}")), "{block}");
    }
}

#[tokio::test]
async fn a_fact_denied_is_history() {
    for (said, denied) in [("Trabajo en Google", "Ya no trabajo en Google"), ("I like coffee", "I don't like coffee")] {
        let dir = tempfile::tempdir().unwrap();
        let core = open(dir.path(), true).await;
        core.remember(said, Category::General).await.unwrap();
        let outcome = core.remember(denied, Category::General).await.unwrap();
        assert_eq!(outcome, SaveOutcome::Superseded { category: Category::General, old: said.to_string() });
        assert_eq!(current(&core), [(Category::General, denied.to_string(), 1)]);
    }
}

#[tokio::test]
async fn bugs_03_and_11_close_in_meaning_but_different_facts_stay_apart() {
    let pairs = [
        ("Me gusta el café", "A mi esposa le gusta el café", Category::Preferences),
        ("Alérgico al maní", "Alérgico a la nuez", Category::Health),
        ("Trabaja en desarrollo frontend", "Trabaja en desarrollo backend", Category::Work),
        ("Su hermano vive en Madrid", "Su hermana vive en Madrid", Category::Relationships),
        ("Prefiere películas de acción", "Prefiere series de acción", Category::Preferences),
        ("I'm allergic to peanuts", "I'm allergic to walnuts", Category::Health),
        ("Me gusta el té", "No me gusta el café", Category::Preferences),
    ];
    for (first, second, category) in pairs {
        let dir = tempfile::tempdir().unwrap();
        let core = open(dir.path(), true).await;
        core.remember(first, category).await.unwrap();
        let outcome = core.remember(second, category).await.unwrap();
        assert!(matches!(outcome, SaveOutcome::New { .. } | SaveOutcome::NeedsConfirmation { .. }), "{first:?} / {second:?}: {outcome:?}");
        assert_eq!(core.knowledge().facts().len(), 2, "{first:?} / {second:?}");
    }
}

#[tokio::test]
async fn the_same_fact_in_other_words_is_one_fact_and_keeps_the_wording_that_says_more() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), true).await;
    core.remember("Soy alérgico al maní", Category::Health).await.unwrap();
    assert_eq!(core.remember("Tengo alergia al maní", Category::Health).await.unwrap(), SaveOutcome::Reinforced { category: Category::Health, weight: 2 });
    core.remember("Plays the guitar", Category::General).await.unwrap();
    core.remember("Plays the guitar in a jazz band", Category::General).await.unwrap();
    let texts: Vec<String> = current(&core).into_iter().map(|(_, text, _)| text).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts.contains(&"Plays the guitar in a jazz band".to_string()), "{texts:?}");
}

#[tokio::test]
async fn without_an_embedder_the_words_decide_and_nothing_fails() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), false).await;
    core.remember("Tomo café todos los días", Category::Health).await.unwrap();
    assert_eq!(core.remember("Me encanta el café", Category::Preferences).await.unwrap(), SaveOutcome::New { category: Category::Preferences });
    core.remember("Trabajo en Google", Category::Work).await.unwrap();
    let denied = core.remember("Ya no trabajo en Google", Category::Work).await.unwrap();
    assert_eq!(denied, SaveOutcome::Superseded { category: Category::Work, old: "Trabajo en Google".into() }, "a denial is told by its words");
    assert_eq!(core.remember("Tomo café todos los días", Category::Health).await.unwrap(), SaveOutcome::Reinforced { category: Category::Health, weight: 2 });
}

const WRITTEN_TWICE: &str = "# Learnings\n\n## Health\n- [weight:3] Tomo café todos los días | learned:2026-01-10 | confirmed:2026-03-01\n- [weight:2] Alérgico al maní | learned:2026-02-01 | confirmed:2026-02-01\n\n## Preferences\n- [weight:5] Me encanta el café | learned:2026-02-15 | confirmed:2026-06-01\n- [weight:1] Alérgico a la nuez | learned:2026-04-01 | confirmed:2026-04-01\n\n## Relationships\n- [weight:1] Su hermano vive en Madrid | learned:2026-05-01 | confirmed:2026-05-01\n- [weight:1] Su hermana vive en Madrid | learned:2026-05-02 | confirmed:2026-05-02\n";

/// The tidy asks (issue 74): facts written twice are proposed as one, nothing changes
/// until the user approves, and then they are merged once; related ones are never
/// proposed. Told to tidy alone, it merges them without asking.
#[tokio::test]
async fn facts_written_twice_before_are_proposed_as_one_merged_when_approved_and_related_ones_are_left() {
    for alone in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let knowledge = dir.path().join("knowledge");
        std::fs::create_dir_all(&knowledge).unwrap();
        std::fs::write(knowledge.join("learnings.md"), WRITTEN_TWICE).unwrap();
        let core = open(dir.path(), true).await;
        core.knowledge().set_tidies_alone(alone).unwrap();
        core.meaning().catch_up(None).await.unwrap();
        let today = core.clock().local_today();
        let review = core.knowledge().review(today).await.unwrap();
        if !alone {
            assert_eq!(std::fs::read_to_string(knowledge.join("learnings.md")).unwrap(), WRITTEN_TWICE, "nothing changes until approved");
            let merges: Vec<(String, String)> = review
                .proposals
                .iter()
                .filter_map(|p| match p {
                    sidecar_memory::Proposal::Merge { a, b, .. } => Some((a.fact.text.clone(), b.fact.text.clone())),
                    _ => None,
                })
                .collect();
            assert_eq!(merges, [("Tomo café todos los días".to_string(), "Me encanta el café".to_string())], "{:?}", review.proposals);
            assert!(!review.alone);
            core.knowledge().answer(review.proposals[0].key(), true, today).await.unwrap();
        } else {
            assert!(review.proposals.is_empty() && review.alone, "{:?}", review.proposals);
        }
        let facts = current(&core);
        assert_eq!(facts.len(), 5, "alone {alone}: {facts:?}");
        let coffee = core.knowledge().facts().into_iter().find(|f| f.fact.text.contains("café")).unwrap();
        assert_eq!((coffee.category, coffee.fact.text.as_str(), coffee.fact.weight), (Category::Health, "Tomo café todos los días", 5));
        assert_eq!((coffee.fact.learned.to_string(), coffee.fact.confirmed.to_string()), ("2026-01-10".into(), "2026-06-01".into()), "both dates kept");
        assert_eq!(core.meaning().catch_up(None).await.unwrap(), 0, "a second pass finds nothing new");
        assert!(core.knowledge().review(today).await.unwrap().proposals.is_empty(), "nothing left to propose");
        assert_eq!(current(&core).len(), 5);
    }
}

/// A pair close in meaning that the words leave apart (they share no word) goes to the
/// model routed for `extract`, when there is one: its SAME makes one fact, its REPLACES
/// keeps the old one as history, its DIFFERENT or no answer leaves two, and with no
/// such route no model is asked at all.
#[tokio::test]
async fn a_pair_the_words_leave_apart_is_put_to_the_extract_model_when_one_is_routed() {
    use crate::support::{reply_events, Reply, ScriptedServer};
    for (answer, routed, facts) in [("SAME", true, 1), ("REPLACES", true, 1), ("DIFFERENT", true, 2), ("I cannot tell", true, 2), ("SAME", false, 2)] {
        let server = ScriptedServer::responding(move |_| Reply::Stream { events: reply_events(&[answer]), delay: std::time::Duration::ZERO }).await;
        let dir = tempfile::tempdir().unwrap();
        let route = if routed { "[routing]\nextract = [\"judge\"]\n" } else { "" };
        let core = crate::support::core()
            .settings(&format!(
                "[user]\ntimezone = \"Europe/Madrid\"\n[[providers]]\nid = \"judge\"\nbase_url = \"{}\"\nmodel = \"m\"\n{route}",
                server.base_url
            ))
            .offline()
            .open_in(dir.path())
            .await;
        core.remember("I play the guitar", Category::Preferences).await.unwrap();
        core.remember("I'm a guitarist", Category::Preferences).await.unwrap();
        assert_eq!(current(&core).len(), facts, "{answer:?}, routed {routed}: {:?}", current(&core));
        if routed {
            let asked = server.last_request();
            let said = asked["messages"][1]["content"].as_str().unwrap().to_string();
            assert_eq!(said, "First: I play the guitar\nSecond: I'm a guitarist");
        } else {
            assert_eq!(server.request_count(), 0, "nothing is sent without an extract route");
        }
        match answer {
            "SAME" if routed => assert_eq!(current(&core)[0].2, 2, "reinforced"),
            "REPLACES" => {
                assert_eq!(current(&core)[0].1, "I'm a guitarist");
                assert!(core.knowledge().facts().iter().any(|f| f.fact.text == "I play the guitar" && f.fact.superseded.is_some()), "kept as history");
            }
            _ => {}
        }
    }
}

/// Issue 68: a taste said again in a later reply, in other words, is the fact already
/// kept (Bug 9 held within one reply only); another taste of the same name, or the
/// same taste denied, is not.
async fn a_taste_restated_in_a_later_reply_is_one_fact(backend: &str) {
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::open_on(dir.path(), backend).await;
    let first = core.remember("le gustan películas de Nolan", Category::Preferences).await.unwrap();
    assert_eq!(first, SaveOutcome::New { category: Category::Preferences });
    for (again, weight) in [("fan de Christopher Nolan", 2), ("prefiere el cine de Nolan", 3)] {
        let outcome = core.remember(again, Category::Preferences).await.unwrap();
        assert_eq!(outcome, SaveOutcome::Reinforced { category: Category::Preferences, weight }, "{backend}: {again:?}");
    }
    assert_eq!(current(&core).len(), 1, "{backend}: {:?}", current(&core));
    for other in ["le gustan las series de Tarantino", "no le gustan las películas de Nolan"] {
        assert!(!matches!(core.remember(other, Category::Preferences).await.unwrap(), SaveOutcome::Reinforced { .. }), "{backend}: {other:?}");
    }
}

#[tokio::test]
async fn a_taste_restated_in_a_later_reply_is_one_fact_with_e5_small() {
    a_taste_restated_in_a_later_reply_is_one_fact("local").await;
}

#[tokio::test]
async fn a_taste_restated_in_a_later_reply_is_one_fact_with_embeddinggemma() {
    a_taste_restated_in_a_later_reply_is_one_fact("gemma").await;
}
