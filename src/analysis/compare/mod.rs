//! `compare BASE NEW`: what changed between two runs of the same cases, and whether it is more
//! than noise. Cases pair by case id (and turn for sessions).

pub mod significance;

use crate::backend::Workload;
use crate::eval::stats::{mcnemar_exact, mean, paired_bootstrap, Interval};
use crate::report::LoadedReport;
use serde::Serialize;

/// Resamples of the paired bootstrap.
pub(crate) const BOOTSTRAP_RESAMPLES: usize = 10_000;

/// A case whose outcome changed.
#[derive(Debug, Clone, Serialize)]
pub struct Flip {
    /// Case (and turn) key.
    pub case: String,
    /// Category.
    pub category: String,
    /// Failures in NEW (empty for a fail→pass flip).
    pub failures: Vec<String>,
}

/// Per-category change.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CategoryDelta {
    /// Category.
    pub category: String,
    /// Paired cases in it.
    pub cases: usize,
    /// Passing in BASE.
    pub base_passed: usize,
    /// Passing in NEW.
    pub new_passed: usize,
    /// Mean precision in BASE over the category's non-null values.
    pub base_precision: Option<f64>,
    /// Mean precision in NEW.
    pub new_precision: Option<f64>,
}

/// A belief's score change in one case.
#[derive(Debug, Clone, Serialize)]
pub struct ScoreChange {
    /// Case key.
    pub case: String,
    /// Belief id.
    pub belief: String,
    /// Score in BASE (null: not scored there).
    pub base: Option<f64>,
    /// Score in NEW.
    pub new: Option<f64>,
}

impl ScoreChange {
    fn size(&self) -> f64 {
        (self.new.unwrap_or(0.0) - self.base.unwrap_or(0.0)).abs()
    }
}

/// The comparison.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// BASE file.
    pub base: String,
    /// NEW file.
    pub new: String,
    /// Cases present in both.
    pub paired: usize,
    /// Cases only in BASE.
    pub only_in_base: Vec<String>,
    /// Cases only in NEW.
    pub only_in_new: Vec<String>,
    /// Passed in BASE, fail in NEW.
    pub pass_to_fail: Vec<Flip>,
    /// Failed in BASE, pass in NEW.
    pub fail_to_pass: Vec<Flip>,
    /// Exact McNemar p-value on the discordant pairs.
    pub mcnemar_p: f64,
    /// Cases where NEW's precision is higher (both non-null).
    pub wins: usize,
    /// Equal precision.
    pub ties: usize,
    /// Lower precision.
    pub losses: usize,
    /// Paired bootstrap 95 % interval of mean precision (NEW − BASE) over cases with both.
    pub precision_difference: Option<Interval>,
    /// Per-category changes (BASE's category order).
    pub categories: Vec<CategoryDelta>,
    /// Largest score changes (at most 10), largest first; empty when the two reports score on
    /// different scales.
    pub largest_score_changes: Vec<ScoreChange>,
    /// Why no score changes are listed, when the scales differ (BM25 56.89 beside cosine 0.58
    /// is not a change).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores_not_compared: Option<String>,
    /// Session reports: mean drift in each, by definition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drift: Option<DriftDelta>,
    /// BASE was repeated (`--repeat`): each measure's spread, its flaky cases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_repeats: Option<crate::report::repeats::Repeats>,
    /// NEW was repeated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_repeats: Option<crate::report::repeats::Repeats>,
}

impl Comparison {
    /// Is `case` flaky in a repeated BASE or NEW (its flip may be chance, not a change)?
    pub(crate) fn flaky(&self, case: &str) -> bool {
        [&self.base_repeats, &self.new_repeats]
            .into_iter()
            .flatten()
            .any(|r| r.flaky.iter().any(|f| f.case == case))
    }
}

/// Mean drift of two session reports, under each definition both can give.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DriftDelta {
    /// PrecisionMemBench's drift, 1 − precision (every session report gives it).
    pub base_precision_drift: Option<f64>,
    /// The same in NEW.
    pub new_precision_drift: Option<f64>,
    /// The paper's drift, noise / (relevant + pinned), recomputed from each turn's lists
    /// (published reports use `driftScore` for 1 − precision).
    pub base_noise_drift: Option<f64>,
    /// The same in NEW.
    pub new_noise_drift: Option<f64>,
}

/// Flips listed in markdown per direction (JSON lists all).
pub(crate) const FLIPS_SHOWN: usize = 20;

