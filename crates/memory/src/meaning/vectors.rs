//! Vectors kept small and searched by brute force. Each unit vector is stored as one
//! scale and 8-bit components (388 bytes for 384 dimensions instead of 1,536): the
//! cosine order barely moves, 100,000 messages take 39 MB, and a full scan is a few
//! milliseconds, faster at our sizes than an index that must be kept in step.
//!
//! Each vector also carries its [density](super::density): searches score an item by
//! its cosine less the crowding of its neighbourhood, so repeated chatter gives way to
//! what was said once.

use std::collections::HashMap;

use super::density::{self, Rows};
use super::int8::dot;
pub(crate) use sidecar_store::ItemKind;
pub use sidecar_store::Key;

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

    pub(crate) fn from_blob(blob: &[u8]) -> Option<Self> {
        let (scale, values) = (blob.get(..4)?, blob.get(4..)?);
        let scale = f32::from_le_bytes(scale.try_into().ok()?);
        (scale.is_finite() && !values.is_empty()).then(|| Self { scale, values: values.iter().map(|v| *v as i8).collect() })
    }
}

/// Every vector of one model, contiguous for the scan.
#[derive(Debug, Default)]
pub struct VectorIndex {
    dim: usize,
    keys: Vec<Key>,
    scales: Vec<f32>,
    data: Vec<i8>,
    /// Each slot's density; NaN until measured.
    densities: Vec<f32>,
    /// The mean measured density, standing in for one not measured yet.
    typical: f32,
    slots: HashMap<Key, usize>,
}

