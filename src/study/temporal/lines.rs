//! What `temporal classify`, `draw` and `features` write: a statements file's classifications
//! as TSV or JSON, drawn statements as JSON Lines (the statements file's own format), and each
//! statement's features and their buckets (and, under `--embedder`, its embedding) as JSON Lines.

use super::Statement;
use crate::error::{Error, Result};
use crate::temporal::features::{buckets, features};
use crate::temporal::Classification;
use std::fmt::Write as _;

/// `id\tclass\tmarker`, one line per statement (`-` where no marker decided).
pub(crate) fn classified_tsv(statements: &[Statement], classified: &[Classification]) -> String {
    let mut out = String::from("id\tclass\tmarker\n");
    for (s, c) in statements.iter().zip(classified) {
        let marker = c.marker.as_deref().unwrap_or("-");
        // A tab or newline inside an id or marker would shift the columns.
        let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
        let _ = writeln!(out, "{}\t{}\t{}", clean(&s.id), c.class, clean(marker));
    }
    out
}

/// `[{"id", "class", "marker", "source"}, ...]`, pretty-printed.
pub(crate) fn classified_json(
    statements: &[Statement],
    classified: &[Classification],
) -> Result<String> {
    let rows: Vec<serde_json::Value> = statements
        .iter()
        .zip(classified)
        .map(|(s, c)| {
            serde_json::json!({
                "id": s.id, "class": c.class, "marker": c.marker, "source": c.source,
            })
        })
        .collect();
    pretty(&rows)
}

/// Statements as a statements file: one JSON object per line.
pub(crate) fn statements_jsonl(statements: &[Statement]) -> Result<String> {
    let mut out = String::new();
    for statement in statements {
        let line = serde_json::to_string(statement)
            .map_err(|e| Error::Usage(format!("cannot serialise a statement: {e}")))?;
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// `{"id", "class", "buckets", "features"}` per statement, one per line: what the learned
/// part of the classifier sees of each text; with `embeddings` (one per statement), each line's
/// `embedding` too, what the embedded model sees besides.
pub(crate) fn features_jsonl(statements: &[Statement], embeddings: Option<&[Vec<f32>]>) -> String {
    let mut out = String::new();
    for (i, s) in statements.iter().enumerate() {
        let features = features(&s.text);
        let mut line = serde_json::json!({
            "id": s.id, "class": s.class,
            "buckets": buckets(&features),
            "features": features,
        });
        if let Some(vectors) = embeddings {
            line["embedding"] = serde_json::json!(vectors[i]);
        }
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// `value` as pretty JSON with a final newline.
pub(crate) fn pretty<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map(|s| s + "\n")
        .map_err(|e| Error::Usage(format!("cannot serialise the output: {e}")))
}
