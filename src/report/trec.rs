//! TREC export: a run file and a qrels file per report, for trec_eval and ranx users.
//!
//! - run: `qid Q0 docno rank score run_name`, the relevant tier each case returned, in order,
//!   with its search score (0 for relation expansions, rank-based when the report has none);
//! - qrels: `qid 0 docno 1` for each gold belief (`shouldOnlyInclude`, else `mustInclude` less
//!   the seed's pinned beliefs for static cases), the same gold the metrics use.
//!
//! Query ids are case ids, with `:turnIndex` appended for session turns. TREC fields are
//! separated by whitespace, so an id, case id or run name that is empty or holds whitespace
//! cannot be written: the export refuses it (exit 2) rather than write lines trec_eval would
//! split wrongly.

use super::tables::LoadedReport;
use crate::error::{Error, Result};
use crate::eval::assertions::dedup;
use crate::suite::{Suite, DEFAULT_USER};
use serde_json::Value;

/// Query id of a case or turn.
fn qid(case: &str, turn: Option<i64>) -> String {
    match turn {
        Some(t) => format!("{case}:{t}"),
        None => case.to_string(),
    }
}

/// `field` as one TREC field, or an error naming what it is and where.
fn field<'a>(report: &LoadedReport, what: &str, at: &str, field: &'a str) -> Result<&'a str> {
    if field.is_empty() || field.contains(char::is_whitespace) {
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

/// The run file of `report` (its raw JSON `value`), named `run_name`.
pub fn run_file(report: &LoadedReport, value: &Value, run_name: &str) -> Result<String> {
    let run_name = field(report, "the run name", "$.provider", run_name)?;
    let entries = value
        .get("cases")
        .unwrap_or(value)
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut out = String::new();
    for (row, entry) in report.rows.iter().zip(&entries) {
        let retrieved = entry
            .get("relevantBeliefs")
            .or_else(|| entry.get("retrievedBeliefIds"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let n = retrieved.len();
        let q = qid(&row.case_id, row.turn_index);
        let at = format!("case {q}");
        field(report, "the case id", &at, &q)?;
        for (rank, id) in retrieved.iter().filter_map(Value::as_str).enumerate() {
            let id = field(report, "the belief id", &at, id)?;
            let score = row
                .scores
                .iter()
                .find(|(b, _)| b == id)
                .map_or((n - rank) as f64, |s| s.1);
            out.push_str(&format!("{q} Q0 {id} {} {score} {run_name}\n", rank + 1));
        }
    }
    Ok(out)
}

/// The qrels of `report`'s cases, with gold taken from `suite`.
pub fn qrels_file(report: &LoadedReport, suite: &Suite) -> Result<String> {
    let pinned_in_seed: Vec<String> = suite
        .corpus
        .iter()
        .filter(|b| b.user_id == DEFAULT_USER && b.pinned)
        .map(|b| b.id.clone())
        .collect();
    let mut out = String::new();
    for row in &report.rows {
        let gold: Vec<String> = match row.turn_index {
            None => suite
                .cases
                .iter()
                .find(|c| c.case_id == row.case_id)
                .and_then(|c| c.expect.relevant_beliefs.as_ref())
                .map(|rb| match &rb.should_only_include {
                    Some(only) => dedup(only).into_iter().cloned().collect(),
                    None => dedup(&rb.must_include)
                        .into_iter()
                        .filter(|id| !pinned_in_seed.contains(id))
                        .cloned()
                        .collect(),
                })
                .unwrap_or_default(),
            Some(t) => suite
                .sessions
                .iter()
                .filter(|c| c.case_id == row.case_id)
                .flat_map(|c| c.turns.iter())
                .find(|turn| turn.turn_index == t)
                .and_then(|turn| turn.expect.relevant_beliefs.as_ref())
                .map(|rb| match &rb.should_only_include {
                    Some(only) => dedup(only).into_iter().cloned().collect(),
                    None => dedup(&rb.must_include).into_iter().cloned().collect(),
                })
                .unwrap_or_default(),
        };
        let q = qid(&row.case_id, row.turn_index);
        let at = format!("case {q}");
        field(report, "the case id", &at, &q)?;
        for id in gold {
            let id = field(report, "the gold belief id", &at, &id)?;
            out.push_str(&format!("{q} 0 {id} 1\n"));
        }
    }
    Ok(out)
}
