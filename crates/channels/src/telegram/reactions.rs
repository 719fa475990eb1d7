//! A reaction the user put on one of Sidecar's Telegram messages, read as a thumb:
//! Telegram's reaction menu is the phone's 👍 / 👎 under a spontaneous message. Only
//! a reaction just added counts; taking one away or swapping within the same mood
//! teaches nothing, and a reaction that says neither (🤔, 👀, 😱) is left alone.

use teloxide_core::types::ReactionType;

use sidecar_proactive::Signal;

/// Reactions from Telegram's fixed set that say "more of this".
const WELCOME: &[&str] =
    &["👍", "❤", "❤️", "🔥", "🥰", "👏", "😁", "🎉", "🤩", "🙏", "👌", "😍", "❤‍🔥", "💯", "🤣", "🏆", "🤗", "😇", "🤝", "😘", "💘", "🫡", "😎", "🆒"];
/// Reactions that say "not this".
const UNWELCOME: &[&str] = &["👎", "🤬", "🤮", "💩", "🥱", "😴", "🖕", "😡", "💔", "🙉", "🙊", "🤡", "😐"];

fn mood(reaction: &ReactionType) -> Option<Signal> {
    let emoji = reaction.emoji()?.as_str();
    if WELCOME.contains(&emoji) {
        Some(Signal::ThumbsUp)
    } else if UNWELCOME.contains(&emoji) {
        Some(Signal::ThumbsDown)
    } else {
        None
    }
}

/// The sign a change of reactions gives: the mood of a reaction added now that was
/// not there before, when it has one.
pub(crate) fn signal_of(old: &[ReactionType], new: &[ReactionType]) -> Option<Signal> {
    let before: Vec<Signal> = old.iter().filter_map(mood).collect();
    new.iter().filter(|r| !old.contains(r)).filter_map(mood).find(|signal| !before.contains(signal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emoji(e: &str) -> ReactionType {
        ReactionType::Emoji { emoji: e.to_string() }
    }

    #[test]
    fn a_new_reaction_reads_as_a_thumb_by_its_mood() {
        assert_eq!(signal_of(&[], &[emoji("👍")]), Some(Signal::ThumbsUp));
        assert_eq!(signal_of(&[], &[emoji("❤")]), Some(Signal::ThumbsUp));
        assert_eq!(signal_of(&[], &[emoji("👎")]), Some(Signal::ThumbsDown));
        assert_eq!(signal_of(&[], &[emoji("🥱")]), Some(Signal::ThumbsDown));
        assert_eq!(signal_of(&[emoji("👍")], &[emoji("👎")]), Some(Signal::ThumbsDown), "changed its mind");
    }

    #[test]
    fn taking_away_swapping_within_a_mood_or_a_neutral_face_teaches_nothing() {
        assert_eq!(signal_of(&[emoji("👍")], &[]), None);
        assert_eq!(signal_of(&[emoji("👍")], &[emoji("❤")]), None);
        assert_eq!(signal_of(&[], &[emoji("🤔")]), None);
        assert_eq!(signal_of(&[], &[ReactionType::Paid]), None);
    }
}
