//! The page's data, typed: what the builder ([`super::build`]) fills and the script
//! (`assets/app.js`) reads, embedded in the page as one JSON blob. Field names are the
//! script's; every list keeps the order of its source (suite order, report order, rank order).

use crate::analysis::compare::significance::RunsTable;
use crate::analysis::compare::Comparison;
use crate::eval::summary::Summary;
use crate::report::schema::RankBlock;
use crate::run::CaseError;
use crate::suite::Suite;
use crate::suite::{IdsExpect, PreludeExpect, RelevantExpect};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Everything the page shows.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Page {
    /// The page's title.
    pub title: String,
    /// `tenure-eval 0.1.0`.
    pub tool: String,
    /// The suite's name and profile.
    pub suite: SuiteView,
    /// One per report, in the order given.
    pub reports: Vec<ReportView>,
    /// The suite's static cases, then the repeats of them a scale report has.
    pub cases: Vec<CaseView>,
    /// The suite's session cases.
    pub sessions: Vec<SessionView>,
    /// One per kind (static, session) with two or more reports.
    pub differences: Vec<DifferenceView>,
    /// A run history's series, when one was given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<super::history::HistoryView>,
}

/// The suite.
#[derive(Debug, Serialize)]
pub(crate) struct SuiteView {
    /// Its name (`pmb`, `paper`, a custom suite's folder).
    pub name: String,
    /// Its profile (`head`, `paper`).
    pub profile: String,
}

/// One report.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReportView {
    /// Its file name.
    pub file: String,
    /// Its name in tables (model, backend id or provider; with its file when two read the same).
    pub name: String,
    /// Backend id (`bm25`, `cosine`, `http`).
    pub backend: String,
    /// Provider (`tenure`, `vector`, `mem0`).
    pub provider: String,
    /// Model, for embedding backends.
    pub model: Option<String>,
    /// What its scores are.
    pub scale: String,
    /// `static` or `session`.
    pub kind: &'static str,
    /// Its summary, recomputed from its rows.
    pub summary: Summary,
    /// Sessions: mean drift, noise / (relevant + pinned) (the paper's).
    pub drift: Option<f64>,
    /// Sessions: mean drift, 1 − precision (PrecisionMemBench's).
    pub precision_drift: Option<f64>,
    /// Mean of each rank measure over the entries that have it, in the report's order.
    pub rank: Vec<(String, Option<f64>)>,
    /// Index build time.
    pub ingestion_ms: Option<f64>,
    /// The run stopped before its end: `stopped after CASE: REASON` (a failed run's report).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The system's answers made no good run (compat mode; `manifest.unhealthy`): why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unhealthy: Option<String>,
    /// The report holds part of a run's cases: `shard K/N` (`--shard`) or the cases a selection
    /// chose (`--case`, `--category`, `--limit`). An audit found a shard's page saying
    /// `static 28/28` with no word that 49 more cases were elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<String>,
    /// A `--rerun-failed` run (`manifest.rerunFailed`): how many cases it took as passed from
    /// its journal and sent again, whose passes may be second tries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerun: Option<String>,
    /// The run was repeated (`--repeat`): each measure's spread, the flaky cases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<crate::report::repeats::Repeats>,
    /// Static: case id → entry.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub entries: BTreeMap<String, EntryView>,
    /// Sessions: case id → its turns in order.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub turns: BTreeMap<String, Vec<EntryView>>,
}

