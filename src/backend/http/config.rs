//! What drives a memory system over HTTP: the mode (upstream's client or the careful one) and
//! the provider's needs (its URL and name, reseeding, seed delay, `/update`, `/wait`, timeout,
//! retries and settling), as a run's plan and its manifest carry them.

use serde::{Deserialize, Serialize};

/// Upstream's client, or the careful one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Statuses checked, retries, failures recorded, ids from metadata accepted.
    #[default]
    Careful,
    /// PrecisionMemBench's client at 18c7955, quirks included.
    Compat,
}

/// Where the memory system is and how to talk to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HttpConfig {
    /// Base URL (`http://127.0.0.1:8080`).
    pub url: String,
    /// Provider name in reports (`retrieval-report-NAME.json`).
    pub name: String,
    /// Upstream's client or the careful one.
    #[serde(default)]
    pub mode: Mode,
    /// Reset and seed the store before the cases (else reuse what it holds).
    #[serde(default = "yes")]
    pub reseed: bool,
    /// Sleep after every seeded `/add`, in ms.
    #[serde(default)]
    pub seed_delay_ms: u64,
    /// Session alias updates go to `PUT /update` (else a second `/add`, as upstream).
    #[serde(default)]
    pub supports_update: bool,
    /// `POST /wait` after seeding.
    #[serde(default)]
    pub wait_after_seed: bool,
    /// Per-request timeout in seconds (undici's 300 s by default).
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
    /// Careful mode: extra attempts at `/search` and `/reset` after a transient failure.
    #[serde(default = "default_retries")]
    pub retries: u32,
    /// Careful mode: sleep after each session mutation, in ms, so an indexing store sees it.
    #[serde(default)]
    pub settle_ms: u64,
}

fn yes() -> bool {
    true
}
fn default_timeout() -> u64 {
    300
}
fn default_retries() -> u32 {
    3
}

impl HttpConfig {
    /// A careful client of `url`, reported as `name`, with upstream's defaults otherwise.
    pub fn new(url: &str, name: &str) -> HttpConfig {
        HttpConfig {
            url: url.to_string(),
            name: name.to_string(),
            mode: Mode::Careful,
            reseed: true,
            seed_delay_ms: 0,
            supports_update: false,
            wait_after_seed: false,
            timeout_secs: default_timeout(),
            retries: default_retries(),
            settle_ms: 0,
        }
    }

    /// Its result-changing settings, in tag order (`backend::label`): `compat`, `noreseed`,
    /// `settle<ms>`. The provider's own needs (seed delay, `/wait`, `/update`) describe how
    /// that system must be driven, not a variant of the measurement, and add nothing.
    pub(crate) fn label_settings(&self) -> Vec<crate::backend::label::Setting> {
        use crate::backend::label::Setting;
        vec![
            Setting::switch("compat", !self.careful()),
            Setting::switch("noreseed", !self.reseed),
            Setting::new("settle", self.settle_ms, 0),
        ]
    }

    pub(super) fn careful(&self) -> bool {
        self.mode == Mode::Careful
    }
}
