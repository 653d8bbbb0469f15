//! Is a store this model's? Before a run reads a store's vectors as a model's, what made them
//! must be what the model is: the width, the ONNX files' sha256, the served API, model and
//! digest, and the prefixes put before each text. A store of vectors computed elsewhere and
//! imported records no identity and cannot be checked; any model of its name and width may
//! extend it.

use super::store::{EmbeddingStore, ModelInfo, ServiceIdentity};
use crate::error::{Error, Result};
use std::path::PathBuf;

/// Refuse `store` (exit 2, naming the field of its manifest) unless `info`, the model `spec`
/// opened, made its vectors.
pub(crate) fn check_same_model(store: &EmbeddingStore, info: &ModelInfo, spec: &str) -> Result<()> {
    let manifest = PathBuf::from(&store.origin).join("manifest.json");
    if store.model.dimensions != info.dimensions {
        return Err(Error::input(
            &manifest,
            "$.model.dimensions",
            format!(
                "the store holds {}-dimensional vectors but {} returns {}; use another --store-dir \
                 or name the model differently in its embedder.json",
                store.model.dimensions,
                spec,
                info.dimensions
            ),
        ));
    }
    for (field, stored, actual) in [
        ("sha256", &store.model.sha256, &info.sha256),
        (
            "tokenizer_sha256",
            &store.model.tokenizer_sha256,
            &info.tokenizer_sha256,
        ),
    ] {
        // An imported store (null hashes) cannot be checked; any export of the model may extend it.
        if let (Some(stored), Some(actual)) = (stored, actual) {
            if stored != actual {
                return Err(Error::input(
                    &manifest,
                    format!("$.model.{field}"),
                    format!(
                        "store {} was made by a different model ({field} {stored}); {} has {actual}. \
                         Its vectors would not be comparable: use another --store-dir, or name \
                         this model differently in its embedder.json",
                        store.model.name,
                        spec
                    ),
                ));
            }
        }
    }
    // The prefixes are part of what was embedded: a store filled with `query: ` before every
    // query was read by a run without it, and the other way round, in silence (a sixteenth
    // audit). An imported store (no identity) records none and cannot be checked.
    let identified = store.model.sha256.is_some() || store.model.service.is_some();
    for (field, stored, actual) in [
        (
            "query_prefix",
            &store.model.query_prefix,
            &info.query_prefix,
        ),
        (
            "document_prefix",
            &store.model.document_prefix,
            &info.document_prefix,
        ),
    ] {
        if identified && stored != actual {
            return Err(Error::input(
                &manifest,
                format!("$.model.{field}"),
                format!(
                    "store {} was embedded with {field} {stored:?}, and {spec} has {actual:?}: \
                     its vectors are of other texts. Use another --store-dir, or embed \
                     --refresh to replace them",
                    store.model.name
                ),
            ));
        }
    }
    check_service(store, info.service.as_ref(), info.sha256.is_some(), spec)
}

/// Served models: the same API and model, and the same digest where both are known. An
/// imported store (no identity) may be extended by any model of its name and width.
pub(crate) fn check_service(
    store: &EmbeddingStore,
    service: Option<&ServiceIdentity>,
    onnx: bool,
    spec: &str,
) -> Result<()> {
    let manifest = PathBuf::from(&store.origin).join("manifest.json");
    let refuse = |field: &str, what: String| {
        Err(Error::input(
            &manifest,
            format!("$.model.{field}"),
            format!(
                "store {} {what}; its vectors would not be comparable with {spec}'s: use \
                 another --store-dir, or embed --refresh to replace them",
                store.model.name
            ),
        ))
    };
    match (&store.model.service, service) {
        (Some(a), Some(b)) if a.api != b.api || a.model != b.model => refuse(
            "service",
            format!("was made by {} {}", a.api.name(), a.model),
        ),
        (Some(a), Some(b)) => match (&a.digest, &b.digest) {
            (Some(x), Some(y)) if x != y => refuse(
                "service.digest",
                format!(
                    "was made by {} digest {x}, the service now has {y}",
                    a.model
                ),
            ),
            _ => Ok(()),
        },
        (Some(a), None) if onnx => refuse(
            "service",
            format!("was made by {} {}", a.api.name(), a.model),
        ),
        (None, Some(_)) if store.model.sha256.is_some() => {
            refuse("sha256", "was made by an ONNX model file".to_string())
        }
        _ => Ok(()),
    }
}
