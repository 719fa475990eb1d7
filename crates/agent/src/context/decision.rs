//! A decision a checkpoint keeps (the anti-compaction seed's part 5): what was decided,
//! why, when, and how sure the model was, so whoever picks the work up does not take it
//! again blind. The model gives what, why and how sure; Sidecar gives when (the model
//! does not know the time, and a decision carried from an earlier checkpoint keeps the
//! time it was first taken).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(from = "Said")]
pub struct Decision {
    pub what: String,
    /// The reason given for it.
    pub why: Option<String>,
    /// When it was first recorded (RFC 3339).
    pub when: Option<String>,
    /// How sure the model said it was, from 0 to 1.
    pub confidence: Option<f32>,
}

/// A decision as it arrives: a line (checkpoints kept before decisions had reasons, a
/// model that answers with a plain list) or an object whose confidence may be a number
/// (0.8, or 80 meaning per cent) or a word.
#[derive(Deserialize)]
#[serde(untagged)]
enum Said {
    Line(String),
    Full {
        #[serde(alias = "decision")]
        what: String,
        #[serde(default, alias = "reason")]
        why: Option<String>,
        #[serde(default)]
        when: Option<String>,
        #[serde(default)]
        confidence: Option<serde_json::Value>,
    },
}

impl From<Said> for Decision {
    fn from(said: Said) -> Self {
        match said {
            Said::Line(what) => Decision { what, ..Decision::default() },
            Said::Full { what, why, when, confidence } => {
                Decision { what, why: why.map(|w| w.trim().to_string()).filter(|w| !w.is_empty()), when, confidence: confidence.as_ref().and_then(sureness) }
            }
        }
    }
}

fn sureness(value: &serde_json::Value) -> Option<f32> {
    let number = match value {
        serde_json::Value::Number(n) => n.as_f64()?,
        serde_json::Value::String(word) => match word.trim().to_lowercase().as_str() {
            "high" | "alta" | "alto" => 0.9,
            "medium" | "media" | "medio" => 0.6,
            "low" | "baja" | "bajo" => 0.3,
            other => other.trim_end_matches('%').parse().ok()?,
        },
        _ => return None,
    };
    let share = if number > 1.0 { number / 100.0 } else { number };
    (0.0..=1.0).contains(&share).then_some(share as f32)
}

impl Decision {
    /// One line: what, why, when, how sure.
    pub(crate) fn line(&self) -> String {
        let mut line = self.what.trim().to_string();
        if let Some(why) = &self.why {
            line.push_str(&format!(" (because {why})"));
        }
        let mut about = Vec::new();
        if let Some(when) = &self.when {
            about.push(when.get(..16).unwrap_or(when).replace('T', " "));
        }
        if let Some(confidence) = self.confidence {
            about.push(format!("{:.0}% sure", confidence * 100.0));
        }
        if !about.is_empty() {
            line.push_str(&format!(" [{}]", about.join(", ")));
        }
        line
    }

    fn same(&self, other: &Decision) -> bool {
        self.what.trim().eq_ignore_ascii_case(other.what.trim())
    }
}

/// `decisions` as the user edited them: one without a time keeps the time of the same
/// decision before the edit, or is taken `now`; its reason and sureness are as sent (a
/// reason the user removed stays removed).
pub(crate) fn edited(decisions: &mut [Decision], before: &[Decision], now: DateTime<Utc>) {
    for decision in decisions.iter_mut().filter(|d| d.when.is_none()) {
        decision.when = Some(before.iter().find(|old| old.same(decision)).and_then(|old| old.when.clone()).unwrap_or_else(|| now.to_rfc3339()));
    }
}

/// `decisions` as the model wrote them, dated: one an earlier checkpoint had keeps its
/// time and, when none is given now, its reason and sureness; a new one is taken `now`
/// (a time the model guessed is not kept).
pub(crate) fn dated(decisions: &mut [Decision], earlier: &[Decision], now: DateTime<Utc>) {
    for decision in decisions.iter_mut() {
        let before = earlier.iter().find(|old| old.same(decision));
        decision.when = Some(before.and_then(|old| old.when.clone()).unwrap_or_else(|| now.to_rfc3339()));
        if let Some(old) = before {
            decision.why = decision.why.take().or_else(|| old.why.clone());
            decision.confidence = decision.confidence.or(old.confidence);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_decision_reads_with_its_reason_and_sureness_and_an_old_line_still_reads() {
        // anti-compaction.md's example, as the model writes it.
        let seed: Vec<Decision> =
            serde_json::from_str(r#"[{"what": "Use speakeasy for TOTP", "why": "More secure than otplib", "when": "2025-10-07 10:30", "confidence": 0.9}, "Use Twilio for SMS", {"what": "Pay by card", "confidence": "80%"}, {"decision": "Lisbon", "reason": "cheaper", "confidence": "alta"}]"#)
                .unwrap();
        assert_eq!(seed[0].why.as_deref(), Some("More secure than otplib"));
        assert_eq!(seed[0].confidence, Some(0.9));
        assert_eq!(seed[1], Decision { what: "Use Twilio for SMS".into(), ..Decision::default() });
        assert_eq!(seed[2].confidence, Some(0.8));
        assert_eq!((seed[3].what.as_str(), seed[3].why.as_deref(), seed[3].confidence), ("Lisbon", Some("cheaper"), Some(0.9)));
    }

    #[test]
    fn a_decision_keeps_when_it_was_first_taken() {
        let first = "2026-12-01T10:00:00+00:00";
        let earlier = [Decision { what: "Stay in Alfama".into(), why: Some("quiet".into()), when: Some(first.into()), confidence: Some(0.7) }];
        let mut now = vec![
            Decision { what: "stay in alfama".into(), ..Decision::default() },
            Decision { what: "Fly on Friday".into(), when: Some("yesterday".into()), ..Decision::default() },
        ];
        let at = chrono::DateTime::parse_from_rfc3339("2026-12-07T15:00:00Z").unwrap().with_timezone(&Utc);
        dated(&mut now, &earlier, at);
        assert_eq!((now[0].when.as_deref(), now[0].why.as_deref(), now[0].confidence), (Some(first), Some("quiet"), Some(0.7)));
        assert_eq!(now[1].when.as_deref(), Some("2026-12-07T15:00:00+00:00"), "the model's guess at a time is not kept");
        assert_eq!(now[0].line(), "stay in alfama (because quiet) [2026-12-01 10:00, 70% sure]");
    }
}