/// One case or turn as a report has it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EntryView {
    /// `active`, `structural`, `empty` (passes by kind), `failed` or `errored`.
    pub outcome: &'static str,
    /// Turn index (sessions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<i64>,
    /// Turn label (sessions).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// The prepared query, when the report has it.
    pub expanded_query: Option<String>,
    /// Pinned tier.
    pub pinned: Vec<String>,
    /// Relevant tier, in rank order.
    pub relevant: Vec<String>,
    /// Open questions.
    pub questions: Vec<String>,
    /// Noise the report names (sessions' `noiseBeliefIds`).
    pub noise: Vec<String>,
    /// Search hits in rank order, with their scores and clause attribution.
    pub hits: Vec<HitView>,
    /// Retrieval precision.
    pub precision: Option<f64>,
    /// Retrieval recall.
    pub recall: Option<f64>,
    /// Latency, ms.
    pub latency_ms: Option<f64>,
    /// Sessions: drift, noise / (relevant + pinned), from the turn's lists (the paper's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drift: Option<f64>,
    /// Sessions: drift, 1 − precision (PrecisionMemBench's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision_drift: Option<f64>,
    /// Failure messages, in check order.
    pub failures: Vec<String>,
    /// The backend's failure.
    pub error: Option<CaseError>,
    /// A careful-mode client's diagnostics.
    pub diagnostics: Option<Value>,
    /// Rank metrics.
    #[serde(skip_serializing_if = "RankBlock::is_empty")]
    pub rank: RankBlock,
}

/// One search hit.
#[derive(Debug, Serialize)]
pub(crate) struct HitView {
    /// Belief id.
    pub id: String,
    /// Score as written.
    pub score: f64,
    /// Matched terms: (field path, term, share of the score), largest first.
    pub terms: Vec<(String, String, f64)>,
}

/// One static case of the suite.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CaseView {
    /// Case id.
    pub id: String,
    /// Category.
    pub category: String,
    /// Description.
    pub description: String,
    /// The raw query.
    pub query: String,
    /// Scope of the request.
    pub scope: Vec<String>,
    /// What the case expects in each tier.
    pub expect: ExpectView,
    /// Gold: the relevant beliefs the metrics count.
    pub gold: Vec<String>,
    /// Judged non-relevant (`mustExclude`).
    pub excluded: Vec<String>,
}

/// One session case of the suite.
#[derive(Debug, Serialize)]
pub(crate) struct SessionView {
    /// Case id.
    pub id: String,
    /// Description.
    pub description: String,
    /// Its turns.
    pub turns: Vec<TurnView>,
}

/// One turn of a session case.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TurnView {
    /// Turn index.
    pub index: i64,
    /// The user's message.
    pub message: String,
    /// What the turn expects.
    pub expect: ExpectView,
    /// Gold.
    pub gold: Vec<String>,
    /// Noise that must not surface.
    pub noise: Vec<String>,
}

/// What a case expects, tier by tier (absent: no assertion on that tier).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExpectView {
    /// Pinned facts.
    pub pinned: Option<TierExpect>,
    /// Relevant beliefs.
    pub relevant: Option<TierExpect>,
    /// Open questions.
    pub questions: Option<TierExpect>,
    /// Prelude checks, in words.
    pub preludes: Vec<String>,
}

/// The assertions on one tier.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TierExpect {
    /// Must be there.
    pub must: Vec<String>,
    /// Must not be there.
    pub must_not: Vec<String>,
    /// Should be there (counted, not required).
    pub should: Vec<String>,
    /// Exactly these.
    pub only: Option<Vec<String>>,
    /// (earlier, later) pairs.
    pub ordered: Vec<(String, String)>,
    /// At most.
    pub max: Option<u64>,
    /// At least.
    pub min: Option<u64>,
}

/// Differences between the reports of one kind.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DifferenceView {
    /// `static` or `session`.
    pub kind: &'static str,
    /// Positions of its reports in [`Page::reports`].
    pub reports: Vec<usize>,
    /// Cases (turns) passed by some and failed by others, with each report's outcome; first.
    pub flips: Vec<FlipView>,
    /// `compare`'s runs table: means and significance superscripts.
    pub table: RunsTable,
    /// `compare BASE NEW` of the first report against each other one.
    pub pairs: Vec<Comparison>,
}

/// A case whose outcome differs between reports.
#[derive(Debug, Serialize)]
pub(crate) struct FlipView {
    /// Case id.
    pub case: String,
    /// Turn (sessions).
    pub turn: Option<i64>,
    /// Category.
    pub category: String,
    /// Each report's outcome (`null`: the report lacks the case).
    pub outcomes: Vec<Option<&'static str>>,
}

