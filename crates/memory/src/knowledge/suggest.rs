//! "Remember this?" (Bug 5): after each reply, the personal facts the user just said
//! that no saved fact covers, found by the deterministic patterns of the facts engine.
//! They are offered to the user as chips, or saved at once when the user chose so.

use std::sync::Arc;

use serde::Serialize;

use super::learnings::Category;
use super::store::ListedFact;
use super::unsaved::unsaved_facts;
use super::words::fold;
use sidecar_settings::Change;
use sidecar_settings::SettingsOwner;

/// A fact offered to the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Suggestion {
    pub text: String,
    pub category: Category,
}

/// The facts in `user_text` that none of `saved` covers (superseded ones included:
/// a fact said again that was replaced is worth asking about).
pub(crate) fn suggestions(user_text: &str, saved: &[ListedFact]) -> Vec<Suggestion> {
    let known: Vec<String> = saved.iter().filter(|f| f.fact.superseded.is_none()).map(|f| f.fact.text.clone()).collect();
    let mut out: Vec<Suggestion> = Vec::new();
    for unsaved in unsaved_facts([user_text], &known) {
        let text = capitalised(unsaved.phrase.trim_end_matches(['.', ',', ';', ' ']));
        if !out.iter().any(|s| s.text == text) {
            out.push(Suggestion { category: category_of(&text), text });
        }
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The category a phrase most likely belongs to, by its words.
pub fn category_of(phrase: &str) -> Category {
    let text = fold(&phrase.to_lowercase());
    let tokens: Vec<&str> = text.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|t| !t.is_empty()).collect();
    // A stem starts a word ("dad" is not in "especialidad"); one ending in a space is a
    // whole word ("son", not "sonrisa"); one with an inner space is a phrase.
    let matches = |needle: &str| match needle.strip_suffix(' ') {
        Some(word) => tokens.contains(&word),
        None if needle.contains(' ') => text.contains(needle),
        None => tokens.iter().any(|t| t.starts_with(needle)),
    };
    let has = |list: &[&str]| list.iter().any(|w| matches(w));
    if has(&[
        "allerg",
        "alerg",
        "diabet",
        "celiac",
        "coeliac",
        "intoleran",
        "asthma",
        "asma",
        "pregnant",
        "embarazada",
        "epilep",
        "hipertens",
        "hypertens",
        "medic",
        "no puedo comer",
        "can't eat",
        "cannot eat",
    ]) {
        Category::Health
    } else if has(&["work", "trabaj", "job", "empleo", "office", "oficina"]) {
        Category::Work
    } else if has(&[
        "sister", "brother", "wife", "husband", "partner", "son ", "daughter", "mother", "father", "mom", "dad", "herman", "espos", "marido", "mujer", "novi",
        "hijo", "hija", "madre", "padre", "mama", "papa",
    ]) {
        Category::Relationships
    } else if has(&["like", "love", "prefer", "hate", "gusta", "encanta", "prefiero", "odio"]) {
        Category::Preferences
    } else {
        Category::General
    }
}

/// Whether noticed facts are saved without asking (`[memory] auto_remember`), read
/// from the settings' owner each time, as Settings changes it.
pub struct Noticing {
    owner: Arc<SettingsOwner>,
}

impl Noticing {
    pub fn new(owner: Arc<SettingsOwner>) -> Self {
        Self { owner }
    }

    pub fn saves_without_asking(&self) -> bool {
        self.owner.current().memory.auto_remember
    }

    /// The facts `user_text` (message `said_id`) states that nothing covers: saved at
    /// once, noted as learned there, when the user chose so (then `true`), else returned
    /// to offer.
    pub async fn notice(&self, user_text: &str, said_id: i64, knowledge: &super::store::KnowledgeStore, today: chrono::NaiveDate) -> (Vec<Suggestion>, bool) {
        let found = suggestions(user_text, &knowledge.facts());
        if found.is_empty() || !self.saves_without_asking() {
            return (found, false);
        }
        for s in &found {
            if let Err(e) = knowledge.save_from(&s.text, s.category, today, said_id).await {
                tracing::warn!(error = %e, "a noticed fact could not be saved");
            }
        }
        (found, true)
    }

    pub fn set_saves_without_asking(&self, on: bool) -> Result<(), sidecar_settings::SettingsFileError> {
        self.owner.change(Change::AutoRemember(on))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_user_said_and_nothing_covers_is_offered_with_a_category() {
        let found = suggestions("Por cierto, soy alérgica a los frutos secos. Mi hermana Ana vive en Lyon.", &[]);
        let texts: Vec<(&str, Category)> = found.iter().map(|s| (s.text.as_str(), s.category)).collect();
        assert!(texts.iter().any(|(t, c)| t.contains("alérgica") && *c == Category::Health), "{texts:?}");
        assert!(texts.iter().any(|(t, c)| t.contains("hermana Ana") && *c == Category::Relationships), "{texts:?}");
        assert!(suggestions("What's the weather like?", &[]).is_empty());
    }

    #[test]
    fn a_category_is_read_from_whole_words_not_from_inside_them() {
        assert_eq!(category_of("Me encanta el café de especialidad"), Category::Preferences, "\"dad\" is not in \"especialidad\"");
        assert_eq!(category_of("Vive en una ciudad con mucha humedad"), Category::General);
        assert_eq!(category_of("My son plays chess"), Category::Relationships);
        assert_eq!(category_of("Loves the sonrisa of the sea"), Category::Preferences);
        assert_eq!(category_of("Can't eat gluten"), Category::Health);
        assert_eq!(category_of("Mi padre se llama Luis"), Category::Relationships);
    }

    #[test]
    fn saving_without_asking_follows_the_owner_whoever_changed_it() {
        let owner = Arc::new(SettingsOwner::new(sidecar_settings::Settings::default(), None));
        let noticing = Noticing::new(owner.clone());
        assert!(!noticing.saves_without_asking());
        owner.change(Change::AutoRemember(true)).unwrap();
        assert!(noticing.saves_without_asking(), "no copy of the section is kept");
        noticing.set_saves_without_asking(false).unwrap();
        assert!(!owner.current().memory.auto_remember);
    }
}
