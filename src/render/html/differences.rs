//! Where reports of the same cases differ: the cases whose outcome flips between them, then
//! what `compare` computes (its runs table with the significance superscripts, and
//! `compare BASE NEW` of the first report against each other one), by `compare`'s own code.

use super::build::{kind_name, outcome};
use super::model::{DifferenceView, FlipView};
use crate::analysis::compare::compare;
use crate::analysis::compare::significance::{runs_table, TestSettings};
use crate::backend::Workload;
use crate::error::Result;
use crate::eval::qrels::Qrels;
use crate::eval::rank::Measure;
use crate::report::LoadedReport;

/// The differences among `reports`, one view per kind that has two or more reports.
pub(crate) fn differences(
    reports: &[LoadedReport],
    measures: &[Measure],
    qrels: &Qrels,
    settings: TestSettings,
) -> Result<Vec<DifferenceView>> {
    let mut out = Vec::new();
    for kind in [Workload::Static, Workload::Session] {
        let members: Vec<usize> = (0..reports.len())
            .filter(|&i| reports[i].kind == kind)
            .collect();
        if members.len() < 2 {
            continue;
        }
        let group: Vec<LoadedReport> = members.iter().map(|&i| reports[i].clone()).collect();
        let table = runs_table(&group, measures, Some(qrels), settings)?;
        let pairs = group[1..]
            .iter()
            .map(|new| compare(&group[0], new, settings.seed))
            .collect();
        out.push(DifferenceView {
            kind: kind_name(kind),
            reports: members,
            flips: flips(&group),
            table,
            pairs,
        });
    }
    Ok(out)
}

/// Every case (turn) passed in one report and failed or errored in another, in the order the
/// reports first list them, with each report's outcome.
fn flips(group: &[LoadedReport]) -> Vec<FlipView> {
    let positions: Vec<_> = group.iter().map(LoadedReport::positions).collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for report in group {
        for row in &report.rows {
            let key = row.key();
            if !seen.insert(key.clone()) {
                continue;
            }
            let outcomes: Vec<Option<&'static str>> = group
                .iter()
                .zip(&positions)
                .map(|(r, at)| at.get(&key).map(|&i| outcome(&r.rows[i])))
                .collect();
            let passed = |o: &&Option<&str>| !matches!(o, None | Some("failed" | "errored"));
            let some_pass = outcomes.iter().any(|o| passed(&o));
            let some_fail = outcomes
                .iter()
                .any(|o| matches!(o, Some("failed" | "errored")));
            if some_pass && some_fail {
                out.push(FlipView {
                    case: row.case_id.clone(),
                    turn: row.turn_index,
                    category: row.category.clone(),
                    outcomes,
                });
            }
        }
    }
    out
}
