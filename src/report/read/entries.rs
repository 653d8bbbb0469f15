//! A report's entries with everything a person reads in them (tiers, scores with their clause
//! attribution, failures, errors, diagnostics): what [`crate::report::Row`] leaves
//! out, for the html page and Figure 1. Read typed, straight into the schema's entries (never
//! through a JSON tree, see CONTRIBUTING.md "Scale and memory").

use crate::backend::Workload;
use crate::error::{Error, Result};
use crate::report::schema::{CaseEntry, PmbReport, TurnEntry};
use std::path::Path;

/// The entries of one report, of its kind.
#[derive(Debug)]
pub(crate) enum Entries {
    /// Static cases.
    Static(Vec<CaseEntry>),
    /// Session turns.
    Session(Vec<TurnEntry>),
}

/// Read the entries of the report at `path`, whose kind the row reader already found.
pub(crate) fn read(path: &Path, kind: Workload) -> Result<Entries> {
    let bytes = crate::io::read_bytes(path)?;
    // The paper layout is a bare array; PrecisionMemBench's an object with `cases`.
    let array = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'[');
    Ok(match (kind, array) {
        (Workload::Static, true) => Entries::Static(crate::io::parse_json(path, &bytes)?),
        (Workload::Static, false) => {
            let report: PmbReport<CaseEntry> = crate::io::parse_json(path, &bytes)?;
            Entries::Static(report.cases)
        }
        (Workload::Session, true) => Entries::Session(crate::io::parse_json(path, &bytes)?),
        (Workload::Session, false) => {
            let report: PmbReport<TurnEntry> = crate::io::parse_json(path, &bytes)?;
            Entries::Session(report.cases)
        }
    })
}

/// The static case `case_id` of the report at `path`, with its place in the file's list of
/// entries (for messages naming its JSON path).
pub(crate) fn static_case(path: &Path, case_id: &str) -> Result<(usize, CaseEntry)> {
    let Entries::Static(cases) = read(path, Workload::Static)? else {
        unreachable!("read returns the kind it is asked for")
    };
    cases
        .into_iter()
        .enumerate()
        .find(|(_, c)| c.case_id == case_id)
        .ok_or_else(|| Error::input(path, "$", format!("no case {case_id:?}")))
}
