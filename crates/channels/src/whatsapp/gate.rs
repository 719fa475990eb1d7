//! Who reaches the model through WhatsApp: the user's own chat ("message yourself")
//! and the numbers they allowed. Groups, everyone else, and Sidecar's own replies
//! (which come back in the self chat) never do. Strangers get no answer: the number
//! is the user's own, and a bot reply from it would surprise the sender.

/// One incoming WhatsApp message, as the gate needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Seen<'a> {
    /// The chat's number (digits only); the user's own number for the self chat.
    pub chat: &'a str,
    pub from_me: bool,
    pub group: bool,
}

/// Whether the message goes to the conversation.
pub(crate) fn admits(message: &Seen<'_>, own_number: Option<&str>, allowed: &[String]) -> bool {
    if message.group {
        return false;
    }
    let self_chat = own_number.is_some_and(|own| own == message.chat);
    if self_chat {
        // What the user writes to themselves; Sidecar's own replies there are
        // recognised by id before this (they were recorded when sent).
        return message.from_me;
    }
    // Someone else writing to the user, from an allowed number. Messages the user sent
    // to others from the phone are theirs, not for Sidecar.
    !message.from_me && allowed.iter().any(|number| digits(number) == message.chat)
}

/// A number as WhatsApp addresses it: digits only ("+54 9 11 5555-1234" → "5491155551234").
pub(crate) fn digits(number: &str) -> String {
    number.chars().filter(char::is_ascii_digit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "5491155551234";

    fn seen(chat: &str, from_me: bool, group: bool) -> Seen<'_> {
        Seen { chat, from_me, group }
    }

    #[test]
    fn the_self_chat_and_allowed_numbers_pass_nothing_else_does() {
        let allowed = vec!["+34 600 11 22 33".to_string()];
        // Message yourself.
        assert!(admits(&seen(ME, true, false), Some(ME), &allowed));
        // An allowed number writing in.
        assert!(admits(&seen("34600112233", false, false), Some(ME), &allowed));
        // The user's own message to that person is not for Sidecar.
        assert!(!admits(&seen("34600112233", true, false), Some(ME), &allowed));
        // Strangers, groups (even allowed people in them), anything before pairing.
        assert!(!admits(&seen("4915112345678", false, false), Some(ME), &allowed));
        assert!(!admits(&seen("34600112233", false, true), Some(ME), &allowed));
        assert!(!admits(&seen(ME, true, true), Some(ME), &allowed));
        assert!(!admits(&seen(ME, true, false), None, &[]));
        assert_eq!(digits("+54 9 11 5555-1234"), ME);
    }
}
