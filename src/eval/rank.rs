//! Rank-aware metrics over a case's relevant tier, named and defined as `ir_measures` (and
//! `trec_eval`, which computes them) name and define them, so that a tenure-eval figure can be
//! checked with those tools on the exported TREC files (`tenure-eval trec`).
//!
//! Relevance is binary: a case's gold (`shouldOnlyInclude`, else `mustInclude`; for static
//! cases less the seed's pinned beliefs, as the suite's own recall) is relevant, anything else
//! is not (`mustExclude` is written to the qrels as judged non-relevant). With R gold beliefs and
//! the ranking r₁ r₂ … (duplicates after the first occurrence ignored):
//!
//! - `P@k`: relevant among the first k, over k (k, not the number returned: trec_eval's P);
//! - `R@k`: relevant among the first k, over R;
//! - `nDCG@k`: Σ_{i≤k, rᵢ relevant} 1/log₂(i+1) over the ideal Σ_{i≤min(k,R)} 1/log₂(i+1);
//!   `nDCG` without a cutoff ranks everything;
//! - `RR` (`RR@k`): 1/i for the first relevant rᵢ (within k), else 0;
//! - `AP` (`AP@k`): Σ over relevant rᵢ (i ≤ k) of P@i, over R.
//!
//! A case with no gold has no value (null) for any measure: no ranking of nothing relevant is
//! better than another, and its outcome is what the suite's precision and pass/fail judge. Such a
//! case has no qrels line of gold either, so trec_eval and ir_measures leave it out of their means
//! as tenure-eval does.

use std::fmt;

/// The measures written when `--metrics` is not given.
pub const DEFAULT_MEASURES: &str = "P@5,R@5,nDCG@10,RR,AP";

/// A family of measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Precision at k.
    P,
    /// Recall at k.
    R,
    /// Normalised discounted cumulative gain (binary gain, log₂ discount).
    Ndcg,
    /// Reciprocal rank of the first relevant belief.
    Rr,
    /// Average precision.
    Ap,
}

/// A measure: a family and an optional cutoff, printed as ir_measures prints it (`nDCG@10`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Measure {
    /// Which measure.
    pub family: Family,
    /// Only the first `cutoff` ranks count; `None`: all of them.
    pub cutoff: Option<usize>,
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.family {
            Family::P => "P",
            Family::R => "R",
            Family::Ndcg => "nDCG",
            Family::Rr => "RR",
            Family::Ap => "AP",
        };
        match self.cutoff {
            Some(k) => write!(f, "{name}@{k}"),
            None => f.write_str(name),
        }
    }
}

impl std::str::FromStr for Measure {
    type Err = String;

    /// An ir_measures name: `P@5`, `R@10`, `nDCG@10`, `nDCG`, `RR`, `RR@10`, `AP`, `AP@100`
    /// (family names as ir_measures spells them; P and R need a cutoff, as there).
    fn from_str(s: &str) -> Result<Measure, String> {
        let (name, cutoff) = match s.split_once('@') {
            Some((name, k)) => match k.parse::<usize>() {
                Ok(k) if k > 0 => (name, Some(k)),
                _ => {
                    return Err(format!(
                        "{s:?}: the cutoff after @ must be a whole number ≥ 1"
                    ))
                }
            },
            None => (s, None),
        };
        let family = match name {
            "P" => Family::P,
            "R" => Family::R,
            "nDCG" => Family::Ndcg,
            "RR" => Family::Rr,
            "AP" => Family::Ap,
            _ => {
                let hint = spelled_elsewhere(s)
                    .map_or(String::new(), |ours| format!(" (did you mean {ours}?)"));
                return Err(format!(
                    "{s:?} is not a measure tenure-eval computes{hint}; expected P@k, R@k, \
                     nDCG, nDCG@k, RR, RR@k, AP or AP@k (ir_measures names)"
                ));
            }
        };
        if cutoff.is_none() && matches!(family, Family::P | Family::R) {
            return Err(format!("{s:?} needs a cutoff, as in ir_measures: {s}@5"));
        }
        Ok(Measure { family, cutoff })
    }
}

