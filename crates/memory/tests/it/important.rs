//! Facts the user marked important (the plans' `critical` flag, D6): kept like a Health
//! fact — never cut from the prompt, moved or replaced without asking — and the mark
//! lives in `learnings.md`, readable and editable by hand.

use chrono::NaiveDate;
use sidecar_memory::for_prompt;
use sidecar_memory::remember;
use sidecar_memory::Category;
use sidecar_memory::Learnings;
use sidecar_memory::SaveOutcome;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

const FILE: &str = "# Learnings\n\n## Work\n- [weight:2] Trabajo en Google | learned:2026-01-10 | confirmed:2026-02-01 | critical\n\n## Preferences\n- [weight:1] Le gusta el té verde | learned:2026-01-10 | confirmed:2026-01-10 | superseded:2026-03-01 | Crítico\n- [weight:1] Le gusta el café | learned:2026-01-10 | confirmed:2026-01-10 | importante\n- [weight:1] Le gusta el mate | learned:2026-01-10 | confirmed:2026-01-10\n";

#[test]
fn the_mark_is_read_in_english_or_spanish_and_the_file_comes_back_byte_for_byte() {
    let doc = Learnings::parse(FILE);
    let marks: Vec<(String, bool)> = doc.facts().map(|(_, _, f)| (f.text.clone(), f.critical)).collect();
    assert_eq!(
        marks,
        [("Trabajo en Google".into(), true), ("Le gusta el té verde".into(), true), ("Le gusta el café".into(), true), ("Le gusta el mate".into(), false)]
    );
    assert!(doc.malformed().is_empty(), "{:?}", doc.malformed());
    assert_eq!(doc.render(), FILE);
    // A fact changed is written in the file's own words: `| critical` last.
    let mut doc = doc;
    remember(&mut doc, "Trabajo en Google", Category::Work, day("2026-04-01"));
    assert!(doc.render().contains("- [weight:3] Trabajo en Google | learned:2026-01-10 | confirmed:2026-04-01 | critical\n"), "{}", doc.render());
}

#[test]
fn an_important_fact_is_never_cut_from_the_prompt() {
    let today = day("2026-11-21");
    let mut doc =
        Learnings::parse("## Preferences\n- [weight:1] Odia que lo llamen por teléfono sin avisar | learned:2025-01-01 | confirmed:2025-01-01 | critical\n");
    for i in 0..20 {
        remember(&mut doc, &format!("Le interesa el tema número {i} de astronomía avanzada"), Category::Preferences, today);
    }
    // Weight 1, last said almost two years ago: the lowest score of all, and a budget of
    // five words. Unmarked, it would be the first to go.
    let prompt = for_prompt(&doc, today, 5, words);
    assert!(prompt.text.contains("Odia que lo llamen"), "{}", prompt.text);
    assert_eq!(prompt.hidden, 20);
    let unmarked = Learnings::parse(&doc.render().replace(" | critical", ""));
    assert!(!for_prompt(&unmarked, today, 5, words).text.contains("Odia que lo llamen"));
}

#[test]
fn a_newer_fact_about_the_same_thing_does_not_replace_an_important_one_without_the_user() {
    let today = day("2026-11-21");
    let mut doc = Learnings::parse("## Work\n- [weight:8] Trabajo en Google | learned:2025-01-10 | confirmed:2026-10-01 | critical\n");
    let outcome = remember(&mut doc, "Renuncié, ahora estoy en startup", Category::Work, today);
    assert_eq!(outcome, SaveOutcome::NeedsConfirmation { category: Category::Work, old: "Trabajo en Google".into() });
    let google = doc.facts().find(|(_, _, f)| f.text == "Trabajo en Google").unwrap().2;
    assert_eq!((google.superseded, google.critical), (None, true), "still current until the user says");
    // Unmarked, the same correction replaces it at once (the seed's Bug 1 rule).
    let mut plain = Learnings::parse("## Work\n- [weight:8] Trabajo en Google | learned:2025-01-10 | confirmed:2026-10-01\n");
    let outcome = remember(&mut plain, "Renuncié, ahora estoy en startup", Category::Work, today);
    assert!(matches!(outcome, SaveOutcome::Superseded { .. }), "{outcome:?}");
}

#[test]
fn an_important_fact_said_again_under_another_category_stays_where_the_user_keeps_it() {
    let mut doc = Learnings::parse("## Work\n- [weight:1] Trabaja desde casa los lunes | learned:2026-10-01 | confirmed:2026-10-01 | critical\n");
    let outcome = remember(&mut doc, "trabaja desde casa los lunes", Category::Schedule, day("2026-11-21"));
    assert_eq!(outcome, SaveOutcome::KeptImportant { kept: Category::Work, requested: Category::Schedule, weight: 2 });
    let (_, category, fact) = doc.facts().next().unwrap();
    assert_eq!((category, fact.critical, fact.weight), (Category::Work, true, 2));
}
