//! Word error rate, the measure speech-to-text is judged by: the fewest word
//! substitutions, deletions and insertions that turn the heard words into the said
//! ones, over the number said. Both sides are compared as words only: lower case, no
//! punctuation, accents kept (in Spanish "esta" and "está" are different words).
//! [`word_errors_unaccented`] also folds accents, for transcripts written without them.

/// Words of `text` as they are compared.
pub(crate) fn normalise(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == '-')
        .map(|w| w.chars().filter(|c| c.is_alphanumeric() || *c == '\'').collect::<String>().to_lowercase())
        .map(|w| w.trim_matches('\'').to_string())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The edit distance between `said` and `heard`, in words, and the words said.
pub fn word_errors(said: &str, heard: &str) -> (usize, usize) {
    distance(&normalise(said), &normalise(heard))
}

/// [`word_errors`] with accents folded on both sides ("número" and "numero", "contraseña"
/// and "contrasena" are the same word): some public transcripts are written without them.
pub fn word_errors_unaccented(said: &str, heard: &str) -> (usize, usize) {
    let fold = |text: &str| normalise(text).iter().map(|w| w.chars().map(unaccented).collect()).collect::<Vec<String>>();
    distance(&fold(said), &fold(heard))
}

fn unaccented(c: char) -> char {
    match c {
        'á' | 'à' | 'â' | 'ä' => 'a',
        'é' | 'è' | 'ê' | 'ë' => 'e',
        'í' | 'ì' | 'î' | 'ï' => 'i',
        'ó' | 'ò' | 'ô' | 'ö' => 'o',
        'ú' | 'ù' | 'û' | 'ü' => 'u',
        'ñ' => 'n',
        'ç' => 'c',
        other => other,
    }
}

fn distance(said: &[String], heard: &[String]) -> (usize, usize) {
    let mut previous: Vec<usize> = (0..=heard.len()).collect();
    for (i, s) in said.iter().enumerate() {
        let mut row = vec![i + 1; heard.len() + 1];
        for (j, h) in heard.iter().enumerate() {
            row[j + 1] = (previous[j] + usize::from(s != h)).min(previous[j + 1] + 1).min(row[j] + 1);
        }
        previous = row;
    }
    (previous[heard.len()], said.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_words_in_another_case_and_punctuation_are_no_errors() {
        assert_eq!(word_errors("He was not an ill-disposed young man.", "he was not an ill disposed young man"), (0, 8));
    }

    #[test]
    fn substitutions_deletions_and_insertions_count_one_each() {
        assert_eq!(word_errors("llama a Ana mañana", "llama a Anna mañana"), (1, 4));
        assert_eq!(word_errors("llama a Ana mañana", "llama Ana mañana"), (1, 4));
        assert_eq!(word_errors("llama a Ana mañana", "llama a Ana mañana temprano"), (1, 4));
        assert_eq!(word_errors("está", "esta"), (1, 1));
    }

    #[test]
    fn folded_accents_make_a_word_written_without_them_the_same() {
        assert_eq!(word_errors_unaccented("Por favor ingrese su contrasena", "Por favor, ingrese su contraseña."), (0, 5));
        assert_eq!(word_errors_unaccented("Número inválido", "numero invalido"), (0, 2));
        assert_eq!(word_errors_unaccented("llame a Ana", "llamé a Anna"), (1, 3));
    }
}
