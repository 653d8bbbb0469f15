//! Which backend made a report: its manifest says so (`backendInfo`); files without one
//! (upstream's) are known only by their provider name.

use crate::backend::{BackendInfo, Reader, ScoreScale};
use serde_json::Value;
use std::path::Path;

/// A report's manifest: its `manifest` key, or the paper shape's `.manifest.json` sidecar.
pub(super) fn report_manifest(path: &Path, value: &Value) -> Option<Value> {
    value
        .get("manifest")
        .cloned()
        .or_else(|| sidecar_manifest(path))
}

/// The paper layout's sidecar manifest of the report at `path`, if it is there and is JSON.
pub(super) fn sidecar_manifest(path: &Path) -> Option<Value> {
    serde_json::from_slice(&crate::io::read_bytes(&path.with_extension("manifest.json")).ok()?).ok()
}

/// The backend of a tenure-eval report: its manifest's `backendInfo`, or (reports written
/// before manifests carried it) the built-in backend its `backend` id names.
pub(super) fn manifest_info(manifest: &Value) -> Option<BackendInfo> {
    if let Some(info) = manifest.get("backendInfo") {
        return serde_json::from_value(info.clone()).ok();
    }
    let model = manifest["backendSettings"]["model"]
        .as_str()
        .map(str::to_string);
    match manifest.get("backend")?.as_str()? {
        "bm25" => Some(upstream_info("tenure")),
        "cosine" => Some(BackendInfo {
            id: "cosine".into(),
            label: format!("cosine/{}", model.as_deref().unwrap_or("?")),
            model,
            ..upstream_info("vector")
        }),
        _ => None,
    }
}

/// What a report without a manifest tells of its backend: only the provider name. The one
/// place names are read as kinds: `tenure` is Atlas BM25 (Tenure's reader), `vector`
/// PrecisionMemBench's embedding baseline; any other provider is an external system whose
/// scores have no known scale.
pub fn upstream_info(provider: &str) -> BackendInfo {
    let (id, reader, score_scale) = match provider {
        "tenure" => ("bm25", Reader::Text, ScoreScale::LuceneBm25),
        "vector" => ("cosine", Reader::Vector, ScoreScale::VectorSimilarity),
        _ => ("http", Reader::External, ScoreScale::None),
    };
    BackendInfo {
        id: id.into(),
        provider: provider.into(),
        label: id.into(),
        model: None,
        text_policy: None,
        file_prefix: None,
        paper_primary: provider == "tenure",
        reader,
        score_scale,
        tag: None,
        upstream_exact: !matches!(provider, "tenure" | "vector"),
    }
}
