//! Vectors computed elsewhere (an MTEB or BEIR cache, a notebook, another harness), imported
//! into a store: JSON Lines of `{"text", "role", "vector"}`, or a float32 (or float64,
//! converted) `.npy` matrix with a
//! JSON list of `{"text", "role"}` naming its rows in order. A record may name its `policy`
//! (`names`, `names-content`, `expanded`, `raw`); otherwise the suite's policy for its role
//! applies. Every vector is checked (width, finite, non-zero) before anything is written.

use super::store::{EmbeddingStore, ModelInfo};
use super::{Role, TextPolicy};
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes};
use ndarray::Array2;
use ndarray_npy::ReadNpyExt;
use serde::Deserialize;
use std::path::Path;

/// One imported text's description.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImportedText {
    /// The exact text that was embedded (without any model prefix).
    pub text: String,
    /// `belief` or `query`.
    pub role: Role,
    /// Text policy; the suite's for the role when absent.
    #[serde(default)]
    pub policy: Option<String>,
    /// The vector (JSON Lines only).
    #[serde(default)]
    pub vector: Option<Vec<f32>>,
}

/// What [`read`] found: each record with its vector and where it was read (for messages), and
/// what was done to the file on the way (a float64 matrix converted).
pub(crate) struct Read {
    /// The records, in file order.
    pub records: Vec<(ImportedText, Vec<f32>, String)>,
    /// Conversions made, to tell the user.
    pub notes: Vec<String>,
}

/// Read `path`: JSON Lines with vectors, or (with `texts`) a `.npy` matrix and its row texts.
pub(crate) fn read(path: &Path, texts: Option<&Path>) -> Result<Read> {
    let bytes = read_bytes(path)?;
    let Some(texts_path) = texts else {
        if bytes.starts_with(b"\x93NUMPY") {
            return Err(Error::input(
                path,
                "file",
                "a .npy matrix holds no texts: give --texts T.json, a JSON list of \
                 {\"text\", \"role\"[, \"policy\"]} naming its rows in order (`embed \
                 --export-texts` writes the texts a suite needs)",
            ));
        }
        let text = std::str::from_utf8(&bytes).map_err(|_| {
            Error::input(
                path,
                "file",
                "invalid UTF-8; expected JSON Lines of {\"text\", \"role\", \"vector\"}, or a \
                 .npy matrix with --texts",
            )
        })?;
        let mut records = Vec::new();
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let at = format!("line {}", i + 1);
            let record: ImportedText = serde_json::from_str(line).map_err(|e| {
                Error::input(
                    path,
                    &at,
                    format!("expected {{\"text\", \"role\", \"vector\"}}: {e}"),
                )
            })?;
            let vector = record
                .vector
                .clone()
                .ok_or_else(|| Error::input(path, &at, "no `vector`"))?;
            records.push((record, vector, format!("{} {at}", path.display())));
        }
        return Ok(Read {
            records,
            notes: Vec::new(),
        });
    };
    let records: Vec<ImportedText> = parse_json(texts_path, &read_bytes(texts_path)?)?;
    let (array, notes) = matrix(path, bytes)?;
    if array.nrows() != records.len() {
        return Err(Error::input(
            texts_path,
            "$",
            format!(
                "{} texts for the {} rows of {}",
                records.len(),
                array.nrows(),
                path.display()
            ),
        ));
    }
    let records = records
        .into_iter()
        .zip(array.rows())
        .enumerate()
        .map(|(i, (record, row))| (record, row.to_vec(), format!("{} row {i}", path.display())))
        .collect();
    Ok(Read { records, notes })
}

