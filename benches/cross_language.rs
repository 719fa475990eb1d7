//! Cross-language recall: a question asked in Spanish over a chat held in English, and
//! a question asked in English over something said in Spanish. LoCoMo's development
//! conversations 26 and 30, translated by hand in `benches/data/locomo_spanish.json`:
//! 22 of their questions in Spanish, and 12 evidence turns in Spanish added to the chat
//! beside the English ones. For each, whether the evidence is in the budgeted recall
//! (hybrid, 2k tokens) and its place among all of the chat's messages by meaning (as
//! recall scores it), beside the same question in English. Prints figures, asserts nothing.
//!
//! Run as `locomo_recall` (`LOCOMO`, `LOCOMO_DIR`; `LOCOMO_EMBEDDINGS` for another
//! embedder): `LOCOMO=target/locomo.json cargo bench --bench cross_language`.

#[path = "support/locomo.rs"]
mod locomo;

use serde::Deserialize;
use sidecar::Companion;
use sidecar_llm::Role;
use sidecar_memory::RecallMode;
use sidecar_store::ImportedTurn;
use sidecar_store::Key;

#[derive(Deserialize)]
struct Table {
    questions: Vec<Asked>,
    statements: Vec<Said>,
}

/// One of the conversation's questions, asked in Spanish.
#[derive(Deserialize)]
struct Asked {
    conversation: String,
    question: usize,
    es: String,
}

/// One of the conversation's evidence turns, said in Spanish, and the question it answers.
#[derive(Deserialize)]
struct Said {
    conversation: String,
    message: usize,
    question: usize,
    es: String,
}

const BUDGET: usize = 2000;
/// Places beyond this are counted as far.
const DEEPEST: usize = 50;

/// Whether message `id` is in what recall returns for `query` at the budget, and its
/// place among all of the chat's messages by meaning, as recall scores them (1 = first).
async fn look(core: &Companion, query: &str, id: i64, all: &[i64]) -> (bool, Option<usize>) {
    let hybrid = core.recall_service().search_in(query, BUDGET, RecallMode::Hybrid).await.unwrap();
    let found = hybrid.hits.iter().any(|h| h.source == "message" && h.id == id);
    let vector = core.meaning().query(query).await.unwrap();
    let keys: Vec<Key> = all.iter().map(|id| Key::message(*id)).collect();
    let place = core.meaning().rank(&vector, &keys).iter().position(|(key, _)| key.id == id).map(|p| p + 1);
    (found, place.filter(|p| *p <= DEEPEST))
}

/// Shares found, the median place and how many were beyond [`DEEPEST`].
fn summary(results: &[(bool, Option<usize>)]) -> String {
    let found = results.iter().filter(|(found, _)| *found).count();
    let mut places: Vec<usize> = results.iter().map(|(_, place)| place.unwrap_or(DEEPEST + 1)).collect();
    places.sort_unstable();
    let beyond = results.iter().filter(|(_, place)| place.is_none()).count();
    let median = places.get(places.len() / 2).copied().unwrap_or(0);
    let median = if median > DEEPEST { format!(">{DEEPEST}") } else { median.to_string() };
    format!("in recall at 2k {:>5.1}%, median place by meaning {median:>3}, beyond {DEEPEST}: {beyond}", 100.0 * found as f64 / results.len().max(1) as f64)
}

#[tokio::main]
async fn main() {
    let set = locomo::load();
    let table: Table = serde_json::from_str(include_str!("data/locomo_spanish.json")).expect("the table parses");
    let embedder = std::env::var("LOCOMO_EMBEDDINGS").unwrap_or_else(|_| "multilingual-e5-small (built in)".into());
    let (mut english, mut spanish, mut over_spanish) = (Vec::new(), Vec::new(), Vec::new());
    for conversation in set.conversations.iter().filter(|c| table.questions.iter().any(|q| q.conversation == c.name)) {
        let temporary = tempfile::tempdir().unwrap();
        let (core, stored) = locomo::open(conversation, &temporary).await;
        for asked in table.questions.iter().filter(|q| q.conversation == conversation.name) {
            let question = &conversation.questions[asked.question];
            let evidence = stored[question.evidence[0]];
            english.push(look(&core, &question.question, evidence, &stored).await);
            spanish.push(look(&core, &asked.es, evidence, &stored).await);
            println!("  {}: {:?} / {:?}  {}", conversation.name, english.last().unwrap(), spanish.last().unwrap(), asked.es);
        }
        // The Spanish turns go into a copy of the store (SQLite's own consistent copy),
        // beside the English ones.
        let copy = tempfile::tempdir().unwrap();
        sqlx::query("VACUUM INTO ?").bind(copy.path().join("sidecar.db").to_string_lossy().into_owned()).execute(core.store().pool()).await.unwrap();
        drop(core);
        let (core, _) = locomo::open_in(conversation, copy.path().to_path_buf()).await;
        let said: Vec<&Said> = table.statements.iter().filter(|s| s.conversation == conversation.name).collect();
        let turns: Vec<ImportedTurn> = said
            .iter()
            .map(|s| {
                let original = &conversation.messages[s.message];
                ImportedTurn {
                    role: if original.role == Role::User { Role::User } else { Role::Assistant },
                    content: &s.es,
                    timestamp: Some(&original.timestamp),
                    external_id: None,
                }
            })
            .collect();
        core.store().archives().archive(None, &turns).await.unwrap();
        core.meaning().catch_up(None).await.unwrap();
        let rows: Vec<(i64,)> = sqlx::query_as("SELECT id FROM messages").fetch_all(core.store().pool()).await.unwrap();
        let all: Vec<i64> = rows.into_iter().map(|(id,)| id).collect();
        for s in said {
            let (id,): (i64,) = sqlx::query_as("SELECT id FROM messages WHERE content = ?").bind(&s.es).fetch_one(core.store().pool()).await.unwrap();
            over_spanish.push(look(&core, &conversation.questions[s.question].question, id, &all).await);
        }
    }
    println!("Cross-language recall, LoCoMo development conversations 26 and 30 ({embedder}):");
    println!("  {} questions over the English chat, asked in English: {}", english.len(), summary(&english));
    println!("  the same questions asked in Spanish:              {}", summary(&spanish));
    println!("  {} English questions over a turn said in Spanish:  {}", over_spanish.len(), summary(&over_spanish));
}
