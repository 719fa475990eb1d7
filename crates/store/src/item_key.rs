//! What a stored item is, as recall and the vectors name it: a message, a fact, a
//! summary, a checkpoint or a mail, by id. The store's words index returns these keys.

/// What a vector stands for: a message, a fact, a summary, a checkpoint or a mail, by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub kind: ItemKind,
    pub id: i64,
}

impl Key {
    pub fn message(id: i64) -> Self {
        Self { kind: ItemKind::Message, id }
    }

    /// A fact's key: a hash of its text (its line in learnings.md moves as facts change).
    pub fn fact(text: &str) -> Self {
        // FNV-1a: stable across builds and platforms, unlike the std hasher.
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
        Self { kind: ItemKind::Fact, id: (hash >> 1) as i64 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKind {
    Message,
    Fact,
    Summary,
    Checkpoint,
    /// A mail from someone who matters, put in the index by the mail feature.
    Mail,
}

impl ItemKind {
    pub(crate) const ALL: [ItemKind; 5] = [ItemKind::Message, ItemKind::Fact, ItemKind::Summary, ItemKind::Checkpoint, ItemKind::Mail];

    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Message => "message",
            ItemKind::Fact => "fact",
            ItemKind::Summary => "summary",
            ItemKind::Checkpoint => "checkpoint",
            ItemKind::Mail => "mail",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}
