//! Paired statistics for comparing two runs: the exact McNemar test on pass/fail outcomes and a
//! seeded paired bootstrap for a mean difference.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Mean of `values` (summed in order from −0.0, as `Iterator::sum` does), `None` when there
/// are none.
pub(crate) fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values
        .into_iter()
        .fold((-0.0, 0usize), |(sum, n), x| (sum + x, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// The spread of one measure over repeated runs: each run's value, their mean, sample standard
/// deviation (n − 1), range, and the two-sided 95 % confidence interval of the mean from
/// Student's t with n − 1 degrees of freedom (the mean itself when n = 1 or the values agree).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Spread {
    /// Each run's value, in run order.
    pub values: Vec<f64>,
    /// Their mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// 95 % confidence interval of the mean, `[low, high]`.
    pub ci95: [f64; 2],
}

/// [`Spread`] of `values`; `None` when there are none.
pub(crate) fn spread(values: &[f64]) -> Option<Spread> {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    let (min, max) = (
        values.iter().copied().fold(f64::INFINITY, f64::min),
        values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    // Equal values have no spread: not the rounding error of summing them.
    let mean = if min == max {
        min
    } else {
        mean(values.iter().copied())?
    };
    let n = values.len();
    let sd = if n > 1 && min < max {
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
    } else {
        0.0
    };
    let half = if n > 1 && sd > 0.0 {
        let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
            .expect("n − 1 ≥ 1 degrees of freedom")
            .inverse_cdf(0.975);
        t * sd / (n as f64).sqrt()
    } else {
        0.0
    };
    Some(Spread {
        values: values.to_vec(),
        mean,
        sd,
        min,
        max,
        ci95: [mean - half, mean + half],
    })
}

/// Exact (binomial) McNemar test, two-sided: `b` and `c` are the discordant pairs
/// (pass→fail and fail→pass). p = min(1, 2·P(X ≤ min(b, c))) for X ~ Binomial(b + c, ½).
pub(crate) fn mcnemar_exact(b: u64, c: u64) -> f64 {
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

/// A 95% percentile interval's bounds: the 2.5th and 97.5th percentiles of a statistic's
/// bootstrap values ([`percentile_bounds`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Bounds {
    /// Lower bound (2.5th percentile).
    pub low: f64,
    /// Upper bound (97.5th percentile).
    pub high: f64,
}

/// A bootstrap confidence interval of a mean, with what drew it.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Interval {
    /// Mean of the observed differences.
    pub mean: f64,
    /// Its bounds, over the resampled means.
    #[serde(flatten)]
    pub bounds: Bounds,
    /// Resamples drawn.
    pub resamples: usize,
    /// RNG seed (ChaCha8), so the interval is reproducible.
    pub seed: u64,
}

/// The one bootstrap: `resamples` samples of `n` items drawn with replacement (each index one
/// ChaCha8 `u64` modulo `n`, the generator seeded with `seed`), each handed to `each` as the
/// drawn indices, in order. The paired comparison and the classifier's F1 intervals both resample
/// through it.
pub(crate) fn resample(n: usize, resamples: usize, seed: u64, mut each: impl FnMut(&[usize])) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut drawn = Vec::with_capacity(n);
    for _ in 0..resamples {
        drawn.clear();
        drawn.extend((0..n).map(|_| (rng.next_u64() % n as u64) as usize));
        each(&drawn);
    }
}

/// The percentile bounds of bootstrap `values`: ranks round(0.025·(B−1)) and round(0.975·(B−1))
/// of the sorted values; both 0 without any.
pub(crate) fn percentile_bounds(mut values: Vec<f64>) -> Bounds {
    if values.is_empty() {
        return Bounds {
            low: 0.0,
            high: 0.0,
        };
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[(q * (values.len() - 1) as f64).round() as usize];
    Bounds {
        low: at(0.025),
        high: at(0.975),
    }
}

/// Paired bootstrap 95 % percentile interval for the mean of `diffs` (new − base per pair):
/// `resamples` draws of n pairs with replacement ([`resample`]), bounds by
/// [`percentile_bounds`]. `None` without pairs.
pub(crate) fn paired_bootstrap(diffs: &[f64], resamples: usize, seed: u64) -> Option<Interval> {
    if diffs.is_empty() || resamples == 0 {
        return None;
    }
    let n = diffs.len();
    let mut means = Vec::with_capacity(resamples);
    resample(n, resamples, seed, |drawn| {
        means.push(drawn.iter().map(|&i| diffs[i]).sum::<f64>() / n as f64);
    });
    Some(Interval {
        mean: diffs.iter().sum::<f64>() / n as f64,
        bounds: percentile_bounds(means),
        resamples,
        seed,
    })
}

/// Nonzero differences up to which [`paired_randomisation`] enumerates every sign pattern.
pub(crate) const EXACT_UP_TO: usize = 40;

/// A paired randomisation test's answer.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Randomisation {
    /// Two-sided p-value.
    pub p: f64,
    /// Every sign pattern counted (else sampled).
    pub exact: bool,
    /// Sign patterns sampled (0 when exact).
    pub resamples: usize,
}