/// The ir_measures name of a measure spelled as trec_eval (`map`, `ndcg_cut_10`, `P_5`,
/// `recall_10`, `recip_rank`) or in another case (`ndcg@10`, `mrr`, `MAP`), for the hint of an
/// unknown name.
fn spelled_elsewhere(name: &str) -> Option<String> {
    let lower = name.to_ascii_lowercase();
    let (stem, k) = match lower.rsplit_once(['_', '@']) {
        Some((stem, k)) if k.parse::<usize>().is_ok_and(|k| k > 0) => (stem, Some(k)),
        _ => (lower.as_str(), None),
    };
    let family = match stem {
        "map" | "ap" | "map_cut" => "AP",
        "ndcg" | "ndcg_cut" => "nDCG",
        "p" | "precision" => "P",
        "r" | "recall" => "R",
        "rr" | "mrr" | "recip_rank" => "RR",
        _ => return None,
    };
    Some(match k {
        Some(k) => format!("{family}@{k}"),
        None if matches!(family, "P" | "R") => format!("{family}@10"),
        None => family.to_string(),
    })
}

/// A comma-separated list of measures, in order; a measure named twice is refused.
pub fn parse_measures(list: &str) -> Result<Vec<Measure>, String> {
    let mut out: Vec<Measure> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let m: Measure = name.parse()?;
        // One measure named twice was shown once by some commands and twice by others (a
        // ninth audit): refused, as a model or a floor given twice is.
        if out.contains(&m) {
            return Err(format!("{name} is given twice: name each measure once"));
        }
        out.push(m);
    }
    if out.is_empty() {
        return Err("no measure named; expected a list such as \"nDCG@10,RR,P@5\"".into());
    }
    Ok(out)
}

/// `measure` of `ranking` against the relevant set `gold`; `None` when `gold` is empty.
#[cfg(test)]
pub(crate) fn score(measure: Measure, ranking: &[&str], gold: &[&str]) -> Option<f64> {
    let graded: Vec<(&str, f64)> = gold.iter().map(|id| (*id, 1.0)).collect();
    score_graded(measure, ranking, &graded)
}

