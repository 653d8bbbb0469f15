//! BEAM's results, from the reports of runs on it (`tenure-eval beam REPORT... --data DIR`,
//! docs/beam.md): per run, per tier and per ability, the rank measures the reports carry
//! (ir_measures' definitions, nDCG over BEAM's grades) and the cases passed; and the
//! **knowledge-update order**, the share of knowledge_update questions whose updated message
//! ranks above every original message retrieved. A memory that keeps the superseded fact on
//! top fails the user even when both are "recalled"; no rank measure says so, this does.

pub(crate) mod figure;

use crate::error::{Error, Result};
use crate::eval::rank::{parse_measures, Measure};
use crate::render::table::{number_cell, Table};
use crate::report::rank_block::row_values;
use crate::report::LoadedReport;
use crate::suite::beam::{Update, KNOWLEDGE_UPDATE, MEASURES};
use crate::suite::Suite;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// One run's figures over one group of questions.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Cell {
    /// The tier (`100K`), or `all`.
    pub tier: String,
    /// The ability, or `all`.
    pub ability: String,
    /// Cases scored.
    pub cases: usize,
    /// Cases passed (all gold in the top 10).
    pub passed: usize,
    /// Means of the rank measures, in [`MEASURES`] order, over the cases; `None` where no
    /// case has the measure.
    pub rank: Vec<Option<f64>>,
    /// Knowledge-update questions ordered right, and those that name an update (none for
    /// other abilities).
    pub update_order: Option<(usize, usize)>,
}

/// One run's figures.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunResult {
    /// Its name (the report's run label).
    pub name: String,
    /// The names of each cell's `rank` values, in order (ir_measures' names): the JSON's
    /// arrays named in it (a fourteenth audit's leftover).
    pub rank_measures: Vec<String>,
    /// Each tier's abilities in file order, then the tier's total; then the totals over all
    /// tiers per ability and in all.
    pub cells: Vec<Cell>,
}

/// Whether the update ranks above every original retrieved: some updated message is in
/// `ranking`, and the first of them comes before every original message there.
pub(crate) fn updated_first(update: &Update, ranking: &[String]) -> bool {
    let first = |ids: &[String]| ranking.iter().position(|r| ids.contains(r));
    match (first(&update.updated), first(&update.original)) {
        (Some(u), Some(o)) => u < o,
        (Some(_), None) => true,
        (None, _) => false,
    }
}

/// The tiers of `ids`, in order (`100K`, `500K`).
fn tiers_of<'a>(ids: impl Iterator<Item = &'a str>) -> std::collections::BTreeSet<&'a str> {
    ids.map(tier).collect()
}

/// `100K` of a case id `100K-1/knowledge_update/0`.
fn tier(case_id: &str) -> &str {
    case_id.split_once('-').map_or(case_id, |(t, _)| t)
}

