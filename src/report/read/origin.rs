//! Which backend made a report: its manifest says so (`backendInfo`); files without one
//! (upstream's) are known only by their provider name.

use crate::backend::{BackendInfo, Reader, ScoreScale};
use crate::report::read::recorded::RecordedManifest;
use serde_json::Value;
use std::path::Path;

/// The paper layout's sidecar manifest of the report at `path`, if the report has none
/// `inline` and the sidecar is there and is JSON (read as a manifest by [`recorded`]).
pub(in crate::report) fn sidecar_manifest(path: &Path, inline: bool) -> Option<Value> {
    if inline {
        return None;
    }
    serde_json::from_slice(&crate::io::read_bytes(&sidecar_path(path)).ok()?).ok()
}

/// Where the paper layout keeps the manifest of the report at `path`.
pub(in crate::report) fn sidecar_path(path: &Path) -> std::path::PathBuf {
    path.with_extension("manifest.json")
}

/// The manifest of the report at `path`: `inline` (its `manifest` key) or else `sidecar` (the
/// paper layout's file), read as a [`RecordedManifest`]; a field of the wrong type is an error
/// naming the file it is in and its JSON path.
pub(in crate::report) fn recorded(
    path: &Path,
    inline: Option<Value>,
    sidecar: Option<Value>,
) -> crate::error::Result<Option<RecordedManifest>> {
    match (inline, sidecar) {
        (Some(m), _) => RecordedManifest::read(path, "$.manifest", m).map(Some),
        (None, Some(m)) => RecordedManifest::read(&sidecar_path(path), "$", m).map(Some),
        (None, None) => Ok(None),
    }
}

/// The backend of a tenure-eval report: its manifest's `backendInfo`, or (reports written
/// before manifests carried it) the built-in backend its `backend` id names.
pub(in crate::report) fn manifest_info(manifest: &RecordedManifest) -> Option<BackendInfo> {
    if let Some(info) = &manifest.backend_info {
        return serde_json::from_value(info.clone()).ok();
    }
    let model = manifest
        .backend_settings
        .as_ref()
        .and_then(|s| s["model"].as_str())
        .map(str::to_string);
    match manifest.backend.as_deref()? {
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
pub(crate) fn upstream_info(provider: &str) -> BackendInfo {
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
