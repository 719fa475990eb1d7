//! "Continue from checkpoint", said the way the plans' users say it: in English or
//! Spanish, or by pasting a continuation summary with its "Checkpoint ID:" line.

use std::sync::LazyLock;

use regex::Regex;

/// Which checkpoint the user asks to continue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ResumeRequest {
    /// The open checkpoint picked by status, then date.
    Latest,
    /// This one.
    Id(i64),
}

static ID_LINE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?i)checkpoint\s+id\s*:\s*#?(\d+)").expect("a valid pattern"));

static ASK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)
        \b(?:continue|resume|pick\s+up|carry\s+on|continua|continuar|segui|seguir|retoma|retomar|reanuda|reanudar)
        \s+(?:from|with|desde|con|el)?\s*(?:the\s+|el\s+)?(?:last\s+|latest\s+|ultimo\s+)?
        (?:checkpoint|punto\s+de\s+control)
        (?:\s*\#?\s*(\d+))?",
    )
    .expect("a valid pattern")
});

pub(crate) fn detect(text: &str) -> Option<ResumeRequest> {
    if let Some(id) = ID_LINE.captures(text).and_then(|c| c[1].parse().ok()) {
        return Some(ResumeRequest::Id(id));
    }
    let folded = sidecar_memory::words::fold(&text.to_lowercase());
    let found = ASK.captures(&folded)?;
    Some(match found.get(1).and_then(|n| n.as_str().parse().ok()) {
        Some(id) => ResumeRequest::Id(id),
        None => ResumeRequest::Latest,
    })
}

/// What the model is told when the user continues a checkpoint.
pub(crate) fn model_note(id: i64) -> String {
    format!(
        "The user asked to continue from checkpoint #{id}; its saved state is in <resumed_checkpoint>. Pick the work up where it stopped: say in a line or two where things stand, then go on with the next pending step."
    )
}

#[cfg(test)]
mod tests {
    use super::{detect, ResumeRequest::*};

    #[test]
    fn the_ways_people_ask_to_continue() {
        for text in [
            "continue from checkpoint",
            "Please continue from the last checkpoint",
            "resume the checkpoint",
            "continuá desde el checkpoint",
            "Continuar desde checkpoint",
            "retomá el último punto de control",
            "seguí desde el checkpoint, porfa",
        ] {
            assert_eq!(detect(text), Some(Latest), "{text}");
        }
        assert_eq!(detect("continue from checkpoint #12"), Some(Id(12)));
        assert_eq!(detect("📋 CONTINUATION SUMMARY\nCheckpoint ID: 7\nTRABAJANDO EN: pagos"), Some(Id(7)));
        assert_eq!(detect("continuá desde el checkpoint 3"), Some(Id(3)));
        for text in ["what is a checkpoint?", "I saved a checkpoint yesterday", "continue", "seguí contándome"] {
            assert_eq!(detect(text), None, "{text}");
        }
    }
}
