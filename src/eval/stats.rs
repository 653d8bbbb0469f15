//! Paired statistics for comparing two runs: the exact McNemar test on pass/fail outcomes and a
//! seeded paired bootstrap for a mean difference.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Exact (binomial) McNemar test, two-sided: `b` and `c` are the discordant pairs
/// (pass→fail and fail→pass). p = min(1, 2·P(X ≤ min(b, c))) for X ~ Binomial(b + c, ½).
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    // Binomial terms in log space: 0.5^n underflows past n = 1074.
    let mut log_term = -(n as f64) * std::f64::consts::LN_2;
    let mut tail = log_term.exp();
    for i in 0..b.min(c) {
        log_term += ((n - i) as f64).ln() - ((i + 1) as f64).ln();
        tail += log_term.exp();
    }
    (2.0 * tail).min(1.0)
}

/// A bootstrap confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Interval {
    /// Mean of the observed differences.
    pub mean: f64,
    /// Lower bound (2.5th percentile of the resampled means).
    pub low: f64,
    /// Upper bound (97.5th percentile).
    pub high: f64,
    /// Resamples drawn.
    pub resamples: usize,
    /// RNG seed (ChaCha8), so the interval is reproducible.
    pub seed: u64,
}

/// Paired bootstrap 95 % percentile interval for the mean of `diffs` (new − base per pair):
/// `resamples` draws of n pairs with replacement, percentiles at ranks round(0.025·(B−1)) and
/// round(0.975·(B−1)) of the sorted means. `None` without pairs.
pub fn paired_bootstrap(diffs: &[f64], resamples: usize, seed: u64) -> Option<Interval> {
    if diffs.is_empty() || resamples == 0 {
        return None;
    }
    let n = diffs.len();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| {
            let sum: f64 = (0..n)
                .map(|_| diffs[(rng.next_u64() % n as u64) as usize])
                .sum();
            sum / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[(q * (resamples - 1) as f64).round() as usize];
    Some(Interval {
        mean: diffs.iter().sum::<f64>() / n as f64,
        low: at(0.025),
        high: at(0.975),
        resamples,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_known_values() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // n = 10, min = 1: 2·(C(10,0) + C(10,1))/2^10 = 22/1024.
        assert!((mcnemar_exact(1, 9) - 22.0 / 1024.0).abs() < 1e-15);
        assert_eq!(mcnemar_exact(9, 1), mcnemar_exact(1, 9));
        // n = 6, min = 0: 2/64.
        assert!((mcnemar_exact(0, 6) - 2.0 / 64.0).abs() < 1e-15);
        // Balanced discordance is no evidence: p = 1.
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        // Agresti's textbook example (Categorical Data Analysis, presidential approval ratings):
        // b = 150, c = 86; exact two-sided p = 3.715936139571442e-05 (exact integer arithmetic:
        // 2·Σ_{i≤86} C(236, i) / 2^236).
        let p = mcnemar_exact(150, 86);
        assert!((p - 3.715936139571442e-05).abs() < 1e-15, "{p}");
        // Large n stays finite (no underflow to 0 in every term).
        assert!(mcnemar_exact(2000, 1990) > 0.5);
    }

    #[test]
    fn bootstrap_known_values() {
        // Constant differences: every resample has the same mean.
        let i = paired_bootstrap(&[0.25; 40], 2000, 7).unwrap();
        assert_eq!((i.mean, i.low, i.high), (0.25, 0.25, 0.25));
        // Two pairs, diffs 0 and 1: resampled means are 0, ½, 1 with probabilities ¼, ½, ¼, so
        // the 2.5th and 97.5th percentiles are 0 and 1.
        let i = paired_bootstrap(&[0.0, 1.0], 10_000, 42).unwrap();
        assert_eq!((i.mean, i.low, i.high), (0.5, 0.0, 1.0));
        // Seeded: same seed, same interval; the interval brackets the mean.
        let diffs: Vec<f64> = (0..50).map(|k| f64::from(k % 7) / 10.0 - 0.2).collect();
        let a = paired_bootstrap(&diffs, 5000, 1).unwrap();
        assert_eq!(a, paired_bootstrap(&diffs, 5000, 1).unwrap());
        assert!(a.low <= a.mean && a.mean <= a.high && a.low < a.high);
        assert!(paired_bootstrap(&[], 100, 1).is_none());
    }
}