/// Compare BASE with NEW. `seed` seeds the bootstrap.
pub fn compare(base: &LoadedReport, new: &LoadedReport, seed: u64) -> Comparison {
    let (in_base, in_new) = (base.positions(), new.positions());
    let pairs: Vec<(usize, usize)> = base
        .rows
        .iter()
        .enumerate()
        .filter_map(|(i, row)| in_new.get(&row.key()).map(|&j| (i, j)))
        .collect();
    let only_in_base = base
        .rows
        .iter()
        .map(|r| r.key())
        .filter(|key| !in_new.contains_key(key))
        .collect();
    let only_in_new = new
        .rows
        .iter()
        .map(|r| r.key())
        .filter(|key| !in_base.contains_key(key))
        .collect();
    let (mut pass_to_fail, mut fail_to_pass) = (Vec::new(), Vec::new());
    let (mut wins, mut ties, mut losses) = (0, 0, 0);
    let mut diffs = Vec::new();
    let mut score_changes = Vec::new();
    for &(i, j) in &pairs {
        let (b, n) = (&base.rows[i], &new.rows[j]);
        let flip = Flip {
            case: n.key(),
            category: n.category.clone(),
            failures: n.failures.clone(),
        };
        match (b.passed, n.passed) {
            (true, false) => pass_to_fail.push(flip),
            (false, true) => fail_to_pass.push(flip),
            _ => {}
        }
        if let (Some(pb), Some(pn)) = (b.precision, n.precision) {
            diffs.push(pn - pb);
            match pn.total_cmp(&pb) {
                std::cmp::Ordering::Greater => wins += 1,
                std::cmp::Ordering::Equal => ties += 1,
                std::cmp::Ordering::Less => losses += 1,
            }
        }
        let mut beliefs: Vec<&String> =
            b.scores.iter().chain(&n.scores).map(|(id, _)| id).collect();
        beliefs.sort();
        beliefs.dedup();
        for belief in beliefs {
            // A score of 0 is no score: a relation expansion's placeholder, or a backend that
            // only ranks (`ScoredBelief::score`); a belief the search dropped and an expansion
            // added back read "7.69 → 0.00", a thirteenth audit found. It is "–", not there.
            let score = |r: &crate::report::Row| {
                (r.scores.iter())
                    .find(|(id, _)| id == belief)
                    .map(|s| s.1)
                    .filter(|&s| s != 0.0)
            };
            let change = ScoreChange {
                case: n.key(),
                belief: belief.clone(),
                base: score(b),
                new: score(n),
            };
            if change.size() > 0.0 {
                score_changes.push(change);
            }
        }
    }
    score_changes.sort_by(|a, b| {
        b.size()
            .total_cmp(&a.size())
            .then_with(|| a.case.cmp(&b.case))
            .then_with(|| a.belief.cmp(&b.belief))
    });
    score_changes.truncate(10);
    let scales = (base.backend.score_scale, new.backend.score_scale);
    let scores_not_compared = (scales.0 != scales.1).then(|| {
        score_changes.clear();
        format!(
            "scores not compared: BASE is on the {} scale, NEW on the {} scale",
            scales.0.describe(),
            scales.1.describe()
        )
    });
    let drift = (base.kind == Workload::Session).then(|| DriftDelta {
        base_precision_drift: base.measured_precision_drift(),
        new_precision_drift: new.measured_precision_drift(),
        base_noise_drift: base.mean_drift(),
        new_noise_drift: new.mean_drift(),
    });

    let mut names: Vec<&str> = Vec::new();
    for &(i, _) in &pairs {
        if !names.contains(&base.rows[i].category.as_str()) {
            names.push(&base.rows[i].category);
        }
    }
    let categories = names
        .into_iter()
        .map(|name| {
            let members: Vec<&(usize, usize)> = pairs
                .iter()
                .filter(|(i, _)| base.rows[*i].category == name)
                .collect();
            CategoryDelta {
                category: name.to_string(),
                cases: members.len(),
                base_passed: members.iter().filter(|(i, _)| base.rows[*i].passed).count(),
                new_passed: members.iter().filter(|(_, j)| new.rows[*j].passed).count(),
                base_precision: mean(members.iter().filter_map(|(i, _)| base.rows[*i].precision)),
                new_precision: mean(members.iter().filter_map(|(_, j)| new.rows[*j].precision)),
            }
        })
        .collect();

    Comparison {
        base: base.path.display().to_string(),
        new: new.path.display().to_string(),
        paired: pairs.len(),
        only_in_base,
        only_in_new,
        mcnemar_p: mcnemar_exact(pass_to_fail.len() as u64, fail_to_pass.len() as u64),
        pass_to_fail,
        fail_to_pass,
        wins,
        ties,
        losses,
        precision_difference: paired_bootstrap(&diffs, BOOTSTRAP_RESAMPLES, seed),
        categories,
        largest_score_changes: score_changes,
        scores_not_compared,
        drift,
        base_repeats: repeats_of(base),
        new_repeats: repeats_of(new),
    }
}

fn repeats_of(report: &LoadedReport) -> Option<crate::report::repeats::Repeats> {
    report.manifest.as_ref()?.repeats.clone()
}