/// The figures of each report of a run on `suite` (BEAM as `--data` gives it: its knowledge
/// updates name each question's original and updated message). A report with a question the
/// suite does not have is an input error: it was run on other files.
pub(crate) fn measure(reports: &[LoadedReport], suite: &Suite) -> Result<Vec<RunResult>> {
    let measures: Vec<Measure> = parse_measures(MEASURES).map_err(Error::Usage)?;
    let updates = crate::suite::beam::updates(suite);
    let by_case: HashMap<&str, &Update> = updates.iter().map(|u| (u.case_id.as_str(), u)).collect();
    let questions: std::collections::HashSet<&str> =
        suite.cases.iter().map(|c| c.case_id.as_str()).collect();
    let given = tiers_of(suite.cases.iter().map(|c| c.case_id.as_str()));
    let mut out = Vec::new();
    for report in reports {
        // A run of more tiers than the suite given: said as such, not as a run on other files
        // (its cases of the other tiers were "not a question of the files given", a ninth audit).
        let ran = tiers_of(report.rows.iter().map(|r| r.case_id.as_str()));
        let extra = ran.iter().find(|t| !given.contains(*t));
        if let Some(extra) = extra.filter(|_| report.suite() == Some("beam")) {
            return Err(Error::Usage(format!(
                "{}: a run on tiers {} where {} given: tier {extra} is not; give the run's --tier \
                 here too (or none)",
                report.path.display(),
                Vec::from_iter(ran.iter().copied()).join(", "),
                Vec::from_iter(given.iter().copied()).join(", ")
                    + if given.len() == 1 { " is" } else { " are" }
            )));
        }
        if let Some(row) = report
            .rows
            .iter()
            .find(|r| !questions.contains(r.case_id.as_str()))
        {
            return Err(Error::input(
                &report.path,
                format!("case {:?}", row.case_id),
                format!(
                    "not a question of the BEAM files given with --data ({} questions): the \
                     report is of a run on other files",
                    questions.len()
                ),
            ));
        }
        // A shard's or a selection's report is named as such, not as another suite's.
        report.whole_run()?;
        if report.suite() != Some("beam") {
            return Err(Error::input(
                &report.path,
                "$.manifest.suite",
                format!(
                    "{:?}: expected a report of a run on --suite beam",
                    report.suite()
                ),
            ));
        }
        // A run of fewer tiers than the suite given lacks the others' cases: say which flag.
        if !ran.is_empty() && ran.len() < given.len() {
            return Err(Error::Usage(format!(
                "{}: a run on tier {} of the {} given: give the run's --tier here too",
                report.path.display(),
                Vec::from_iter(ran).join(", "),
                Vec::from_iter(given.iter().copied()).join(", ")
            )));
        }
        report.whole_run_on(suite)?;
        let values = row_values(report, &measures, None)?;
        // (tier, ability) in first-seen order → rows.
        let mut order: Vec<(String, String)> = Vec::new();
        let mut groups: HashMap<(String, String), Vec<usize>> = HashMap::new();
        for (i, row) in report.rows.iter().enumerate() {
            let key = (tier(&row.case_id).to_string(), row.category.clone());
            if !groups.contains_key(&key) {
                order.push(key.clone());
            }
            groups.entry(key).or_default().push(i);
        }
        let cell = |tier: &str, ability: &str, rows: &[usize]| -> Cell {
            let mean =
                |m: usize| crate::eval::stats::mean(rows.iter().filter_map(|&i| values[i][m]));
            let ordered: Vec<bool> = (rows.iter())
                .filter_map(|&i| {
                    let row = &report.rows[i];
                    Some(updated_first(
                        by_case.get(row.case_id.as_str())?,
                        &row.ranking,
                    ))
                })
                .collect();
            let named_update = ability == KNOWLEDGE_UPDATE || ability == "all";
            Cell {
                tier: tier.to_string(),
                ability: ability.to_string(),
                cases: rows.len(),
                passed: rows.iter().filter(|&&i| report.rows[i].passed).count(),
                rank: (0..measures.len()).map(mean).collect(),
                update_order: (named_update && !ordered.is_empty())
                    .then(|| (ordered.iter().filter(|b| **b).count(), ordered.len())),
            }
        };
        let mut cells = Vec::new();
        let mut tiers: Vec<String> = Vec::new();
        for (tier, _) in &order {
            if !tiers.contains(tier) {
                tiers.push(tier.clone());
            }
        }
        let mut abilities: Vec<String> = Vec::new();
        for t in &tiers {
            let mut all = Vec::new();
            for (tier, ability) in order.iter().filter(|(tier, _)| tier == t) {
                let rows = &groups[&(tier.clone(), ability.clone())];
                cells.push(cell(tier, ability, rows));
                all.extend(rows);
                if !abilities.contains(ability) {
                    abilities.push(ability.clone());
                }
            }
            all.sort_unstable();
            cells.push(cell(t, "all", &all));
        }
        let mut per_ability: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for ((_, ability), rows) in &groups {
            let at = abilities.iter().position(|a| a == ability).expect("seen");
            per_ability.entry(at).or_default().extend(rows);
        }
        for (at, mut rows) in per_ability {
            rows.sort_unstable();
            cells.push(cell("all", &abilities[at], &rows));
        }
        let every: Vec<usize> = (0..report.rows.len()).collect();
        cells.push(cell("all", "all", &every));
        out.push(RunResult {
            name: report.provider.clone(),
            rank_measures: MEASURES.split(',').map(str::to_string).collect(),
            cells,
        });
    }
    Ok(out)
}

/// The table: a row per run, tier and ability, the rank measures, the cases passed, and the
/// knowledge-update order where it applies.
pub(crate) fn tables(results: &[RunResult]) -> Vec<Table> {
    let mut header = vec!["run", "tier", "ability", "cases", "passed"];
    header.extend(MEASURES.split(','));
    header.push("update first");
    let rows = results
        .iter()
        .flat_map(|r| {
            r.cells.iter().map(|c| {
                let mut row = vec![
                    r.name.clone(),
                    c.tier.clone(),
                    c.ability.clone(),
                    c.cases.to_string(),
                    c.passed.to_string(),
                ];
                row.extend(c.rank.iter().map(|v| number_cell(*v, 3)));
                row.push(match c.update_order {
                    Some((k, n)) => format!("{k}/{n} ({:.3})", k as f64 / n as f64),
                    None => "–".into(),
                });
                row
            })
        })
        .collect();
    vec![Table::new(
        "BEAM by tier and ability: rank measures (ir_measures; nDCG over BEAM's grades: an \
         update 2, its original 1), cases passed (all gold in the top 10), and knowledge \
         updates whose updated message ranks above every original retrieved",
        &header,
        rows,
    )]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update() -> Update {
        Update {
            case_id: "100K-1/knowledge_update/0".into(),
            original: vec!["100K-1/m86".into()],
            updated: vec!["100K-1/m114".into()],
        }
    }

    fn ranked(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|i| format!("100K-1/m{i}")).collect()
    }

    #[test]
    fn the_update_must_come_before_every_original_retrieved() {
        let u = update();
        assert!(updated_first(&u, &ranked(&["3", "114", "86"])));
        assert!(updated_first(&u, &ranked(&["114"])));
        assert!(!updated_first(&u, &ranked(&["86", "114"])));
        assert!(!updated_first(&u, &ranked(&["86"])));
        assert!(!updated_first(&u, &ranked(&["3"])));
    }
}
