//! Embedding services: Ollama (`/api/embed`, and the legacy one-text `/api/embeddings` the paper
//! and PrecisionMemBench used) and OpenAI-compatible `/v1/embeddings` (vLLM, llama.cpp,
//! text-embeddings-inference, LM Studio, hosted APIs), behind [`Embedder`].
//!
//! The client is ureq (blocking, small, rustls for hosted APIs): the harness embeds in batches
//! from a few threads, so an async runtime would buy nothing. Every call has a timeout;
//! transient failures (transport errors, 429, 5xx) are retried with exponential backoff, a
//! bounded number of times; anything else fails at once. Every answer is checked: the count,
//! the dimension (the same on every call), finite and non-zero values.

mod spec;

pub use spec::{Api, ServiceOptions, ServiceSpec};

use super::store::{ModelInfo, Pooling, ServiceIdentity};
use super::{Embedder, Role};
use crate::error::{Error, Result};
use serde_json::{json, Value};
use std::time::Duration;

/// An embedding service, connected.
pub struct ServiceEmbedder {
    spec: ServiceSpec,
    options: ServiceOptions,
    agent: ureq::Agent,
    key: Option<String>,
    info: ModelInfo,
}

/// One failed call: whether trying again may help, and what happened.
struct CallError {
    transient: bool,
    message: String,
}

impl ServiceEmbedder {
    /// Connect to the service: read the API key, ask Ollama for the model's digest, embed one
    /// probe text to learn the dimension (and that the service answers at all).
    pub fn connect(spec: ServiceSpec, options: ServiceOptions) -> Result<ServiceEmbedder> {
        let key = match (spec.api, &options.api_key_env) {
            (_, Some(var)) => Some(std::env::var(var).map_err(|_| {
                Error::Usage(format!("--api-key-env {var}: the variable is not set"))
            })?),
            (Api::OpenAi, None) => std::env::var("OPENAI_API_KEY").ok(),
            _ => None,
        };
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(options.timeout_secs.max(1))))
            .http_status_as_error(false)
            .build()
            .into();
        let mut embedder = ServiceEmbedder {
            info: ModelInfo {
                name: spec.store_name(),
                source: format!("{} {} at {}", spec.api.name(), spec.model, spec.url),
                sha256: None,
                tokenizer_sha256: None,
                dimensions: 0,
                pooling: Pooling::Mean,
                normalize: spec.api == Api::Ollama,
                query_prefix: options.query_prefix.clone(),
                document_prefix: options.document_prefix.clone(),
                max_tokens: None,
                service: None,
            },
            spec,
            options,
            agent,
            key,
        };
        let digest = embedder.ollama_digest();
        embedder.info.service = Some(ServiceIdentity {
            api: embedder.spec.api,
            model: embedder.spec.model.clone(),
            digest,
        });
        let probe = embedder.call(&["dimension probe"], Role::Query)?;
        embedder.info.dimensions = probe[0].len();
        Ok(embedder)
    }

    /// Ollama's digest of the model (`GET /api/tags`), when it offers one.
    fn ollama_digest(&self) -> Option<String> {
        if self.spec.api == Api::OpenAi {
            return None;
        }
        let mut response = self
            .agent
            .get(format!("{}/api/tags", self.spec.url))
            .call()
            .ok()?;
        let body: Value = serde_json::from_str(&response.body_mut().read_to_string().ok()?).ok()?;
        let wanted = [
            self.spec.model.clone(),
            format!("{}:latest", self.spec.model),
        ];
        body["models"]
            .as_array()?
            .iter()
            .find(|m| wanted.iter().any(|w| m["name"] == w.as_str()))
            .and_then(|m| m["digest"].as_str())
            .map(str::to_string)
    }

    fn fail(&self, message: impl std::fmt::Display) -> Error {
        Error::backend(
            "cosine",
            format!(
                "{} {} at {}: {message}",
                self.spec.api.name(),
                self.spec.model,
                self.spec.url
            ),
        )
    }

    /// Embed one call's worth of texts, with retries.
    fn call(&self, texts: &[&str], role: Role) -> Result<Vec<Vec<f32>>> {
        let prefix = match role {
            Role::Query => &self.options.query_prefix,
            Role::Belief => &self.options.document_prefix,
        };
        let inputs: Vec<String> = texts.iter().map(|t| format!("{prefix}{t}")).collect();
        let mut attempt = 0;
        loop {
            match self.request(&inputs) {
                Ok(body) => return self.vectors(&body, texts),
                Err(e) if e.transient && attempt < self.options.retries => {
                    std::thread::sleep(Duration::from_millis(100 << attempt.min(6)));
                    attempt += 1;
                }
                Err(e) => {
                    let tries = if attempt > 0 {
                        format!(" (after {} attempts)", attempt + 1)
                    } else {
                        String::new()
                    };
                    return Err(self.fail(format!(
                        "{}{tries}, embedding {:?}",
                        e.message,
                        short(texts[0])
                    )));
                }
            }
        }
    }

    /// One HTTP request; the parsed JSON body of a 2xx answer.
    fn request(&self, inputs: &[String]) -> std::result::Result<Value, CallError> {
        let (path, body) = match self.spec.api {
            Api::Ollama => (
                "/api/embed",
                json!({"model": self.spec.model, "input": inputs}),
            ),
            Api::OllamaLegacy => (
                "/api/embeddings",
                json!({"model": self.spec.model, "prompt": inputs[0]}),
            ),
            Api::OpenAi => (
                "/v1/embeddings",
                json!({"model": self.spec.model, "input": inputs, "encoding_format": "float"}),
            ),
        };
        let mut request = self
            .agent
            .post(format!("{}{path}", self.spec.url))
            .header("Content-Type", "application/json");
        if let Some(key) = &self.key {
            request = request.header("Authorization", &format!("Bearer {key}"));
        }
        let mut response = request
            .send(body.to_string().as_bytes())
            .map_err(|e| CallError {
                transient: true,
                message: match e {
                    ureq::Error::Timeout(_) => {
                        format!(
                            "POST {path}: timed out after {} s",
                            self.options.timeout_secs
                        )
                    }
                    e => format!("POST {path}: {e}"),
                },
            })?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| CallError {
                transient: true,
                message: format!("POST {path}: reading the answer: {e}"),
            })?;
        if !(200..300).contains(&status) {
            return Err(CallError {
                transient: status == 429 || status >= 500,
                message: format!("POST {path}: HTTP {status}: {}", short(&text)),
            });
        }
        serde_json::from_str(&text).map_err(|e| CallError {
            transient: false,
            message: format!(
                "POST {path}: the answer is not JSON ({e}): {}",
                short(&text)
            ),
        })
    }

    /// The vectors of a 2xx answer, checked against what was asked.
    fn vectors(&self, body: &Value, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        let arrays: Vec<&Value> = match self.spec.api {
            Api::Ollama => body["embeddings"]
                .as_array()
                .ok_or_else(|| self.fail("expected {\"embeddings\": [[...], ...]}"))?
                .iter()
                .collect(),
            Api::OllamaLegacy => vec![body
                .get("embedding")
                .ok_or_else(|| self.fail("expected {\"embedding\": [...]}"))?],
            Api::OpenAi => {
                let data = body["data"].as_array().ok_or_else(|| {
                    self.fail("expected {\"data\": [{\"index\", \"embedding\"}]}")
                })?;
                let mut slots: Vec<Option<&Value>> = vec![None; data.len()];
                for d in data {
                    let i = d["index"].as_u64().map(|i| i as usize);
                    match i.and_then(|i| slots.get_mut(i)) {
                        Some(slot @ None) => *slot = Some(&d["embedding"]),
                        _ => return Err(self.fail(format!("bad or repeated index {}", d["index"]))),
                    }
                }
                slots.into_iter().flatten().collect()
            }
        };
        if arrays.len() != texts.len() {
            return Err(self.fail(format!(
                "{} vectors for {} texts (the first {:?})",
                arrays.len(),
                texts.len(),
                short(texts[0])
            )));
        }
        let mut out = Vec::with_capacity(texts.len());
        for (array, text) in arrays.into_iter().zip(texts) {
            let vector: Vec<f32> = serde_json::from_value(array.clone()).map_err(|_| {
                self.fail(format!("{:?}: expected an array of numbers", short(text)))
            })?;
            let expected = self.info.dimensions;
            if vector.is_empty() || (expected > 0 && vector.len() != expected) {
                return Err(self.fail(format!(
                    "{:?}: a {}-dimensional vector, expected {expected}",
                    short(text),
                    vector.len()
                )));
            }
            if vector.iter().any(|x| !x.is_finite()) || vector.iter().all(|x| *x == 0.0) {
                return Err(self.fail(format!("{:?}: a zero or non-finite vector", short(text))));
            }
            out.push(vector);
        }
        Ok(out)
    }
}

