//! A TREC run file made elsewhere (`qid Q0 docno rank score run_name`), read as a report of a
//! suite's cases so that `compare` and `tables` put it beside tenure-eval's runs
//! (`--trec-run FILE`). It holds rankings only: its rows carry the suite's rank measures,
//! computed from the suite's gold, and no pass/fail or set precision (no table shows either
//! for it).
//!
//! Read as trec_eval reads it: the rank column is ignored; each query's documents are ordered
//! by score, descending, ties by docno descending (trec_eval's rule, which ir_measures and ranx
//! follow). Query ids are those `tenure-eval trec` writes: the case id, `case:turn` for a session
//! turn. A query of the suite the run does not hold scores as an empty ranking (0 on every
//! measure, as `trec_eval -c` and ir_measures score it) and is counted, so that a run leaving
//! out its hard queries does not look better; a query the suite does not have, a line of other
//! than six fields, a score that is not a number, a document twice in one query or a second run
//! name is an input error naming the line.

use crate::backend::Workload;
use crate::error::{Error, Result};
use crate::eval::qrels::{case_scores, Qrels};
use crate::eval::rank::Measure;
use crate::report::read::recorded::RecordedManifest;
use crate::report::read::row::Row;
use crate::report::schema::RankBlock;
use crate::report::LoadedReport;
use crate::suite::Suite;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// A TREC run read against a suite.
#[derive(Debug, Clone)]
pub(crate) struct TrecRun {
    /// The run as a report: one row per query of the suite (of the run's kind), in the suite's
    /// order.
    pub report: LoadedReport,
    /// The suite's queries the run holds no line for (scored as empty rankings).
    pub absent: Vec<String>,
}

/// One query of the suite: its case id, turn and category.
struct Query<'s> {
    case_id: &'s str,
    turn: Option<i64>,
    category: Option<&'s str>,
}

/// The suite's queries by TREC query id: static cases, or session turns (`case:turn`).
fn queries(suite: &Suite, kind: Workload) -> Vec<(String, Query<'_>)> {
    match kind {
        Workload::Static => suite
            .cases
            .iter()
            .map(|c| {
                let q = Query {
                    case_id: &c.case_id,
                    turn: None,
                    category: c.category.as_deref(),
                };
                (c.case_id.clone(), q)
            })
            .collect(),
        Workload::Session => suite
            .sessions
            .iter()
            .flat_map(|s| {
                s.turns.iter().map(move |t| {
                    let q = Query {
                        case_id: &s.case_id,
                        turn: Some(t.turn_index),
                        category: Some(crate::run::SESSION_CATEGORY),
                    };
                    (format!("{}:{}", s.case_id, t.turn_index), q)
                })
            })
            .collect(),
    }
}

/// The lines of a run file: query id → (score, docno) in file order, and the run's name.
type Lines = (BTreeMap<String, Vec<(f64, String, usize)>>, Option<String>);

fn parse(path: &Path, text: &str) -> Result<Lines> {
    let mut by_query: BTreeMap<String, Vec<(f64, String, usize)>> = BTreeMap::new();
    let mut name: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let at = format!("line {}", i + 1);
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        let [qid, _, docno, _, score, run] = fields[..] else {
            return Err(Error::input(
                path,
                at,
                format!(
                    "{} fields; expected six, `qid Q0 docno rank score run_name` (a TREC run)",
                    fields.len()
                ),
            ));
        };
        // `str::parse` takes NaN and inf, which rank above (or, `-NaN`, below) every number.
        let score: f64 = (score.parse().ok())
            .filter(|s: &f64| s.is_finite())
            .ok_or_else(|| {
                Error::input(path, &at, format!("score {score:?}: expected a number"))
            })?;

        match &name {
            None => name = Some(run.to_string()),
            Some(first) if first != run => {
                return Err(Error::input(
                    path,
                    at,
                    format!("run name {run:?}, but line 1 names {first:?}: a file holds one run"),
                ))
            }
            Some(_) => {}
        }
        let docs = by_query.entry(qid.to_string()).or_default();
        if docs.iter().any(|(_, d, _)| d == docno) {
            return Err(Error::input(
                path,
                at,
                format!("{docno:?} is ranked twice for query {qid:?}"),
            ));
        }
        docs.push((score, docno.to_string(), i + 1));
    }
    Ok((by_query, name))
}

