//! The statements' sentence embeddings, for the classifier's embedded model: the learned part
//! with a sentence embedding beside its buckets (docs/temporal.md, "The fourth attempt"). The
//! classifier (`crate::temporal`, a lower layer) takes the vectors; this study embeds them, with
//! the ONNX model folder given by `--embedder`, and refuses a model other than the one the
//! embedded weights were trained with: its vectors would be read by weights made for another
//! space, and every figure would be wrong with exit 0.

use super::Statement;
use crate::embed::onnx::{EmbedOptions, OnnxEmbedder};
use crate::embed::{Embedder, Role};
use crate::error::{Error, Result};
use crate::temporal::EmbeddedModel;
use serde::Serialize;
use std::path::PathBuf;

/// `--embedder DIR [--ort-lib FILE]`: the model folder that embeds the statements.
#[derive(Debug, Clone)]
pub(crate) struct EmbedderChoice {
    /// An ONNX model folder (`model.onnx`, `tokenizer.json`, `embedder.json`).
    pub dir: PathBuf,
    /// ONNX Runtime library (else `ORT_DYLIB_PATH`).
    pub ort_lib: Option<PathBuf>,
}

/// Which embedder embedded the statements, as an evaluation records it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct EmbedderUsed {
    /// The model's name (its `embedder.json`, else its folder's).
    pub name: String,
    /// sha256 of its `model.onnx`.
    pub sha256: String,
}

/// Each statement's embedding, in file order, with the model that made them. Statements are
/// embedded as documents (the model's document prefix, none for MiniLM). With `model`, a model
/// other than the one its weights were trained with (by the sha256 of `model.onnx`), or vectors
/// of another width, is refused before anything is classified.
pub(crate) fn embed(
    statements: &[Statement],
    choice: &EmbedderChoice,
    model: Option<&EmbeddedModel>,
) -> Result<(EmbedderUsed, Vec<Vec<f32>>)> {
    let mut embedder = OnnxEmbedder::open(
        &choice.dir,
        choice.ort_lib.as_deref(),
        EmbedOptions::default(),
    )
    .map_err(named)?;
    let info = embedder.info().clone();
    let used = EmbedderUsed {
        name: info.name.clone(),
        sha256: info.sha256.clone().unwrap_or_default(),
    };
    if let Some(model) = model {
        if used.sha256 != model.sha256 || info.dimensions != model.dimensions {
            return Err(Error::Usage(format!(
                "--embedder {}: its model.onnx has sha256 {} and {} dimensions; the \
                 classifier's embedded weights were trained with {} (model.onnx sha256 {}, {} \
                 dimensions): give that model's folder (scripts/setup-models.sh installs it as \
                 models/{})",
                choice.dir.display(),
                used.sha256,
                info.dimensions,
                model.name,
                model.sha256,
                model.dimensions,
                model.name
            )));
        }
    }
    let texts: Vec<&str> = statements.iter().map(|s| s.text.as_str()).collect();
    let vectors = embedder
        .embed(&texts, Role::Belief, &mut |_| {})
        .map_err(named)?;
    Ok((used, vectors))
}

/// The embedder's runtime failures name the cosine backend, its usual caller; here they are
/// the classifier's `--embedder`.
fn named(e: Error) -> Error {
    match e {
        Error::Backend { message, .. } => Error::backend("temporal --embedder", message),
        other => other,
    }
}
