//! The decision call: a compact context (not the history) and the question "should
//! you speak now?", answered as JSON. Everything the rules already decided is stated
//! as fact (greeting window, greetings sent, pending reminders or NONE) so the model
//! does not have to guess it (P6, P11, P13).

use chrono::{DateTime, Datelike, Timelike, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use super::config::ProactiveConfig;
use super::rules::{greeting_window, Block, Decision};
use super::state::ProactiveState;
use crate::words::decision as decision_words;
use sidecar_domain::Lang;
use sidecar_llm::ChatMessage;

/// What the model is told; also what `/proactive context` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpontaneousContext {
    pub current_time: String,
    pub current_day: String,
    pub current_date: String,
    pub minutes_since_user: Option<i64>,
    pub last_user_preview: Option<String>,
    pub minutes_since_spontaneous: Option<i64>,
    pub count_today: u32,
    pub pending_reminders: usize,
    /// "NONE" / "NINGUNO", or one reminder a line.
    pub pending_reminders_list: String,
    pub level: String,
    pub greeting_window: Option<String>,
    pub greeting_already_sent: bool,
    pub last_greeting_info: Option<String>,
    /// The most recently confirmed facts about the user.
    pub facts: Vec<String>,
    /// The kinds of message welcome on the channel now (what was learned).
    pub welcome: Vec<String>,
}

/// What the context is built from, read fresh at each tick (P3).
pub struct Inputs<'a> {
    pub now: DateTime<Utc>,
    pub zone: Tz,
    pub config: &'a ProactiveConfig,
    pub state: &'a ProactiveState,
    pub last_user: Option<(DateTime<Utc>, String)>,
    /// Pending reminders: (local due time, message), soonest first.
    pub reminders: Vec<(String, String)>,
    pub facts: Vec<String>,
    pub welcome: Vec<String>,
    pub lang: Lang,
}

/// Reminders listed in the context; the count says if there are more.
const LISTED_REMINDERS: usize = 3;
/// The facts and the last message's opening the model is shown: enough to say
/// something concrete, few enough to keep a decision near 300 prompt tokens.
const LISTED_FACTS: usize = 3;
const PREVIEW_CHARS: usize = 80;

pub fn spontaneous_context(inputs: Inputs<'_>) -> SpontaneousContext {
    let local = inputs.now.with_timezone(&inputs.zone);
    let weekday = local.weekday().num_days_from_monday() as usize;
    let window = greeting_window(local.hour());
    let sent = window.and_then(|kind| inputs.state.greeted_today(kind, inputs.now, inputs.zone));
    let reminders = if inputs.reminders.is_empty() {
        decision_words::none(inputs.lang).to_string()
    } else {
        let listed = inputs.reminders.iter().take(LISTED_REMINDERS).map(|(when, what)| format!("- {when}: {what}"));
        let more = inputs.reminders.len().saturating_sub(LISTED_REMINDERS);
        listed.chain((more > 0).then(|| decision_words::more(inputs.lang, more))).collect::<Vec<_>>().join("\n")
    };
    SpontaneousContext {
        current_time: local.format("%H:%M").to_string(),
        current_day: decision_words::weekday(inputs.lang, weekday).to_string(),
        current_date: local.format("%Y-%m-%d").to_string(),
        minutes_since_user: inputs.last_user.as_ref().map(|(at, _)| (inputs.now - *at).num_minutes()),
        last_user_preview: inputs.last_user.as_ref().map(|(_, text)| text.chars().take(PREVIEW_CHARS).collect()),
        minutes_since_spontaneous: inputs.state.last_spontaneous_at.map(|at| (inputs.now - at).num_minutes()),
        count_today: inputs.state.count_today,
        pending_reminders: inputs.reminders.len(),
        pending_reminders_list: reminders,
        level: inputs.config.level.as_str().to_string(),
        greeting_window: window.map(|w| w.as_str().to_string()),
        greeting_already_sent: sent.is_some(),
        last_greeting_info: sent.map(|at| format!("{} at {}", window.map(|w| w.as_str()).unwrap_or(""), at.with_timezone(&inputs.zone).format("%H:%M"))),
        facts: inputs.facts.into_iter().take(LISTED_FACTS).collect(),
        welcome: inputs.welcome,
    }
}

/// The two messages of the decision call.
pub fn decision_prompt(context: &SpontaneousContext, lang: Lang) -> Vec<ChatMessage> {
    let c = context;
    let user = decision_words::user_prompt(
        lang,
        &decision_words::PromptFacts {
            time: &c.current_time,
            day: &c.current_day,
            date: &c.current_date,
            minutes_since_user: c.minutes_since_user,
            last_user_preview: c.last_user_preview.as_deref().unwrap_or_default(),
            minutes_since_spontaneous: c.minutes_since_spontaneous,
            count_today: c.count_today,
            level: &c.level,
            greeting_window: c.greeting_window.as_deref(),
            last_greeting: c.last_greeting_info.as_deref(),
            reminders: &c.pending_reminders_list,
            facts: &c.facts,
            welcome: &c.welcome,
        },
    );
    vec![ChatMessage::system(decision_words::system_prompt(lang)), ChatMessage::user(&user)]
}

