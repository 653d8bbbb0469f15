//! A shard of a run (`--shard K/N`): which cases it runs, decided by each case's id alone, so
//! that a case keeps its shard when others are added; sessions are never split inside (a
//! session case is one unit), and a shard replays the mutations of the sessions before its own
//! so that each of its turns sees the store the whole run would have shown it.

use crate::error::{Error, Result};
use crate::hash::fnv1a;
use serde::{Deserialize, Serialize};

/// Shard `k` of `n` (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// Which, from 1.
    pub k: u32,
    /// Of how many.
    pub n: u32,
}

impl Shard {
    /// Parse `K/N` (1 ≤ K ≤ N).
    pub fn parse(text: &str) -> Result<Shard> {
        let bad = || {
            Error::Usage(format!(
                "--shard {text:?}: expected K/N with 1 ≤ K ≤ N (shard 2 of 3: 2/3)"
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// Does this shard run the case (or session case) `id`? Its FNV-1a 64-bit hash modulo `n`
    /// is `k − 1`: a function of the id alone, written by hand because it must never change
    /// with a crate's version (a shard's cases are part of what a merge checks).
    pub fn runs(&self, id: &str) -> bool {
        fnv1a(id) % u64::from(self.n) == u64::from(self.k - 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_is_in_exactly_one_shard_and_keeps_it_when_others_are_added() {
        let ids: Vec<String> = (0..300).map(|i| format!("case-{i}")).collect();
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { k, n: 3 }).collect();
        for id in &ids {
            assert_eq!(shards.iter().filter(|s| s.runs(id)).count(), 1, "{id}");
        }
        let sizes: Vec<usize> = shards
            .iter()
            .map(|s| ids.iter().filter(|id| s.runs(id)).count())
            .collect();
        assert!(sizes.iter().all(|&n| (70..130).contains(&n)), "{sizes:?}");
    }

    #[test]
    fn k_over_n_is_parsed_and_nonsense_refused() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { k: 2, n: 3 });
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