impl VectorIndex {
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(crate) fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.keys.iter().copied()
    }

    pub(crate) fn contains(&self, key: Key) -> bool {
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
                self.densities[slot] = f32::NAN;
                self.data[slot * self.dim..(slot + 1) * self.dim].copy_from_slice(&vector.values);
            }
            None => {
                self.slots.insert(key, self.keys.len());
                self.keys.push(key);
                self.scales.push(vector.scale);
                self.densities.push(f32::NAN);
                self.data.extend_from_slice(&vector.values);
            }
        }
    }

    /// Sets measured densities (unknown keys are ignored) and the typical one.
    pub(crate) fn set_densities(&mut self, densities: &[(Key, f32)]) {
        for (key, value) in densities {
            if let Some(&slot) = self.slots.get(key) {
                self.densities[slot] = *value;
            }
        }
        let known: Vec<f32> = self.densities.iter().copied().filter(|d| d.is_finite()).collect();
        self.typical = if known.is_empty() { 0.0 } else { known.iter().sum::<f32>() / known.len() as f32 };
    }

    /// The density `vector` has among the stored vectors (itself left out when stored
    /// under `own`), or `None` while the index is too small to say.
    pub(crate) fn density_of(&self, vector: &Quantized, own: Option<Key>) -> Option<f32> {
        self.rows().density(&vector.values, vector.scale, own.and_then(|k| self.slots.get(&k).copied()))
    }

    fn rows(&self) -> Rows<'_> {
        Rows { data: &self.data, scales: &self.scales, dim: self.dim }
    }

    /// Keys whose density is not measured yet.
    pub(crate) fn unmeasured(&self) -> usize {
        self.densities.iter().filter(|d| d.is_nan()).count()
    }

    /// Measures the densities missing (a vector stored again), each against the index
    /// as it is; returns them.
    pub(crate) fn measure_missing(&mut self) -> Vec<(Key, f32)> {
        let missing: Vec<(Key, f32)> = (0..self.keys.len())
            .filter(|slot| self.densities[*slot].is_nan())
            .filter_map(|slot| Some((self.keys[slot], self.rows().density(self.row(slot), self.scales[slot], Some(slot))?)))
            .collect();
        self.set_densities(&missing);
        missing
    }

    /// A copy of the vectors for measuring every density outside the lock.
    pub(crate) fn density_job(&self) -> DensityJob {
        DensityJob { dim: self.dim, keys: self.keys.clone(), scales: self.scales.clone(), data: self.data.clone() }
    }

    /// How much `slot`'s crowded neighbourhood takes off its score.
    fn crowding(&self, slot: usize) -> f32 {
        let d = self.densities[slot];
        density::WEIGHT * if d.is_finite() { d } else { self.typical }
    }

    /// Drops `key` by moving the last vector into its place.
    pub(crate) fn remove(&mut self, key: Key) {
        let Some(slot) = self.slots.remove(&key) else { return };
        let last = self.keys.len() - 1;
        if slot != last {
            let moved = self.keys[last];
            self.keys[slot] = moved;
            self.scales[slot] = self.scales[last];
            self.densities[slot] = self.densities[last];
            self.data.copy_within(last * self.dim..(last + 1) * self.dim, slot * self.dim);
            self.slots.insert(moved, slot);
        }
        self.keys.pop();
        self.scales.pop();
        self.densities.pop();
        self.data.truncate(last * self.dim);
    }

    /// The `k` most relevant vectors to `query` (a unit vector), best first, with their
    /// relevance: the cosine less the crowding of their neighbourhood.
    pub fn nearest(&self, q: &Quantized, k: usize, keep: impl Fn(Key) -> bool) -> Vec<(Key, f32)> {
        if self.dim == 0 || q.values.len() != self.dim || k == 0 {
            return Vec::new();
        }
        let mut best: Vec<(Key, f32)> = Vec::with_capacity(k + 1);
        let mut floor = f32::MIN;
        for (slot, row) in self.data.chunks_exact(self.dim).enumerate() {
            let score = dot(row, &q.values) as f32 * self.scales[slot] * q.scale - self.crowding(slot);
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
    pub(crate) fn similarity(&self, query: &Quantized, key: Key) -> Option<f32> {
        let slot = *self.slots.get(&key)?;
        (query.values.len() == self.dim).then(|| dot(self.row(slot), &query.values) as f32 * self.scales[slot] * query.scale)
    }

    /// `key`'s relevance to `query`, as [`VectorIndex::nearest`] scores it.
    pub(crate) fn relevance(&self, query: &Quantized, key: Key) -> Option<f32> {
        let slot = *self.slots.get(&key)?;
        Some(self.similarity(query, key)? - self.crowding(slot))
    }

    /// The relevance to `query` of `a` and `b` read together: that of their mean vector,
    /// the sum of their relevances over the length of the sum of their (unit) vectors.
    /// Two halves of an answer each half relevant can be wholly relevant together.
    pub(crate) fn pair_relevance(&self, query: &Quantized, a: Key, b: Key) -> Option<f32> {
        let (first, second, between) = (self.relevance(query, a)?, self.relevance(query, b)?, self.cosine(a, b)?);
        Some((first + second) / (2.0 + 2.0 * between).max(1e-6).sqrt())
    }

    /// The cosine between two stored items.
    pub(crate) fn cosine(&self, a: Key, b: Key) -> Option<f32> {
        let (a, b) = (*self.slots.get(&a)?, *self.slots.get(&b)?);
        Some(dot(self.row(a), self.row(b)) as f32 * self.scales[a] * self.scales[b])
    }

    fn row(&self, slot: usize) -> &[i8] {
        &self.data[slot * self.dim..(slot + 1) * self.dim]
    }

    /// Bytes held by the vectors and their keys.
    pub fn memory_bytes(&self) -> usize {
        self.data.len() + (self.scales.len() + self.densities.len()) * 4 + self.keys.len() * (std::mem::size_of::<Key>() * 2 + 8)
    }
}

/// A copy of an index's vectors, to measure every density away from the index's lock
/// (the work grows with the index: 100,000 items take seconds).
pub(crate) struct DensityJob {
    dim: usize,
    keys: Vec<Key>,
    scales: Vec<f32>,
    data: Vec<i8>,
}

impl DensityJob {
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Every item's density (none while the index is too small to say).
    pub(crate) fn run(&self) -> Vec<(Key, f32)> {
        let rows = Rows { data: &self.data, scales: &self.scales, dim: self.dim };
        self.keys.iter().copied().zip(rows.densities()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Quantized {
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        Quantized::from_f32(&v.iter().map(|x| x / norm).collect::<Vec<_>>())
    }

    /// Thirty near-copies of one thing said, and one thing said once.
    fn crowded() -> VectorIndex {
        let mut index = VectorIndex::default();
        for i in 0..30 {
            index.insert(Key::message(i), &unit(&[1.0, 0.0, 0.01 * i as f32, 0.0]));
        }
        index.insert(Key::message(100), &unit(&[0.0, 1.0, 0.0, 0.0]));
        index
    }

    #[test]
    fn two_turns_each_half_about_the_question_are_wholly_about_it_together() {
        let mut index = VectorIndex::default();
        index.insert(Key::message(1), &unit(&[1.0, 0.0, 0.0]));
        index.insert(Key::message(2), &unit(&[0.0, 1.0, 0.0]));
        index.insert(Key::message(3), &unit(&[1.0, 0.0, 0.0]));
        let query = unit(&[1.0, 1.0, 0.0]);
        let alone = index.relevance(&query, Key::message(1)).unwrap();
        let together = index.pair_relevance(&query, Key::message(1), Key::message(2)).unwrap();
        assert!((alone - 0.707).abs() < 0.02 && (together - 1.0).abs() < 0.02, "{alone} {together}");
        let same = index.pair_relevance(&query, Key::message(1), Key::message(3)).unwrap();
        assert!((same - alone).abs() < 0.02, "a turn said twice is no more relevant for it: {same}");
    }

    #[test]
    fn what_was_said_once_outranks_a_closer_crowd_once_densities_are_measured() {
        let mut index = crowded();
        let query = unit(&[0.8, 0.6, 0.0, 0.0]);
        assert_eq!(index.nearest(&query, 1, |_| true)[0].0, Key::message(0), "by cosine alone the crowd is closer");
        assert_eq!(index.unmeasured(), 31);
        let densities = index.density_job().run();
        index.set_densities(&densities);
        assert_eq!(index.unmeasured(), 0);
        assert_eq!(index.nearest(&query, 1, |_| true)[0].0, Key::message(100));
        let alone = index.relevance(&query, Key::message(100)).unwrap();
        assert!((alone - index.similarity(&query, Key::message(100)).unwrap()).abs() < 0.01, "nothing crowds it");
    }

    #[test]
    fn a_new_vector_is_measured_against_the_index_and_removal_keeps_densities_in_place() {
        let mut index = crowded();
        let densities = index.density_job().run();
        index.set_densities(&densities);
        let twin = unit(&[1.0, 0.0, 0.0, 0.0]);
        assert!(index.density_of(&twin, None).unwrap() > 0.99);
        assert!(index.density_of(&unit(&[0.0, 0.0, 0.0, 1.0]), None).unwrap().abs() < 0.05);
        let before = index.relevance(&twin, Key::message(100)).unwrap();
        index.remove(Key::message(3));
        assert_eq!(index.relevance(&twin, Key::message(100)).unwrap(), before, "the moved slot keeps its density");
        assert!(VectorIndex::default().density_of(&twin, None).is_none(), "too few vectors to say");
    }

    #[test]
    fn a_vector_stored_again_is_measured_alone() {
        let mut index = crowded();
        let densities = index.density_job().run();
        index.set_densities(&densities);
        index.insert(Key::message(100), &unit(&[1.0, 0.0, 0.0, 0.0]));
        assert_eq!(index.unmeasured(), 1);
        let measured = index.measure_missing();
        assert_eq!(measured.len(), 1);
        assert!(measured[0].1 > 0.99, "it joined the crowd: {measured:?}");
        assert_eq!(index.unmeasured(), 0);
    }
}
