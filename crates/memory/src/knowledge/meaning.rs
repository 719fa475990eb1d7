//! Facts by meaning: a new fact close in meaning to a current one (the cosine of their
//! e5 vectors) is a candidate duplicate, which the words then confirm or refuse. The
//! embedder finds what word overlap misses ("Tomo café todos los días" and "Me
//! encanta el café", Bug 8); the words refuse what an embedder cannot tell apart
//! (peanuts and walnuts, a brother and a sister, Bug 3 and Bug 11).
//!
//! The threshold was measured on STS-B in English and Spanish (the
//! `fact_duplicates` bench: its development part chose it, its test part reports it).
//!
//! Over 400 lines: the measured threshold's notes sit beside the rule that uses them, and
//! the words' confirm-or-refuse beside the cosine it corrects.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;

use super::words::{fold, significant};

/// Where one embedder's cosines mean "one fact said twice" and "surely about this".
/// Each model spreads its cosines its own way (multilingual-e5-small puts unrelated
/// sentences near 0.8, EmbeddingGemma near 0.3), so these are a property of the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// At or above it two facts are candidate duplicates.
    pub duplicate: f32,
    /// At or above it a candidate needs only the words' consent; below it, one of the
    /// two must also say nothing the other does not (apart from how much it is liked).
    pub close: f32,
    /// At or above it a pair the words do not settle may be put to a model (the
    /// `extract` route, when one is configured).
    pub borderline: f32,
    /// A recall hit this close to the question needs no second round of names.
    pub confident: f32,
    /// Two recall hits this close say the same thing: the second goes after the rest
    /// of what fits the budget (e5-small: "I made curry for dinner" and "I made soup
    /// for dinner" are 0.90, the same sentence about another show 0.95).
    pub repeat: f32,
    /// What the second hop's matches by meaning weigh, where its matches by words weigh
    /// 0.6 ([`crate::recall`]'s hop). Not a cosine, but as much a property of the model:
    /// how far a bare name's embedding ("Tomás Laura") can be trusted to point at what
    /// was said about them. With this and `hop_exchanges` at 0 the hop searches by
    /// words alone and its names are not embedded.
    pub hop_meaning: f64,
    /// The same for the exchanges the hop's best matches by meaning are in; at 0 they
    /// are not read.
    pub hop_exchanges: f64,
    /// Below this cosine with the recent turns, an MCP tool is not carried by a turn
    /// and waits for `find_tools` (the tool chooser). `None`: this model's scale is not
    /// known, and the words choose.
    pub tool_floor: Option<f32>,
    /// The Memory view shows a match by meaning whose relevance is within this of the
    /// best match's ([`crate::recall`]'s cut): e5-small crowds its cosines into a
    /// narrow band, EmbeddingGemma spreads them, so the margin is the model's too.
    pub view_margin: f64,
}

impl Thresholds {
    /// multilingual-e5-small's, measured on STS-B in English and Spanish (the
    /// `fact_duplicates` bench: its development part chose them, its test part reports
    /// them). Any duplicate threshold from 0.86 to 0.92 scores within 0.3 points of F1 (the
    /// words decide below `close`); the lower end leaves room for the index's int8 vectors.
    ///
    /// Its `hop_meaning` stays the words' 0.6: a Spanish line about the sister's new job
    /// is found for "my sibling's new job" over "a new washer" only through the
    /// embedding of her name and the exchange it is in (0.3 or less, or no exchanges,
    /// and the washer comes first).
    ///
    /// `tool_floor`: the highest that keeps the share of MetaTool's development questions
    /// whose tool is carried within a point of its best (`tool_choice_eval`).
    ///
    /// `view_margin`: chosen on LoCoMo's development part (`memory_search`): a median
    /// of 9 matches shown instead of 85, and evidence on the first page for 40% of its
    /// questions instead of 29%.
    pub const E5_SMALL: Self = Self {
        duplicate: 0.88,
        close: 0.95,
        borderline: 0.85,
        confident: 0.88,
        repeat: 0.93,
        hop_meaning: 0.6,
        hop_exchanges: 0.6,
        tool_floor: Some(0.82),
        view_margin: 0.02,
    };
    /// EmbeddingGemma's: each of e5-small's thresholds moved to the cosine that the same
    /// share of STS-B's development pairs reaches with EmbeddingGemma (`fact_duplicates`
    /// with `STSB_EMBEDDER=gemma` measures it and prints the F1 of both). But `repeat`:
    /// moved so (0.79) it cost LoCoMo's development part half a point at 2k (90.0% →
    /// 89.5%, multi-hop 71.0% → 69.6%), where the evidence of one question is often
    /// the same thing said in two sessions; only a near-verbatim repeat goes last.
    ///
    /// `hop_meaning`: on LoCoMo's development part at 2k, the hop's votes by meaning and
    /// by exchange at 0.6 gave 90.8% (multi-hop 72.5%, inference 64.4%); meaning 0.6
    /// with no exchanges 91.4% (72.9%, 67.8%), 0.3 and none 91.7% (73.3%, 72.3%), 0.15
    /// and none 91.9% (73.6%, 72.3%), words alone 92.0% (73.8%, 72.3%). Words alone, so
    /// the hop costs no second embedding (about 50 ms of the p95 recall at 100,000
    /// messages). Unlike e5-small, EmbeddingGemma needs no name's embedding to cross
    /// languages: the `cross_language` bench finds the same (100% each way) with or
    /// without it.
    ///
    /// `tool_floor`: e5-small's 0.82 is above almost every cosine EmbeddingGemma gives a
    /// question and its tool, so no MCP tool was carried (issue 68); chosen on MetaTool's
    /// development questions by e5-small's rule ([`GEMMA_TOOL_FLOOR`]).
    pub const EMBEDDING_GEMMA: Self = Self {
        duplicate: 0.61,
        close: 0.85,
        borderline: 0.50,
        confident: 0.61,
        repeat: 0.93,
        hop_meaning: 0.0,
        hop_exchanges: 0.0,
        tool_floor: Some(GEMMA_TOOL_FLOOR),
        view_margin: GEMMA_VIEW_MARGIN,
    };

