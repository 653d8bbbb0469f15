//! Per-class and macro precision, recall and F1 from (gold, predicted) pairs, Cohen's κ (the
//! agreement beyond chance, so two annotators' labels can be compared as a classifier's are),
//! and their bootstrap 95% intervals: statements resampled with replacement, the same scores recomputed
//! on each resample, the 2.5th and 97.5th percentiles kept (ranks round(q·(B−1)) of the sorted
//! values, as `eval::stats` does for its paired intervals). Seeded, so reproducible.

use super::ClassScores;
use crate::eval::stats::Bounds;
use crate::temporal::TemporalClass;
use serde::Serialize;
use std::collections::BTreeMap;

/// Resamples of every interval.
pub(crate) const RESAMPLES: usize = 2000;
/// The ChaCha8 seed of every interval.
pub(crate) const SEED: u64 = 34;

/// `a / b`, 0 when `b` is 0.
pub(super) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The scores of a set of pairs.
pub(super) struct Scored {
    pub per_class: BTreeMap<TemporalClass, ClassScores>,
    pub confusion: BTreeMap<TemporalClass, BTreeMap<TemporalClass, usize>>,
    pub macro_precision: f64,
    pub macro_recall: f64,
    pub macro_f1: f64,
    /// Cohen's κ: (observed agreement − chance agreement) / (1 − chance agreement), chance from
    /// each side's class shares. `None` when chance agreement is 1 (both sides gave one and the
    /// same class throughout: 0/0, as scikit-learn's `cohen_kappa_score` gives NaN).
    pub kappa: Option<f64>,
}

/// Cohen's κ of a confusion matrix (rows one side, columns the other).
fn kappa(confusion: &BTreeMap<TemporalClass, BTreeMap<TemporalClass, usize>>) -> Option<f64> {
    let n: usize = confusion.values().flat_map(|row| row.values()).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let observed = confusion.iter().map(|(c, row)| row[c]).sum::<usize>() as f64 / n;
    let chance: f64 = TemporalClass::ALL
        .iter()
        .map(|c| {
            let rows = confusion[c].values().sum::<usize>() as f64;
            let columns = confusion.values().map(|row| row[c]).sum::<usize>() as f64;
            (rows / n) * (columns / n)
        })
        .sum();
    (chance < 1.0).then(|| (observed - chance) / (1.0 - chance))
}

impl Scored {
    pub(super) fn of(pairs: &[(TemporalClass, TemporalClass)]) -> Scored {
        let mut confusion: BTreeMap<TemporalClass, BTreeMap<TemporalClass, usize>> =
            TemporalClass::ALL
                .into_iter()
                .map(|g| (g, TemporalClass::ALL.into_iter().map(|p| (p, 0)).collect()))
                .collect();
        for (gold, predicted) in pairs {
            *confusion
                .get_mut(gold)
                .and_then(|row| row.get_mut(predicted))
                .expect("every cell is present") += 1;
        }
        let per_class: BTreeMap<TemporalClass, ClassScores> = TemporalClass::ALL
            .into_iter()
            .map(|c| {
                let tp = confusion[&c][&c];
                let support: usize = confusion[&c].values().sum();
                let predicted: usize = confusion.values().map(|row| row[&c]).sum();
                let (precision, recall) = (ratio(tp, predicted), ratio(tp, support));
                let f1 = if precision + recall == 0.0 {
                    0.0
                } else {
                    2.0 * precision * recall / (precision + recall)
                };
                let scores = ClassScores {
                    precision,
                    recall,
                    f1,
                    support,
                    predicted,
                };
                (c, scores)
            })
            .collect();
        // The macro averages run over the classes in the gold labels or the predictions, as
        // scikit-learn's `average="macro"` does: a class neither labelled nor predicted (no
        // correction among real utterances) has no F1, and counting it as 0 would cap the
        // macro F1 at 0.75. A class predicted but never labelled counts with F1 0.
        let seen: Vec<&ClassScores> = seen(&confusion).map(|c| &per_class[&c]).collect();
        let mean = |f: fn(&ClassScores) -> f64| {
            seen.iter().map(|s| f(s)).sum::<f64>() / seen.len().max(1) as f64
        };
        Scored {
            macro_precision: mean(|s| s.precision),
            macro_recall: mean(|s| s.recall),
            macro_f1: mean(|s| s.f1),
            kappa: kappa(&confusion),
            per_class,
            confusion,
        }
    }
}

/// The classes labelled or predicted at least once, in [`TemporalClass::ALL`] order.
pub(super) fn seen(
    confusion: &BTreeMap<TemporalClass, BTreeMap<TemporalClass, usize>>,
) -> impl Iterator<Item = TemporalClass> + '_ {
    TemporalClass::ALL.into_iter().filter(|c| {
        confusion[c].values().sum::<usize>() > 0 || confusion.values().any(|row| row[c] > 0)
    })
}

