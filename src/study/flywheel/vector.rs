//! The vector side (claim C3): cosine with a real embedding model over stores of the domain as
//! they grow (nested: the store of 50 holds the store of 10), beside alias-BM25 on the same
//! stores and queries.
//!
//! Stores come from [`super::user::grown_store`]: beliefs seeded as the simulation seeds them,
//! one query per belief (its user's most used form in a message), at most `queries` per size,
//! spread evenly over the store. Cosine runs with the suites' vector semantics (spec §E: no
//! score threshold, the suites' limit, the paper's text policy `names+expanded` unless asked
//! otherwise) and, beside it, with each similarity floor (on Atlas's score, `(1 + cos) / 2`).

use super::user::{grown_store, Reference};
use super::Params;
use crate::backend::bm25::{Bm25Backend, Bm25Config};
use crate::backend::cosine::{CosineBackend, CosineConfig};
use crate::backend::{Backend, Hit, SearchRequest};
use crate::embed::onnx::EmbedOptions;
use crate::embed::source::{fill, ModelSource};
use crate::embed::{BeliefText, NeededText, QueryText, Role, TextPolicy};
use crate::error::{Error, Result};
use crate::profile::Profile;
use crate::suite::{Belief, DEFAULT_USER};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// What the vector side runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VectorOptions {
    /// Store sizes, in beliefs.
    pub sizes: Vec<usize>,
    /// Similarity floors, on Atlas's score `(1 + cos) / 2`.
    pub floors: Vec<f32>,
    /// Queries per size, at most.
    pub queries: usize,
    /// An ONNX model folder, or `ollama:NAME` / `openai:NAME`.
    pub model: String,
    /// Which belief text is embedded.
    pub belief_text: BeliefText,
    /// ONNX Runtime library (else `ORT_DYLIB_PATH`).
    #[serde(skip)]
    pub ort_lib: Option<PathBuf>,
    /// Folder of embedding stores (vectors found there are reused).
    #[serde(skip)]
    pub store_dir: PathBuf,
}

/// One system at one store size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VectorRow {
    /// Beliefs in the store.
    pub beliefs: usize,
    /// `bm25`, `cosine` (no floor) or `cosine>=0.85`.
    pub system: String,
    /// Queries searched.
    pub queries: usize,
    /// Results returned over all queries.
    pub retrieved: usize,
    /// Results that were the belief meant.
    pub correct: usize,
    /// `correct / retrieved`; `None` when nothing was retrieved.
    pub precision: Option<f64>,
    /// Share of queries that retrieved the belief meant.
    pub coverage: f64,
    /// Share of queries whose first result is the belief meant.
    pub top1: f64,
    /// `retrieved / queries`.
    pub retrieved_per_query: f64,
    /// Cosine only: mean score of the belief meant (Atlas scale).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gold_score: Option<f64>,
    /// Cosine only: mean score of the best other belief (how close the domain sits).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_other_score: Option<f64>,
}

/// The queries of a store of `n`: every belief's when at most `max`, else `max` spread evenly.
pub(crate) fn queries_of(all: &[Reference], n: usize, max: usize) -> Vec<&Reference> {
    let n = n.min(all.len());
    if n <= max {
        return all[..n].iter().collect();
    }
    (0..max).map(|i| &all[i * n / max]).collect()
}

#[derive(Default)]
struct Tally {
    queries: usize,
    retrieved: usize,
    correct: usize,
    covered: usize,
    top1: usize,
    gold: Vec<f64>,
    other: Vec<f64>,
}

impl Tally {
    fn add(&mut self, gold: &str, ids: &[&Hit]) {
        self.queries += 1;
        self.retrieved += ids.len();
        let hit = ids.iter().any(|h| h.id == gold);
        self.correct += usize::from(hit);
        self.covered += usize::from(hit);
        self.top1 += usize::from(ids.first().is_some_and(|h| h.id == gold));
    }

    fn row(&self, beliefs: usize, system: String) -> VectorRow {
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        let share = |a: usize| super::metrics::ratio(a, self.queries).unwrap_or(0.0);
        VectorRow {
            beliefs,
            system,
            queries: self.queries,
            retrieved: self.retrieved,
            correct: self.correct,
            precision: super::metrics::ratio(self.correct, self.retrieved),
            coverage: share(self.covered),
            top1: share(self.top1),
            retrieved_per_query: share(self.retrieved),
            gold_score: mean(&self.gold),
            best_other_score: mean(&self.other),
        }
    }
}

