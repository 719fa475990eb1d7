//! The budget with the real store and a scripted provider on loopback: concurrent
//! calls cannot together overshoot a limit (the reservation), a limit crossed while a
//! reply is written lets that reply finish and then holds, past the limit chat moves
//! to the offline model (the real llama.cpp server) saying so, background work waits,
//! unpriced models, the currency rate, and the one click that allows more today.

use std::sync::Arc;

use sidecar::events::CoreEvent;
use sidecar::Companion;
use sidecar_agent::ChatEvent;
use sidecar_llm::OverBudget;
use sidecar_settings::Purpose;

use crate::support::{self, delta, finish, reply_events, stream, usage, ScriptedServer};

/// A provider whose model costs $1 per million tokens in and $100 out, so a reply with
/// 1,000 tokens in and 1,000 out costs $0.101.
fn settings(base_url: &str, budget: &str, offline: bool) -> String {
    let mut text = format!(
        "[[providers]]\nid = \"paid\"\nbase_url = \"{base_url}\"\nmodel = \"paid-model\"\n[llm]\nmax_retries = 0\nmax_tokens = 200\n[prices.\"paid-model\"]\ninput_per_mtok = 1.0\noutput_per_mtok = 100.0\n[budget]\n{budget}\n"
    );
    if offline {
        text.push_str(&format!("[local_model]\nruntime = {:?}\n{}", support::runtime(), support::LIGHT_EMBEDDER));
    }
    text
}

async fn open(dir: &std::path::Path, text: &str) -> Arc<Companion> {
    support::core().settings(text).open_in(dir).await
}

/// A reply of a few words that the provider bills as 1,000 tokens in and out.
fn billed_reply(text: &str) -> Vec<String> {
    vec![delta(text), finish("stop"), usage(1_000, 1_000)]
}

fn reached(events: &mut tokio::sync::broadcast::Receiver<CoreEvent>) -> Vec<u8> {
    let mut percents = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let CoreEvent::Budget(sidecar_llm::BudgetEvent::BudgetReached { reached, .. }) = event {
            percents.push(reached.percent);
        }
    }
    percents
}

#[tokio::test]
async fn concurrent_calls_cannot_together_overshoot_a_limit() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &settings("http://127.0.0.1:9/v1", "daily_usd = 1.0", false)).await;
    let budget = core.models().budget().clone();
    // Each call's worst case: 0 tokens in, 1,000 out at $100/M = $0.10.
    let calls: Vec<_> = (0..30)
        .map(|_| {
            let budget = budget.clone();
            tokio::spawn(async move { budget.reserve("paid", "paid-model", false, 0, Some(1_000)).await })
        })
        .collect();
    let mut held = Vec::new();
    for call in calls {
        if let Ok(reservation) = call.await.unwrap() {
            held.push(reservation.expect("a limit is set, so the call is held"));
        }
    }
    assert_eq!(held.len(), 10, "exactly ten worst cases of $0.10 fit in $1.00");
    for reservation in held {
        reservation.settle("paid", Some(0.1)).await;
    }
    let view = core.budget().view().await.unwrap();
    assert!((view.limits[0].spent_usd - 1.0).abs() < 1e-9 && view.limits[0].reserved_usd == 0.0, "{view:?}");
    assert!(matches!(budget.reserve("paid", "paid-model", false, 0, Some(1)).await, Err(OverBudget::Limit(_))));
}

