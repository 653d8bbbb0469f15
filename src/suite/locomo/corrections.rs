//! Corrections of LoCoMo's answer key as a layer over the released file (`--corrections`):
//! the locomo-audit's `errors_conv_K.json` files (dial481/locomo-audit 9493fb4, CC BY-NC 4.0),
//! each a list of entries `{question_id, question, error_type, cited_evidence,
//! correct_evidence, ...}` for conversation K.
//!
//! The rule (docs/locomo.md, "Corrections"): `locomo_K_qaJ` is question J (0-based) of the
//! K-th sample (0-based, file order). A WRONG_CITATION entry replaces that question's evidence
//! with its `correct_evidence`; every other error type (HALLUCINATION, TEMPORAL_ERROR, ...)
//! is about the answer, changes no retrieval gold, and is counted. An entry whose question
//! text differs from the file's, or that names a question the file lacks, is refused: the
//! overlay was made for another file.

use super::file::RawSample;
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes, sha256_hex};
use crate::suite::InputFile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The error type whose correction changes the retrieval gold.
const WRONG_CITATION: &str = "WRONG_CITATION";

/// The audit's other error types (about the answer: counted, no gold changed). A closed set: a
/// misspelt `WRONG_CITATIONS` was counted as a type of its own and its correction dropped in
/// silence (a tenth audit).
const ANSWER_ERRORS: [&str; 5] = [
    "HALLUCINATION",
    "TEMPORAL_ERROR",
    "ATTRIBUTION_ERROR",
    "AMBIGUOUS",
    "INCOMPLETE",
];

/// One entry of an audit file.
#[derive(Debug, Deserialize)]
struct Entry {
    question_id: String,
    question: String,
    error_type: String,
    #[serde(default)]
    correct_evidence: Option<Vec<String>>,
}

/// What an overlay did, as the manifest records it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    /// Questions whose evidence was replaced (WRONG_CITATION entries).
    pub evidence_replaced: usize,
    /// Entries of each other error type: counted, no retrieval gold changed.
    pub counted: BTreeMap<String, usize>,
}

/// The overlay read: each question's new evidence by (sample, question), and the files read.
#[derive(Debug, Default)]
pub(crate) struct Overlay {
    /// `(K, J)` → the corrected evidence.
    pub evidence: BTreeMap<(usize, usize), Vec<String>>,
    /// What it does, for the manifest.
    pub applied: Applied,
    /// Each file with its sha256 (role `corrections`).
    pub inputs: Vec<InputFile>,
}

/// Does `path` read as an audit file (a non-empty list of entries)? For a command that took
/// one as a report: `--corrections a.json b.json` gives `b.json` to the reports.
pub(crate) fn is_audit_file(path: &Path) -> bool {
    let Ok(bytes) = read_bytes(path) else {
        return false;
    };
    parse_json::<Vec<Entry>>(path, &bytes).is_ok_and(|entries| !entries.is_empty())
}

/// The files `paths` name: a file as given, a folder's `.json` files in name order.
pub(crate) fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| Error::input(path, "folder", e.to_string()))?
                .flatten()
                .map(|e| e.path())
                // `.JSON` too: a file so named was left out in silence (a seventeenth audit).
                .filter(|p| {
                    p.extension()
                        .is_some_and(|x| x.eq_ignore_ascii_case("json"))
                })
                .collect();
            inside.sort();
            if inside.is_empty() {
                return Err(Error::input(
                    path,
                    "folder",
                    "no .json files; expected the locomo-audit's errors_conv_*.json",
                ));
            }
            out.extend(inside);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// Read the overlay `paths` against `samples` (the file's, in order).
pub(crate) fn read(paths: &[PathBuf], samples: &[RawSample]) -> Result<Overlay> {
    let mut overlay = Overlay::default();
    for file in files(paths)? {
        let bytes = read_bytes(&file)?;
        overlay.inputs.push(InputFile {
            role: "corrections",
            path: file.display().to_string(),
            sha256: sha256_hex(&bytes),
            read_from: None,
        });
        let entries: Vec<Entry> = parse_json(&file, &bytes)?;
        for (n, entry) in entries.iter().enumerate() {
            overlay.entry(&file, n, entry, samples)?;
        }
    }
    // Recorded in path order: the same files given in another order made other report bytes,
    // though nothing else differed (a tenth audit).
    overlay.inputs.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(overlay)
}

impl Overlay {
    fn entry(&mut self, file: &Path, n: usize, entry: &Entry, samples: &[RawSample]) -> Result<()> {
        let at = |field: &str| format!("$[{n}].{field}");
        let (k, j) = question_numbers(&entry.question_id).ok_or_else(|| {
            Error::input(
                file,
                at("question_id"),
                format!("{:?}: expected locomo_K_qaJ", entry.question_id),
            )
        })?;
        let Some(question) = samples.get(k).and_then(|s| s.qa.get(j)) else {
            return Err(Error::input(
                file,
                at("question_id"),
                format!(
                    "{}: the LoCoMo file has no question {j} in conversation {k}; this overlay \
                     is for another file",
                    entry.question_id
                ),
            ));
        };
        if question.question.trim() != entry.question.trim() {
            return Err(Error::input(
                file,
                at("question"),
                format!(
                    "{:?} differs from the LoCoMo file's {}/q{j}, {:?}; this overlay is for \
                     another file",
                    entry.question, samples[k].sample_id, question.question
                ),
            ));
        }
        if entry.error_type != WRONG_CITATION && !ANSWER_ERRORS.contains(&&*entry.error_type) {
            return Err(Error::input(
                file,
                at("error_type"),
                format!(
                    "{:?}: expected one of the audit's error types, {WRONG_CITATION}, {}",
                    entry.error_type,
                    ANSWER_ERRORS.join(", ")
                ),
            ));
        }
        if entry.error_type != WRONG_CITATION {
            *self
                .applied
                .counted
                .entry(entry.error_type.clone())
                .or_default() += 1;
            return Ok(());
        }
        match &entry.correct_evidence {
            Some(ids) if !ids.is_empty() => {
                if self.evidence.insert((k, j), ids.clone()).is_some() {
                    return Err(Error::input(
                        file,
                        at("question_id"),
                        format!("{}: corrected twice", entry.question_id),
                    ));
                }
                self.applied.evidence_replaced += 1;
                Ok(())
            }
            _ => Err(Error::input(
                file,
                at("correct_evidence"),
                "expected the corrected evidence, a non-empty list of dialog ids",
            )),
        }
    }
}

/// `locomo_K_qaJ` as (K, J).
fn question_numbers(id: &str) -> Option<(usize, usize)> {
    let (k, j) = id.strip_prefix("locomo_")?.split_once("_qa")?;
    Some((k.parse().ok()?, j.parse().ok()?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn question_ids_name_a_conversation_and_a_question() {
        assert_eq!(super::question_numbers("locomo_0_qa1"), Some((0, 1)));
        assert_eq!(super::question_numbers("locomo_9_qa123"), Some((9, 123)));
        assert_eq!(super::question_numbers("locomo_x_qa1"), None);
        assert_eq!(super::question_numbers("conv-26/q1"), None);
    }
}
