//! The context's fit over a long, tool-heavy conversation: 500 turns against a
//! scripted model, each turn calling a tool that returns a large JSON or text result.
//! Every request must fit the budget with tool calls and results in pairs; older turns
//! must be folded into a running summary (with checkpoints and a memory flush); and
//! every fact the user stated must still be reachable afterwards. The scripted digest
//! fails now and then, so the fallback and Bug 12's log are exercised too.

use sidecar_agent::ContextStore;
use std::sync::{Arc, Mutex};

use crate::support::{reply_events, stream, tool_call_events, Reply, ScriptedServer};
use regex::Regex;
use serde_json::Value;
use sidecar_tools::Tool;
use sidecar_tools::ToolFuture;

const TURNS: usize = 500;
const WINDOW: usize = 6_000;
const REPLY_RESERVE: usize = 1_000;
const BUDGET: usize = WINDOW - REPLY_RESERVE;

/// A lookup whose answer is large: JSON most of the time, plain text otherwise.
struct BigLookup;

impl Tool for BigLookup {
    fn name(&self) -> &'static str {
        "big_lookup"
    }
    fn description(&self) -> &'static str {
        "Looks things up."
    }
    fn parameters(&self) -> Value {
        serde_json::json!({"type": "object", "properties": {"item": {"type": "integer"}}, "required": ["item"]})
    }
    fn run(&self, arguments: Value) -> ToolFuture<'_> {
        Box::pin(async move {
            let item = arguments["item"].as_u64().unwrap_or(0);
            if item % 7 == 3 {
                return Ok(format!("Report {item}. {}", "Plain prose about the item, long and rambling. ".repeat(200)));
            }
            let rows: Vec<Value> = (0..60 + item % 40)
                .map(|i| {
                    serde_json::json!({
                        "id": format!("row-{item}-{i}"),
                        "name": format!("Entry {i} of lookup {item}"),
                        "url": format!("https://example.com/{item}/{i}"),
                        "notes": "free text that matters little and takes a lot of room in the context window",
                        "score": i * 3,
                    })
                })
                .collect();
            Ok(serde_json::json!({ "query": item, "results": rows }).to_string())
        })
    }
}

/// Tokens of a request as the guard counts them: messages and tool definitions.
fn request_tokens(request: &Value) -> usize {
    let count = sidecar_llm::tokens::count;
    let messages: usize = request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            4 + count(m["content"].as_str().unwrap_or(""))
                + m["tool_calls"].as_array().map_or(0, |calls| {
                    calls.iter().map(|c| 4 + count(c["function"]["name"].as_str().unwrap()) + count(c["function"]["arguments"].as_str().unwrap())).sum()
                })
        })
        .sum();
    let tools = request.get("tools").filter(|t| !t.is_null()).map_or(0, |t| count(&serde_json::to_string(t).unwrap()));
    messages + tools
}

/// Every call is answered right after it, and every result follows its call.
fn pairs_intact(request: &Value) -> Result<(), String> {
    let messages = request["messages"].as_array().unwrap();
    let mut index = 0;
    while index < messages.len() {
        let message = &messages[index];
        if message["role"] == "tool" {
            return Err(format!("result {} without its call before it", message["tool_call_id"]));
        }
        index += 1;
        if let Some(calls) = message["tool_calls"].as_array() {
            for call in calls {
                let result = messages.get(index).ok_or("a call without a result")?;
                if result["role"] != "tool" || result["tool_call_id"] != call["id"] {
                    return Err(format!("call {} is not answered next", call["id"]));
                }
                index += 1;
            }
        }
    }
    Ok(())
}