    /// A model whose cosines were never measured (an OpenAI-compatible endpoint's own):
    /// no decision rests on a cosine. Facts are told apart by their words, a recall
    /// always takes its second hop and never sets a hit aside as a repeat, and the
    /// words choose the tools; ranking by meaning needs no threshold and stays.
    pub const UNMEASURED: Self = Self {
        duplicate: f32::INFINITY,
        close: f32::INFINITY,
        borderline: f32::INFINITY,
        confident: f32::INFINITY,
        repeat: f32::INFINITY,
        hop_meaning: 0.6,
        hop_exchanges: 0.6,
        tool_floor: None,
        // No scale to measure a margin in: the best match by meaning and the matches by
        // words are shown, the rest behind "weaker matches".
        view_margin: 0.0,
    };

    /// Whether the second hop searches by meaning at all (else by words alone).
    pub(crate) fn hop_by_meaning(&self) -> bool {
        self.hop_meaning > 0.0 || self.hop_exchanges > 0.0
    }

    /// Whether the pair, `cosine` apart, is one fact: a candidate the words confirm,
    /// and below `close` one that adds nothing to the other.
    pub(crate) fn confirmed(&self, existing: &str, new: &str, cosine: f32) -> bool {
        cosine >= self.duplicate && words_confirm(existing, new) && (cosine >= self.close || adds_nothing(existing, new))
    }
}

/// EmbeddingGemma's tool floor (see [`Thresholds::EMBEDDING_GEMMA`]): the highest that
/// keeps the share of MetaTool's development questions whose tool is carried within a
/// point of its best (85.3% → 84.4%, 4.5 tools a turn of the five the bench holds), the
/// rule e5-small's 0.82 meets (71.6% → 70.9%, 4.7). A question and its tool sit much
/// lower with EmbeddingGemma (median 0.37, against e5-small's 0.85).
const GEMMA_TOOL_FLOOR: f32 = 0.18;

/// EmbeddingGemma's Memory view margin, chosen on LoCoMo's development part
/// (`memory_search` with `LOCOMO_BACKEND=gemma`) as the one that shows as many matches
/// as e5-small's 0.02 does (a median of 9): 0.07 showed a median of 6 with evidence on
/// the first page for 70.2% of the questions; 0.10, 9 and 75.1%; 0.15, 14 (p90 57) and
/// 79.8%. At 0.07 or less the Spanish "gatita" line left the view (its relevance is 0.085 below
/// the English kitten's with EmbeddingGemma).
const GEMMA_VIEW_MARGIN: f64 = 0.10;

impl Default for Thresholds {
    fn default() -> Self {
        Self::E5_SMALL
    }
}

/// A model's reading of a pair the words did not settle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SameFact {
    /// The same fact in other words.
    Same,
    /// The new one says the old no longer holds.
    Replaces,
    Different,
}