/// A 2-D float32 matrix, or a float64 one (numpy's default) converted to float32, said so.
fn matrix(path: &Path, bytes: Vec<u8>) -> Result<(Array2<f32>, Vec<String>)> {
    let header_end = bytes.len().min(256);
    let header = String::from_utf8_lossy(&bytes[..header_end]);
    if bytes.starts_with(b"\x93NUMPY") && header.contains("'<f8'") {
        let wide = Array2::<f64>::read_npy(std::io::Cursor::new(bytes)).map_err(|e| {
            Error::input(path, "file", format!("not a 2-D float64 .npy array: {e}"))
        })?;
        let note = format!(
            "{}: float64 ({} × {}) converted to float32, the store's precision",
            path.display(),
            wide.nrows(),
            wide.ncols()
        );
        return Ok((wide.mapv(|x| x as f32), vec![note]));
    }
    crate::io::npy_shape(path, &bytes)?;
    let array = Array2::<f32>::read_npy(std::io::Cursor::new(bytes)).map_err(|e| {
        Error::input(
            path,
            "file",
            format!("not a float32 or float64 2-D .npy array: {e}"),
        )
    })?;
    Ok((array, Vec::new()))
}

/// Add `records` to the store of model `name` (made if `into` is `None`), keyed under each
/// record's policy or `policy`'s for its role. Nothing is kept unless every record is valid.
///
/// Refused, as an audit found each written with exit 0: a store computed by a model (its
/// `model.onnx` or its service recorded), whose identity the imported vectors would then carry
/// (a run read random vectors as MiniLM's); a vector other than the one the store holds for a
/// text, unless `replace` (`--refresh`); and one text twice in the file with two vectors (the
/// last won, said nowhere).
pub(crate) fn import(
    records: Vec<(ImportedText, Vec<f32>, String)>,
    name: &str,
    source: &str,
    policy: TextPolicy,
    into: Option<EmbeddingStore>,
    replace: bool,
) -> Result<(EmbeddingStore, usize)> {
    let first = records
        .first()
        .ok_or_else(|| Error::Usage("nothing to import".into()))?;
    refuse_computed(into.as_ref(), name, "--import-vectors")?;
    let mut store = into.unwrap_or_else(|| {
        EmbeddingStore::empty(
            ModelInfo::imported(name, source, first.1.len()),
            format!("embeddings/{name}"),
        )
    });
    // Where this import gave each text's vector: a second, different one is refused.
    let mut given: std::collections::HashMap<(Role, String, String), String> = Default::default();
    let mut replaced = 0;
    for (record, vector, at) in records {
        let policy_name = record.policy.as_deref().unwrap_or(policy.name(record.role));
        if !["names", "names-content", "expanded", "raw"].contains(&policy_name) {
            return Err(Error::Usage(format!(
                "{at}: unknown policy {policy_name:?}"
            )));
        }
        let key = (record.role, policy_name.to_string(), record.text.clone());
        let held = store.get(record.role, policy_name, &record.text);
        if held.is_some_and(|h| h != vector.as_slice()) {
            if let Some(first) = given.get(&key) {
                return Err(Error::Usage(format!(
                    "{at}: the text of {first} again, with another vector: which one is meant?"
                )));
            }
            if !replace {
                return Err(Error::Usage(format!(
                    "{at}: store {name} holds another vector for {:?}; --refresh replaces \
                     the vectors it holds for the texts imported",
                    record.text
                )));
            }
            replaced += 1;
        }
        given.insert(key, at.clone());
        store
            .insert(record.role, policy_name, &record.text, vector)
            .map_err(|e| Error::Usage(format!("{at}: {e}")))?;
    }
    Ok((store, replaced))
}

/// An import into the store of a model that computed its vectors (its `model.onnx` or its
/// service recorded) is refused: the imported vectors would carry that model's identity.
pub(crate) fn refuse_computed(into: Option<&EmbeddingStore>, name: &str, flag: &str) -> Result<()> {
    match into.map(|s| &s.model) {
        Some(model) if model.sha256.is_some() || model.service.is_some() => {
            Err(Error::Usage(format!(
                "{flag}: store {name} holds vectors computed by its model ({}); imported ones \
                 would be read as that model's: import into a store of another name (--model \
                 OTHER)",
                model.source
            )))
        }
        _ => Ok(()),
    }
}