/// Fisher's paired randomisation test, two-sided, of the mean of `diffs` (one difference per
/// paired case): under the null each difference's sign is a coin flip, and p is the share of
/// sign patterns whose |Σ ±dᵢ| reaches the observed |Σ dᵢ| (within a relative 1e-9, so that
/// sums equal in exact arithmetic count as equal). Zero differences change no sum and are
/// dropped. Differences all of one size (a pass/fail column) give the exact binomial answer,
/// [`mcnemar_exact`], at any count. Otherwise, up to [`EXACT_UP_TO`] nonzero differences every one of the 2^m patterns is counted
/// (meet in the middle: the sums of each half, sorted, paired by binary search), which is what
/// `scipy.stats.permutation_test(..., permutation_type="samples", n_resamples=inf)` computes;
/// beyond, `resamples` patterns are drawn (ChaCha8 from `seed`) and p = (1 + hits) / (1 + draws).
pub(crate) fn paired_randomisation(diffs: &[f64], resamples: usize, seed: u64) -> Randomisation {
    let d: Vec<f64> = diffs.iter().copied().filter(|x| *x != 0.0).collect();
    let m = d.len();
    let observed: f64 = d.iter().sum::<f64>().abs();
    let slack = 1e-9 * d.iter().map(|x| x.abs()).sum::<f64>();
    let reaches = |sum: f64| sum.abs() >= observed - slack;
    if m == 0 {
        return Randomisation {
            p: 1.0,
            exact: true,
            resamples: 0,
        };
    }
    // Differences of one size (pass/fail as 1/0): the sum is c·(plus − minus), binomial under
    // the null, so p is the exact McNemar test at any m.
    let size = d[0].abs();
    if d.iter().all(|x| (x.abs() - size).abs() <= 1e-12 * size) {
        let plus = d.iter().filter(|x| **x > 0.0).count() as u64;
        let p = mcnemar_exact(plus, m as u64 - plus);
        return Randomisation {
            p,
            exact: true,
            resamples: 0,
        };
    }
    if m <= EXACT_UP_TO {
        let (left, right) = d.split_at(m / 2);
        let half_sums = |half: &[f64]| -> Vec<f64> {
            let mut sums = vec![0.0f64];
            for x in half {
                sums = sums.iter().flat_map(|s| [s + x, s - x]).collect();
            }
            sums
        };
        let a = half_sums(left);
        let mut b = half_sums(right);
        b.sort_by(f64::total_cmp);
        // For each left sum s: right sums r with s + r ≥ t or s + r ≤ −t (t = observed − slack,
        // t > 0 here unless every pattern reaches it).
        let t = observed - slack;
        let hits: u64 = if t <= 0.0 {
            (a.len() * b.len()) as u64
        } else {
            a.iter()
                .map(|s| {
                    let high = b.len() - b.partition_point(|r| s + r < t);
                    let low = b.partition_point(|r| s + r <= -t);
                    (high + low) as u64
                })
                .sum()
        };
        let p = hits as f64 / (a.len() * b.len()) as f64;
        return Randomisation {
            p,
            exact: true,
            resamples: 0,
        };
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut hits = 0usize;
    for _ in 0..resamples {
        let mut sum = 0.0;
        let mut bits = 0u64;
        for (i, x) in d.iter().enumerate() {
            if i % 64 == 0 {
                bits = rng.next_u64();
            }
            sum += if bits & (1 << (i % 64)) != 0 { *x } else { -x };
        }
        hits += usize::from(reaches(sum));
    }
    Randomisation {
        p: (1 + hits) as f64 / (1 + resamples) as f64,
        exact: false,
        resamples,
    }
}

/// Holm's step-down adjustment of `p` (family-wise error): sorted ascending, the i-th smallest
/// (from 0) becomes max over j ≤ i of min(1, (k − j)·p₍ⱼ₎); returned in the input order.
pub(crate) fn holm(p: &[f64]) -> Vec<f64> {
    let k = p.len();
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]).then(i.cmp(&j)));
    let mut adjusted = vec![0.0; k];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((k - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
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
    fn spread_matches_students_t() {
        // t(0.975, 4) = 2.7764451051977987 (R: qt(0.975, 4)).
        let s = spread(&[0.20, 0.22, 0.21, 0.19, 0.23]).unwrap();
        assert!((s.mean - 0.21).abs() < 1e-12);
        let sd = (0.001f64 / 4.0).sqrt();
        assert!((s.sd - sd).abs() < 1e-12);
        let half = 2.7764451051977987 * sd / 5f64.sqrt();
        assert!((s.ci95[0] - (0.21 - half)).abs() < 1e-9, "{:?}", s.ci95);
        assert_eq!((s.min, s.max), (0.19, 0.23));
        let same = spread(&[0.2078; 5]).unwrap();
        assert_eq!(
            (same.mean, same.sd, same.ci95),
            (0.2078, 0.0, [0.2078, 0.2078])
        );
        let one = spread(&[0.5]).unwrap();
        assert_eq!((one.sd, one.ci95), (0.0, [0.5, 0.5]));
        assert_eq!(spread(&[]), None);
    }

    #[test]
    fn bootstrap_known_values() {
        // Constant differences: every resample has the same mean.
        let i = paired_bootstrap(&[0.25; 40], 2000, 7).unwrap();
        assert_eq!((i.mean, i.bounds.low, i.bounds.high), (0.25, 0.25, 0.25));
        // Two pairs, diffs 0 and 1: resampled means are 0, ½, 1 with probabilities ¼, ½, ¼, so
        // the 2.5th and 97.5th percentiles are 0 and 1.
        let i = paired_bootstrap(&[0.0, 1.0], 10_000, 42).unwrap();
        assert_eq!((i.mean, i.bounds.low, i.bounds.high), (0.5, 0.0, 1.0));
        // Seeded: same seed, same interval; the interval brackets the mean.
        let diffs: Vec<f64> = (0..50).map(|k| f64::from(k % 7) / 10.0 - 0.2).collect();
        let a = paired_bootstrap(&diffs, 5000, 1).unwrap();
        assert_eq!(a, paired_bootstrap(&diffs, 5000, 1).unwrap());
        let b = a.bounds;
        assert!(b.low <= a.mean && a.mean <= b.high && b.low < b.high);
        assert!(paired_bootstrap(&[], 100, 1).is_none());
    }

    #[test]
    fn randomisation_known_values() {
        // One difference: the two patterns ±d both reach |d|, p = 1.
        assert_eq!(paired_randomisation(&[0.5], 0, 1).p, 1.0);
        // Four equal positive differences: only all-plus and all-minus reach 4d: 2/16.
        let r = paired_randomisation(&[0.25, 0.25, 0.25, 0.25, 0.0], 0, 1);
        assert_eq!((r.p, r.exact), (2.0 / 16.0, true));
        // 1, 2, 3: sums ±1±2±3 = 6, 4, 2, 0, 0, −2, −4, −6; |sum| ≥ 6 in 2 of 8.
        assert_eq!(paired_randomisation(&[1.0, 2.0, 3.0], 0, 1).p, 0.25);
        // Observed 2 (1 − 2 + 3): |sum| ≥ 2 in 6 of 8.
        assert_eq!(paired_randomisation(&[1.0, -2.0, 3.0], 0, 1).p, 0.75);
        // Sums equal only up to rounding count as equal: 0.1 + 0.2 against 0.3.
        assert_eq!(paired_randomisation(&[0.1, 0.2, -0.3], 0, 1).p, 1.0);
        assert_eq!(paired_randomisation(&[0.0, 0.0], 0, 1).p, 1.0);
        // One size: the binomial answer at any count (here 2/2^41).
        let r = paired_randomisation(&[0.1; EXACT_UP_TO + 1], 0, 7);
        assert_eq!(
            (r.p, r.exact),
            (mcnemar_exact(EXACT_UP_TO as u64 + 1, 0), true)
        );
        // Sampled beyond the exact limit: seeded, never 0, near the exact answer (≈ 0 here).
        let many: Vec<f64> = (0..EXACT_UP_TO + 1)
            .map(|i| 1.0 + i as f64 / 100.0)
            .collect();
        let r = paired_randomisation(&many, 2000, 7);
        assert_eq!(r, paired_randomisation(&many, 2000, 7));
        assert!(!r.exact && r.p == 1.0 / 2001.0, "{r:?}");
    }

    #[test]
    fn holm_known_values() {
        // k = 3: 0.01·3 = 0.03, 0.04·2 = 0.08, 0.03 → max(0.08, 0.03·1)... sorted 0.01, 0.03,
        // 0.04: 0.03, 0.06, 0.06 (monotone).
        let adjusted = holm(&[0.01, 0.04, 0.03]);
        let want = [0.03, 0.06, 0.06];
        for (a, w) in adjusted.iter().zip(want) {
            assert!((a - w).abs() < 1e-15, "{adjusted:?}");
        }
        assert_eq!(holm(&[0.6, 0.9]), [1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }
}