/// Bootstrap intervals of an evaluation's F1s.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Intervals {
    /// Of the macro F1.
    #[serde(rename = "macroF1")]
    pub macro_f1: Bounds,
    /// Of each labelled class's F1 (a class with no gold statement has none).
    pub f1: BTreeMap<TemporalClass, Bounds>,
    /// Of Cohen's κ, over the resamples where it is defined (none when it never is).
    pub kappa: Option<Bounds>,
    /// Resamples drawn.
    pub resamples: usize,
    /// ChaCha8 seed.
    pub seed: u64,
}

/// The bootstrap intervals of `pairs`' macro and per-class F1.
pub(super) fn bootstrap(
    pairs: &[(TemporalClass, TemporalClass)],
    resamples: usize,
    seed: u64,
) -> Intervals {
    let labelled: Vec<TemporalClass> = TemporalClass::ALL
        .into_iter()
        .filter(|c| pairs.iter().any(|(g, _)| g == c))
        .collect();
    let mut macros = Vec::with_capacity(resamples);
    let mut kappas = Vec::with_capacity(resamples);
    let mut per_class: BTreeMap<TemporalClass, Vec<f64>> = BTreeMap::new();
    let mut sample = Vec::with_capacity(pairs.len());
    crate::eval::stats::resample(pairs.len(), resamples, seed, |drawn| {
        sample.clear();
        sample.extend(drawn.iter().map(|&i| pairs[i]));
        let scored = Scored::of(&sample);
        macros.push(scored.macro_f1);
        kappas.extend(scored.kappa);
        // A labelled class's F1 over the resamples where it is defined (labelled or predicted
        // in the resample): one drawn without it has no F1, and counting 0 there put the lower
        // end of a perfectly classified class's interval at 0 (found by an audit).
        for c in &labelled {
            if let [_, _, Some(f1)] = scored.per_class[c].defined() {
                per_class.entry(*c).or_default().push(f1);
            }
        }
    });
    let interval = crate::eval::stats::percentile_bounds;
    Intervals {
        macro_f1: interval(macros),
        f1: per_class
            .into_iter()
            .map(|(c, v)| (c, interval(v)))
            .collect(),
        kappa: (!kappas.is_empty()).then(|| interval(kappas)),
        resamples,
        seed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TemporalClass::*;

    /// A known answer: 100 pairs, 45 and 15 agreeing, 25 and 15 not: observed 0.60, chance
    /// 0.6 × 0.7 + 0.4 × 0.3 = 0.54, κ = 0.06 / 0.46 = 0.130435; scikit-learn's
    /// `cohen_kappa_score` gives 0.13043478260869568 on the same pairs.
    #[test]
    fn kappa_is_agreement_beyond_chance() {
        let mut pairs = Vec::new();
        for (gold, predicted, n) in [
            (ForwardOpen, ForwardOpen, 45),
            (ForwardOpen, Closed, 15),
            (Closed, ForwardOpen, 25),
            (Closed, Closed, 15),
        ] {
            pairs.extend(std::iter::repeat_n((gold, predicted), n));
        }
        let k = Scored::of(&pairs).kappa.unwrap();
        assert!((k - 0.130_434_782_608_695_7).abs() < 1e-12, "{k}");
        // Perfect agreement is 1; one class on both sides throughout is undefined.
        assert_eq!(
            Scored::of(&[(Closed, Closed), (ForwardOpen, ForwardOpen)]).kappa,
            Some(1.0)
        );
        assert_eq!(
            Scored::of(&[(Closed, Closed), (Closed, Closed)]).kappa,
            None
        );
    }

    #[test]
    fn a_perfect_classifier_has_a_point_interval_and_a_noisy_one_a_wide_one() {
        let perfect: Vec<_> = (0..30)
            .map(|i| [(ForwardOpen, ForwardOpen), (Closed, Closed)][i % 2])
            .collect();
        let got = bootstrap(&perfect, 200, 1);
        assert_eq!(
            got.macro_f1,
            Bounds {
                low: 1.0,
                high: 1.0
            }
        );
        let mut noisy = perfect.clone();
        noisy[0] = (ForwardOpen, Closed);
        noisy[1] = (Closed, ForwardOpen);
        let got = bootstrap(&noisy, 500, 1);
        let point = Scored::of(&noisy).macro_f1;
        assert!(
            got.macro_f1.low < point && point < got.macro_f1.high,
            "{got:?}"
        );
        assert!(got.f1.contains_key(&Closed) && !got.f1.contains_key(&Correction));
        assert_eq!(bootstrap(&noisy, 500, 1), got, "seeded");
    }
}
