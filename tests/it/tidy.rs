//! Tidying that asks (issue 74), over a month of facts said as the seeds' bug scenarios
//! say them, with the real embedder: a replacement made as a fact was saved is shown
//! for the user to keep or undo, a hand-written line out of the format is proposed for
//! repair, related facts are never proposed as one, and nothing changes until the user
//! answers; an answer that keeps things is not asked again. "Trabajo en la oficina los
//! martes" never replaces the employer.

use chrono::{Days, NaiveDate};
use sidecar_memory::{Category, Proposal, SaveOutcome};

fn day(n: u64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 1).unwrap() + Days::new(n)
}

#[tokio::test]
async fn a_month_of_facts_the_tidy_proposes_and_nothing_changes_until_the_user_answers() {
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::open_on(dir.path(), &crate::support::test_backend()).await;
    let knowledge = core.knowledge();
    let said: &[(u64, &str, Category)] = &[
        (0, "Trabajo en Google", Category::Work),
        (1, "Es alérgico al maní", Category::Health),
        (2, "Su hermano vive en Madrid", Category::Relationships),
        (3, "Prefiere películas de acción", Category::Preferences),
        (5, "Trabajo en Google", Category::Work),
        (7, "Su hermana vive en Madrid", Category::Relationships),
        (9, "Es alérgico a la nuez", Category::Health),
        (11, "Prefiere series de acción", Category::Preferences),
        (13, "Trabajo en la oficina los martes", Category::Work),
        (16, "Vive en Barcelona", Category::General),
        (20, "Trabajo en la oficina los martes", Category::Schedule),
        (24, "Se mudó a Valencia", Category::General),
        (27, "Renuncié, ahora estoy en startup", Category::Work),
    ];
    for (n, text, category) in said {
        knowledge.save(text, *category, day(*n)).await.unwrap();
    }
    let employer = |core: &sidecar::Companion| {
        core.knowledge().facts().into_iter().filter(|f| f.fact.superseded.is_none() && f.category == Category::Work).map(|f| f.fact.text).collect::<Vec<_>>()
    };
    assert!(employer(&core).contains(&"Renuncié, ahora estoy en startup".to_string()), "{:?}", employer(&core));
    let tuesdays = knowledge.facts().into_iter().find(|f| f.fact.text == "Trabajo en la oficina los martes").unwrap();
    assert!(tuesdays.fact.superseded.is_none(), "the office on Tuesdays is a habit, not an employer");
    let google = knowledge.facts().into_iter().find(|f| f.fact.text == "Trabajo en Google").unwrap();
    assert_eq!(google.fact.superseded, Some(day(27)), "replaced by the startup, not by the Tuesdays");

    // A line written by hand out of the format.
    let path = dir.path().join("knowledge/learnings.md");
    let mut file = std::fs::read_to_string(&path).unwrap();
    file.push_str("- le encanta el jazz de los cincuenta\n");
    std::fs::write(&path, &file).unwrap();
    knowledge.reload().unwrap();
    core.meaning().catch_up(None).await.unwrap();

    let today = day(30);
    let review = knowledge.review(today).await.unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), file, "the review changes nothing");
    let replaced: Vec<(String, String)> = review
        .proposals
        .iter()
        .filter_map(|p| match p {
            Proposal::Replaced { old, new, .. } => Some((old.fact.text.clone(), new.fact.text.clone())),
            _ => None,
        })
        .collect();
    assert!(replaced.contains(&("Trabajo en Google".into(), "Renuncié, ahora estoy en startup".into())), "{replaced:?}");
    assert!(replaced.contains(&("Vive en Barcelona".into(), "Se mudó a Valencia".into())), "{replaced:?}");
    for p in &review.proposals {
        if let Proposal::Merge { a, b, .. } = p {
            let pair = [a.fact.text.as_str(), b.fact.text.as_str()];
            assert!(!pair.iter().any(|t| t.contains("herman") || t.contains("alérgico") || t.contains("acción")), "related facts proposed as one: {pair:?}");
        }
    }
    let repair = review.proposals.iter().find(|p| matches!(p, Proposal::Repair { .. })).expect("the hand-written line is proposed for repair");
    let Proposal::Repair { raw, fixed, .. } = repair else { unreachable!() };
    assert_eq!(raw, "- le encanta el jazz de los cincuenta");
    assert_eq!(fixed, "- [weight:1] le encanta el jazz de los cincuenta | learned:2026-12-01 | confirmed:2026-12-01");

    // Repaired when approved.
    knowledge.answer(repair.key(), true, today).await.unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().contains(fixed.as_str()) && knowledge.malformed().is_empty());
    // The move is kept: not asked again.
    let move_key = review.proposals.iter().find(|p| matches!(p, Proposal::Replaced { new, .. } if new.fact.text == "Se mudó a Valencia")).unwrap().key();
    knowledge.answer(move_key, false, today).await.unwrap();
    // The new job is undone: Google is current again, the startup forgotten.
    let job_key = review.proposals.iter().find(|p| matches!(p, Proposal::Replaced { new, .. } if new.fact.text.contains("startup"))).unwrap().key();
    knowledge.answer(job_key, true, today).await.unwrap();
    assert!(employer(&core).contains(&"Trabajo en Google".to_string()) && !employer(&core).iter().any(|t| t.contains("startup")), "{:?}", employer(&core));
    let left = knowledge.review(today).await.unwrap();
    assert!(
        !left.proposals.iter().any(|p| matches!(p, Proposal::Replaced { .. } | Proposal::Repair { .. })),
        "answered, not asked again: {:?}",
        left.proposals
    );
    assert!(knowledge.answer(job_key, true, today).await.is_err(), "a proposal answered is gone");
    // Past the days it is shown, a replacement is no longer listed.
    assert_eq!(
        knowledge.save("Se mudó a Sevilla", Category::General, day(31)).await.unwrap(),
        SaveOutcome::Superseded { category: Category::General, old: "Se mudó a Valencia".into() }
    );
    let later = knowledge.review(day(31 + sidecar_memory::REPLACED_SHOWN_DAYS as u64 + 1)).await.unwrap();
    assert!(later.proposals.iter().all(|p| !matches!(p, Proposal::Replaced { .. })), "{:?}", later.proposals);
    core.shutdown().await;
}