#[tokio::test]
async fn a_limit_crossed_mid_reply_finishes_it_then_chat_moves_to_the_offline_model_until_more_is_allowed() {
    let server = ScriptedServer::start(vec![stream(billed_reply("First."))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &settings(&server.base_url, "daily_usd = 0.25", true)).await;
    let mut events = core.events().subscribe();
    for _ in 0..2 {
        assert_eq!(core.send("Hello").await.unwrap().meta.provider.as_deref(), Some("paid"));
    }
    assert_eq!(reached(&mut events), [80], "$0.202 of $0.25 is one warning at 80%");
    // Its worst case fits ($0.202 + the prompt at $1/M + 200 tokens out at $100/M), but
    // the provider bills $0.101: the reply finishes, and the limit is then crossed.
    let third = core.send("Hello").await.unwrap();
    assert_eq!((third.meta.provider.as_deref(), third.reply.as_str()), (Some("paid"), "First."));
    assert_eq!(reached(&mut events), [100]);
    let requests = server.request_count();
    let held = core.send("Say hello in one short sentence.").await.unwrap();
    assert_eq!(server.request_count(), requests, "nothing is sent past the limit");
    assert_eq!((held.meta.provider.as_deref(), held.meta.fallback_from.as_deref()), (Some("local"), Some("paid")));
    let mut notices = Vec::new();
    while let Ok(event) = events.try_recv() {
        if let CoreEvent::Chat(ChatEvent::Notice { notice: sidecar::events::Notice::FallingBack { reason, .. }, .. }) = event {
            notices.push(reason);
        }
    }
    assert!(notices.iter().any(|n| n.contains("today's budget is spent") && n.contains("allow more today")), "{notices:?}");
    let view = core.budget().allow_more_today(1.0).await.unwrap();
    assert_eq!(view.allowance_usd, 1.0);
    assert_eq!(core.send("Hello").await.unwrap().meta.provider.as_deref(), Some("paid"), "allowed again");
    core.shutdown().await;
}

#[tokio::test]
async fn past_the_background_limit_background_work_waits_and_chat_goes_on() {
    let server = ScriptedServer::start(vec![stream(billed_reply("A summary."))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &settings(&server.base_url, "background_daily_usd = 0.15", false)).await;
    let chain = core.models().chat_chain(None).await.unwrap();
    // A worst case of $0.05 fits the $0.15 first; billed $0.101, the next one does not.
    let request = || sidecar_llm::ChatRequest {
        messages: vec![sidecar_llm::ChatMessage::user("Summarise")],
        tools: Vec::new(),
        max_tokens: Some(500),
        general_cap: false,
    };
    let timeout = std::time::Duration::from_secs(10);
    assert!(core.models().call_once(&chain, request(), Purpose::Summarize, None, timeout).await.is_ok());
    let before = server.request_count();
    let error = core.models().call_once(&chain, request(), Purpose::Proactive, None, timeout).await.unwrap_err().to_string();
    assert!(error.contains("not made") && error.contains("background work"), "{error}");
    assert_eq!(server.request_count(), before);
    assert_eq!(core.send("Hello").await.unwrap().meta.provider.as_deref(), Some("paid"), "chat is not background work");
}

#[tokio::test]
async fn a_model_with_no_known_price_is_held_back_unless_the_user_allows_it() {
    let server = ScriptedServer::start(vec![stream(reply_events(&["Hi."]))]).await;
    for (allow, answered) in [(false, false), (true, true)] {
        let dir = tempfile::tempdir().unwrap();
        let text = settings(&server.base_url, &format!("daily_usd = 5.0\nallow_unpriced = {allow}"), false)
            .replace("model = \"paid-model\"", "model = \"mystery-model\"");
        let core = open(dir.path(), &text).await;
        match core.send("Hello").await {
            Ok(outcome) => assert!(answered, "{outcome:?}"),
            Err(error) => {
                assert!(!answered, "{error}");
                assert!(error.to_string().contains("mystery-model has no known price"), "{error}");
            }
        }
    }
}

#[tokio::test]
async fn amounts_are_shown_and_allowed_in_the_users_currency() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &settings("http://127.0.0.1:9/v1", "daily_usd = 2.0\ncurrency = \"EUR\"\nusd_rate = 0.5", false)).await;
    let view = core.budget().allow_more_today(1.0).await.unwrap();
    assert_eq!((view.currency.as_str(), view.allowance_usd, view.limits[0].allowed_usd), ("EUR", 2.0, 4.0), "1 EUR at 0.5 EUR per dollar is $2");
    assert!(core.budget().allow_more_today(-3.0).await.is_err());
    // Said once per day and kept across a restart.
    drop(core);
    let core = open(dir.path(), &settings("http://127.0.0.1:9/v1", "daily_usd = 2.0\ncurrency = \"EUR\"\nusd_rate = 0.5", false)).await;
    assert_eq!(core.budget().view().await.unwrap().allowance_usd, 2.0);
}

