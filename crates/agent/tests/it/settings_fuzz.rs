//! Arbitrary TOML values thrown at the settings loader: whatever a file holds, loading
//! either refuses it with an error naming the file, or gives settings every consumer can
//! use without panicking (durations, retry delays, context limits, the all-day hour).

use proptest::prelude::*;
use sidecar_agent::ContextLimits;
use sidecar_settings::Settings;

/// Every key the loader reads, and a few it does not.
const KEYS: &[(&str, &str)] = &[
    ("llm", "connect_timeout_secs"),
    ("llm", "response_timeout_secs"),
    ("llm", "idle_timeout_secs"),
    ("llm", "turn_timeout_secs"),
    ("llm", "retry_max_secs"),
    ("llm", "retry_base_ms"),
    ("llm", "max_retries"),
    ("llm", "max_iterations"),
    ("llm", "max_continuations"),
    ("llm", "max_tokens"),
    ("llm", "max_retrys"),
    ("context", "threshold_percent"),
    ("context", "target_percent"),
    ("context", "min_turns_to_keep"),
    ("context", "max_history_turns"),
    ("context", "keep_tool_results"),
    ("context", "max_tool_result_tokens"),
    ("local_model", "context_tokens"),
    ("local_model", "python"),
    ("user", "timezone"),
    ("user", "all_day_time"),
    ("tools.read_url", "max_bytes"),
    ("tools.read_url", "max_chars"),
    ("tools.read_url", "allow_private"),
    ("tools.web_search", "backend"),
    ("routing", "chat"),
    ("prices.\"m\"", "input_per_mtok"),
    ("nonsense", "x"),
];

fn value() -> impl Strategy<Value = String> {
    let scalar = prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        prop_oneof![Just(-5i64), Just(-1), Just(0), Just(1), Just(300), Just(u32::MAX as i64 + 1)].prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
        prop_oneof![Just("nan"), Just("inf"), Just("-inf"), Just("-5.0"), Just("1e300"), Just("0.0"), Just("-0.0")].prop_map(String::from),
        any::<bool>().prop_map(|b| b.to_string()),
        "[a-zA-Z0-9:/ _.-]{0,12}".prop_map(|s| format!("{s:?}")),
        prop_oneof![Just("\"09:00\""), Just("\"25:61\""), Just("\"Europe/Madrid\""), Just("\"Mars/Base\"")].prop_map(String::from),
    ];
    prop_oneof![
        4 => scalar.clone(),
        1 => prop::collection::vec(scalar, 0..3).prop_map(|v| format!("[{}]", v.join(", "))),
        1 => Just("\"ghost\"".to_string()).prop_map(|s| format!("[{s}]")),
    ]
}

fn file() -> impl Strategy<Value = String> {
    let entry = (0..KEYS.len(), value());
    (prop::collection::vec(entry, 0..8), any::<bool>()).prop_map(|(entries, with_provider)| {
        let mut text = String::new();
        let mut sections: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
        for (key, value) in entries {
            let (section, name) = KEYS[key];
            sections.entry(section).or_default().push(format!("{name} = {value}"));
        }
        for (section, lines) in &mut sections {
            lines.dedup_by(|a, b| a.split('=').next() == b.split('=').next());
            text.push_str(&format!("[{section}]\n{}\n", lines.join("\n")));
        }
        if with_provider {
            text.push_str("[[providers]]\nid = \"p\"\nbase_url = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n");
        }
        text
    })
}

/// Uses every value the loaded settings hand to code that could panic on them.
fn exercise(settings: &Settings) {
    let llm = &settings.llm;
    let _ = llm.timeouts();
    let _ = llm.turn_timeout();
    let policy = llm.retry_policy();
    for attempt in 0..=llm.max_retries + 1 {
        let _ = policy.delay(attempt, None, 1.0);
    }
    let _ = settings.user.all_day_time();
    let _ = sidecar_domain::resolve_zone(settings.user.timezone.as_deref());
    let window = settings.local_model.context_tokens.unwrap_or(4096);
    let limits = ContextLimits::new(window, llm.max_tokens.unwrap_or(1024), &settings.context);
    let _ = limits.budget * usize::from(settings.context.threshold_percent);
    let _ = settings.chat_chain();
}

proptest! {
    // The figure quoted in the notes: cases per run.
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_toml_loads_or_is_refused_by_name(text in file()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        std::fs::write(&path, &text).unwrap();
        match Settings::load(&path) {
            Ok(settings) => exercise(&settings),
            Err(e) => prop_assert!(e.to_string().contains("settings.toml"), "{e}"),
        }
    }
}

#[test]
fn bad_durations_are_refused_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    for (key, value) in [
        ("response_timeout_secs", "-5"),
        ("connect_timeout_secs", "nan"),
        ("idle_timeout_secs", "inf"),
        ("turn_timeout_secs", "-1"),
        ("turn_timeout_secs", "1e300"),
        ("retry_max_secs", "inf"),
    ] {
        std::fs::write(&path, format!("[llm]\n{key} = {value}\n")).unwrap();
        let err = Settings::load(&path).unwrap_err().to_string();
        assert!(err.contains(&format!("llm.{key}")) && err.contains("settings.toml"), "{key}={value}: {err}");
    }
}

#[test]
fn a_sliding_window_shorter_than_the_turns_always_kept_is_refused_saying_which() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    std::fs::write(&path, "[context]\nmin_turns_to_keep = 5\nmax_history_turns = 2\n").unwrap();
    let err = Settings::load(&path).unwrap_err().to_string();
    assert!(err.contains("context.max_history_turns (2)") && err.contains("context.min_turns_to_keep (5)"), "{err}");
    std::fs::write(&path, "[context]\nmax_history_turns = 15\n").unwrap();
    assert_eq!(Settings::load(&path).unwrap().context.max_history_turns, Some(15));
}

#[test]
fn unknown_keys_are_warnings_not_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    std::fs::write(&path, "[llm]\nmax_retrys = 3\n[proactiv]\nlevel = \"low\"\n").unwrap();
    let settings = Settings::load(&path).unwrap();
    assert_eq!(settings.warnings.len(), 2, "{:?}", settings.warnings);
    assert!(settings.warnings[0].contains("did you mean llm.max_retries?"), "{:?}", settings.warnings);
    assert!(settings.warnings.iter().all(|w| w.contains("settings.toml")));
}