/// `measure` of `ranking` against graded gold (`(id, grade)`, every grade > 0): nDCG's gain is
/// the grade and its ideal ranking the grades best first (trec_eval's and ir_measures' `nDCG`);
/// the other measures count any grade as relevant. With every grade 1 it is binary relevance.
pub(crate) fn score_graded(
    measure: Measure,
    ranking: &[&str],
    gold: &[(&str, f64)],
) -> Option<f64> {
    if gold.is_empty() {
        return None;
    }
    let mut seen: Vec<&str> = Vec::with_capacity(ranking.len());
    for id in ranking {
        if !seen.contains(id) {
            seen.push(id);
        }
    }
    let depth = measure.cutoff.map_or(seen.len(), |k| k.min(seen.len()));
    let grade = |id: &str| gold.iter().find(|(g, _)| *g == id).map_or(0.0, |(_, v)| *v);
    // Gain of each counted rank, best first.
    let gains: Vec<f64> = seen[..depth].iter().map(|id| grade(id)).collect();
    let rel: Vec<bool> = gains.iter().map(|g| *g > 0.0).collect();
    let found = rel.iter().filter(|r| **r).count() as f64;
    let r = gold.len() as f64;
    let discount = |i: usize| 1.0 / ((i + 2) as f64).log2();
    Some(match measure.family {
        Family::P => found / measure.cutoff.unwrap_or(seen.len().max(1)) as f64,
        Family::R => found / r,
        Family::Ndcg => {
            // A fold from +0.0: `Sum` of no terms is -0.0, which reports would write as `-0.0`.
            let dcg = (0..depth)
                .filter(|&i| rel[i])
                .map(|i| gains[i] * discount(i))
                .fold(0.0, |a, b| a + b);
            let mut ideal_gains: Vec<f64> = gold.iter().map(|(_, g)| *g).collect();
            ideal_gains.sort_by(|a, b| b.total_cmp(a));
            let ideal_depth = measure.cutoff.map_or(gold.len(), |k| k.min(gold.len()));
            let ideal: f64 = (0..ideal_depth).map(|i| ideal_gains[i] * discount(i)).sum();
            dcg / ideal
        }
        Family::Rr => rel
            .iter()
            .position(|r| *r)
            .map_or(0.0, |i| 1.0 / (i + 1) as f64),
        Family::Ap => {
            let mut hits = 0.0;
            let mut sum = 0.0;
            for (i, relevant) in rel.iter().enumerate() {
                if *relevant {
                    hits += 1.0;
                    sum += hits / (i + 1) as f64;
                }
            }
            sum / r
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn trec_eval_and_other_spellings_get_ours_as_a_hint() {
        for (given, ours) in [
            ("map", "AP"),
            ("map_cut_100", "AP@100"),
            ("ndcg_cut_10", "nDCG@10"),
            ("ndcg@10", "nDCG@10"),
            ("P_5", "P@5"),
            ("recall_10", "R@10"),
            ("recip_rank", "RR"),
            ("MRR", "RR"),
        ] {
            let e = given.parse::<super::Measure>().unwrap_err();
            assert!(e.contains(&format!("did you mean {ours}?")), "{given}: {e}");
            // The hint names a measure that parses.
            assert!(ours.parse::<super::Measure>().is_ok(), "{ours}");
        }
        let e = "bpref".parse::<super::Measure>().unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
    }

    use super::*;

    #[test]
    fn a_ranking_without_a_relevant_item_scores_plus_zero() {
        let ndcg = parse_measures("nDCG@10").unwrap()[0];
        let v = score(ndcg, &["a", "b"], &["c"]).unwrap();
        assert!(v == 0.0 && v.is_sign_positive(), "{v:?}");
    }

    fn m(s: &str) -> Measure {
        s.parse().unwrap()
    }

    #[test]
    fn names_round_trip_and_bad_names_say_what_is_expected() {
        for name in [
            "P@5", "R@10", "nDCG@10", "nDCG", "RR", "RR@3", "AP", "AP@100",
        ] {
            assert_eq!(m(name).to_string(), name);
        }
        let list = parse_measures("nDCG@10, RR,P@5").unwrap();
        assert_eq!(
            list.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["nDCG@10", "RR", "P@5"]
        );
        // A measure named twice is refused (it was dropped in silence).
        assert!(parse_measures("nDCG@10, RR,P@5,RR")
            .unwrap_err()
            .contains("RR is given twice"));
        assert!("ndcg@10"
            .parse::<Measure>()
            .unwrap_err()
            .contains("ir_measures names"));
        assert!("P"
            .parse::<Measure>()
            .unwrap_err()
            .contains("needs a cutoff"));
        assert!("P@0".parse::<Measure>().unwrap_err().contains("≥ 1"));
        assert!(parse_measures(" , ").is_err());
    }

    #[test]
    fn known_answers_on_a_hand_made_ranking() {
        // Ranking a x b y c, gold {a, b, c, d}: relevant at ranks 1, 3, 5.
        let ranking = ["a", "x", "b", "y", "c"];
        let gold = ["a", "b", "c", "d"];
        let at = |name: &str| score(m(name), &ranking, &gold).unwrap();
        assert_eq!(at("P@5"), 3.0 / 5.0);
        assert_eq!(at("P@10"), 3.0 / 10.0); // trec_eval divides by k
        assert_eq!(at("R@3"), 2.0 / 4.0);
        assert_eq!(at("RR"), 1.0);
        // AP = (1/1 + 2/3 + 3/5) / 4.
        assert!((at("AP") - (1.0 + 2.0 / 3.0 + 3.0 / 5.0) / 4.0).abs() < 1e-15);
        assert!((at("AP@3") - (1.0 + 2.0 / 3.0) / 4.0).abs() < 1e-15);
        // nDCG@5 = (1 + 1/log2 4 + 1/log2 6) / (1 + 1/log2 3 + 1/log2 4 + 1/log2 5).
        let dcg = 1.0 + 0.5 + 1.0 / 6f64.log2();
        let ideal = 1.0 + 1.0 / 3f64.log2() + 0.5 + 1.0 / 5f64.log2();
        assert!((at("nDCG@5") - dcg / ideal).abs() < 1e-15);
        // A cutoff of 2 keeps the ideal at two ranks too.
        assert!((at("nDCG@2") - 1.0 / (1.0 + 1.0 / 3f64.log2())).abs() < 1e-15);
        assert!((at("nDCG") - dcg / ideal).abs() < 1e-15);
        // First relevant at rank 2: RR = 1/2, and RR@1 = 0.
        assert_eq!(score(m("RR"), &["x", "a"], &gold), Some(0.5));
        assert_eq!(score(m("RR@1"), &["x", "a"], &gold), Some(0.0));
    }

    #[test]
    fn empty_rankings_duplicates_and_no_gold() {
        let gold = ["a"];
        for name in ["P@5", "R@5", "nDCG@10", "nDCG", "RR", "AP"] {
            assert_eq!(score(m(name), &[], &gold), Some(0.0), "{name}");
            assert_eq!(score(m(name), &["a"], &[]), None, "{name}");
        }
        // A repeated id counts once, at its first rank.
        assert_eq!(score(m("P@2"), &["a", "a"], &gold), Some(0.5));
        assert_eq!(score(m("AP"), &["x", "a", "a"], &gold), Some(0.5));
        // A perfect ranking scores 1 on every measure that can reach it.
        let all = ["a", "b"];
        for name in ["R@5", "nDCG@10", "nDCG", "RR", "AP"] {
            assert_eq!(score(m(name), &all, &all), Some(1.0), "{name}");
        }
    }
}
