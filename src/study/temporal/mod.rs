//! Statements files (JSON Lines `{"id", "text"[, "class"][, "note"]}`) and the classifier's
//! per-class precision, recall and F1 against their gold classes: the dissertation's open
//! experiment 5 (spec context-scorer §5). The lexical model classifies, or the embedded one
//! with the statements' embeddings (`embedded.rs`).

use crate::error::{Error, Result};
pub(crate) mod beam;
pub(crate) mod draw;
pub(crate) mod embedded;
mod interval;
pub(crate) mod lines;
pub(crate) mod livechat;
pub(crate) mod slack;
mod table;
pub(crate) mod texts;

pub(crate) use table::tables;

use crate::temporal::{
    classify_text, classify_text_embedded, Classification, EmbeddedModel, TemporalClass,
};
use embedded::EmbedderChoice;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// One line of a statements file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Statement {
    /// Unique within the file.
    pub id: String,
    /// The statement, as said in a conversation. A labels file of statements drawn from LoCoMo
    /// leaves it out (the project does not copy LoCoMo's text); [`draw::fill_texts`] reads it
    /// from the user's file.
    #[serde(default)]
    pub text: String,
    /// The gold class, when labelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<TemporalClass>,
    /// A class another classifier gave (the training script's cross-validated predictions):
    /// `temporal eval` scores it instead of classifying the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub predicted: Option<TemporalClass>,
    /// Why the label (hard negatives say which trap they set); never read by the classifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Parse a statements file; a malformed line, an empty id or a repeated id is an input error
/// naming the line. Blank lines are skipped.
pub(crate) fn parse_statements(path: &Path, bytes: &[u8]) -> Result<Vec<Statement>> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        Error::input(
            path,
            format!("line {line}"),
            "invalid UTF-8; expected UTF-8 JSON Lines",
        )
    })?;
    let mut out: Vec<Statement> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let statement: Statement = serde_json::from_str(line).map_err(|e| {
            Error::input(
                path,
                format!("line {n}"),
                format!(
                    "{e}; expected one JSON object {{\"id\": string, \"text\": string, \"class\"?: \
                     \"forward_open\" | \"current_state\" | \"closed\" | \"correction\"}} per line"
                ),
            )
        })?;
        if statement.id.is_empty() {
            return Err(Error::input(
                path,
                format!("line {n}.id"),
                "empty id; expected a non-empty string",
            ));
        }
        if let Some(first) = seen.insert(statement.id.clone(), n) {
            return Err(Error::input(
                path,
                format!("line {n}.id"),
                format!(
                    "duplicate id {:?} (first on line {first}); expected unique ids",
                    statement.id
                ),
            ));
        }
        out.push(statement);
    }
    if out.is_empty() {
        return Err(Error::input(
            path,
            "file",
            "no statements; expected at least one JSON line",
        ));
    }
    Ok(out)
}

/// Precision, recall, F1 and support of one class. The averages take 0 for a figure of
/// nothing (scikit-learn's `zero_division=0`); the JSON writes it null, as the table writes
/// "–" (an audit found `"correction": {"precision": 0.0, ...}` for a class never seen).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ClassScores {
    /// Correct predictions of the class over all its predictions (0 when never predicted).
    pub precision: f64,
    /// Correct predictions of the class over its gold statements (0 when it has none).
    pub recall: f64,
    /// Harmonic mean of the two (0 when both are 0).
    pub f1: f64,
    /// Gold statements of the class.
    pub support: usize,
    /// Statements predicted as the class.
    pub predicted: usize,
}

impl ClassScores {
    /// Precision, recall and F1 where defined: precision over a class predicted at least once,
    /// recall over one labelled, F1 over one labelled or predicted.
    pub(crate) fn defined(&self) -> [Option<f64>; 3] {
        let seen = self.support > 0 || self.predicted > 0;
        [
            (self.predicted > 0).then_some(self.precision),
            (self.support > 0).then_some(self.recall),
            seen.then_some(self.f1),
        ]
    }
}

impl Serialize for ClassScores {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let [precision, recall, f1] = self.defined();
        let mut out = s.serialize_struct("ClassScores", 4)?;
        out.serialize_field("precision", &precision)?;
        out.serialize_field("recall", &recall)?;
        out.serialize_field("f1", &f1)?;
        out.serialize_field("support", &self.support)?;
        out.end()
    }
}

/// A misclassified statement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Miss {
    /// Statement id.
    pub id: String,
    /// Its gold class.
    pub gold: TemporalClass,
    /// What the classifier said.
    pub predicted: TemporalClass,
    /// The marker that decided (`null` for the default).
    pub marker: Option<String>,
}

