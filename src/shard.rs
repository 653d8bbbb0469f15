//! A shard of the work (`--shard K/N`), the two ways work is dealt to shards, and the one check
//! a set of shards passes before it is merged (`tenure-eval merge`), for runs and studies alike.
//!
//! - **By id** ([`Shard::runs`]): a run's cases, each by its id's hash alone, so that a case
//!   keeps its shard when others are added; sessions are never split inside (a session case is
//!   one unit), and a shard replays the mutations of the sessions before its own so that each
//!   of its turns sees the store the whole run would have shown it.
//! - **By position** ([`Shard::takes`]): a study's sizes (`scale`), the i-th (from 0) to shard
//!   i mod N + 1: a study has a few units of very different cost, every shard is given the same
//!   list, and dealing by position keeps the shards even.
//! - **The set** ([`complete`]): one split (one N), each shard once, none missing; a merge
//!   refuses anything else (exit 2), naming the shards.

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
    pub(crate) fn parse(text: &str) -> Result<Shard> {
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
    pub(crate) fn runs(&self, id: &str) -> bool {
        fnv1a(id) % u64::from(self.n) == u64::from(self.k - 1)
    }

    /// Does this shard take the unit at `position` (from 0) of a list every shard is given?
    pub(crate) fn takes(&self, position: usize) -> bool {
        position as u64 % u64::from(self.n) == u64::from(self.k - 1)
    }
}

/// `given`, each a shard with its name (a file or folder, for messages) and what it holds,
/// checked to be one whole split, and put in shard order: every shard of one N, each once.
/// `what` names the set in the message of a missing shard (`" for retrieval-report.jsonl"`).
pub(crate) fn complete<T>(given: Vec<(Shard, String, T)>, what: &str) -> Result<Vec<T>> {
    let Some(n) = given.first().map(|(s, _, _)| s.n) else {
        return Err(Error::Usage("merge: no shard given".into()));
    };
    let (first_shard, first) = (given[0].0, given[0].1.clone());
    let mut by_k: Vec<Option<(String, T)>> = (0..n).map(|_| None).collect();
    for (shard, name, held) in given {
        if shard.n != n {
            return Err(Error::Usage(format!(
                "merge: {name} is shard {shard} and {first} shard {first_shard}: shards of one \
                 split share N"
            )));
        }
        let slot = &mut by_k[(shard.k - 1) as usize];
        if let Some((other, _)) = slot {
            return Err(Error::Usage(format!(
                "merge: shard {shard} given twice ({other} and {name})"
            )));
        }
        *slot = Some((name, held));
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| by_k[(*k - 1) as usize].is_none())
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        let given: Vec<String> = given_k(&by_k).iter().map(|k| format!("{k}/{n}")).collect();
        return Err(Error::Usage(format!(
            "merge: shard {} missing{what} (given: {}; every shard's --out folder once)",
            missing.join(", "),
            given.join(", ")
        )));
    }
    Ok(by_k.into_iter().flatten().map(|(_, held)| held).collect())
}

/// The first field, by its JSON name, in which two shards' descriptions of their run differ
/// (`seed: 7 against 8`): what a merge names when it refuses shards of different runs.
pub(crate) fn differing<T: Serialize>(a: &T, b: &T) -> Option<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return None;
    };
    a.iter().find(|(k, v)| b.get(*k) != Some(v)).map(|(k, v)| {
        format!(
            "{k}: {v} against {}",
            b.get(k).unwrap_or(&serde_json::Value::Null)
        )
    })
}

/// The shard numbers present in `by_k`.
fn given_k<T>(by_k: &[Option<T>]) -> Vec<u32> {
    (1..)
        .zip(by_k)
        .filter(|(_, s)| s.is_some())
        .map(|(k, _)| k)
        .collect()
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
    fn positions_are_dealt_round_the_shards_and_a_set_is_checked_whole() {
        let two: Vec<Shard> = (1..=2).map(|k| Shard { k, n: 2 }).collect();
        assert_eq!(
            (0..5).filter(|&i| two[0].takes(i)).collect::<Vec<_>>(),
            [0, 2, 4]
        );
        assert_eq!(
            (0..5).filter(|&i| two[1].takes(i)).collect::<Vec<_>>(),
            [1, 3]
        );
        let set = |ks: &[(u32, u32)]| {
            let given = ks
                .iter()
                .map(|&(k, n)| (Shard { k, n }, format!("s{k}"), k))
                .collect();
            complete(given, "")
        };
        assert_eq!(set(&[(2, 2), (1, 2)]).unwrap(), [1, 2]);
        let err = |ks: &[(u32, u32)]| set(ks).unwrap_err().to_string();
        assert!(
            err(&[(1, 2)]).contains("shard 2/2 missing"),
            "{}",
            err(&[(1, 2)])
        );
        assert!(err(&[(1, 2), (1, 2)]).contains("shard 1/2 given twice (s1 and s1)"));
        assert!(err(&[(1, 2), (1, 3)]).contains("share N"));
    }

    #[test]
    fn k_over_n_is_parsed_and_nonsense_refused() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { k: 2, n: 3 });
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
