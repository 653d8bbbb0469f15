//! What one simulated session measured. Every field is a count or a value computed from counts:
//! nothing is timed, so the same seed and parameters give the same bytes.

use crate::store::BeliefStore;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One session of one variant.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionMetrics {
    /// 1-based.
    pub session: usize,
    /// Active beliefs after the session.
    pub beliefs: usize,
    /// References (one search each).
    pub references: usize,
    /// References whose belief was retrieved.
    pub covered: usize,
    /// `covered / references`.
    pub coverage: f64,
    /// Results returned, over all searches.
    pub retrieved: usize,
    /// Results that were the belief referred to.
    pub correct: usize,
    /// `correct / retrieved` (micro precision); `None` when nothing was retrieved.
    pub precision: Option<f64>,
    /// `retrieved / references`.
    pub retrieved_per_query: f64,
    /// Searches that returned nothing.
    pub empty: usize,
    /// Aliases per active belief, median (after the session).
    pub aliases_median: f64,
    /// Aliases per active belief, 90th percentile (nearest rank).
    pub aliases_p90: f64,
    /// The largest alias set.
    pub aliases_max: usize,
    /// Distinct aliases held by two or more active beliefs.
    pub collisions: usize,
    /// Distinct one-word aliases that are also a word of another belief's two-word alias (a
    /// message using the longer form also matches the shorter, by the fuzzy alias clause).
    pub word_overlaps: usize,
    /// Aliases added on a hit.
    pub captured_on_hit: usize,
    /// Aliases added after a clarified miss.
    pub captured_after_miss: usize,
    /// Misses the user clarified.
    pub clarified_misses: usize,
    /// Aliases refused because the belief held `ceiling`.
    pub refused_at_ceiling: usize,
    /// Aliases moved to a replacement by counter-signals.
    pub counter_signal_aliases: usize,
    /// Aliases given to a merge's survivor.
    pub union_aliases: usize,
    /// Beliefs superseded this session.
    pub supersessions: usize,
    /// Merges this session.
    pub merges: usize,
    /// References naming a replaced tool's form.
    pub old_form_refs: usize,
    /// Of those, how many retrieved the replacement.
    pub old_form_covered: usize,
    /// References using a form of a belief merged away.
    pub merged_refs: usize,
    /// Of those, how many retrieved the survivor.
    pub merged_covered: usize,
}

impl SessionMetrics {
    /// Fill the ratios and the store's alias statistics (after the session's searches).
    pub(crate) fn finish(&mut self, store: &BeliefStore) {
        self.coverage = ratio(self.covered, self.references).unwrap_or(0.0);
        self.precision = ratio(self.correct, self.retrieved);
        self.retrieved_per_query = ratio(self.retrieved, self.references).unwrap_or(0.0);
        let mut sizes: Vec<usize> = Vec::new();
        let mut holders: BTreeMap<&str, usize> = BTreeMap::new();
        for b in store.beliefs().filter(|b| b.is_active()) {
            sizes.push(b.aliases.len());
            for a in &b.aliases {
                *holders.entry(a.as_str()).or_insert(0) += 1;
            }
        }
        sizes.sort_unstable();
        self.beliefs = sizes.len();
        self.aliases_median = median(&sizes);
        self.aliases_p90 = nearest_rank(&sizes, 0.9) as f64;
        self.aliases_max = sizes.last().copied().unwrap_or(0);
        self.collisions = holders.values().filter(|&&n| n > 1).count();
        self.word_overlaps = word_overlaps(store);
    }
}

/// Distinct one-word aliases of an active belief that occur as a word in a multi-word alias
/// of another active belief.
fn word_overlaps(store: &BeliefStore) -> usize {
    let mut single: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for b in store.beliefs().filter(|b| b.is_active()) {
        for a in b.aliases.iter().filter(|a| !a.contains(' ')) {
            single.entry(a.as_str()).or_default().push(&b.id);
        }
    }
    let mut found: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for b in store.beliefs().filter(|b| b.is_active()) {
        for word in b
            .aliases
            .iter()
            .filter(|a| a.contains(' '))
            .flat_map(|a| a.split(' '))
        {
            if let Some((w, holders)) = single.get_key_value(word) {
                if holders.iter().any(|h| *h != b.id) {
                    found.insert(w);
                }
            }
        }
    }
    found.len()
}

/// `a / b`, `None` when `b` is 0.
pub(crate) fn ratio(a: usize, b: usize) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The median of sorted `v` (mean of the middle two when even; 0 when empty).
pub(crate) fn median(v: &[usize]) -> f64 {
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2] as f64,
        n => (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0,
    }
}

/// The nearest-rank `q` quantile of sorted `v` (0 when empty).
pub(crate) fn nearest_rank(v: &[usize], q: f64) -> usize {
    if v.is_empty() {
        return 0;
    }
    let rank = (q * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles() {
        assert_eq!(median(&[1, 2, 3, 4]), 2.5);
        assert_eq!(median(&[3]), 3.0);
        assert_eq!(nearest_rank(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9), 9);
        assert_eq!(nearest_rank(&[5], 0.9), 5);
        assert_eq!(ratio(1, 0), None);
    }
}