/// The model's vectors for every text of `beliefs` and `queries`, embedded now in batches.
fn vectors(
    options: &VectorOptions,
    policy: TextPolicy,
    beliefs: &[Belief],
    queries: &[String],
    progress: super::Progress<'_>,
) -> Result<CosineConfig> {
    let source = ModelSource {
        spec: options.model.clone(),
        store_dir: Some(options.store_dir.clone()),
        store_name: None,
        ort_lib: options.ort_lib.clone(),
        options: EmbedOptions::default(),
        service: Default::default(),
        ollama_legacy: false,
    };
    if !source.is_embedder() {
        return Err(Error::Usage(format!(
            "--model {}: the vector side embeds texts of its own, so it needs an ONNX model \
             folder (with model.onnx; see scripts/build_minilm_onnx.py) or a served model \
             (ollama:NAME, openai:NAME), not a store name",
            options.model
        )));
    }
    let (mut embedder, mut store) = source.open_model()?;
    let mut needed: Vec<NeededText> = beliefs
        .iter()
        .map(|b| NeededText {
            role: Role::Belief,
            text: policy.belief.of(b),
        })
        .collect();
    needed.extend(queries.iter().map(|q| NeededText {
        role: Role::Query,
        text: q.clone(),
    }));
    needed.sort();
    needed.dedup();
    fill(
        embedder.as_mut(),
        &mut store,
        policy,
        &needed,
        &mut |done, total| progress(done, total, "texts embedded"),
    )?;
    let mut config = CosineConfig::new(options.model.clone());
    config.belief_text = Some(policy.belief);
    config.query_text = Some(policy.query);
    Ok(config.with_vectors(Arc::new(store), Profile::Paper))
}

/// Run the vector side: per size, BM25, cosine without a floor, cosine with each floor.
pub(crate) fn run(
    params: &Params,
    options: &VectorOptions,
    progress: super::Progress<'_>,
) -> Result<Vec<VectorRow>> {
    let largest = options.sizes.iter().copied().max().unwrap_or(0);
    let (beliefs, all_queries) = grown_store(params, largest)
        .map_err(|e| Error::backend("flywheel", format!("the vector side's store: {e}")))?;
    let prepared = |r: &Reference| crate::query::prepare(&r.message, Profile::Head).query;
    let mut texts: Vec<String> = Vec::new();
    for &n in &options.sizes {
        texts.extend(
            queries_of(&all_queries, n, options.queries)
                .into_iter()
                .map(prepared),
        );
    }
    let policy = TextPolicy {
        belief: options.belief_text,
        query: QueryText::Expanded,
    };
    let config = vectors(options, policy, &beliefs, &texts, progress)?;
    let bm25_config = Bm25Config {
        min_score: params.min_score,
        ..Bm25Config::default()
    };
    let mut rows = Vec::new();
    for (done, &n) in options.sizes.iter().enumerate() {
        let corpus = &beliefs[..n.min(beliefs.len())];
        let bm25 = Bm25Backend::with_config(corpus, bm25_config)?;
        let cosine = CosineBackend::build(corpus, &config)?;
        let mut bm25_tally = Tally::default();
        let mut cos_tally = Tally::default();
        let mut floor_tallies: Vec<Tally> =
            options.floors.iter().map(|_| Tally::default()).collect();
        for r in queries_of(&all_queries, n, options.queries) {
            let text = prepared(r);
            let request = SearchRequest {
                message: &r.message,
                ..SearchRequest::of_user(DEFAULT_USER, &text, params.limit)
            };
            let hits = bm25
                .search(&request)
                .map_err(|e| Error::backend("bm25", e))?;
            bm25_tally.add(&r.gold, &hits.iter().collect::<Vec<_>>());
            // All of the store, to see the gold's score and its nearest rival's.
            let every = SearchRequest {
                limit: n,
                ..request
            };
            let ranked = cosine
                .search(&every)
                .map_err(|e| Error::backend("cosine", e))?;
            let score = |h: &Hit| f64::from(h.score.unwrap_or(0.0));
            if let Some(g) = ranked.iter().find(|h| h.id == r.gold) {
                cos_tally.gold.push(score(g));
            }
            if let Some(o) = ranked.iter().find(|h| h.id != r.gold) {
                cos_tally.other.push(score(o));
            }
            let top: Vec<&Hit> = ranked.iter().take(params.limit).collect();
            cos_tally.add(&r.gold, &top);
            for (floor, tally) in options.floors.iter().zip(&mut floor_tallies) {
                let kept: Vec<&Hit> = top
                    .iter()
                    .copied()
                    .filter(|h| h.score.unwrap_or(0.0) >= *floor)
                    .collect();
                tally.add(&r.gold, &kept);
            }
        }
        rows.push(bm25_tally.row(n, "bm25".into()));
        rows.push(cos_tally.row(n, "cosine".into()));
        for (floor, tally) in options.floors.iter().zip(&floor_tallies) {
            rows.push(tally.row(n, format!("cosine>={floor}")));
        }
        progress(done + 1, options.sizes.len(), "store sizes");
    }
    Ok(rows)
}