impl From<&IdsExpect> for TierExpect {
    fn from(e: &IdsExpect) -> TierExpect {
        TierExpect {
            must: e.must_include.clone(),
            must_not: e.must_exclude.clone(),
            ..TierExpect::default()
        }
    }
}

impl From<&RelevantExpect> for TierExpect {
    fn from(e: &RelevantExpect) -> TierExpect {
        TierExpect {
            must: e.must_include.clone(),
            must_not: e.must_exclude.clone(),
            should: e.should_include.clone(),
            only: e.should_only_include.clone(),
            ordered: e.ordered_before.clone(),
            max: e.max_count,
            min: e.min_count,
        }
    }
}

fn prelude(name: &str, p: &PreludeExpect) -> Vec<String> {
    let mut out = Vec::new();
    if p.non_empty {
        out.push(format!("{name} prelude is not empty"));
    }
    if p.is_null {
        out.push(format!("{name} prelude is absent"));
    }
    for c in &p.contains {
        out.push(format!("{name} prelude contains {c:?}"));
    }
    for c in &p.must_not_contain {
        out.push(format!("{name} prelude does not contain {c:?}"));
    }
    out
}

/// The suite's cases and sessions, with their expectations and gold.
pub(crate) fn suite_views(
    suite: &Suite,
    qrels: &crate::eval::qrels::Qrels,
) -> (Vec<CaseView>, Vec<SessionView>) {
    let judged = |id: &str, turn: Option<i64>| {
        qrels
            .get(id, turn)
            .map(|j| (j.relevant.clone(), j.non_relevant.clone()))
            .unwrap_or_default()
    };
    let cases = suite
        .cases
        .iter()
        .map(|c| {
            let e = &c.expect;
            let mut preludes = Vec::new();
            if let Some(p) = &e.persona_prelude {
                preludes.extend(prelude("persona", p));
            }
            if let Some(p) = &e.scope_prelude {
                preludes.extend(prelude("scope", p));
            }
            let (gold, excluded) = judged(&c.case_id, None);
            CaseView {
                id: c.case_id.clone(),
                category: c
                    .category
                    .clone()
                    .unwrap_or_else(|| crate::eval::summary::UNCATEGORISED.into()),
                description: c.description.clone(),
                query: c.query.clone(),
                scope: c.scope.clone(),
                expect: ExpectView {
                    pinned: e.pinned_facts.as_ref().map(TierExpect::from),
                    relevant: e.relevant_beliefs.as_ref().map(TierExpect::from),
                    questions: e.open_questions.as_ref().map(TierExpect::from),
                    preludes,
                },
                gold,
                excluded,
            }
        })
        .collect();
    let sessions = suite
        .sessions
        .iter()
        .map(|s| SessionView {
            id: s.case_id.clone(),
            description: s.description.clone(),
            turns: s
                .turns
                .iter()
                .map(|t| {
                    let e = &t.expect;
                    TurnView {
                        index: t.turn_index,
                        message: t.user_message.clone(),
                        expect: ExpectView {
                            pinned: e.pinned_facts.as_ref().map(TierExpect::from),
                            relevant: e.relevant_beliefs.as_ref().map(|r| TierExpect {
                                must: r.must_include.clone(),
                                must_not: r.must_exclude.clone(),
                                only: r.should_only_include.clone(),
                                ..TierExpect::default()
                            }),
                            questions: e.open_questions.as_ref().map(TierExpect::from),
                            preludes: Vec::new(),
                        },
                        gold: judged(&s.case_id, Some(t.turn_index)).0,
                        noise: e
                            .noise_check
                            .as_ref()
                            .map(|n| n.must_not_surface.clone())
                            .unwrap_or_default(),
                    }
                })
                .collect(),
        })
        .collect();
    (cases, sessions)
}