fn last_user_text(request: &Value) -> String {
    request["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "user").unwrap()["content"].as_str().unwrap().to_string()
}

/// What the scripted digest call saw, and whether it answered properly.
#[derive(Default)]
struct DigestLog {
    calls: usize,
    /// (answered with valid JSON, fact words in the leaving turns)
    outcomes: Vec<(bool, Vec<String>)>,
    /// Fact words a valid digest found in the turns leaving with it (not in the previous
    /// summary, whose messages left before): their facts name those messages.
    leaving_now: Vec<String>,
}

fn scripted_model(log: Arc<Mutex<DigestLog>>) -> impl Fn(&Value) -> Reply + Send + Sync + 'static {
    let fact = Regex::new(r"my sister (Zarelda\d+) lives in (\w+)").unwrap();
    move |request: &Value| {
        let messages = request["messages"].as_array().unwrap();
        let system = messages[0]["content"].as_str().unwrap_or("");
        if system.starts_with("You maintain the memory") {
            let leaving = messages[1]["content"].as_str().unwrap();
            let words: Vec<String> = fact.captures_iter(leaving).map(|c| c[1].to_string()).collect();
            let mut log = log.lock().unwrap();
            log.calls += 1;
            // Every third digest answer is not JSON: the fallback has to cope.
            let valid = !log.calls.is_multiple_of(3);
            log.outcomes.push((valid, words.clone()));
            if !valid {
                return stream(reply_events(&["I would rather not summarise this."]));
            }
            let turns = leaving.split("LEAVING TURNS:").nth(1).unwrap_or_default();
            log.leaving_now.extend(fact.captures_iter(turns).map(|c| c[1].to_string()));
            let facts: Vec<Value> = fact
                .captures_iter(leaving)
                .map(|c| serde_json::json!({"fact": format!("Has a sister, {}, who lives in {}", &c[1], &c[2]), "category": "Relationships"}))
                .collect();
            let digest = serde_json::json!({
                "summary": format!("Digest {}: the user worked through many lookups.", log.calls),
                "checkpoint": {"title": "Lookups", "current_work": "Looking items up", "pending": ["more lookups"]},
                "facts": facts,
            });
            return stream(reply_events(&[&digest.to_string()]));
        }
        let last = messages.last().unwrap();
        if last["role"] == "user" {
            let text = last_user_text(request);
            let turn: usize = text.trim_start_matches("Turn ").split(':').next().unwrap().parse().unwrap();
            let id = format!("call-{turn}");
            let arguments = format!("{{\"item\": {turn}}}");
            return stream(tool_call_events(&[(id.as_str(), "big_lookup", arguments.as_str())]));
        }
        stream(reply_events(&["Done: ", "here is what the lookup found."]))
    }
}

fn settings(base_url: &str) -> String {
    format!(
        "[[providers]]\nid = \"replay\"\nbase_url = \"{base_url}\"\nmodel = \"replay-model\"\ncontext_window = {WINDOW}\n\
         [user]\ntimezone = \"Europe/Madrid\"\n[llm]\nmax_tokens = {REPLY_RESERVE}\nretry_base_ms = 10\n"
    )
}