/// Settings' form: limits typed in the user's currency go to settings.toml in dollars
/// (the rest of the file kept), hold the very next call, and come back after a restart.
#[tokio::test]
async fn limits_set_in_settings_are_saved_in_dollars_and_hold_the_next_call() {
    let server = ScriptedServer::start(vec![stream(billed_reply("Fine."))]).await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    let text = format!("# my own note\n{}", settings(&server.base_url, "currency = \"EUR\"\nusd_rate = 0.5", false));
    std::fs::write(&config, &text).unwrap();
    let open_file = || async { support::core().config_file(&config).open_in(dir.path()).await };
    let core = open_file().await;
    let mut form = core.budget().limits();
    assert_eq!((form.daily, form.currency.as_str(), form.providers.len()), (None, "EUR", 1), "{form:?}");
    // 0.01 EUR a day for the paid provider: less than one reply's worst case.
    form.monthly = Some(20.0);
    form.providers[0].daily = Some(0.01);
    let view = core.budget().save_limits(&form).await.unwrap();
    assert_eq!(view.limits.len(), 2);
    let saved = std::fs::read_to_string(&config).unwrap();
    assert!(saved.starts_with("# my own note") && saved.contains("monthly_usd = 40.0") && saved.contains("[budget.providers.paid]"), "{saved}");
    // The offline model answers saying why when it can run here (the runtime folder is built); else the turn fails saying why.
    let why = match core.send("Hello").await {
        Ok(outcome) => outcome.meta.fallback_reason.unwrap_or_default(),
        Err(error) => error.to_string(),
    };
    assert!(why.contains("today's budget for paid has too little left for this reply (0.00 EUR of 0.01 EUR used)"), "{why}");
    assert_eq!(server.request_count(), 0, "held before the provider was called");

    let mut bad = core.budget().limits();
    bad.daily = Some(-1.0);
    assert_eq!(core.budget().save_limits(&bad).await.unwrap_err().to_string(), "a limit must be an amount of zero or more, in EUR");
    drop(core);
    let core = open_file().await;
    let form = core.budget().limits();
    assert_eq!((form.monthly, form.providers[0].daily), (Some(20.0), Some(0.01)));
}

/// The app and the terminal (or the daemon) share one data folder: what one spends or
/// allows, the other counts from its next call, not from tomorrow.
#[tokio::test]
async fn spending_and_allowances_of_another_process_count_at_once() {
    let server = ScriptedServer::start(vec![stream(billed_reply("Fine."))]).await;
    let dir = tempfile::tempdir().unwrap();
    let text = settings(&server.base_url, "daily_usd = 0.15", false);
    let app = open(dir.path(), &text).await;
    assert_eq!(app.budget().view().await.unwrap().limits[0].spent_usd, 0.0);
    let terminal = open(dir.path(), &text).await;
    terminal.send("Hello").await.unwrap();
    let spent = app.budget().view().await.unwrap().limits[0].spent_usd;
    assert!((spent - 0.101).abs() < 1e-9, "{spent}");
    // The next worst case ($0.02 out at most, with the prompt) no longer fits: held.
    let held = app.models().budget().reserve("paid", "paid-model", false, 0, Some(500)).await;
    assert!(matches!(held, Err(OverBudget::Limit(_))), "the terminal's spending counts");
    terminal.budget().allow_more_today(1.0).await.unwrap();
    assert_eq!(app.budget().view().await.unwrap().allowance_usd, 1.0);
    assert!(app.models().budget().reserve("paid", "paid-model", false, 0, Some(500)).await.unwrap().is_some());
}

