//! PrecisionMemBench's `providers.config.json`, read as it is (provider-http spec §3).

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// How a provider's beliefs become text. Upstream stores the mode and never reads it (D8):
/// both send canonical name, aliases, content and why it matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BeliefToText {
    /// `canonical_name_aliases` (every published entry).
    #[default]
    CanonicalNameAliases,
    /// `content`: has no effect upstream either.
    Content,
}

/// One entry of `providers.config.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProviderEntry {
    /// Environment variable holding the base URL.
    pub env_var: String,
    /// Base URL when the variable is unset.
    pub default_url: String,
    /// Sleep after every seeded `/add`, in ms.
    #[serde(default)]
    pub seed_delay_ms: u64,
    /// Belief text mode (ignored upstream, D8).
    #[serde(default)]
    pub belief_to_text: BeliefToText,
    /// Session alias updates go to `PUT /update` (else a second `/add`).
    #[serde(default)]
    pub supports_update: bool,
    /// `POST /wait` after seeding.
    #[serde(default)]
    pub wait_after_seed: bool,
    /// Newer upstream versions search each scope separately unless this is set; the version
    /// tenure-eval reproduces (18c7955) does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supports_multi_scope: Option<bool>,
}

/// The file: provider name → entry.
pub type ProvidersConfig = BTreeMap<String, ProviderEntry>;

/// Read `path` and pick `name` (trimmed and lower-cased, as upstream reads `MEMORY_PROVIDER`).
pub fn load(path: &Path, name: &str) -> Result<(String, ProviderEntry)> {
    let config: ProvidersConfig = crate::io::parse_json(path, &crate::io::read_bytes(path)?)?;
    let key = name.trim().to_lowercase();
    match config.get(&key) {
        Some(entry) => Ok((key, entry.clone())),
        None => Err(Error::input(
            path,
            "$",
            format!(
                "no provider {key:?}; the file names {}",
                config.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        )),
    }
}

impl ProviderEntry {
    /// The base URL upstream would use: the variable's value, else the default (D13: the
    /// defaults collide, so the caller warns when it falls back).
    pub(crate) fn url(&self) -> (String, bool) {
        match std::env::var(&self.env_var) {
            Ok(url) if !url.trim().is_empty() => (url, false),
            _ => (self.default_url.clone(), true),
        }
    }
}