fn user_message(turn: usize) -> String {
    if turn % 20 == 5 {
        format!("Turn {turn}: look up item {turn}. By the way, my sister Zarelda{turn} lives in Rosario.")
    } else {
        format!("Turn {turn}: look up item {turn} and tell me what you find.")
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_500_turn_tool_heavy_replay_stays_in_budget_and_loses_no_fact() {
    let log = Arc::new(Mutex::new(DigestLog::default()));
    let server = ScriptedServer::responding(scripted_model(log.clone())).await;
    let core = crate::support::core().settings(&settings(&server.base_url)).open().await;
    let mut tools = (*core.tools()).clone();
    tools.register(BigLookup);
    core.set_tools(tools);

    // What sending everything would cost: every stored message of the conversation.
    let mut full_history_tokens = 0usize;
    let mut full_per_turn = Vec::new();
    let mut seen = 0;
    for turn in 0..TURNS {
        let text = user_message(turn);
        core.send(&text).await.unwrap_or_else(|e| panic!("turn {turn}: {e}"));
        let conversation = core.store().conversations().current_conversation().await.unwrap();
        for message in core.store().context().messages_after(conversation, seen).await.unwrap() {
            full_history_tokens += sidecar_llm::tokens::count(&message.content) + 4;
            seen = message.id;
        }
        full_per_turn.push(full_history_tokens);
    }

    let requests = server.requests.lock().unwrap().clone();
    let chat: Vec<&Value> = requests.iter().filter(|r| !r["messages"][0]["content"].as_str().unwrap_or("").starts_with("You maintain the memory")).collect();
    assert_eq!(chat.len(), TURNS * 2, "one tool round and one answer per turn");
    let mut sizes = Vec::new();
    for (n, request) in chat.iter().enumerate() {
        let tokens = request_tokens(request);
        assert!(tokens <= BUDGET, "request {n} has {tokens} tokens, over the {BUDGET} budget");
        pairs_intact(request).unwrap_or_else(|e| panic!("request {n}: {e}"));
        sizes.push(tokens);
    }

    // Nothing was deleted: every message of the 500 turns is stored.
    let conversation = core.store().conversations().current_conversation().await.unwrap();
    let stored = core.store().context().messages_after(conversation, 0).await.unwrap();
    assert_eq!(stored.len(), TURNS * 4);

    // Older turns were folded: a summary exists, and the latest prompt carries it.
    let summary = core.store().context().latest_summary(conversation).await.unwrap().expect("a running summary");
    assert!(summary.upto_message_id > 0);
    let last_prompt = chat.last().unwrap()["messages"][0]["content"].as_str().unwrap().to_string();
    assert!(last_prompt.contains("<conversation_summary>"));
    // One checkpoint per fold (each from a digest call), and at most one more per fold
    // cycle, written before the tool result that took the prompt past the threshold.
    let (auto,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM checkpoints WHERE trigger = 'auto'").fetch_one(core.store().pool()).await.unwrap();
    // What the scripted model saw, taken out of its lock before anything else awaits.
    let log = std::mem::take(&mut *log.lock().unwrap());
    let auto = auto as usize;
    let (folds,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM context_summaries").fetch_one(core.store().pool()).await.unwrap();
    eprintln!("{folds} folds, {} digest calls, {auto} automatic checkpoints in {TURNS} turns", log.calls);
    assert!((log.calls..=2 * log.calls).contains(&auto), "{auto} automatic checkpoints for {} digests", log.calls);
    assert!(auto > folds as usize, "a checkpoint was also written before a tool result that took the prompt past the threshold");
    assert!(log.calls >= 3, "several folds in 500 turns (got {})", log.calls);

    // Every fact stated is reachable: in the prompt, in learnings, or through recall.
    let learned: Vec<String> = core.knowledge().facts().into_iter().map(|f| f.fact.text).collect();
    let truncated_log = std::fs::read_to_string(core.dir.path().join("truncated_messages.jsonl")).unwrap_or_default();
    for turn in (0..TURNS).filter(|t| t % 20 == 5) {
        let word = format!("Zarelda{turn}");
        let in_learnings = learned.iter().any(|f| f.contains(&word));
        let in_prompt = chat.last().unwrap().to_string().contains(&word);
        let recalled = core.recall_service().search(&word, 500).await.unwrap().hits.iter().any(|h| h.snippet.contains(&word));
        assert!(in_learnings || in_prompt || recalled, "{word} is lost");
        assert!(recalled, "{word} is not found by recall");
    }
    // Facts in a good digest were flushed to learnings; in a failed one, Bug 12's log kept them.
    for (valid, words) in &log.outcomes {
        for word in words {
            if *valid {
                assert!(learned.iter().any(|f| f.contains(word.as_str())), "{word} was not flushed to learnings");
            } else {
                assert!(truncated_log.contains(word.as_str()), "{word} left unsaved without a Bug 12 log entry");
            }
        }
    }
    assert!(log.outcomes.iter().any(|(valid, w)| !valid && !w.is_empty()), "the replay should exercise a failed digest with a fact");
    // A fact flushed with the turns it was said in names that message ("Where I learned
    // it"); one carried in an earlier summary names none rather than a wrong one.
    let facts = core.knowledge().facts();
    let origins = core.knowledge().origins().await.unwrap();
    assert!(log.leaving_now.len() >= 10, "{:?}", log.leaving_now);
    for word in &log.leaving_now {
        let fact = facts.iter().find(|f| f.fact.text.contains(word.as_str())).unwrap();
        let from: Vec<i64> = origins.iter().filter(|o| o.line == fact.line).map(|o| o.message_id).collect();
        let said = core.store().recall_index().messages(&from).await.unwrap();
        assert!(!said.is_empty() && said.iter().all(|m| m.text.contains(word.as_str())), "{word}'s fact names no message saying it: {said:?}");
    }
    for origin in &origins {
        let fact = facts.iter().find(|f| f.line == origin.line).unwrap();
        let said = core.store().recall_index().messages(&[origin.message_id]).await.unwrap();
        let word = fact.fact.text.split(", ").nth(1).unwrap();
        assert!(said[0].text.contains(word), "{} names a message that does not say it: {}", fact.fact.text, said[0].text);
    }

    let mean = sizes.iter().sum::<usize>() as f64 / sizes.len() as f64;
    let mut sorted = sizes.clone();
    sorted.sort_unstable();
    let p95 = sorted[sorted.len() * 95 / 100];
    let full_mean = full_per_turn.iter().sum::<usize>() as f64 / full_per_turn.len() as f64;
    let full_p95 = {
        let mut f = full_per_turn.clone();
        f.sort_unstable();
        f[f.len() * 95 / 100]
    };
    eprintln!(
        "replay: {TURNS} turns, {} requests, {} folds; prompt tokens per request mean {mean:.0} p95 {p95} (budget {BUDGET}); full history mean {full_mean:.0} p95 {full_p95}, final {full_history_tokens}",
        chat.len(),
        log.calls
    );
    assert!(mean < full_mean / 5.0);
}
