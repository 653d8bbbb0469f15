//! The paper's claims as a table.

use super::Claim;
use crate::render::table::Table;

/// The claims as a table.
pub(crate) fn claims_table(claims: &[Claim]) -> Table {
    Table {
        title: "The paper's claims, measured".into(),
        header: ["Claim", "Paper", "Measured", "Status", "Why"]
            .map(String::from)
            .to_vec(),
        rows: claims
            .iter()
            .map(|c| {
                vec![
                    c.claim.clone(),
                    c.paper.clone(),
                    c.measured.clone(),
                    c.status.label(),
                    c.reason.clone(),
                ]
            })
            .collect(),
    }
}
