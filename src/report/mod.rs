//! Reports: upstream-shaped JSON (spec §H) plus a manifest, the summary table, atomic writes.

pub mod json;
pub mod table;
mod write;

pub use write::write_atomic;

use crate::profile::Profile;
use crate::run::StaticRun;
use crate::suite::{InputFile, Suite};
use serde::Serialize;

/// Which upstream report layout to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Paper tag: a bare array of case entries (the manifest goes to a sidecar file).
    Paper,
    /// PrecisionMemBench: `{provider, retrieval, cases, ingestion}` (+ `manifest`).
    Pmb,
}

impl Shape {
    /// The layout each profile's upstream wrote.
    pub fn of(profile: Profile) -> Shape {
        match profile {
            Profile::Paper => Shape::Paper,
            Profile::Head => Shape::Pmb,
        }
    }
}

/// What produced a report, and from which exact inputs.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// Always `tenure-eval`.
    pub tool: &'static str,
    /// Crate version.
    pub version: &'static str,
    /// Suite name.
    pub suite: String,
    /// Pipeline profile.
    pub profile: Profile,
    /// Backend id.
    pub backend: &'static str,
    /// Backend settings.
    pub backend_settings: serde_json::Value,
    /// Input files with their sha256.
    pub inputs: Vec<InputFile>,
    /// Run start (RFC 3339). Measured.
    pub started_at: String,
}

impl Manifest {
    /// Manifest of a static run of `suite`.
    pub fn for_static(suite: &Suite, run: &StaticRun) -> Manifest {
        Manifest {
            tool: "tenure-eval",
            version: env!("CARGO_PKG_VERSION"),
            suite: suite.name.clone(),
            profile: suite.profile,
            backend: run.backend.name(),
            backend_settings: run.backend_settings.clone(),
            inputs: suite.inputs.clone(),
            started_at: run.started_at.clone(),
        }
    }
}
