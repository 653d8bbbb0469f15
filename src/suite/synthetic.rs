//! A deterministic synthetic corpus for the scale study: a suite's own beliefs planted among
//! generated ones, so that the suite's cases still judge precision as the store grows.
//!
//! Generated beliefs use a vocabulary of made-up words (syllable compounds such as `kavomir`),
//! so none is gold for a suite case, yet they share the index, its statistics (N, df, avgdl)
//! and the term dictionary that fuzzy matching walks. One in five belongs to the suite's own
//! user and scopes, competing with the planted beliefs directly; the rest belong to five other
//! users. Words are drawn with a skew (the square of a uniform draw), so some terms are common
//! and others rare, as in a real store. The generator is xorshift64*: a fixed, seedable
//! sequence that no dependency update can change.

use super::{Belief, BeliefType, StaticCase, DEFAULT_USER};

const SYLLABLES: [&str; 32] = [
    "ka", "vo", "mir", "tel", "zu", "ran", "po", "lek", "si", "dro", "mu", "fen", "ga", "lor",
    "bi", "tas", "ne", "quo", "ry", "sal", "to", "vin", "ech", "pa", "gru", "li", "mon", "ze",
    "ha", "dus", "or", "wim",
];

/// Generated beliefs' users other than the suite's.
pub(crate) const OTHER_USERS: usize = 5;

/// xorshift64* (Vigna 2016).
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator from `seed` (0 is replaced: xorshift must not start at 0).
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A word: two or three syllables, the first drawn with a skew towards the start of the
    /// list (common words), the rest uniformly.
    pub(crate) fn word(&mut self) -> String {
        let u = self.below(1 << 16) as f64 / f64::from(1 << 16);
        let first = ((u * u) * SYLLABLES.len() as f64) as usize;
        let mut w = String::from(SYLLABLES[first.min(SYLLABLES.len() - 1)]);
        for _ in 0..1 + self.below(2) {
            w.push_str(SYLLABLES[self.below(SYLLABLES.len())]);
        }
        w
    }

    fn phrase(&mut self, words: usize) -> String {
        (0..words)
            .map(|_| self.word())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Room for `n` of what `what` names, or why this machine has none: `flywheel --sizes 1e14` asked
/// the allocator for 40 PB and aborted the process with a backtrace (exit 134), and `scale
/// --sizes 1e11` was granted its 25 TB of address space and filled the machine's memory for
/// ten minutes before the kernel killed it (an audit). So the items' own bytes (a lower bound
/// of what they need: their strings come on top) are held against the machine's memory and
/// swap, then reserved.
pub fn room<T>(n: Option<usize>, what: &str) -> Result<Vec<T>, String> {
    let gib = |bytes: u64| bytes as f64 / f64::from(1u32 << 30);
    let need = n.and_then(|n| n.checked_mul(std::mem::size_of::<T>().max(1)));
    let refused = |why: String| {
        let n = n.map_or("more".to_string(), |n| n.to_string());
        Err(format!(
            "{n} {what} do not fit in this machine's memory{why}"
        ))
    };
    let Some(need) = need else {
        return refused(String::new());
    };
    if let Some(have) = memory().filter(|&have| need as u64 > have) {
        let why = format!(
            " (they need {:.0} GiB at least; it has {:.1} GiB with swap)",
            gib(need as u64),
            gib(have)
        );
        return refused(why);
    }
    let mut v = Vec::new();
    match v.try_reserve_exact(n.unwrap_or(0)) {
        Ok(()) => Ok(v),
        Err(_) => refused(String::new()),
    }
}

/// The machine's memory and swap in bytes, from Linux's /proc/meminfo (None elsewhere). Two
/// lines of one file: no crate is needed for them.
fn memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib = |key: &str| -> Option<u64> {
        let line = info.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    Some((kib("MemTotal:")? + kib("SwapTotal:").unwrap_or(0)) * 1024)
}

/// `planted` followed by generated beliefs up to `size` in all (none when `planted` already
/// holds `size`). `scopes` are the suite's scopes, given to its user's generated beliefs.
pub fn corpus(planted: &[Belief], size: usize, scopes: &[String], seed: u64) -> Vec<Belief> {
    let mut rng = Rng::new(seed);
    let mut out = planted.to_vec();
    for i in 0..size.saturating_sub(planted.len()) {
        let ours = i % 5 == 0;
        let user = if ours {
            DEFAULT_USER.to_string()
        } else {
            format!("synthetic-user-{}", i % OTHER_USERS)
        };
        let scope = if ours && !scopes.is_empty() {
            vec![scopes[rng.below(scopes.len())].clone()]
        } else {
            vec![format!("synthetic-scope-{}", rng.below(7))]
        };
        let kind = match rng.below(10) {
            0..=6 => BeliefType::Entity,
            7 | 8 => BeliefType::Preference,
            _ => BeliefType::Decision,
        };
        let aliases = (0..3 + rng.below(6))
            .map(|_| {
                let words = 1 + rng.below(2);
                rng.phrase(words)
            })
            .collect();
        // The name is drawn before the content, as the corpus always has been.
        let name = rng.phrase(2);
        out.push(Belief {
            aliases,
            scope,
            content: rng.phrase(8),
            ..Belief::new(format!("s-{i}"), user, kind, name)
        });
    }
    out
}

/// `cases` repeated to `n` cases in all (cut short when `n` is smaller): the first round keeps
/// the ids, round r > 0 suffixes them `~r`, so every id is unique and judged as its original.
pub fn cases(cases: &[StaticCase], n: usize) -> Vec<StaticCase> {
    if cases.is_empty() {
        return Vec::new();
    }
    (0..n)
        .map(|i| {
            let mut case = cases[i % cases.len()].clone();
            let round = i / cases.len();
            if round > 0 {
                case.case_id = format!("{}~{round}", case.case_id);
            }
            case
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_is_deterministic_sized_and_keeps_the_planted_beliefs_first() {
        let mut planted = corpus(&[], 3, &[], 1);
        for (k, b) in planted.iter_mut().enumerate() {
            b.id = format!("planted-{k}");
        }
        let a = corpus(&planted, 1000, &["code".into()], 42);
        assert_eq!(a.len(), 1000);
        assert_eq!(a[..3], planted[..]);
        assert_eq!(a, corpus(&planted, 1000, &["code".into()], 42));
        assert_ne!(a, corpus(&planted, 1000, &["code".into()], 43));
        let ours = a[3..].iter().filter(|b| b.user_id == DEFAULT_USER).count();
        assert_eq!(ours, 200); // every fifth of the 997 generated: i = 0, 5, …, 995
        assert!(a[3..]
            .iter()
            .filter(|b| b.user_id == DEFAULT_USER)
            .all(|b| b.scope == ["code"]));
        let mut ids: Vec<&str> = a.iter().map(|b| b.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 1000);
        // Smaller than the planted set: the planted set alone.
        assert_eq!(corpus(&planted, 2, &[], 1).len(), 3);
    }
}
