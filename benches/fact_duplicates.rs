//! Duplicate facts found by meaning, on pairs that are not ours: STS-B in English and
//! Spanish (PhilipMay/stsb-multi-mt; people scored each pair 0–5, and a pair scored 4
//! or more counts as the same fact). Converted by `scripts/stsb.py` to `STSB` (default
//! `target/stsb.json`); STS-B's dev split is the development part (it chose each
//! embedder's `Thresholds`), its test split the test part.
//!
//! For each part and language: precision and recall of the word rules alone (what
//! Sidecar did before), of the cosine alone, and of the rule Sidecar uses (the words'
//! own match, or a cosine at the threshold that the words confirm). Prints figures;
//! asserts nothing.
//!
//! `STSB_EMBEDDER=gemma` measures EmbeddingGemma (llama.cpp's server from the runtime)
//! in place of multilingual-e5-small, and prints the thresholds that give it the same
//! shares of the development pairs as e5-small's: how its `Thresholds` were chosen.
//!
//! Run: `cargo bench --bench fact_duplicates` (after `make test` set up the venv).

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::collections::HashMap;

use serde::Deserialize;
use sidecar_memory::adds_nothing;
use sidecar_memory::same_fact;
use sidecar_memory::tells_a_change;
use sidecar_memory::words_confirm;
use sidecar_memory::Category;
use sidecar_memory::Embedder;
use sidecar_memory::GemmaEmbedder;
use sidecar_memory::GemmaFiles;
use sidecar_memory::LocalE5;
use sidecar_memory::TextKind;
use sidecar_memory::Thresholds;

/// STS-B's "mostly equivalent": what a fact stated twice looks like.
const SAME: f64 = 4.0;

#[derive(Deserialize)]
struct Pair {
    a: String,
    b: String,
    score: f64,
    lang: String,
    part: String,
}

struct Judged<'a> {
    pair: &'a Pair,
    cosine: f32,
}

#[derive(Default)]
struct Count {
    true_pos: u32,
    false_pos: u32,
    false_neg: u32,
}

impl Count {
    fn add(&mut self, said: bool, truth: bool) {
        match (said, truth) {
            (true, true) => self.true_pos += 1,
            (true, false) => self.false_pos += 1,
            (false, true) => self.false_neg += 1,
            (false, false) => {}
        }
    }

    fn line(&self) -> String {
        let precision = self.true_pos as f64 / (self.true_pos + self.false_pos).max(1) as f64;
        let recall = self.true_pos as f64 / (self.true_pos + self.false_neg).max(1) as f64;
        let f1 = if precision + recall > 0.0 { 2.0 * precision * recall / (precision + recall) } else { 0.0 };
        format!("precision {:>5.1}%, recall {:>5.1}%, F1 {:>5.1}%", precision * 100.0, recall * 100.0, f1 * 100.0)
    }
}

fn words_rule(p: &Pair) -> bool {
    same_fact(&p.a, Category::General, &p.b, Category::General)
}

fn sidecar_rule(j: &Judged, low: f32, high: f32) -> bool {
    words_rule(j.pair) || (j.cosine >= low && words_confirm(&j.pair.a, &j.pair.b) && (j.cosine >= high || adds_nothing(&j.pair.a, &j.pair.b)))
}

/// The seed's own scenarios (Bug 1, 3, 8, 11) and what each should end as, printed
/// with their cosines.
const SEED: &[(&str, &str, &str)] = &[
    ("Tomo café todos los días", "Me encanta el café", "the same"),
    ("I drink coffee every day", "I love coffee", "the same"),
    ("Trabajo en Google", "Renuncié a Google, ahora trabajo en una startup", "a change"),
    ("I work at Google", "I quit Google, now I work at a startup", "a change"),
    ("Me gusta el café", "A mi esposa le gusta el café", "two facts"),
    ("Alérgico al maní", "Alérgico a la nuez", "two facts"),
    ("Trabaja en desarrollo frontend", "Trabaja en desarrollo backend", "two facts"),
    ("Su hermano vive en Madrid", "Su hermana vive en Madrid", "two facts"),
    ("Prefiere películas de acción", "Prefiere series de acción", "two facts"),
    ("Me gusta el café", "Me encanta el café", "the same"),
    ("Soy alérgico al maní", "Tengo alergia al maní", "the same"),
    ("I'm allergic to peanuts", "I have a peanut allergy", "the same"),
];

