//! `remember`, `facts`, `recall` and `import`: what Sidecar knows.

use anyhow::Context;
use serde_json::json;
use sidecar::Companion;
use sidecar_memory::MemoryEvent;

/// `words`: a category first when the fact follows it, else only the fact, whose
/// category is read from its words.
pub(crate) async fn remember(companion: &Companion, words: &[String], json: bool) -> anyhow::Result<i32> {
    use sidecar_memory::Category;
    use sidecar_memory::SaveOutcome;
    let (category, fact) = match words {
        [first, rest @ ..] if !rest.is_empty() && Category::parse(first).is_some() => (Category::parse(first).expect("checked"), rest.join(" ")),
        _ => {
            let fact = words.join(" ");
            (sidecar_memory::category_of(&fact), fact)
        }
    };
    let outcome = companion.remember(&fact, category).await?;
    if json {
        println!("{}", serde_json::to_string(&outcome)?);
    } else {
        match &outcome {
            SaveOutcome::New { category } => println!("Saved under {}.", category.name()),
            SaveOutcome::Reinforced { weight, .. } => println!("Already known; reinforced (weight {weight})."),
            SaveOutcome::Moved { from, to, .. } => println!("Already known under {}; moved to {}.", from.name(), to.name()),
            SaveOutcome::KeptInHealth { .. } => println!("Already known under Health; kept there."),
            SaveOutcome::KeptImportant { kept, .. } => println!("Already known under {}, marked important; kept there.", kept.name()),
            SaveOutcome::Superseded { category, old } => println!("Saved under {}; it replaces \"{old}\" (kept as history).", category.name()),
            SaveOutcome::NeedsConfirmation { category, old } => {
                println!("Saved under {}; it may contradict \"{old}\". Both stay current until you confirm in the app's Memory view.", category.name())
            }
            SaveOutcome::RateLimited => println!("Not saved: too many facts at once."),
            SaveOutcome::SaidThisTurn { fact } => println!("Already saved as \"{fact}\"."),
            SaveOutcome::Rejected { reason } => {
                eprintln!("sidecar: not saved: {reason}");
                return Ok(1);
            }
        }
    }
    Ok(0)
}

/// What `recall` embeds before searching when the app has not yet: the newest turns
/// (the app's background work embeds the rest).
const CLI_CATCH_UP: usize = 256;

pub(crate) async fn recall(companion: &Companion, query: &str, budget: usize, json: bool) -> anyhow::Result<i32> {
    // An unavailable embedder is said by the results (`words_only`), not here.
    let _ = companion.meaning().catch_up(Some(CLI_CATCH_UP)).await;
    let results = companion.recall_service().search(query, budget).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&results)?);
        return Ok(0);
    }
    if results.hits.is_empty() {
        println!("Nothing found for \"{query}\".");
    }
    // What the model reads, as it reads it.
    print!("{}", sidecar_memory::lines(&results.hits));
    if results.omitted > 0 {
        println!("({} more matches over the budget)", results.omitted);
    }
    if let Some(why) = &results.words_only {
        eprintln!("sidecar: searched by words only: {why}");
    }
    Ok(0)
}

pub(crate) async fn import(companion: &Companion, file: &std::path::Path, json: bool) -> anyhow::Result<i32> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    // A ChatGPT or Claude export is one JSON list; JSON lines start with an object.
    let is_export = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
    let mut zone_note = None;
    let already;
    let (imported, problems, what) = if is_export {
        let report = companion.data().import_chat_export(&bytes).await?;
        already = report.already;
        let what = format!("{} messages in {} conversations from {}", report.messages, report.conversations, report.from);
        let problems = report.problems.iter().map(|(n, why)| ("conversation", *n, why.clone())).collect::<Vec<_>>();
        (report.messages, problems, what)
    } else {
        let report = companion.data().import_jsonl(&bytes).await?;
        let imported = report.imported;
        already = report.already;
        zone_note = report.local_times;
        let problems = report.problems.into_iter().map(|(n, why)| ("line", n, why)).collect::<Vec<_>>();
        (imported, problems, format!("{imported} messages"))
    };
    if json {
        let problems: Vec<_> = problems.iter().map(|(unit, at, error)| json!({*unit: at, "error": error})).collect();
        let local_times = zone_note.as_ref().map(|(count, zone)| json!({"count": count, "zone": zone}));
        println!("{}", json!({"imported": imported, "already": already, "problems": problems, "local_times": local_times}));
    } else {
        println!("Imported {what}.");
        if already > 0 {
            println!("{already} messages were already in Sidecar and were not stored again.");
        }
        if let Some((count, zone)) = &zone_note {
            println!("{count} times had no time zone; they were read as {zone} time.");
        }
        for (unit, at, error) in &problems {
            eprintln!("{unit} {at} skipped: {error}");
        }
    }
    embed_all(companion).await;
    Ok(if problems.is_empty() { 0 } else { 2 })
}

/// Embeds everything not yet embedded, with progress on stderr; an unavailable
/// embedder is said once (the words are searchable already).
async fn embed_all(companion: &Companion) {
    let mut events = companion.events().subscribe();
    let progress = tokio::spawn(async move {
        // The embedder reports its counts as it loads: with nothing left to embed, that is
        // no progress to show.
        let mut working = false;
        while let Ok(event) = events.recv().await {
            if let sidecar::CoreEvent::Memory(MemoryEvent::MemoryIndexing { embedded, total }) = event {
                working |= embedded < total;
                if working {
                    eprint!("\rEmbedding for recall by meaning: {embedded} of {total}");
                }
            }
        }
    });
    let outcome = companion.meaning().catch_up(None).await;
    progress.abort();
    match outcome {
        Ok(0) => {}
        Ok(_) => eprintln!(),
        Err(sidecar_memory::EmbedError::Off) => {}
        Err(e) => eprintln!("sidecar: the imported messages are searchable by words; by meaning once the embedder works: {e}"),
    }
}

pub(crate) fn facts(companion: &Companion, json: bool) -> anyhow::Result<i32> {
    let facts = companion.knowledge().facts();
    let problems = companion.knowledge().malformed();
    // Lines that read as instructions from elsewhere are held out of the prompt (Bug 6).
    let suspects = companion.knowledge().suspect_lines();
    if json {
        println!("{}", serde_json::to_string_pretty(&json!({"facts": facts, "problems": problems, "suspects": suspects}))?);
        return Ok(0);
    }
    if facts.is_empty() {
        println!("No facts yet. Try: sidecar remember Preferences \"Likes green tea\"");
    }
    for f in &facts {
        println!("[{}] (weight {}) {}  (learned {}, confirmed {})", f.category.name(), f.fact.weight, f.fact.text, f.fact.learned, f.fact.confirmed);
    }
    for p in &problems {
        eprintln!("learnings.md line {} not understood ({}): {}", p.line, p.reason, p.text);
    }
    for s in &suspects {
        let why = serde_json::to_value(s.reason)?;
        eprintln!(
            "{} line {} is not read by Sidecar: it reads as instructions from somewhere else ({}): {}. Keep it or remove it in the window's Memory, or edit the file.",
            s.file.name(),
            s.line,
            why.as_str().unwrap_or_default().replace('_', " "),
            s.text
        );
    }
    Ok(0)
}
