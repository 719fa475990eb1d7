//! Vectors kept small and searched by brute force. Each unit vector is stored as one
//! scale and 8-bit components (388 bytes for 384 dimensions instead of 1,536): the
//! cosine order barely moves, 100,000 messages take 39 MB, and a full scan is a few
//! milliseconds, faster at our sizes than an index that must be kept in step.

use std::collections::HashMap;

/// A unit vector quantised to `i8` with one scale.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantized {
    pub scale: f32,
    pub values: Vec<i8>,
}

impl Quantized {
    pub fn from_f32(v: &[f32]) -> Self {
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        Self { scale, values: v.iter().map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8).collect() }
    }

    /// Little-endian scale, then the components.
    pub fn to_blob(&self) -> Vec<u8> {
        let mut blob = Vec::with_capacity(4 + self.values.len());
        blob.extend_from_slice(&self.scale.to_le_bytes());
        blob.extend(self.values.iter().map(|v| *v as u8));
        blob
    }

    pub fn from_blob(blob: &[u8]) -> Option<Self> {
        let (scale, values) = (blob.get(..4)?, blob.get(4..)?);
        let scale = f32::from_le_bytes(scale.try_into().ok()?);
        (scale.is_finite() && !values.is_empty()).then(|| Self { scale, values: values.iter().map(|v| *v as i8).collect() })
    }
}

/// What a vector stands for: a message, a fact, a summary or a checkpoint, by id.
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
}

impl ItemKind {
    pub const ALL: [ItemKind; 4] = [ItemKind::Message, ItemKind::Fact, ItemKind::Summary, ItemKind::Checkpoint];

    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Message => "message",
            ItemKind::Fact => "fact",
            ItemKind::Summary => "summary",
            ItemKind::Checkpoint => "checkpoint",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// Every vector of one model, contiguous for the scan.
#[derive(Debug, Default)]
pub struct VectorIndex {
    dim: usize,
    keys: Vec<Key>,
    scales: Vec<f32>,
    data: Vec<i8>,
    slots: HashMap<Key, usize>,
}

impl VectorIndex {
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.keys.iter().copied()
    }

    pub fn contains(&self, key: Key) -> bool {
        self.slots.contains_key(&key)
    }

    /// Adds or replaces `key`'s vector; one of another length is ignored.
    pub fn insert(&mut self, key: Key, vector: &Quantized) {
        if self.dim == 0 {
            self.dim = vector.values.len();
        }
        if vector.values.len() != self.dim {
            return;
        }
        match self.slots.get(&key) {
            Some(&slot) => {
                self.scales[slot] = vector.scale;
                self.data[slot * self.dim..(slot + 1) * self.dim].copy_from_slice(&vector.values);
            }
            None => {
                self.slots.insert(key, self.keys.len());
                self.keys.push(key);
                self.scales.push(vector.scale);
                self.data.extend_from_slice(&vector.values);
            }
        }
    }

    /// Drops `key` by moving the last vector into its place.
    pub fn remove(&mut self, key: Key) {
        let Some(slot) = self.slots.remove(&key) else { return };
        let last = self.keys.len() - 1;
        if slot != last {
            let moved = self.keys[last];
            self.keys[slot] = moved;
            self.scales[slot] = self.scales[last];
            self.data.copy_within(last * self.dim..(last + 1) * self.dim, slot * self.dim);
            self.slots.insert(moved, slot);
        }
        self.keys.pop();
        self.scales.pop();
        self.data.truncate(last * self.dim);
    }

    /// The `k` most similar vectors to `query` (a unit vector), best first, with their
    /// cosine similarity.
    pub fn nearest(&self, q: &Quantized, k: usize, keep: impl Fn(Key) -> bool) -> Vec<(Key, f32)> {
        if self.dim == 0 || q.values.len() != self.dim || k == 0 {
            return Vec::new();
        }
        let mut best: Vec<(Key, f32)> = Vec::with_capacity(k + 1);
        let mut floor = f32::MIN;
        for (slot, row) in self.data.chunks_exact(self.dim).enumerate() {
            let score = dot(row, &q.values) as f32 * self.scales[slot] * q.scale;
            if best.len() == k && score <= floor {
                continue;
            }
            let key = self.keys[slot];
            if !keep(key) {
                continue;
            }
            let at = best.partition_point(|(_, s)| *s >= score);
            best.insert(at, (key, score));
            best.truncate(k);
            if best.len() == k {
                floor = best[k - 1].1;
            }
        }
        best
    }

    /// The cosine of `query` (quantised) with `key`'s vector, if it has one.
    pub fn similarity(&self, query: &Quantized, key: Key) -> Option<f32> {
        let slot = *self.slots.get(&key)?;
        (query.values.len() == self.dim).then(|| dot(self.row(slot), &query.values) as f32 * self.scales[slot] * query.scale)
    }

    /// The cosine between two stored items.
    pub fn cosine(&self, a: Key, b: Key) -> Option<f32> {
        let (a, b) = (*self.slots.get(&a)?, *self.slots.get(&b)?);
        Some(dot(self.row(a), self.row(b)) as f32 * self.scales[a] * self.scales[b])
    }

    fn row(&self, slot: usize) -> &[i8] {
        &self.data[slot * self.dim..(slot + 1) * self.dim]
    }

    /// Bytes held by the vectors and their keys.
    pub fn memory_bytes(&self) -> usize {
        self.data.len() + self.scales.len() * 4 + self.keys.len() * (std::mem::size_of::<Key>() * 2 + 8)
    }
}

fn dot(a: &[i8], b: &[i8]) -> i32 {
    a.iter().zip(b).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum()
}
