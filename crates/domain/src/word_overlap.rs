//! Word overlap between facts: lower-cased, accent-folded, stopwords removed (Spanish
//! and English), so "Alérgico al maní" and "alergico al mani" are the same words.

use std::collections::BTreeSet;

const STOPWORDS: &[&str] = &[
    // Spanish
    "a", "al", "algo", "con", "de", "del", "el", "ella", "ellas", "ellos", "en", "es", "esa", "ese", "eso", "esta", "este", "esto", "la", "las", "le", "les",
    "lo", "los", "me", "mi", "mis", "muy", "no", "nos", "o", "para", "pero", "por", "que", "se", "si", "sin", "sobre", "son", "su", "sus", "te", "tu", "tus",
    "un", "una", "unas", "unos", "y", "ya", "yo", "cuando", "como", "mas", "tambien", "hay", "ha", "he", "fue", "ser", "esta", "estoy", "soy",
    // English
    "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "he", "her", "his", "i", "in", "is", "it", "its", "my", "of", "on", "or", "our",
    "she", "that", "the", "their", "they", "this", "to", "was", "we", "with", "you", "your", "am", "do", "does", "very", "so", "also", "really", "user",
    "usuario",
];

/// Strips accents from Latin letters (á→a, ñ→n, ü→u).
pub fn fold(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'á' | 'à' | 'ä' | 'â' | 'ã' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' | 'õ' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ñ' => 'n',
            'ç' => 'c',
            other => other,
        })
        .collect()
}

/// The words that carry meaning.
pub fn significant(text: &str) -> BTreeSet<String> {
    fold(&text.to_lowercase()).split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty() && !STOPWORDS.contains(w)).map(str::to_string).collect()
}

/// Every word, in order: lower-cased and accent-folded (stopwords kept).
pub fn words(text: &str) -> Vec<String> {
    fold(&text.to_lowercase()).split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect()
}

/// Whether `text` names `name`: its words, one after another, as whole words, case and
/// accents aside ("Ana" is in "ana's birthday" and "con Ána", not in "banana").
pub fn mentions(text: &str, name: &str) -> bool {
    let name = words(name);
    !name.is_empty() && words(text).windows(name.len()).any(|w| w == name.as_slice())
}

/// |A ∩ B| / |A ∪ B|; 0 when both are empty.
pub fn overlap(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Words in one set but not the other.
pub fn differing(a: &BTreeSet<String>, b: &BTreeSet<String>) -> usize {
    a.symmetric_difference(b).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_mentioned_as_whole_words_in_order() {
        assert!(mentions("Ana's birthday is on Friday", "ana"));
        assert!(mentions("Cené con ÁNA Ruiz", "Ana Ruiz"));
        assert!(!mentions("A banana split", "Ana"));
        assert!(!mentions("Ruiz and Ana", "Ana Ruiz"));
        assert!(!mentions("anything", "  "));
    }

    #[test]
    fn accents_case_and_stopwords_do_not_count() {
        assert_eq!(significant("Es alérgico al MANÍ"), significant("alergico al mani"));
        assert_eq!(significant("I like the coffee"), ["coffee", "like"].iter().map(|s| s.to_string()).collect());
    }
}