/// Asks a model whether two facts are one (injected at assembly; only with a model
/// routed for `extract`). `None` when it could not tell: the words decide.
pub trait FactJudge: Send + Sync {
    /// Whether a model can be asked now (none routed: no pair is even looked for).
    fn available(&self) -> bool;
    fn judge<'a>(&'a self, existing: &'a str, new: &'a str) -> Pin<Box<dyn Future<Output = Option<SameFact>> + Send + 'a>>;
}

/// How close in meaning a new fact is to each current fact, by the current fact's text.
/// Empty when no embedder can run: the word rules then decide alone.
#[derive(Debug, Clone, Default)]
pub struct Nearness {
    by_text: HashMap<String, f32>,
    /// What a model said of a borderline pair, by the current fact's text.
    judged: HashMap<String, SameFact>,
    /// The embedder's, which measured the cosines.
    pub(crate) thresholds: Thresholds,
}

impl Nearness {
    /// Nothing is known by meaning.
    pub(crate) fn none() -> Self {
        Self::default()
    }

    pub(crate) fn from_pairs(pairs: impl IntoIterator<Item = (String, f32)>, thresholds: Thresholds) -> Self {
        Self { by_text: pairs.into_iter().collect(), judged: HashMap::new(), thresholds }
    }

    /// With a model's reading of the pair with the current fact `text`.
    pub(crate) fn judged(mut self, text: &str, verdict: SameFact) -> Self {
        self.judged.insert(text.to_string(), verdict);
        self
    }

    /// What a model said of the pair with the current fact `text`, if one was asked.
    pub(crate) fn verdict(&self, text: &str) -> Option<SameFact> {
        self.judged.get(text).copied()
    }

    /// The cosine with the current fact `text`, when it was measured.
    pub(crate) fn of(&self, text: &str) -> Option<f32> {
        self.by_text.get(text).copied()
    }

    /// The cosine with the current fact `text`, when it is close enough that a model
    /// may be asked about the pair.
    pub(crate) fn borderline(&self, text: &str) -> Option<f32> {
        self.of(text).filter(|cosine| *cosine >= self.thresholds.borderline)
    }

    /// Whether a pair this close is a candidate duplicate.
    pub(crate) fn candidate(&self, text: &str) -> bool {
        self.of(text).is_some_and(|cosine| cosine >= self.thresholds.duplicate)
    }
}

/// Measures how close a new fact is to each current one (the meaning index does, with
/// the embedder in use); injected at assembly, so knowledge does not depend on it.
pub trait FactNearness: Send + Sync {
    /// Empty when meaning cannot be used now (no embedder, turned off, a failure).
    fn nearness<'a>(&'a self, text: &'a str) -> Pin<Box<dyn Future<Output = Nearness> + Send + 'a>>;

