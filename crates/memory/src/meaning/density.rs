//! How crowded the neighbourhood of a stored vector is, so routine chatter stops
//! outranking what was said once.
//!
//! Everyday messages repeat ("work was long today", "I made soup for dinner"): each has
//! dozens of near-twins, and a query lands close to one of them by sheer number. A
//! statement said once ("I adopted a kitten") sits alone. Recall by meaning scores an
//! item by its cosine with the query minus [`WEIGHT`] times its density, the mean cosine
//! of its nearest stored neighbours: the hubness correction of cross-domain similarity
//! local scaling (CSLS, Conneau et al., 2018), an inverse document frequency for
//! embeddings.
//!
//! A density is measured against a reference of at most [`REFERENCE`] stored vectors
//! spread over the index, so it costs the same at 5,000 items or 500,000.

use super::int8::dot;

/// How much a crowded neighbourhood lowers a score. On the evaluation set (with
/// distinctive one-off statements as distractors) 0.5 moved paraphrased evidence from a
/// median rank in the hundreds into the first ten; the cosine still decides between
/// items of similar density.
pub(crate) const WEIGHT: f32 = 0.5;
/// Neighbours averaged when the reference is the whole index; fewer when it is a
/// sample, so the same neighbourhood is measured.
const NEIGHBOURS: usize = 10;
/// Most vectors a density is measured against.
pub(crate) const REFERENCE: usize = 2048;
/// Below this many vectors densities say nothing yet.
pub(crate) const MIN_ITEMS: usize = 2 * NEIGHBOURS;

/// The slots of an index of `len` vectors that densities are measured against: all of
/// them, or [`REFERENCE`] spread evenly.
pub(crate) fn reference(len: usize) -> Vec<usize> {
    if len <= REFERENCE {
        return (0..len).collect();
    }
    (0..REFERENCE).map(|i| i * len / REFERENCE).collect()
}

/// How many of the closest reference vectors to average, for an index of `len`.
pub(crate) fn neighbours(len: usize, reference: usize) -> usize {
    if len == 0 {
        return 1;
    }
    ((NEIGHBOURS * reference + len / 2) / len).clamp(1, NEIGHBOURS)
}

/// The mean of the `k` largest of `cosines`.
pub(crate) fn mean_of_top(cosines: impl Iterator<Item = f32>, k: usize) -> f32 {
    let mut top: Vec<f32> = Vec::with_capacity(k + 1);
    for c in cosines {
        if top.len() == k && top.last().is_some_and(|last| c <= *last) {
            continue;
        }
        let at = top.partition_point(|x| *x >= c);
        top.insert(at, c);
        top.truncate(k);
    }
    if top.is_empty() {
        0.0
    } else {
        top.iter().sum::<f32>() / top.len() as f32
    }
}

/// The vectors densities are measured among: `dim` 8-bit components a row, each row
/// with its scale.
#[derive(Clone, Copy)]
pub(crate) struct Rows<'a> {
    pub data: &'a [i8],
    pub scales: &'a [f32],
    pub dim: usize,
}

impl Rows<'_> {
    fn row(&self, slot: usize) -> &[i8] {
        &self.data[slot * self.dim..(slot + 1) * self.dim]
    }

    /// The density of a vector (`values` with `scale`) among the rows, leaving out the
    /// row `own` (the vector itself, when stored); `None` while there are too few rows
    /// to say.
    pub(crate) fn density(&self, values: &[i8], scale: f32, own: Option<usize>) -> Option<f32> {
        let len = self.scales.len();
        if len < MIN_ITEMS || self.dim == 0 || values.len() != self.dim {
            return None;
        }
        let reference = reference(len);
        let k = neighbours(len, reference.len());
        let cosines = reference.iter().filter(|r| Some(**r) != own).map(|r| dot(values, self.row(*r)) as f32 * scale * self.scales[*r]);
        Some(mean_of_top(cosines, k))
    }

    /// The density of every row, or nothing while there are too few to say.
    pub(crate) fn densities(&self) -> Vec<f32> {
        (0..self.scales.len()).map_while(|slot| self.density(self.row(slot), self.scales[slot], Some(slot))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_spreads_over_a_large_index() {
        assert_eq!(reference(5), vec![0, 1, 2, 3, 4]);
        let spread = reference(100_000);
        assert_eq!(spread.len(), REFERENCE);
        assert!(spread.windows(2).all(|w| w[0] < w[1]) && *spread.last().unwrap() < 100_000);
    }

    #[test]
    fn a_sampled_reference_averages_fewer_neighbours() {
        assert_eq!(neighbours(1000, 1000), 10);
        assert_eq!(neighbours(5762, 2048), 4);
        assert_eq!(neighbours(100_000, 2048), 1);
    }

    #[test]
    fn the_mean_is_of_the_largest() {
        assert!((mean_of_top([0.1, 0.9, 0.5, 0.7].into_iter(), 2) - 0.8).abs() < 1e-6);
        assert_eq!(mean_of_top(std::iter::empty(), 3), 0.0);
    }
}
