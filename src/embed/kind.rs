//! What a `--model` spec names (a store, an ONNX model folder, a served model, a built-in
//! embedder): each kind takes its own flags, and the command line refuses a flag of a kind no
//! model given is.

use super::builtin::BuiltinEmbedder;
use super::onnx::is_model_dir;
use super::service::{Api, ServiceSpec};
use std::path::Path;

/// What a `--model` spec names; each kind takes its own flags (an ONNX runtime library for a
/// folder, an API key for a served model).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModelKind {
    /// A store name: vectors looked up, nothing embedded.
    Store,
    /// An ONNX model folder (model.onnx + tokenizer.json).
    Folder,
    /// A served model; `ollama` for Ollama's APIs.
    Served {
        /// Ollama (else OpenAI's API).
        ollama: bool,
    },
    /// `hashed[:DIM]` or `random[:DIM]`, built in.
    Builtin,
}

impl ModelKind {
    /// The kind `spec` names (a malformed served spec is still a served one: its error comes
    /// when it is parsed).
    pub(crate) fn of(spec: &str) -> ModelKind {
        if let Some(served) = ServiceSpec::parse(spec, false) {
            let ollama = served.is_ok_and(|s| s.api != Api::OpenAi);
            ModelKind::Served { ollama }
        } else if BuiltinEmbedder::parse(spec).is_some() {
            ModelKind::Builtin
        } else if is_model_dir(Path::new(spec)) {
            ModelKind::Folder
        } else {
            ModelKind::Store
        }
    }
}
