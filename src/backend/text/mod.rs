//! Plain BM25 over a belief's words (`--backend bm25-text`): the baseline alias-BM25 is measured
//! against on text that has no aliases (LoCoMo's dialog turns, docs/locomo.md).
//!
//! Alias-BM25 (`bm25/`) indexes each name and alias as one whole term (spec §C.1), so a query
//! word matches a belief only where it is a whole alias; a dialog turn's sentence is never one.
//! This backend is what a search engine does by default instead: every word of the belief's
//! text (canonical name, aliases, content and why-it-matters, as PrecisionMemBench's vector
//! baseline embeds them) is a term, cut and lowercased by tantivy's default analyzer (runs of
//! letters and digits; no stemming, no stopwords); a query is one clause per word, as Lucene's
//! classic query parser makes it; each clause scores with Lucene's BM25 in float32 (k1 1.2, b
//! 0.75, `TermScorer`) over the statistics of every indexed version, and the score is their
//! sum. Ties: score descending, then index order (seed order, then writes; a replaced belief
//! moves to the end). The index is a map of postings, since scoring is the project's own
//! (the one alias-BM25 uses) and tantivy's analyzer is all that is needed of tantivy.

use super::bm25::similarity::{FieldStats, TermScorer};
use super::filterable::{Filterable, Interner};
use super::{Backend, BackendError, BackendInfo, Hit, Reader, ScoreScale, SearchRequest};
use crate::suite::text::BeliefText;
use crate::suite::Belief;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;
use tantivy::tokenizer::{LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer};

/// Plain BM25's settings (none yet: the analyzer and the similarity are fixed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextBm25Config {}

/// One indexed version of a belief.
struct Version {
    belief: Filterable,
    length: u32,
    live: bool,
}

/// Plain BM25 over the words of each belief.
pub(crate) struct TextBm25Backend {
    analyzer: TextAnalyzer,
    postings: FxHashMap<String, Vec<(u32, u32)>>,
    versions: Vec<Version>,
    current: HashMap<String, u32>,
    /// Each user's versions as runs of consecutive ordinals (a user's seed beliefs are one
    /// run): a search reads only its user's part of each posting list.
    users: HashMap<Arc<str>, Vec<Range<u32>>>,
    interner: Interner,
    stats: FieldStats,
    info: BackendInfo,
}

/// tantivy's default analyzer: letters-and-digits runs, tokens over 40 bytes dropped,
/// lowercased.
fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .build()
}

impl TextBm25Backend {
    /// Index `corpus` in natural order.
    pub fn build(corpus: &[Belief]) -> TextBm25Backend {
        let mut this = TextBm25Backend {
            analyzer: analyzer(),
            postings: FxHashMap::default(),
            versions: Vec::with_capacity(corpus.len()),
            current: HashMap::with_capacity(corpus.len()),
            users: HashMap::new(),
            interner: Interner::default(),
            stats: FieldStats::default(),
            info: BackendInfo {
                id: "bm25-text".into(),
                provider: "bm25-text".into(),
                label: "bm25-text".into(),
                model: None,
                text_policy: None,
                file_prefix: None,
                paper_primary: false,
                reader: Reader::Text,
                score_scale: ScoreScale::LuceneBm25,
                tag: None,
                upstream_exact: false,
            },
        };
        for belief in corpus {
            this.add(belief);
        }
        this
    }

    /// The words of `text`, in order.
    fn words(&mut self, text: &str) -> Vec<String> {
        let mut stream = self.analyzer.token_stream(text);
        let mut out = Vec::new();
        while let Some(token) = stream.next() {
            out.push(token.text.clone());
        }
        out
    }

    /// Index a new version of `belief`; an earlier version of it stops matching but stays in
    /// the statistics, as a deleted, unmerged Lucene document does.
    fn add(&mut self, belief: &Belief) {
        let words = self.words(&BeliefText::NamesContent.of(belief));
        let ordinal = self.versions.len() as u32;
        // Each distinct word once, with its count (sorted runs: no hashing per occurrence).
        let mut sorted: Vec<&str> = words.iter().map(String::as_str).collect();
        sorted.sort_unstable();
        for run in sorted.chunk_by(|a, b| a == b) {
            let posting = (ordinal, run.len() as u32);
            match self.postings.get_mut(run[0]) {
                Some(list) => list.push(posting),
                None => {
                    self.postings.insert(run[0].to_string(), vec![posting]);
                }
            }
        }
        if !words.is_empty() {
            self.stats.doc_count += 1;
            self.stats.sum_total_term_freq += words.len() as u64;
        }
        if let Some(old) = self.current.insert(belief.id.clone(), ordinal) {
            self.versions[old as usize].live = false;
        }
        let kept = self.interner.keep(belief);
        let runs = self.users.entry(kept.user_id.clone()).or_default();
        match runs.last_mut() {
            Some(run) if run.end == ordinal => run.end += 1,
            _ => runs.push(ordinal..ordinal + 1),
        }
        self.versions.push(Version {
            belief: kept,
            length: words.len() as u32,
            live: true,
        });
    }
}

impl Backend for TextBm25Backend {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        json!({
            "text": "canonical name, aliases, content, why it matters",
            "analyzer": "tantivy default: letters-and-digits runs, lowercased, tokens over 40 bytes dropped",
            "query": "one clause per query word, scores summed",
            "similarity": "Lucene BM25 (k1 1.2, b 0.75), float32",
            "ties": "score descending, then index order",
        })
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        let Some(runs) = self.users.get(request.filter.user_id) else {
            return Ok(Vec::new());
        };
        let mut analyzer = self.analyzer.clone();
        let mut stream = analyzer.token_stream(request.text);
        // Each clause's score per version, clauses in query order; the statistics are the
        // whole index's (a posting list's length is its document frequency), only the user's
        // part of the list is read.
        let mut scored: Vec<(u32, f32)> = Vec::new();
        while let Some(token) = stream.next() {
            let Some(postings) = self.postings.get(&token.text) else {
                continue;
            };
            let scorer = TermScorer::new(1.0, self.stats, postings.len() as u64);
            for run in runs {
                let from = postings.partition_point(|&(o, _)| o < run.start);
                let to = postings.partition_point(|&(o, _)| o < run.end);
                for &(ordinal, tf) in &postings[from..to] {
                    let version = &self.versions[ordinal as usize];
                    if version.live && request.filter.admits_kept(&version.belief) {
                        scored.push((ordinal, scorer.score(tf, version.length)));
                    }
                }
            }
        }
        // Lucene sums a BooleanQuery's clauses in double, in clause order (the stable sort
        // keeps it), and casts the sum to float.
        scored.sort_by_key(|&(ordinal, _)| ordinal);
        let mut hits: Vec<(u32, f32)> = Vec::new();
        for group in scored.chunk_by(|a, b| a.0 == b.0) {
            let sum: f64 = group.iter().map(|&(_, s)| f64::from(s)).sum();
            hits.push((group[0].0, sum as f32));
        }
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(request.limit);
        Ok(hits
            .into_iter()
            .map(|(ordinal, score)| Hit {
                id: self.versions[ordinal as usize].belief.id.to_string(),
                score: Some(score),
                explanation: None,
            })
            .collect())
    }

    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.add(belief);
        Ok(())
    }

    fn replace(&mut self, belief: &Belief) -> Result<(), BackendError> {
        self.add(belief);
        Ok(())
    }
}