/// The first 80 characters of `text`, for messages.
fn short(text: &str) -> String {
    let mut s: String = text.chars().take(80).collect();
    if s.len() < text.len() {
        s.push('…');
    }
    s
}

impl Embedder for ServiceEmbedder {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    /// Calls of `batch_size` texts (one for the legacy API), `concurrency` at a time, results
    /// in input order.
    fn embed(
        &mut self,
        texts: &[&str],
        role: Role,
        on_batch: &mut dyn FnMut(usize),
    ) -> Result<Vec<Vec<f32>>> {
        let size = match self.spec.api {
            Api::OllamaLegacy => 1,
            _ => self.options.batch_size.max(1),
        };
        let chunks: Vec<&[&str]> = texts.chunks(size).collect();
        let mut out = Vec::with_capacity(texts.len());
        let this: &ServiceEmbedder = self;
        for wave in chunks.chunks(this.options.concurrency.max(1)) {
            let results: Vec<Result<Vec<Vec<f32>>>> = std::thread::scope(|scope| {
                let handles: Vec<_> = wave
                    .iter()
                    .map(|chunk| scope.spawn(move || this.call(chunk, role)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join()
                            .unwrap_or_else(|_| Err(this.fail("a worker panicked")))
                    })
                    .collect()
            });
            for (chunk, result) in wave.iter().zip(results) {
                out.extend(result?);
                on_batch(chunk.len());
            }
        }
        Ok(out)
    }
}
