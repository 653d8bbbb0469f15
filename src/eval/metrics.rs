//! Per-case retrieval metrics and their null rules (spec §G).

use super::assertions::dedup;
use crate::context::Context;
use crate::profile::Fidelity;
use crate::suite::{Expect, IdsExpect, RelevantExpect, TurnRelevantExpect};

// Absent assertion groups, borrowed instead of building an empty one per case.
static NO_RELEVANT: RelevantExpect = RelevantExpect::NONE;
static NO_IDS: IdsExpect = IdsExpect::NONE;
static NO_TURN_RELEVANT: TurnRelevantExpect = TurnRelevantExpect::NONE;

/// Metrics of one static case; `None` is reported as `null`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CaseMetrics {
    /// Expected ∩ relevant over relevant.
    pub retrieval_precision: Option<f64>,
    /// Expected ∩ relevant over expected.
    pub retrieval_recall: Option<f64>,
    /// Share of `pinnedFacts.mustInclude` in the pinned tier.
    pub pinned_coverage: Option<f64>,
    /// Expected questions over retrieved questions.
    pub question_precision: Option<f64>,
    /// Expected questions over `openQuestions.mustInclude`.
    pub question_recall: Option<f64>,
}

fn ratio(hits: usize, total: usize) -> f64 {
    hits as f64 / total as f64
}

/// A static case's gold, the beliefs its relevant tier should hold: `shouldOnlyInclude`, else
/// `mustInclude` less `pinned_in_seed` (a pinned belief reaches the pinned tier, not the
/// relevant one); each id once, in the case's order.
pub(crate) fn static_gold<'a>(expect: &'a Expect, pinned_in_seed: &[String]) -> Vec<&'a String> {
    let rb = expect.relevant_beliefs.as_ref().unwrap_or(&NO_RELEVANT);
    match &rb.should_only_include {
        Some(only) => dedup(only),
        None => dedup(&rb.must_include)
            .into_iter()
            .filter(|id| !pinned_in_seed.contains(id))
            .collect(),
    }
}

/// A session turn's gold: `shouldOnlyInclude`, else `mustInclude`; each id once.
pub(crate) fn turn_gold(expect: &crate::suite::TurnExpect) -> Vec<&String> {
    let rb = expect
        .relevant_beliefs
        .as_ref()
        .unwrap_or(&NO_TURN_RELEVANT);
    match &rb.should_only_include {
        Some(only) => dedup(only),
        None => dedup(&rb.must_include),
    }
}

/// Metrics of `expect` on `ctx`. `pinned_in_seed`: ids of every `test-user` belief pinned in
/// the seed (resolved ones and questions too), removed from `mustInclude` when it is the gold.
pub(crate) fn static_metrics(
    expect: &Expect,
    ctx: &Context,
    fidelity: Fidelity,
    pinned_in_seed: &[String],
) -> CaseMetrics {
    let expected = static_gold(expect, pinned_in_seed);
    let hits = expected
        .iter()
        .filter(|id| ctx.relevant.contains(id))
        .count();
    let retrieval_precision = match (ctx.relevant.is_empty(), expected.is_empty()) {
        (true, true) => None,
        (true, false) => fidelity.precision_of_empty_context(),
        (false, _) => Some(ratio(hits, ctx.relevant.len())),
    };
    let retrieval_recall = (!expected.is_empty()).then(|| ratio(hits, expected.len()));

    let pf = expect.pinned_facts.as_ref().unwrap_or(&NO_IDS);
    let must_pin = dedup(&pf.must_include);
    let pinned_coverage = (!must_pin.is_empty()).then(|| {
        ratio(
            must_pin.iter().filter(|id| ctx.pinned.contains(id)).count(),
            must_pin.len(),
        )
    });

    let oq = expect.open_questions.as_ref().unwrap_or(&NO_IDS);
    let must_ask = dedup(&oq.must_include);
    let question_hits = must_ask
        .iter()
        .filter(|id| ctx.questions.contains(id))
        .count();
    let question_precision = (!ctx.questions.is_empty() && !must_ask.is_empty())
        .then(|| ratio(question_hits, ctx.questions.len()));
    let question_recall = (!must_ask.is_empty()).then(|| ratio(question_hits, must_ask.len()));

    CaseMetrics {
        retrieval_precision,
        retrieval_recall,
        pinned_coverage,
        question_precision,
        question_recall,
    }
}

/// The paper's drift: the share of what surfaced (relevant + pinned) that is noise; 0 when
/// nothing surfaced. Reports of any harness list the three sets, so it can be recomputed for
/// all of them (PrecisionMemBench's own `driftScore` is 1 − precision instead).
pub(crate) fn noise_share(noise: usize, relevant: usize, pinned: usize) -> f64 {
    let surfaced = relevant + pinned;
    if surfaced == 0 {
        0.0
    } else {
        ratio(noise, surfaced)
    }
}

/// Metrics of one session turn.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TurnMetrics {
    /// Gold ∩ (relevant ∪ pinned) over relevant; null when nothing relevant was retrieved.
    pub retrieval_precision: Option<f64>,
    /// Gold ∩ (relevant ∪ pinned) over gold; null without gold.
    pub retrieval_recall: Option<f64>,
    /// The paper's drift: noise / (relevant + pinned), 0 when nothing surfaced.
    pub drift_score: f64,
    /// PrecisionMemBench's drift: 1 − precision, 0 when precision is null.
    pub precision_drift_score: f64,
}

/// Metrics of a turn (spec §G): gold is `shouldOnlyInclude`, else `mustInclude`.
pub(crate) fn turn_metrics(
    expect: &crate::suite::TurnExpect,
    ctx: &Context,
    noise: &[String],
) -> TurnMetrics {
    let gold = turn_gold(expect);
    let hits = gold
        .iter()
        .filter(|id| ctx.relevant.contains(id) || ctx.pinned.contains(id))
        .count();
    let retrieval_precision = (!ctx.relevant.is_empty()).then(|| ratio(hits, ctx.relevant.len()));
    let retrieval_recall = (!gold.is_empty()).then(|| ratio(hits, gold.len()));
    TurnMetrics {
        retrieval_precision,
        retrieval_recall,
        drift_score: noise_share(noise.len(), ctx.relevant.len(), ctx.pinned.len()),
        precision_drift_score: retrieval_precision.map_or(0.0, |p| 1.0 - p),
    }
}