    /// Pairs of current facts that are one fact by meaning and words, closest first,
    /// each fact in one pair at most; empty without vectors.
    fn repeats(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Words naming a person other than the user: a fact about one of them is not a fact
/// about the user (Bug 3), nor about another of them (Bug 11's brother and sister).
const PEOPLE: &[&str] = &[
    "hermano",
    "hermana",
    "hermanos",
    "esposa",
    "esposo",
    "marido",
    "mujer",
    "novia",
    "novio",
    "pareja",
    "hijo",
    "hija",
    "hijos",
    "madre",
    "padre",
    "mama",
    "papa",
    "abuelo",
    "abuela",
    "tio",
    "tia",
    "primo",
    "prima",
    "amigo",
    "amiga",
    "jefe",
    "jefa",
    "companero",
    "companera",
    "vecino",
    "vecina",
    "brother",
    "sister",
    "wife",
    "husband",
    "partner",
    "boyfriend",
    "girlfriend",
    "son",
    "daughter",
    "kids",
    "mother",
    "father",
    "mom",
    "mum",
    "dad",
    "grandmother",
    "grandfather",
    "grandma",
    "grandpa",
    "uncle",
    "aunt",
    "cousin",
    "friend",
    "boss",
    "colleague",
    "neighbour",
    "neighbor",
];

/// Ways of saying one likes something: one of them for another is not a swap.
const LIKING: &[&str] =
    &["gusta", "encanta", "encantan", "gustan", "adoro", "disfruto", "like", "likes", "love", "loves", "enjoy", "enjoys", "adore", "adores"];

/// Beside the words of liking ([`LIKING`]), those of preferring and being a fan: a taste,
/// for restatements only ([`restates_taste`]).
const PREFERRING: &[&str] = &[
    "fan",
    "fans",
    "prefiere",
    "prefiero",
    "prefer",
    "prefers",
    "favorito",
    "favorita",
    "favoritos",
    "favoritas",
    "favorite",
    "favourite",
    "aficionado",
    "aficionada",
];

/// Whether `new` states the same taste for the same named thing as `earlier`: the seed's
/// three `remember` calls for "Acordate que me gustan las películas de Nolan" ("le
/// gustan películas de Nolan", "fan de Christopher Nolan", "prefiere cine de Nolan").
/// Both must say a taste, the same way (neither denies it), and share a name; two things
/// said of a person ("Mi hermana Laura vive en Madrid", "Laura es enfermera") say no
/// taste and stay two facts. Within one reply the words alone decide; across replies
/// the facts must also be near in meaning (`facts::remember_near`).
pub(crate) fn restates_taste(earlier: &str, new: &str) -> bool {
    let taste = |text: &str| raw_words(text).iter().any(|w| LIKING.contains(&w.as_str()) || PREFERRING.contains(&w.as_str()));
    // A capital on the first word only opens the sentence; after it, it names.
    let names = |text: &str| {
        text.split_whitespace()
            .skip(1)
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| w.chars().count() > 2 && w.chars().next().is_some_and(char::is_uppercase))
            .map(|w| fold(&w.to_lowercase()))
            .collect::<BTreeSet<String>>()
    };
    taste(earlier) && taste(new) && negated(earlier) == negated(new) && !names(earlier).is_disjoint(&names(new))
}

/// Words that say something is no longer so.
const NEGATIONS: &[&str] = &["no", "not", "never", "nunca", "jamas", "nor", "ni", "dont", "doesnt", "cant", "isnt", "arent"];

/// Words that say a fact changed: the new one replaces the old (Bug 1).
const CHANGES: &[&str] = &[
    "renuncie",
    "renuncio",
    "deje",
    "dejo",
    "despidieron",
    "ahora",
    "antes",
    "solia",
    "ex",
    "quit",
    "left",
    "now",
    "anymore",
    "longer",
    "former",
    "formerly",
    "used",
    "stopped",
    "moved",
    "mude",
    "mudo",
    "cambie",
    "cambio",
    "switched",
];

fn raw_words(text: &str) -> Vec<String> {
    fold(&text.to_lowercase().replace('\'', "")).split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect()
}

/// A word without its plural or gender ending, so "alérgico" and "alérgica" share it.
fn stem(word: &str) -> &str {
    let word = word.strip_suffix("es").filter(|w| w.len() > 3).or_else(|| word.strip_suffix('s').filter(|w| w.len() > 3)).unwrap_or(word);
    word.strip_suffix(['a', 'o', 'e']).filter(|w| w.len() > 3).unwrap_or(word)
}

/// Whether the words confirm that `existing` and `new`, found close in meaning, are
/// one fact: they share a word that carries meaning, neither swaps one thing for
/// another (one word each side: peanuts for walnuts, frontend for backend), no person
/// is in one and not the other, no number differs, and both are said the same way
/// (neither denies what the other states).
pub fn words_confirm(existing: &str, new: &str) -> bool {
    let (a, b) = (significant(existing), significant(new));
    let stems = |set: &BTreeSet<String>| set.iter().map(|w| stem(w).to_string()).collect::<BTreeSet<_>>();
    if stems(&a).is_disjoint(&stems(&b)) {
        return false;
    }
    let only_a: Vec<&String> = a.difference(&b).collect();
    let only_b: Vec<&String> = b.difference(&a).collect();
    let liking = |w: &String| LIKING.contains(&w.as_str());
    if only_a.len() == 1 && only_b.len() == 1 && stem(only_a[0]) != stem(only_b[0]) && !(liking(only_a[0]) && liking(only_b[0])) {
        return false;
    }
    same_people_and_numbers(existing, new) && negated(existing) == negated(new)
}

/// Whether both name the same people and the same numbers.
fn same_people_and_numbers(a: &str, b: &str) -> bool {
    let (raw_a, raw_b) = (raw_words(a), raw_words(b));
    let people = |words: &[String]| words.iter().filter(|w| PEOPLE.contains(&w.as_str())).cloned().collect::<BTreeSet<_>>();
    let numbers = |words: &[String]| words.iter().filter(|w| w.chars().any(|c| c.is_ascii_digit())).cloned().collect::<BTreeSet<_>>();
    people(&raw_a) == people(&raw_b) && numbers(&raw_a) == numbers(&raw_b)
}

/// Whether `text` denies something ("no", "never", "don't").
pub(crate) fn negated(text: &str) -> bool {
    raw_words(text).iter().any(|w| NEGATIONS.contains(&w.as_str()))
}

/// Whether `new` denies the very thing `old` states, about the same people: "Ya no
/// trabajo en Google" after "Trabajo en Google". Told by the words alone.
pub(crate) fn denies(old: &str, new: &str) -> bool {
    negated(new) && !negated(old) && adds_nothing(old, new) && same_people_and_numbers(old, new)
}

/// Whether one of the two says nothing the other does not (by stems, apart from the
/// words of liking): "Me encanta el café" beside "Tomo café todos los días".
pub fn adds_nothing(existing: &str, new: &str) -> bool {
    let (a, b) = (meaning_stems(existing), meaning_stems(new));
    !a.is_empty() && !b.is_empty() && (a.is_subset(&b) || b.is_subset(&a))
}

/// Whether `new` says everything `old` does and more (by stems, apart from the words of
/// liking), so keeping its wording loses nothing.
pub(crate) fn says_more(new: &str, old: &str) -> bool {
    let (a, b) = (meaning_stems(old), meaning_stems(new));
    a.is_subset(&b) && b.len() > a.len()
}

fn meaning_stems(text: &str) -> BTreeSet<String> {
    significant(text).into_iter().filter(|w| !LIKING.contains(&w.as_str())).map(|w| stem(&w).to_string()).collect()
}

/// Whether `new`, close in meaning to `old` and sharing what it is about, says that
/// `old` no longer holds: in words of change ("Renuncié a Google, ahora trabajo en una
/// startup"), or by denying the very same thing ("Ya no trabajo en Google").
pub fn tells_a_change(old: &str, new: &str) -> bool {
    let changes = |text: &str| raw_words(text).iter().any(|w| CHANGES.contains(&w.as_str()));
    let marked = changes(new) && !changes(old) && !significant(old).is_disjoint(&significant(new));
    marked || denies(old, new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_confirm_a_restatement_and_refuse_a_swap_a_person_or_a_denial() {
        assert!(words_confirm("Tomo café todos los días", "Me encanta el café"));
        assert!(words_confirm("I drink coffee every day", "I love coffee"));
        assert!(words_confirm("Es alérgico al maní", "Tiene alergia al maní, es alérgica"));
        assert!(!words_confirm("Alérgico al maní", "Alérgico a la nuez"));
        assert!(!words_confirm("Trabaja en desarrollo frontend", "Trabaja en desarrollo backend"));
        assert!(!words_confirm("Su hermano vive en Madrid", "Su hermana vive en Madrid"));
        assert!(!words_confirm("Me gusta el café", "A mi esposa le gusta el café"));
        assert!(!words_confirm("Prefiere películas de acción", "Prefiere series de acción"));
        assert!(!words_confirm("Tiene 2 gatos", "Tiene 3 gatos y un perro"));
        assert!(!words_confirm("Me gusta el café", "No me gusta el café"));
        assert!(!words_confirm("Likes jazz", "Reads science fiction"));
        assert!(words_confirm("Me gusta el café", "Me encanta el café"));
    }

    #[test]
    fn a_change_is_told_by_its_words_about_the_same_thing() {
        assert!(tells_a_change("Trabajo en Google", "Renuncié a Google, ahora trabajo en una startup"));
        assert!(tells_a_change("I work at Google", "I quit Google, now I work at a startup"));
        assert!(!tells_a_change("Trabajo en Google", "Me encanta el café ahora"));
        assert!(!tells_a_change("Tomo café todos los días", "Me encanta el café"));
        assert!(tells_a_change("Trabajo en Google", "Ya no trabajo en Google"));
        assert!(tells_a_change("I like coffee", "I don't like coffee"));
        assert!(!tells_a_change("Me gusta el té", "No me gusta el café"));
    }

    #[test]
    fn one_replys_restatements_of_a_taste_are_one_and_two_things_said_of_someone_are_two() {
        for (earlier, new) in [
            ("le gustan películas de Nolan", "fan de Christopher Nolan"),
            ("le gustan películas de Nolan", "prefiere cine de Nolan"),
            ("Loves the films of Christopher Nolan", "A big fan of Nolan"),
        ] {
            assert!(restates_taste(earlier, new), "{earlier} / {new}");
        }
        for (earlier, new) in [
            ("Mi hermana Laura vive en Madrid", "Laura es enfermera"),
            ("le gustan películas de Nolan", "no le gustan las películas de Nolan"),
            ("le gustan películas de Nolan", "le gustan las series de Tarantino"),
            ("Me gusta el café", "Me encanta el té"),
        ] {
            assert!(!restates_taste(earlier, new), "{earlier} / {new}");
        }
    }
}