/// Reads the model's answer: the first JSON object in it (small models wrap JSON in
/// prose or code fences). Anything else is `Block::Malformed`, never a send.
pub(crate) fn parse(text: &str) -> Result<Decision, Block> {
    let start = text.find('{');
    let end = text.rfind('}');
    let (Some(start), Some(end)) = (start, end) else {
        return Err(Block::Malformed(format!("no JSON object in the answer: {}", sidecar_domain::shorten(text, 120))));
    };
    if end < start {
        return Err(Block::Malformed("no JSON object in the answer".into()));
    }
    serde_json::from_str(&text[start..=end]).map_err(|e| Block::Malformed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn inputs<'a>(config: &'a ProactiveConfig, state: &'a ProactiveState, lang: Lang) -> Inputs<'a> {
        let zone = chrono_tz::Europe::Madrid;
        Inputs {
            now: zone.with_ymd_and_hms(2026, 11, 23, 8, 30, 0).unwrap().with_timezone(&Utc),
            zone,
            config,
            state,
            last_user: None,
            reminders: Vec::new(),
            facts: vec!["Works as a nurse".into()],
            welcome: vec!["greeting".into(), "checkin".into(), "contextual".into()],
            lang,
        }
    }

    #[test]
    fn no_reminders_reads_none_in_the_users_language() {
        let (config, state) = (ProactiveConfig::default(), ProactiveState::default());
        let es = spontaneous_context(inputs(&config, &state, Lang::Es));
        assert_eq!(es.pending_reminders_list, "NINGUNO");
        assert_eq!((es.current_day.as_str(), es.current_time.as_str()), ("lunes", "08:30"));
        assert_eq!(es.greeting_window.as_deref(), Some("morning"));
        let en = spontaneous_context(inputs(&config, &state, Lang::En));
        assert_eq!(en.pending_reminders_list, "NONE");
        let prompt = decision_prompt(&en, Lang::En);
        assert!(prompt[1].content.contains("PENDING REMINDERS: NONE"));
        assert!(prompt[1].content.contains("Greeting window open: Yes (morning)"));
    }

    #[test]
    fn a_greeting_already_sent_is_in_the_context() {
        let config = ProactiveConfig::default();
        let mut state = ProactiveState::default();
        let base = inputs(&config, &state, Lang::En);
        let (now, zone) = (base.now, base.zone);
        state.mark_sent(now - chrono::Duration::minutes(15), zone, Some(crate::rules::GreetingKind::Morning));
        let c = spontaneous_context(inputs(&config, &state, Lang::En));
        assert!(c.greeting_already_sent);
        assert_eq!(c.last_greeting_info.as_deref(), Some("morning at 08:15"));
        assert!(decision_prompt(&c, Lang::En)[1].content.contains("Already greeted in this window today: Yes (morning at 08:15)"));
    }

    /// The issue's goal: at most 300 prompt tokens per decision on average, over a
    /// quiet day, a busy one and a busy one in Spanish.
    #[test]
    fn a_decision_takes_about_300_prompt_tokens_or_fewer() {
        let (config, state) = (ProactiveConfig::default(), ProactiveState::default());
        let facts: Vec<String> = [
            "Allergic to peanuts",
            "Works as a nurse on night shifts on weekends",
            "Has a job interview at Globant on Thursday",
            "Sister Eva lives in Rosario",
            "Prefers short answers in the morning",
        ]
        .map(String::from)
        .to_vec();
        let mut totals = Vec::new();
        for (reminders, facts, lang) in [(0, Vec::new(), Lang::En), (3, facts.clone(), Lang::En), (9, facts, Lang::Es)] {
            let mut i = inputs(&config, &state, lang);
            i.last_user = Some((i.now - chrono::Duration::hours(3), "Can you help me plan the week? I have three deadlines and a dentist appointment.".into()));
            i.reminders = (0..reminders).map(|n| (format!("Mon 23 Nov 0{n}:00"), format!("call the dentist about the appointment {n}"))).collect();
            i.facts = facts;
            let c = spontaneous_context(i);
            if reminders > LISTED_REMINDERS {
                assert!(c.pending_reminders_list.ends_with("(+6 más)"), "{}", c.pending_reminders_list);
            }
            totals.push(decision_prompt(&c, lang).iter().map(|m| sidecar_llm::tokens::count(&m.content)).sum::<usize>());
        }
        let mean = totals.iter().sum::<usize>() as f64 / totals.len() as f64;
        assert!(mean <= 300.0, "{totals:?}");
    }

    #[test]
    fn parses_json_inside_prose_and_rejects_the_rest() {
        let d = parse(
            "Sure!\n```json\n{\"shouldSpeak\": true, \"reason\": \"morning\", \"messageType\": \"greeting\", \"suggestedMessage\": \"¡Buenos días!\"}\n```",
        )
        .unwrap();
        assert!(d.should_speak);
        assert_eq!(d.message.as_deref(), Some("¡Buenos días!"));
        assert!(matches!(parse("I think I should say hi"), Err(Block::Malformed(_))));
        assert!(matches!(parse("{\"speak\": yes}"), Err(Block::Malformed(_))));
        assert!(!parse("{\"shouldSpeak\": false}").unwrap().should_speak);
    }
}
