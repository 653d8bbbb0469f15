//! Checks of single records that serde's types let through: ids that name nothing a reader can
//! see, an `epistemic_status` no scorer knows, and a relation's participants missing from the
//! corpus. Each was found loading in silence by a fourteenth audit, and each then read as a
//! retrieval result (a misspelt participant as a missed belief, a misspelt status as full
//! confidence).

use super::Suite;
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::path::Path;

/// The `epistemic_status` values Tenure's corpora hold, which the composite scorer maps to a
/// confidence (`backend::composite::signals`): any other read as full confidence in silence.
const STATUSES: &[&str] = &["active", "inferred", "exploratory", "superseded"];

/// An id a report, a TREC run and a terminal can show: not blank, no control character (a case
/// id of a newline and a right-to-left override loaded, and only `trec` refused it, after the
/// reports were written).
pub(super) fn id(path: &Path, at: String, id: &str, what: &str) -> Result<()> {
    if id.trim().is_empty() || id.chars().any(char::is_control) {
        return Err(Error::input(
            path,
            at,
            format!("{what} {id:?}; expected an id that is not blank and has no control character"),
        ));
    }
    Ok(())
}

/// Every belief's id, `epistemic_status` and participants.
pub(super) fn beliefs(suite: &Suite, corpus: &Path) -> Result<()> {
    let known: HashSet<&str> = suite.corpus.iter().map(|b| b.id.as_str()).collect();
    for (i, belief) in suite.corpus.iter().enumerate() {
        id(corpus, format!("$[{i}]._id"), &belief.id, "belief id")?;
        if let Some(status) = belief.epistemic_status.as_deref() {
            if !STATUSES.contains(&status) {
                return Err(Error::input(
                    corpus,
                    format!("$[{i}].epistemic_status"),
                    format!("{status:?}; expected one of {}", STATUSES.join(", ")),
                ));
            }
        }
        // Inputs that changed nothing (a fourteenth audit): participants of a belief that is
        // no relation, a valid time that ends before it starts, a belief that supersedes itself.
        if !belief.participants.is_empty() && belief.kind != crate::suite::BeliefType::Relation {
            return Err(Error::input(
                corpus,
                format!("$[{i}].participants"),
                "participants of a belief that is not a relation, which nothing reads; expected \
                 them on a belief of type relation",
            ));
        }
        if let (Some(from), Some(to)) = (belief.valid_from, belief.valid_to) {
            if from > to {
                return Err(Error::input(
                    corpus,
                    format!("$[{i}].valid_to"),
                    "before valid_from; expected a valid time that ends after it starts",
                ));
            }
        }
        if belief.superseded_by.as_deref() == Some(belief.id.as_str()) {
            return Err(Error::input(
                corpus,
                format!("$[{i}].superseded_by"),
                "the belief itself; expected the id of the belief that supersedes it",
            ));
        }
        if let Some((j, missing)) =
            (belief.participants.iter().enumerate()).find(|(_, p)| !known.contains(p.as_str()))
        {
            return Err(Error::input(
                corpus,
                format!("$[{i}].participants[{j}]"),
                format!("{missing:?} is no belief of the corpus; expected a belief id"),
            ));
        }
    }
    Ok(())
}

/// A session update that updates something: one without aliases to add, content or a name to
/// set changed nothing and loaded in silence (a fourteenth audit).
pub(super) fn update(path: &Path, at: String, update: &crate::suite::BeliefUpdate) -> Result<()> {
    if update.add_aliases.is_empty()
        && update.set_content.is_none()
        && update.set_canonical_name.is_none()
    {
        return Err(Error::input(
            path,
            at,
            "an update of nothing; expected addAliases (not empty), setContent or setCanonicalName",
        ));
    }
    Ok(())
}

/// Beliefs whose `superseded_by` names no belief of the corpus or of a session's creations:
/// loaded, since only whether the field is set decides (the belief is inactive either way,
/// spec: "Active" means `superseded_by == null`), but a successor that is nowhere is most
/// likely a misspelt id, and a reader of the suite would follow it (a fourteenth audit's
/// leftover).
pub(super) fn dangling_successors(
    suite: &Suite,
    corpus: &Path,
    live: &HashSet<&str>,
) -> Vec<String> {
    (suite.corpus.iter().enumerate())
        .filter_map(|(i, b)| {
            let by = b.superseded_by.as_deref()?;
            (!live.contains(by)).then(|| {
                format!(
                    "{}: $[{i}].superseded_by: {by:?} is no belief of the corpus or of a                      session's creations (a misspelt id?); {:?} is inactive all the same",
                    corpus.display(),
                    b.id
                )
            })
        })
        .collect()
}
