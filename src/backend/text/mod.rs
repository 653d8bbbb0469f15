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
//!
//! `--recency W` multiplies each score by the dissertation's recency signal (context-scorer
//! spec §1), `exp(-W * (1 - t))`, t the belief's normalised position among its user's beliefs
//! in index order (the conversation's order: 0 the first said, 1 the last), as the dissertation
//! places a segment: a prior for the later of two statements a query matches alike, as a
//! superseding fact is. Position, not timestamps: a benchmark's times can be a day for a whole
//! batch (BEAM's anchors), where an update and its original would tie. 0, the default, is plain
//! BM25. With `--recency-window K` the prior orders only the first K results by BM25
//! (the rest take its lowest value, exp(-W), so every score still falls down the list): which
//! K beliefs are retrieved is plain BM25's, only their order changes.

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

/// Plain BM25's settings (the analyzer and the similarity are fixed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextBm25Config {
    /// The recency prior's decay W (0: off).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub recency: f64,
    /// The first K results by BM25 the prior orders (0: every result).
    #[serde(default, skip_serializing_if = "is_zero_usize")]
    pub recency_window: usize,
}

fn is_zero_usize(x: &usize) -> bool {
    *x == 0
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// One indexed version of a belief.
struct Version {
    belief: Filterable,
    length: u32,
    live: bool,
    /// Its place among its user's versions, in index order (0 the first).
    position: u32,
}

/// A user's versions: runs of consecutive ordinals, and how many there are.
#[derive(Default)]
struct Span {
    runs: Vec<Range<u32>>,
    count: u32,
}

/// Plain BM25 over the words of each belief.
pub(crate) struct TextBm25Backend {
    analyzer: TextAnalyzer,
    postings: FxHashMap<String, Vec<(u32, u32)>>,
    versions: Vec<Version>,
    current: HashMap<String, u32>,
    /// Each user's versions as runs of consecutive ordinals (a user's seed beliefs are one
    /// run): a search reads only its user's part of each posting list.
    users: HashMap<Arc<str>, Span>,
    config: TextBm25Config,
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
    pub(crate) fn build(corpus: &[Belief], config: TextBm25Config) -> TextBm25Backend {
        let mut this = TextBm25Backend {
            analyzer: analyzer(),
            postings: FxHashMap::default(),
            versions: Vec::with_capacity(corpus.len()),
            current: HashMap::with_capacity(corpus.len()),
            users: HashMap::new(),
            config,
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
                tag: super::label::tag(
                    &[
                        super::label::Setting::new("rec", config.recency, 0.0),
                        super::label::Setting::new("recw", config.recency_window, 0),
                    ],
                    [],
                ),
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
        let span = self.users.entry(kept.user_id.clone()).or_default();
        let position = span.count;
        span.count += 1;
        match span.runs.last_mut() {
            Some(run) if run.end == ordinal => run.end += 1,
            _ => span.runs.push(ordinal..ordinal + 1),
        }
        self.versions.push(Version {
            belief: kept,
            length: words.len() as u32,
            live: true,
            position,
        });
    }
}

impl Backend for TextBm25Backend {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        let mut settings = json!({
            "text": "canonical name, aliases, content, why it matters",
            "analyzer": "tantivy default: letters-and-digits runs, lowercased, tokens over 40 bytes dropped",
            "query": "one clause per query word, scores summed",
            "similarity": "Lucene BM25 (k1 1.2, b 0.75), float32",
            "ties": "score descending, then index order",
        });
        if self.config.recency > 0.0 {
            settings["recency"] = json!({
                "decay": self.config.recency,
                "prior": "score × exp(-decay × (1 - t)), t the belief's normalised position among its user's beliefs",
                "window": match self.config.recency_window {
                    0 => "every result".to_string(),
                    k => format!("the first {k} results by BM25; the rest × exp(-decay)"),
                },
            });
        }
        settings
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        let Some(span) = self.users.get(request.filter.user_id) else {
            return Ok(Vec::new());
        };
        let runs = &span.runs;
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
        let order = |hits: &mut Vec<(u32, f32)>| {
            hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        };
        let decay = self.config.recency;
        if decay > 0.0 {
            let width = f64::from(span.count.saturating_sub(1).max(1));
            let prior = |ordinal: u32| {
                let t = f64::from(self.versions[ordinal as usize].position) / width;
                (-decay * (1.0 - t)).exp() as f32
            };
            let window = match self.config.recency_window {
                0 => hits.len(),
                k => {
                    order(&mut hits);
                    k.min(hits.len())
                }
            };
            let floor = (-decay).exp() as f32;
            for (at, (ordinal, score)) in hits.iter_mut().enumerate() {
                *score *= if at < window { prior(*ordinal) } else { floor };
            }
        }
        order(&mut hits);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::BeliefType;

    fn belief(id: &str, user: &str, text: &str) -> Belief {
        Belief::new(id.into(), user.into(), BeliefType::Entity, text.into())
    }

    /// The ids a search for `query` by user `u` returns, with `config`.
    fn ranked(config: TextBm25Config, query: &str) -> Vec<String> {
        let corpus = [
            belief("original", "u", "the dashboard api responds in 400ms"),
            belief("other", "u", "we cooked pasta for dinner"),
            belief("elsewhere", "v", "the dashboard api responds in 100ms"),
            belief("update", "u", "the dashboard api responds in 250ms"),
        ];
        let backend = TextBm25Backend::build(&corpus, config);
        let hits = backend
            .search(&SearchRequest::of_user("u", query, 10))
            .unwrap();
        hits.into_iter().map(|h| h.id).collect()
    }

    #[test]
    fn the_recency_prior_puts_the_later_of_two_equal_matches_first() {
        let prior = |recency, recency_window| TextBm25Config {
            recency,
            recency_window,
        };
        let (equal, one_word) = ("dashboard api responds", "dashboard 400ms");
        for (config, query, want, why) in [
            (
                TextBm25Config::default(),
                equal,
                ["original", "update"],
                "equal scores: index order, the original first; never another user's",
            ),
            (prior(1.0, 0), equal, ["update", "original"], "the prior"),
            (
                prior(1.0, 1),
                equal,
                ["original", "update"],
                "a window of one orders one result: the first by BM25 stays first",
            ),
            (
                prior(1.0, 2),
                equal,
                ["update", "original"],
                "a window of two",
            ),
            (
                prior(0.1, 0),
                one_word,
                ["original", "update"],
                "a word only the original holds outweighs a mild prior",
            ),
            (
                prior(20.0, 0),
                one_word,
                ["update", "original"],
                "but not a strong one",
            ),
        ] {
            assert_eq!(ranked(config, query), want, "{why}");
        }
    }
}
