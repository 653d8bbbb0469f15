//! The chance rows' test: each model's static rank measure (the first of the plan's measures)
//! against its chance row's (`--model random`, at the row's cosine floor when a floor is swept), by the
//! paired randomisation test of `compare`'s runs table, Holm-adjusted over the table's pairs.

use crate::analysis::compare::significance::RunsTable;
use crate::render::run_table::{ChanceTest, ModelRow};

/// Fill each row's measures from `table` (runs in row order; its first `measures` columns are
/// the rank measures, precision and pass/fail follow) and each row's test against its chance
/// row, `chance_of[i]` (none for the chance rows themselves).
pub(crate) fn annotate(
    rows: &mut [ModelRow],
    table: &RunsTable,
    measures: usize,
    chance_of: &[Option<usize>],
) {
    let measures: Vec<_> = table.columns.iter().take(measures).collect();
    for (i, row) in rows.iter_mut().enumerate() {
        row.measures = measures
            .iter()
            .map(|c| (c.measure.clone(), c.means[i]))
            .collect();
    }
    let Some(first) = measures.first() else {
        return;
    };
    for (i, row) in rows.iter_mut().enumerate() {
        let Some(c) = chance_of.get(i).copied().flatten() else {
            continue;
        };
        let chance_letter = &table.runs[c].letter;
        let letter = &table.runs[i].letter;
        if let Some(pair) = first
            .pairs
            .iter()
            .find(|p| &p.a == letter && &p.b == chance_letter)
        {
            row.vs_chance = Some(ChanceTest {
                measure: first.measure.clone(),
                cases: pair.cases,
                mean_difference: pair.mean_difference,
                p_adjusted: pair.p_adjusted,
                distinguishable: pair.p_adjusted < table.alpha && pair.mean_difference > 0.0,
                below: pair.p_adjusted < table.alpha && pair.mean_difference < 0.0,
            });
        }
    }
}

/// The lines under the table: which rows are not distinguishable from chance, and how tested.
pub(crate) fn note(rows: &[ModelRow], table: &RunsTable) -> String {
    let tested: Vec<&ModelRow> = rows.iter().filter(|r| r.vs_chance.is_some()).collect();
    let Some(first) = tested.first().and_then(|r| r.vs_chance.as_ref()) else {
        return String::new();
    };
    let name = |r: &ModelRow| r.model.clone().unwrap_or_else(|| r.backend.clone());
    let listed = |pick: fn(&ChanceTest) -> bool| -> Vec<String> {
        tested
            .iter()
            .filter(|r| r.vs_chance.as_ref().is_some_and(pick))
            .map(|r| name(r))
            .collect()
    };
    // The cases each test ran on: those with a value in both rows (nDCG@10 is undefined on a
    // case without gold; an audit found the suite's 77 cases said where 43 were tested).
    let mut cases: Vec<usize> = (tested.iter())
        .filter_map(|r| r.vs_chance.as_ref().map(|t| t.cases))
        .collect();
    cases.sort_unstable();
    cases.dedup();
    let cases = match cases.as_slice() {
        [one] => one.to_string(),
        [low, .., high] => format!("{low} to {high}"),
        [] => "no".into(),
    };
    let chance = listed(|t| !t.distinguishable && !t.below);
    let below = listed(|t| t.below);
    let how = format!(
        "{} of each row against the chance row (a random vector per text; at the row's cosine \
         floor when a floor is swept) over {} cases, paired randomisation test, Holm-adjusted \
         over the table's pairs, α = {} (exact up to {} differing cases, else {} sampled sign \
         patterns, seed {})",
        first.measure,
        cases,
        table.alpha,
        crate::eval::stats::EXACT_UP_TO,
        table.resamples,
        table.seed
    );
    let mut out = String::from("\n");
    if !chance.is_empty() {
        out += &format!(
            "**Not distinguishable from chance: {}**. ",
            chance.join(", ")
        );
    }
    if !below.is_empty() {
        out += &format!("**Below chance: {}**. ", below.join(", "));
    }
    if chance.is_empty() && below.is_empty() {
        out += "Every row is above chance. ";
    }
    out + &format!("({how}.)\n")
}