impl TrecRun {
    /// Read the run at `path` against `suite`, each query scored on `measures`.
    pub(crate) fn load(path: &Path, suite: &Suite, measures: &[Measure]) -> Result<TrecRun> {
        let bytes = crate::io::read_bytes_as(path, "TREC run file")?;
        let text = String::from_utf8(bytes)
            .map_err(|e| Error::input(path, "file", format!("not UTF-8 text: {e}")))?;
        let (mut by_query, name) = parse(path, &text)?;
        if by_query.is_empty() {
            return Err(Error::input(
                path,
                "line 1",
                "no run lines: an empty TREC run",
            ));
        }
        // The run's kind: static if any query is a static case (session query ids carry a
        // turn), so that one stray id is named as a stray of the run's own kind.
        let statics: HashSet<&str> = suite.cases.iter().map(|c| c.case_id.as_str()).collect();
        let kind = if by_query.keys().any(|q| statics.contains(q.as_str())) {
            Workload::Static
        } else {
            Workload::Session
        };
        let queries = queries(suite, kind);
        let known: HashSet<&str> = queries.iter().map(|(q, _)| q.as_str()).collect();
        if let Some(stray) = by_query.keys().find(|q| !known.contains(q.as_str())) {
            return Err(Error::input(
                path,
                format!("query {stray:?}"),
                format!(
                    "not a query of the suite {:?} (its {} are the {}): expected a run of \
                     that suite's queries, as `tenure-eval trec` names them",
                    suite.label(),
                    match kind {
                        Workload::Static => "static cases",
                        Workload::Session => "session turns, `case:turn`",
                    },
                    queries.len()
                ),
            ));
        }
        // A document neither in the suite's corpus, nor created by one of its session turns,
        // nor judged by its qrels is of another collection: a LoCoMo run of sessions read against turns scored 0
        // everywhere, in silence, and `compare` called it beaten.
        let created = (suite.sessions.iter().flat_map(|c| &c.turns))
            .filter_map(|t| t.create_belief_at_turn.as_ref());
        let qrels = Qrels::of(suite);
        let docs_known: HashSet<&str> = (suite.corpus.iter().chain(created))
            .map(|b| b.id.as_str())
            .chain(qrels.judged())
            .collect();
        let unknown =
            (by_query.values().flatten()).find(|(_, d, _)| !docs_known.contains(d.as_str()));
        if let Some((_, docno, line)) = unknown {
            return Err(Error::input(
                path,
                format!("line {line}"),
                format!(
                    "document {docno:?} is not in the suite's corpus ({}): a run of another \
                     collection, or of another unit of this one",
                    suite.label()
                ),
            ));
        }
        let mut rows = Vec::with_capacity(queries.len());
        let mut absent = Vec::new();
        for (qid, q) in &queries {
            let mut docs = by_query.remove(qid).unwrap_or_else(|| {
                absent.push(qid.clone());
                Vec::new()
            });
            // trec_eval's order: score descending, ties by docno descending.
            docs.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
            let ranking: Vec<String> = docs.into_iter().map(|(_, d, _)| d).collect();
            let judgments = qrels.require(path, q.case_id, q.turn)?;
            let values = case_scores(measures, &ranking, judgments);
            rows.push(Row {
                case_id: q.case_id.to_string(),
                turn_index: q.turn,
                category: q
                    .category
                    .unwrap_or(crate::eval::summary::UNCATEGORISED)
                    .to_string(),
                passed: false,
                precision: None,
                recall: None,
                latency_ms: None,
                drift: None,
                noise_drift: None,
                precision_drift: None,
                failures: Vec::new(),
                scores: Vec::new(),
                exact_scores: Vec::new(),
                errored: false,
                ranking,
                rank_metrics: RankBlock(
                    measures
                        .iter()
                        .map(ToString::to_string)
                        .zip(values)
                        .collect(),
                ),
            });
        }
        let manifest = RecordedManifest {
            suite: Some(suite.label()),
            ..RecordedManifest::default()
        };
        let mut report = LoadedReport::assemble(path, kind, rows, name, None, None, Some(manifest));
        report.pass_fail = false;
        Ok(TrecRun { report, absent })
    }
}