/// Told to tidy alone, a line out of the format is repaired at the next look and said.
#[tokio::test]
async fn told_to_tidy_alone_a_line_out_of_the_format_is_repaired_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let core = crate::support::open_on(dir.path(), "off").await;
    core.knowledge().set_tidies_alone(true).unwrap();
    let path = dir.path().join("knowledge/learnings.md");
    let mut file = std::fs::read_to_string(&path).unwrap();
    file.push_str("- [weight:0] Odia el cilantro | learned:2026-10-02\n- [weight:3] Fecha rota | learned:2026-13-45 | confirmed:2026-10-02\n");
    std::fs::write(&path, &file).unwrap();
    core.knowledge().reload().unwrap();
    let review = core.knowledge().review(day(5)).await.unwrap();
    assert_eq!(review.repaired.len(), 1, "{:?}", review.repaired);
    assert_eq!(review.repaired[0].1, "- [weight:1] Odia el cilantro | learned:2026-10-02 | confirmed:2026-10-02");
    let now = std::fs::read_to_string(&path).unwrap();
    assert!(now.contains("- [weight:1] Odia el cilantro | learned:2026-10-02 | confirmed:2026-10-02\n"), "{now}");
    assert!(now.contains("Fecha rota | learned:2026-13-45"), "a date that is not one is not guessed: kept as written");
    assert_eq!(core.knowledge().malformed().len(), 1);
    core.shutdown().await;
}
