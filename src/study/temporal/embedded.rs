//! The statements' sentence embeddings, for the classifier's embedded model: the learned part
//! with a sentence embedding beside its buckets (docs/temporal.md, "The fourth attempt"). The
//! classifier (`crate::temporal`, a lower layer) takes the vectors; this study embeds them, with
//! the ONNX model folder given by `--embedder`, and refuses a folder other than the one the
//! embedded weights were trained with (another graph, tokenizer or `embedder.json`): its vectors
//! would be read by weights made for another space, and every figure would be wrong with exit 0.

use super::Statement;
use crate::embed::onnx::{EmbedOptions, OnnxEmbedder};
use crate::embed::{Embedder, Role};
use crate::error::{Error, Result};
use crate::temporal::EmbeddedModel;
use std::path::{Path, PathBuf};

/// `--embedder DIR [--ort-lib FILE]`: the model folder that embeds the statements.
#[derive(Debug, Clone)]
pub(crate) struct EmbedderChoice {
    /// An ONNX model folder (`model.onnx`, `tokenizer.json`, `embedder.json`).
    pub dir: PathBuf,
    /// ONNX Runtime library (else `ORT_DYLIB_PATH`).
    pub ort_lib: Option<PathBuf>,
}

/// Each text's embedding, in order, with the identity of the folder that made them (what the
/// training script records). Statements are embedded as documents (the model's document
/// prefix, none for MiniLM). With `model`, a folder whose vectors are not that model's
/// ([`EmbeddedModel::same_vectors`]) is refused before anything is embedded.
pub(crate) fn embed(
    texts: &[&str],
    choice: &EmbedderChoice,
    model: Option<&EmbeddedModel>,
) -> Result<(EmbeddedModel, Vec<Vec<f32>>)> {
    let mut embedder = OnnxEmbedder::open(
        &choice.dir,
        choice.ort_lib.as_deref(),
        EmbedOptions::default(),
    )
    .map_err(named)?;
    let info = embedder.info().clone();
    let config = choice.dir.join("embedder.json");
    let used = EmbeddedModel {
        name: info.name.clone(),
        sha256: info.sha256.clone().unwrap_or_default(),
        tokenizer_sha256: info.tokenizer_sha256.clone().unwrap_or_default(),
        config_sha256: config
            .is_file()
            .then(|| crate::io::read_bytes(&config).map(|b| crate::io::sha256_hex(&b)))
            .transpose()?,
        dimensions: info.dimensions,
    };
    if let Some(model) = model {
        if !used.same_vectors(model) {
            return Err(wrong_model(&choice.dir, &used, model));
        }
    }
    let vectors = embedder
        .embed(texts, Role::Belief, &mut |_| {})
        .map_err(named)?;
    if vectors.len() != texts.len() {
        return Err(Error::backend(
            "temporal --embedder",
            format!("{} vectors for {} statements", vectors.len(), texts.len()),
        ));
    }
    Ok((used, vectors))
}

/// The texts of `statements`, embedded for the classifier's embedded model by `choice`, which
/// must be the folder its weights were trained with.
pub(crate) fn for_classifier<'a>(
    statements: impl IntoIterator<Item = &'a Statement>,
    choice: &EmbedderChoice,
) -> Result<(EmbeddedModel, Vec<Vec<f32>>)> {
    let texts: Vec<&str> = statements.into_iter().map(|s| s.text.as_str()).collect();
    embed(&texts, choice, Some(crate::temporal::embedded_model()))
}

/// Exit 2, saying which of the folder's files differ from the ones the weights were trained
/// with.
fn wrong_model(dir: &Path, used: &EmbeddedModel, model: &EmbeddedModel) -> Error {
    let sha = |s: &Option<String>| s.clone().unwrap_or_else(|| "none".into());
    let differs: Vec<String> = [
        (
            "model.onnx",
            Some(used.sha256.clone()),
            Some(model.sha256.clone()),
        ),
        (
            "tokenizer.json",
            Some(used.tokenizer_sha256.clone()),
            Some(model.tokenizer_sha256.clone()),
        ),
        (
            "embedder.json",
            used.config_sha256.clone(),
            model.config_sha256.clone(),
        ),
    ]
    .into_iter()
    .filter(|(_, a, b)| a != b)
    .map(|(file, a, b)| format!("{file} sha256 {} (expected {})", sha(&a), sha(&b)))
    .chain((used.dimensions != model.dimensions).then(|| {
        format!(
            "{} dimensions (expected {})",
            used.dimensions, model.dimensions
        )
    }))
    .collect();
    Error::Usage(format!(
        "--embedder {}: not the model the classifier's embedded weights were trained with, \
         {}: {}; give that model's folder (scripts/setup-models.sh installs it as models/{})",
        dir.display(),
        model.name,
        differs.join(", "),
        model.name
    ))
}

/// The embedder's runtime failures name the cosine backend, its usual caller; here they are
/// the classifier's `--embedder`.
fn named(e: Error) -> Error {
    match e {
        Error::Backend { message, .. } => Error::backend("temporal --embedder", message),
        other => other,
    }
}