/// Vectors of `texts`, from `cache` when it holds exactly these texts' (embedding
/// ten thousand sentences takes minutes on two cores).
async fn embed_all(embedder: &dyn Embedder, texts: &[String], cache: &str) -> Vec<Vec<f32>> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    texts.hash(&mut hasher);
    let key = hasher.finish().to_le_bytes();
    if let Ok(bytes) = std::fs::read(cache) {
        if bytes.len() > 8 && bytes[..8] == key {
            let floats: Vec<f32> = bytes[8..].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            let width = floats.len() / texts.len();
            return floats.chunks_exact(width).map(<[f32]>::to_vec).collect();
        }
    }
    let mut vectors = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(32) {
        vectors.extend(embedder.embed(chunk, TextKind::Passage).await.unwrap());
    }
    let mut bytes = key.to_vec();
    vectors.iter().flatten().for_each(|f| bytes.extend(f.to_le_bytes()));
    let _ = std::fs::write(cache, bytes);
    vectors
}

/// Each pair's cosine by `embedder`, its vectors cached beside the pairs.
async fn cosines<'a>(pairs: &'a [Pair], embedder: &dyn Embedder, path: &str) -> (Vec<Judged<'a>>, f64) {
    let mut texts: Vec<String> = pairs.iter().flat_map(|p| [p.a.clone(), p.b.clone()]).collect();
    texts.sort();
    texts.dedup();
    let started = std::time::Instant::now();
    let slug: String = embedder.model().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let embedded = embed_all(embedder, &texts, &format!("{path}.{slug}.vectors")).await;
    let vectors: HashMap<&str, &Vec<f32>> = texts.iter().map(String::as_str).zip(&embedded).collect();
    let judged = pairs
        .iter()
        .map(|pair| Judged { pair, cosine: vectors[pair.a.as_str()].iter().zip(vectors[pair.b.as_str()].iter()).map(|(x, y)| x * y).sum() })
        .collect();
    (judged, started.elapsed().as_secs_f64())
}

/// The cosine `theirs` must reach to hold the share of development pairs that `ours`
/// holds at `threshold`.
fn same_share(ours: &[Judged], theirs: &[Judged], threshold: f32) -> f32 {
    let dev = |judged: &[Judged]| -> Vec<f32> { judged.iter().filter(|j| j.pair.part == "dev").map(|j| j.cosine).collect() };
    let above = dev(ours).iter().filter(|c| **c >= threshold).count();
    let mut their = dev(theirs);
    their.sort_by(|a, b| b.total_cmp(a));
    their[above.saturating_sub(1).min(their.len() - 1)]
}