#[tokio::test]
async fn usage_is_reported_by_day_model_and_purpose_with_the_months_projection() {
    let server = ScriptedServer::start(vec![stream(billed_reply("Fine."))]).await;
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path(), &settings(&server.base_url, "", false)).await;
    core.send("Hello").await.unwrap();
    let history = core.budget().usage_history().await.unwrap();
    assert_eq!(history.days.len(), 30);
    let today = history.days.last().unwrap();
    assert!((today.total.cost_usd - 0.101).abs() < 1e-9, "{today:?}");
    assert_eq!(today.by_model["paid-model"].calls, 1);
    assert_eq!(today.by_purpose["chat"].calls, 1);
    assert!((history.last_7_days.total.cost_usd - 0.101).abs() < 1e-9);
    assert!(history.month_projection_usd >= history.month_to_date_usd && history.month_to_date_usd > 0.1);
}

#[tokio::test]
async fn the_terminal_shows_the_budget_allows_more_and_prints_usage() {
    let server = ScriptedServer::start(vec![stream(billed_reply("Fine."))]).await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("settings.toml");
    std::fs::write(&config, settings(&server.base_url, "daily_usd = 1.0\ncurrency = \"EUR\"\nusd_rate = 0.5", false)).unwrap();
    let data = dir.path().join("data");
    let run = move |args: &'static [&'static str]| {
        let (data, config) = (data.clone(), config.clone());
        tokio::task::spawn_blocking(move || {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_sidecar"))
                .env("SIDECAR_DATA_DIR", &data)
                .env("SIDECAR_CONFIG", &config)
                .env("SIDECAR_RUNTIME", "off")
                .args(args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            String::from_utf8(out.stdout).unwrap()
        })
    };
    run(&["ask", "Hello"]).await.unwrap();
    let shown = run(&["budget"]).await.unwrap();
    assert!(
        shown.contains("all calls") && shown.contains("spent     0.05 EUR") && shown.contains("reserved     0.00 EUR") && shown.contains("of     0.50 EUR"),
        "{shown}"
    );
    let allowed = run(&["budget", "allow", "2"]).await.unwrap();
    assert!(allowed.contains("Allowed today on top of every limit: 2.00 EUR") && allowed.contains("of     2.50 EUR"), "{allowed}");
    let json: serde_json::Value = serde_json::from_str(&run(&["budget", "--json"]).await.unwrap()).unwrap();
    assert_eq!(json["allowance_usd"], 4.0);
    let usage = run(&["usage"]).await.unwrap();
    assert!(usage.contains("Last 7 days: 0.05 EUR in 1 calls") && usage.contains("paid-model") && usage.contains("chat"), "{usage}");
    let json: serde_json::Value = serde_json::from_str(&run(&["usage", "--json"]).await.unwrap()).unwrap();
    assert_eq!(json["days"].as_array().unwrap().len(), 30);
    assert_eq!(json["last_30_days"]["by_model"]["paid-model"]["calls"], 1);
}

#[tokio::test]
async fn a_provider_past_its_own_limit_gives_way_to_the_next_and_the_reply_says_why() {
    let (first, second) =
        (ScriptedServer::start(vec![stream(billed_reply("First."))]).await, ScriptedServer::start(vec![stream(billed_reply("Second."))]).await);
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "{}[[providers]]\nid = \"other\"\nbase_url = \"{}\"\nmodel = \"paid-model\"\n[budget.providers.paid]\ndaily_usd = 0.05\n",
        settings(&first.base_url, "", false),
        second.base_url
    );
    let core = open(dir.path(), &text).await;
    assert_eq!(core.send("Hello").await.unwrap().meta.provider.as_deref(), Some("paid"), "its worst case fit; it billed $0.101");
    let outcome = core.send("Hello").await.unwrap();
    assert_eq!((outcome.meta.provider.as_deref(), outcome.meta.fallback_from.as_deref()), (Some("other"), Some("paid")));
    assert_eq!(first.request_count(), 1);
}
