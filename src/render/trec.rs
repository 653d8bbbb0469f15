//! TREC export: a run file and a qrels file per report, for trec_eval, ir_measures and ranx
//! users, written so that those tools compute exactly the values tenure-eval reports
//! (`rankMetrics`, see [`crate::eval::rank`]).
//!
//! - run: `qid Q0 docno rank score run_name`, the relevant tier each case returned, in the
//!   report's order. trec_eval ignores the rank column and sorts by score (descending, ties by
//!   docno descending), so the score column must already be strictly decreasing. It is the
//!   hit's unrounded search score (`exactScore`; the rounded `score` in reports without it); a
//!   belief with no search score (a relation expansion, a report without scores) takes
//!   `n − rank` for n beliefs returned; and a score that is not below the line before it (a tie,
//!   or an expansion ranked among scored hits) is replaced by the largest float32 below the
//!   previous line's score (float32: trec_eval compares scores in single precision). No tool
//!   can then reorder the lines: ties are broken as tenure-eval broke them.
//! - qrels: `qid 0 docno 1` for each gold belief (`shouldOnlyInclude`, else `mustInclude` less
//!   the seed's pinned beliefs for static cases: the gold the suite's recall uses) and
//!   `qid 0 docno 0` for each `mustExclude` belief, for every query that has gold, whatever the
//!   run returned for it. A query without gold has no lines: a rank measure is undefined without
//!   a relevant document (trec_eval would score it 0 for every run, a correct empty answer
//!   included), so tenure-eval reports null for it and the tools, like tenure-eval, leave it out
//!   of their means. A query with gold for which the run returned nothing scores 0 here, as in
//!   ir_measures (which reads every query of the qrels) and `trec_eval -c`.
//!
//! Query ids are case ids, with `:turnIndex` appended for session turns. TREC fields are
//! separated by whitespace, so an id, case id or run name that is empty or holds whitespace
//! cannot be written: the export refuses it (exit 2) rather than write lines trec_eval would
//! split wrongly.

use crate::error::{Error, Result};
use crate::eval::qrels::Qrels;
use crate::report::{LoadedReport, Row};
use crate::suite::Suite;

/// Query id of a case or turn.
fn qid(case: &str, turn: Option<i64>) -> String {
    match turn {
        Some(t) => format!("{case}:{t}"),
        None => case.to_string(),
    }
}

/// `field` as one TREC field, or an error naming what it is and where.
fn field<'a>(report: &LoadedReport, what: &str, at: &str, field: &'a str) -> Result<&'a str> {
    if !crate::io::is_trec_field(field) {
        return Err(Error::input(
            &report.path,
            at,
            format!(
                "{what} {field:?} is empty or holds whitespace; TREC files separate fields by \
                 whitespace, so it cannot be exported"
            ),
        ));
    }
    Ok(field)
}

/// The search score of `id` in `entry` (`exactScore`, else `score`), if it has one.
fn search_score(row: &Row, id: &str) -> Option<f64> {
    let at = row.scores.iter().position(|(s, _)| s == id)?;
    row.exact_scores.get(at).copied()
}

/// The score column of a ranking: each belief's score (or `n − rank`) as a float32, made
/// strictly decreasing by taking the next float32 down where it is not below the line before.
/// Float32, because trec_eval (and pytrec_eval, through which ir_measures computes) keeps
/// scores in single precision: two lines a float64 apart can still tie there.
pub(crate) fn strictly_decreasing(scores: &[Option<f64>]) -> Vec<f32> {
    let n = scores.len();
    let mut out: Vec<f32> = Vec::with_capacity(n);
    for (rank, score) in scores.iter().enumerate() {
        // The scores are float32 already (`exactScore` is one's shortest decimal).
        let own = score.unwrap_or((n - rank) as f64) as f32;
        out.push(match out.last() {
            Some(prev) if own >= *prev => prev.next_down(),
            _ => own,
        });
    }
    out
}

/// The run file of `report` (its raw JSON `value`), named `run_name`.
pub(crate) fn run_file(report: &LoadedReport, run_name: &str) -> Result<String> {
    let run_name = field(report, "the run name", "$.provider", run_name)?;
    let mut out = String::new();
    for row in &report.rows {
        let q = qid(&row.case_id, row.turn_index);
        let at = format!("case {q}");
        field(report, "the case id", &at, &q)?;
        let mut ranking = row.ranking.clone();
        let mut seen = std::collections::HashSet::new();
        ranking.retain(|id| seen.insert(id.clone()));
        let scores: Vec<Option<f64>> = ranking.iter().map(|id| search_score(row, id)).collect();
        for (rank, (id, score)) in ranking.iter().zip(strictly_decreasing(&scores)).enumerate() {
            let id = field(report, "the belief id", &at, id)?;
            out.push_str(&format!("{q} Q0 {id} {} {score} {run_name}\n", rank + 1));
        }
    }
    Ok(out)
}

/// The qrels of `report`'s cases, with judgments taken from `suite`.
pub(crate) fn qrels_file(report: &LoadedReport, suite: &Suite) -> Result<String> {
    let qrels = Qrels::of(suite);
    let mut out = String::new();
    for row in &report.rows {
        let j = qrels.require(&report.path, &row.case_id, row.turn_index)?;
        if j.relevant.is_empty() {
            continue;
        }
        let q = qid(&row.case_id, row.turn_index);
        let at = format!("case {q}");
        field(report, "the case id", &at, &q)?;
        // A test collection's grades as read (`suite::trec`); every other suite's gold is 1.
        let lines = j
            .relevant
            .iter()
            .enumerate()
            .map(|(i, id)| (id, j.grades.get(i).copied().unwrap_or(1)))
            .chain(j.non_relevant.iter().map(|id| (id, 0)));
        for (id, rel) in lines {
            let id = field(report, "the judged belief id", &at, id)?;
            out.push_str(&format!("{q} 0 {id} {rel}\n"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::strictly_decreasing;

    #[test]
    fn ties_and_inversions_step_one_float32_down() {
        // A tie, then an unscored belief (n − rank = 2) ranked below 0.5: both step down.
        let col = strictly_decreasing(&[Some(5.0), Some(5.0), Some(0.5), None, Some(0.25)]);
        assert_eq!(
            col,
            [5.0, 5.0f32.next_down(), 0.5, 0.5f32.next_down(), 0.25]
        );
        // Without scores: n − rank.
        assert_eq!(strictly_decreasing(&[None, None, None]), [3.0, 2.0, 1.0]);
        assert!(strictly_decreasing(&[]).is_empty());
    }
}