/// The classifier measured against a labelled statements file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Evaluation {
    /// Labelled statements.
    pub total: usize,
    /// Correctly classified statements.
    pub correct: usize,
    /// `correct / total`.
    pub accuracy: f64,
    /// Keyed by class name, in [`TemporalClass::ALL`] order.
    pub per_class: BTreeMap<TemporalClass, ClassScores>,
    /// Unweighted mean of the per-class precisions, over the classes labelled or predicted.
    pub macro_precision: f64,
    /// Unweighted mean of the per-class recalls, over the classes labelled or predicted.
    pub macro_recall: f64,
    /// Unweighted mean of the per-class F1s, over the classes labelled or predicted.
    #[serde(rename = "macroF1")]
    pub macro_f1: f64,
    /// Cohen's κ of gold against predicted (`null` when undefined: one class on both sides).
    pub kappa: Option<f64>,
    /// Bootstrap 95% intervals of the macro and per-class F1 and of κ.
    pub intervals: interval::Intervals,
    /// The sha256 of the classifier's compiled-in weights that classified (`src/temporal/model.json`,
    /// or `model-minilm.json` under `--embedder`) when it classified any statement; `null` when
    /// every prediction was given (`--predicted`).
    pub model: Option<String>,
    /// The embedding model folder's identity under `--embedder` (the embedded model
    /// classified); `null` for the lexical model, and when nothing was classified.
    pub embedder: Option<EmbeddedModel>,
    /// Statements scored by a given prediction rather than classified.
    pub given: usize,
    /// `confusion[gold][predicted]` = count, every cell present.
    pub confusion: BTreeMap<TemporalClass, BTreeMap<TemporalClass, usize>>,
    /// In file order.
    pub misclassified: Vec<Miss>,
}

/// Classify every statement (by text: a statements file carries no belief metadata), with the
/// embedded model when `embedder` names the folder to embed them with.
pub(crate) fn classify_all(
    statements: &[Statement],
    embedder: Option<&EmbedderChoice>,
) -> Result<Vec<Classification>> {
    let Some(choice) = embedder else {
        return Ok(statements.iter().map(|s| classify_text(&s.text)).collect());
    };
    let (_, vectors) = embedded::for_classifier(statements, choice)?;
    Ok(statements
        .iter()
        .zip(&vectors)
        .map(|(s, v)| classify_text_embedded(&s.text, v))
        .collect())
}

/// `temporal features`' lines: each statement's features and buckets, and with `embedder` its
/// sentence embedding by that folder (any model: the training script's vectors), the one
/// featurisation the training script reads.
pub(crate) fn features(
    statements: &[Statement],
    embedder: Option<&EmbedderChoice>,
) -> Result<String> {
    let embeddings = match embedder {
        Some(choice) => {
            let texts: Vec<&str> = statements.iter().map(|s| s.text.as_str()).collect();
            Some(embedded::embed(&texts, choice, None)?.1)
        }
        None => None,
    };
    Ok(lines::features_jsonl(statements, embeddings.as_deref()))
}

/// The gold class of every statement, in file order; a statement without one is an input error
/// naming it.
fn gold(path: &Path, statements: &[Statement]) -> Result<Vec<TemporalClass>> {
    statements
        .iter()
        .map(|statement| {
            statement.class.ok_or_else(|| {
                Error::input(
                    path,
                    format!("id {:?}", statement.id),
                    "no \"class\"; expected a gold class on every line to evaluate",
                )
            })
        })
        .collect()
}

/// Evaluate the classifier on `statements`, every one of which must carry a gold class. A
/// statement with a `predicted` class is scored as given (another classifier's answer, as the
/// training script's cross-validated predictions); the others are classified, by the embedded
/// model when `embedder` names the folder to embed them with (their gold classes checked, and
/// something left to classify, before anything is embedded).
pub(crate) fn evaluate(
    path: &Path,
    statements: &[Statement],
    embedder: Option<&EmbedderChoice>,
) -> Result<Evaluation> {
    let golds = gold(path, statements)?;
    let to_classify = || statements.iter().filter(|s| s.predicted.is_none());
    let given = statements.len() - to_classify().count();
    let embedded = match embedder {
        Some(_) if given == statements.len() => {
            return Err(Error::Usage(format!(
                "--embedder: every statement of {} has a given \"predicted\" class, so nothing \
                 would be classified; leave --embedder out to score the given predictions",
                path.display()
            )))
        }
        Some(choice) => Some(embedded::for_classifier(to_classify(), choice)?),
        None => None,
    };
    // One vector per statement to classify, taken in file order as they are met.
    let mut vectors = embedded.as_ref().map(|(_, v)| v.iter());
    let mut pairs = Vec::with_capacity(statements.len());
    let mut misclassified = Vec::new();
    for (statement, gold) in statements.iter().zip(golds) {
        // Only a statement without a given prediction is classified (under `--predicted`
        // none is, and no text was read).
        let (predicted, marker) = match statement.predicted {
            Some(p) => (p, Some("given".to_string())),
            None => {
                let got = match vectors.as_mut() {
                    // `embed` returns one vector per text or fails.
                    Some(v) => classify_text_embedded(
                        &statement.text,
                        v.next().expect("a vector for every statement classified"),
                    ),
                    None => classify_text(&statement.text),
                };
                (got.class, got.marker)
            }
        };
        pairs.push((gold, predicted));
        if gold != predicted {
            misclassified.push(Miss {
                id: statement.id.clone(),
                gold,
                predicted,
                marker,
            });
        }
    }
    let scored = interval::Scored::of(&pairs);
    let total = statements.len();
    let correct = total - misclassified.len();
    Ok(Evaluation {
        total,
        correct,
        accuracy: interval::ratio(correct, total),
        macro_precision: scored.macro_precision,
        macro_recall: scored.macro_recall,
        macro_f1: scored.macro_f1,
        kappa: scored.kappa,
        intervals: interval::bootstrap(&pairs, interval::RESAMPLES, interval::SEED),
        per_class: scored.per_class,
        confusion: scored.confusion,
        model: (given < total).then(|| match embedded {
            Some(_) => crate::temporal::embedded_weights_sha256(),
            None => crate::temporal::weights_sha256(),
        }),
        embedder: embedded.map(|(used, _)| used),
        given,
        misclassified,
    })
}

#[cfg(test)]
mod tests;