#[tokio::main]
async fn main() {
    let path = std::env::var("STSB").unwrap_or_else(|_| format!("{}/target/stsb.json", env!("CARGO_MANIFEST_DIR")));
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("(skipped: {path} is missing; make it with scripts/stsb.py from PhilipMay/stsb-multi-mt)");
        return;
    };
    let pairs: Vec<Pair> = serde_json::from_str(&text).unwrap();
    let runtime = support::runtime();
    let weights = sidecar_memory::locate(None, Some(&runtime)).expect("the embedder's weights (make test installs them)");
    let e5 = LocalE5::load(&weights).unwrap();
    let log = tempfile::tempdir().unwrap();
    let gemma = std::env::var("STSB_EMBEDDER").is_ok_and(|e| e == "gemma").then(|| {
        let files = GemmaFiles::locate(Some(&runtime)).expect("EmbeddingGemma in the runtime (make runtime)");
        GemmaEmbedder::new(files, log.path().join("embedder.log"), reqwest::Client::new())
    });
    let embedder: &dyn Embedder = match &gemma {
        Some(gemma) => gemma,
        None => &e5,
    };
    let thresholds = embedder.thresholds();
    let Thresholds { duplicate, close, .. } = thresholds;
    let (judged, seconds) = cosines(&pairs, embedder, &path).await;
    let same = |j: &Judged| j.pair.score >= SAME;
    println!("{}: STS-B pairs: {} (embedded in {seconds:.1} s); the same fact = scored {SAME} or more", embedder.model(), pairs.len());
    if gemma.is_some() {
        let (by_e5, _) = cosines(&pairs, &e5, &path).await;
        let e5_small = Thresholds::E5_SMALL;
        println!("  e5-small's thresholds moved to the same shares of the development pairs:");
        for (name, at, now) in [
            ("duplicate", e5_small.duplicate, duplicate),
            ("close", e5_small.close, close),
            ("borderline", e5_small.borderline, thresholds.borderline),
            ("confident", e5_small.confident, thresholds.confident),
            ("repeat", e5_small.repeat, thresholds.repeat),
        ] {
            println!("    {name:<10} e5-small {at:.2} -> {:.3} (in use: {now:.2})", same_share(&by_e5, &judged, at));
        }
    }
    for part in ["dev", "test"] {
        for lang in ["en", "es", "both"] {
            let these: Vec<&Judged> = judged.iter().filter(|j| j.pair.part == part && (lang == "both" || j.pair.lang == lang)).collect();
            let (mut words, mut cosine, mut sidecar) = (Count::default(), Count::default(), Count::default());
            for j in &these {
                words.add(words_rule(j.pair), same(j));
                cosine.add(j.cosine >= duplicate, same(j));
                sidecar.add(sidecar_rule(j, duplicate, close), same(j));
            }
            let positives = these.iter().filter(|j| same(j)).count();
            println!("  {part:<4} {lang:<4} {:>4} pairs ({positives} the same):", these.len());
            println!("    words alone            {}", words.line());
            println!("    cosine ≥ {duplicate:.2} alone    {}", cosine.line());
            println!("    Sidecar's rule         {}", sidecar.line());
        }
    }
    let seed_texts: Vec<String> = SEED.iter().flat_map(|(a, b, _)| [a.to_string(), b.to_string()]).collect();
    let seed_vectors = embedder.embed(&seed_texts, TextKind::Passage).await.unwrap();
    println!("  the seed's scenarios:");
    for ((a, b, expected), v) in SEED.iter().zip(seed_vectors.chunks(2)) {
        let cosine: f32 = v[0].iter().zip(&v[1]).map(|(x, y)| x * y).sum();
        let pair = Pair { a: a.to_string(), b: b.to_string(), score: 0.0, lang: String::new(), part: String::new() };
        let what = if tells_a_change(a, b) && cosine >= duplicate {
            "a change"
        } else if sidecar_rule(&Judged { pair: &pair, cosine }, duplicate, close) {
            "the same"
        } else {
            "two facts"
        };
        println!("    {cosine:.3} {what:<9} {} {a:?} / {b:?}", if what == *expected { "" } else { "(WRONG)" });
    }
    if std::env::var("SHOW_FALSE").is_ok() {
        for j in judged.iter().filter(|j| j.pair.part == "dev" && sidecar_rule(j, duplicate, close) && !same(j)).take(40) {
            println!("    false: {:.3} {:.1} {:?} / {:?}", j.cosine, j.pair.score, j.pair.a, j.pair.b);
        }
    }
    println!("  the thresholds on the development part (both languages), Sidecar's rule (low / high):");
    for high in [close - 0.01, close, close + 0.01, close + 0.02] {
        for low in [duplicate - 0.02, duplicate, duplicate + 0.02, duplicate + 0.04, high] {
            let mut count = Count::default();
            for j in judged.iter().filter(|j| j.pair.part == "dev") {
                count.add(sidecar_rule(j, low, high), same(j));
            }
            println!("    {low:.2} / {high:.2}: {}", count.line());
        }
    }
}
