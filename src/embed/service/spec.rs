//! What names a served model (`ollama:NAME[@URL]`, `openai:NAME[@URL]`) and how it is called.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// Which API a service speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Api {
    /// Ollama `POST /api/embed` (batched, L2-normalised).
    Ollama,
    /// Ollama `POST /api/embeddings` (one text per call, not normalised).
    OllamaLegacy,
    /// `POST /v1/embeddings` with `encoding_format: float`.
    OpenAi,
}

impl Api {
    /// `ollama`, `ollama-legacy`, `openai`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Api::Ollama => "ollama",
            Api::OllamaLegacy => "ollama-legacy",
            Api::OpenAi => "openai",
        }
    }
}

/// A served model: `ollama:NAME[@URL]` or `openai:NAME[@URL]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceSpec {
    /// The API.
    pub api: Api,
    /// The model as the service names it (`nomic-embed-text`, `text-embedding-3-small`).
    pub model: String,
    /// Base URL, without a trailing slash.
    pub url: String,
}

impl ServiceSpec {
    /// Parse a `--model` value; `None` when it names no service. `legacy` picks Ollama's
    /// `/api/embeddings`.
    pub fn parse(spec: &str, legacy: bool) -> Option<Result<ServiceSpec>> {
        let (api, rest, default_url) = if let Some(rest) = spec.strip_prefix("ollama:") {
            let api = if legacy {
                Api::OllamaLegacy
            } else {
                Api::Ollama
            };
            (api, rest, "http://localhost:11434")
        } else if let Some(rest) = spec.strip_prefix("openai:") {
            (Api::OpenAi, rest, "https://api.openai.com")
        } else {
            return None;
        };
        let (model, url) = match rest.split_once('@') {
            Some((model, url)) => (model, url),
            None => (rest, default_url),
        };
        if model.is_empty() || !(url.starts_with("http://") || url.starts_with("https://")) {
            return Some(Err(Error::Usage(format!(
                "--model {spec}: expected {}:NAME[@http(s)://HOST:PORT]",
                api.name().trim_end_matches("-legacy")
            ))));
        }
        Some(Ok(ServiceSpec {
            api,
            model: model.to_string(),
            url: url.trim_end_matches('/').to_string(),
        }))
    }

    /// The store this model's vectors go into: the API and the model name, made safe as a
    /// folder name (`ollama:nomic-embed-text:latest` → `ollama-nomic-embed-text`,
    /// `openai:org/model` → `openai-org-model`). The API prefix keeps a served model's store
    /// apart from a built-in or ONNX store of the same model (`ollama:all-minilm:l6-v2` →
    /// `ollama-all-minilm-l6-v2`, never the built-in `all-minilm-l6-v2`), and the two Ollama
    /// APIs apart (the legacy one's vectors are not normalised).
    pub(crate) fn store_name(&self) -> String {
        let model: String = self
            .model
            .trim_end_matches(":latest")
            .chars()
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
                _ => '-',
            })
            .collect::<String>()
            .trim_start_matches('.')
            .to_string();
        format!("{}-{model}", self.api.name())
    }
}

/// How a service is called.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ServiceOptions {
    /// Texts per call (Ollama `/api/embed`, OpenAI); the legacy API takes one.
    pub batch_size: usize,
    /// Calls in flight at once.
    pub concurrency: usize,
    /// Per-call timeout, seconds.
    pub timeout_secs: u64,
    /// Extra attempts after a transient failure.
    pub retries: u32,
    /// Prepended to query texts (none by default, as upstream).
    pub query_prefix: String,
    /// Prepended to belief texts (none by default, as upstream).
    pub document_prefix: String,
    /// Environment variable holding the API key (OpenAI: `OPENAI_API_KEY` by default).
    pub api_key_env: Option<String>,
}

impl Default for ServiceOptions {
    fn default() -> Self {
        ServiceOptions {
            batch_size: 32,
            concurrency: 1,
            timeout_secs: 120,
            retries: 3,
            query_prefix: String::new(),
            document_prefix: String::new(),
            api_key_env: None,
        }
    }
}
