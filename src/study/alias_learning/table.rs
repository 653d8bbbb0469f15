//! The alias-learning study's table: its parameters in the title, one row per group and
//! condition.

use super::{Outcome, ALIAS_CEILING, MEASURES};
use crate::render::table::{number_cell, Table};

/// A p-value as tables print them.
fn p_cell(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".into()
    } else {
        format!("{p:.3}")
    }
}

/// The outcome as one table, its parameters in the title.
pub(crate) fn table(outcome: &Outcome) -> Table {
    let names: Vec<&str> = MEASURES.split(',').collect();
    let mut header = vec!["held-out questions", "aliases", "questions"];
    header.extend(names.iter().copied());
    let versus: Vec<String> = names.iter().map(|m| format!("Δ {m} vs none (p)")).collect();
    header.extend(versus.iter().map(String::as_str));
    let rows = outcome
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![
                r.group.clone(),
                r.condition.clone(),
                r.questions.to_string(),
            ];
            row.extend(r.means.iter().map(|v| number_cell(*v, 3)));
            row.extend(r.versus_none.iter().map(|v| match v {
                Some((d, p)) => format!("{d:+.3} ({})", p_cell(*p)),
                None => "–".into(),
            }));
            row
        })
        .collect();
    Table::new(
        &format!(
            "Aliases learned from the learning half, measured on the held-out half · {} · seed {}: {} learning and {} \
             held-out questions ({} left out: the text of a learning question); learned: {} aliases on {} items ({} over the ceiling of {}); \
             random: {} aliases on {} items; retrieval bm25-text over name, aliases and text; \
             p: paired randomisation test against none",
            outcome.suite,
            outcome.seed,
            outcome.learning,
            outcome.held_out,
            outcome.twins,
            outcome.learned.added,
            outcome.learned.items,
            outcome.learned.over_ceiling,
            ALIAS_CEILING,
            outcome.random.added,
            outcome.random.items,
        ),
        &header,
        rows,
    )
}
