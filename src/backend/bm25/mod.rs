//! Alias-weighted BM25: the Atlas Search query of Tenure's `BeliefsReader`, scored as Lucene
//! scores it (spec §C).
//!
//! Query tree: `should [C1, C2, C3, C4]`, at least one must match, the score is their sum:
//! - C1 `canonical_name`, fuzzy, boost 14 (`lucene.standard` tokens)
//! - C2 `canonical_name.phrase`, exact bigrams, boost 14 (`canonical_query_search`)
//! - C3 `aliases`, fuzzy, boost 5 (`aliases_light` tokens)
//! - C4 `aliases.shingle`, exact bigrams, boost 14 (`alias_search`)
//!
//! Ties: score descending, then index document order (seed order, then documents written
//! during a session in write order; an updated belief moves to the end, like a Lucene docid).

pub mod analysis;
pub mod explain;
pub mod fuzzy;
mod index;
mod segments;
pub mod similarity;

pub use index::{BeliefIndex, DocVersion, IndexedField, ReplacedVersions};

use super::label::{self, Setting};
use super::{
    Backend, BackendError, BackendInfo, Explanation, Hit, Reader, ScoreScale, SearchRequest,
    TermMatch, Write,
};
use crate::error::{Error, Result};
use crate::suite::Belief;
use serde::{Deserialize, Serialize};
use serde_json::json;
use similarity::TermScorer;
use std::borrow::Cow;
use std::collections::HashMap;

/// The minimum score Tenure's `ContextBuilder` asks for (Lucene scale).
pub(crate) const DEFAULT_MIN_SCORE: f32 = 3.0;

/// What a BM25 backend is built with.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Bm25Config {
    /// Hits scoring below this are dropped (3 in the eval, spec §D).
    #[serde(default = "default_min_score")]
    pub min_score: f32,
    /// What happens to a replaced version's statistics (spec §C.6).
    #[serde(default)]
    pub replaced: ReplacedVersions,
}

fn default_min_score() -> f32 {
    DEFAULT_MIN_SCORE
}

impl Default for Bm25Config {
    fn default() -> Bm25Config {
        Bm25Config {
            min_score: DEFAULT_MIN_SCORE,
            replaced: ReplacedVersions::default(),
        }
    }
}

/// Which query clause produced a contribution; the path names Atlas reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum FieldPath {
    /// C1: fuzzy over canonical names, boost 14.
    CanonicalName,
    /// C2: canonical-name bigrams, boost 14.
    CanonicalNamePhrase,
    /// C3: fuzzy over aliases, boost 5.
    Aliases,
    /// C4: alias bigrams, boost 14.
    AliasesShingle,
}

impl FieldPath {
    /// The path as reports spell it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            FieldPath::CanonicalName => "canonical_name",
            FieldPath::CanonicalNamePhrase => "canonical_name.phrase",
            FieldPath::Aliases => "aliases",
            FieldPath::AliasesShingle => "aliases.shingle",
        }
    }
}

/// The query analysed once; each clause takes its tokens from here.
struct QueryTokens {
    standard: Vec<String>,
    light: Vec<String>,
}

/// Which search analyzer a clause uses.
#[derive(Debug, Clone, Copy)]
enum SearchAnalyzer {
    /// `lucene.standard`.
    Standard,
    /// `canonical_query_search`.
    CanonicalShingles,
    /// `aliases_light`.
    Light,
    /// `alias_search`.
    AliasShingles,
}

impl QueryTokens {
    fn new(text: &str) -> QueryTokens {
        QueryTokens {
            standard: analysis::standard(text),
            light: analysis::aliases_light(text),
        }
    }

    fn tokens(&self, analyzer: SearchAnalyzer) -> Cow<'_, [String]> {
        match analyzer {
            SearchAnalyzer::Standard => Cow::Borrowed(&self.standard),
            SearchAnalyzer::Light => Cow::Borrowed(&self.light),
            SearchAnalyzer::CanonicalShingles => {
                Cow::Owned(analysis::canonical_shingles_of(&self.light))
            }
            SearchAnalyzer::AliasShingles => Cow::Owned(analysis::alias_shingles_of(&self.light)),
        }
    }
}

/// How a clause analyses and matches the query.
#[derive(Debug, Clone, Copy)]
struct ClauseSpec {
    path: FieldPath,
    field: IndexedField,
    boost: f32,
    fuzzy: bool,
    analyzer: SearchAnalyzer,
}

#[rustfmt::skip]
const CLAUSES: [ClauseSpec; 4] = [
    ClauseSpec { path: FieldPath::CanonicalName, field: IndexedField::CanonicalName, boost: 14.0, fuzzy: true, analyzer: SearchAnalyzer::Standard },
    ClauseSpec { path: FieldPath::CanonicalNamePhrase, field: IndexedField::CanonicalName, boost: 14.0, fuzzy: false, analyzer: SearchAnalyzer::CanonicalShingles },
    ClauseSpec { path: FieldPath::Aliases, field: IndexedField::Aliases, boost: 5.0, fuzzy: true, analyzer: SearchAnalyzer::Light },
    ClauseSpec { path: FieldPath::AliasesShingle, field: IndexedField::Aliases, boost: 14.0, fuzzy: false, analyzer: SearchAnalyzer::AliasShingles },
];

/// One rewritten term of a clause.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlannedTerm {
    /// Indexed term.
    pub term: String,
    /// Sum of similarities over the tokens that produced it (Lucene merges duplicate SHOULD
    /// clauses by summing their boosts): a token repeated k times counts k times.
    pub boost_sum: f32,
    /// Document frequency; for fuzzy terms the blended df (max over the token's expansions).
    pub doc_freq: u64,
}

/// One clause after analysis and rewrite.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PlannedClause {
    /// Clause and field.
    pub path: FieldPath,
    /// Terms in report order: first token first, a token's expansions in term order.
    pub terms: Vec<PlannedTerm>,
    /// Index-wide the clause rewrites to exactly one distinct term, so Atlas writes a
    /// description the static report parser drops (spec §C.5).
    pub collapsed: bool,
}

/// The alias-BM25 backend.
pub struct Bm25Backend {
    index: BeliefIndex,
    config: Bm25Config,
    info: BackendInfo,
}

impl Bm25Backend {
    /// Index `corpus` as Atlas does (replaced versions kept until a merge, minimum score 3).
    pub fn build(corpus: &[Belief]) -> Result<Bm25Backend> {
        Bm25Backend::with_config(corpus, Bm25Config::default())
    }

    /// Index `corpus` with `config`.
    pub fn with_config(corpus: &[Belief], config: Bm25Config) -> Result<Bm25Backend> {
        Bm25Backend::with_writer_memory(corpus, config, index::WRITER_MEMORY)
    }

    /// Index `corpus` with `config` and an index writer budget of `bytes` (tantivy's 15 MB at
    /// least): a corpus that outgrows it is indexed in several segments, with the same scores.
    pub fn with_writer_memory(
        corpus: &[Belief],
        config: Bm25Config,
        bytes: usize,
    ) -> Result<Bm25Backend> {
        let index = BeliefIndex::build_with(corpus, config.replaced, bytes)
            .map_err(|e| Error::backend("bm25", e))?;
        Ok(Bm25Backend {
            index,
            config,
            info: BackendInfo {
                id: "bm25".into(),
                provider: "tenure".into(),
                label: "bm25".into(),
                model: None,
                text_policy: None,
                file_prefix: None,
                paper_primary: true,
                reader: Reader::Text,
                score_scale: ScoreScale::LuceneBm25,
                // Its one result-changing setting (backend::label).
                tag: label::tag(
                    &[Setting::new("min", config.min_score, DEFAULT_MIN_SCORE)],
                    [],
                ),
                upstream_exact: false,
            },
        })
    }

    /// The underlying index (statistics, versions).
    pub fn index(&self) -> &BeliefIndex {
        &self.index
    }

    /// Analyse and rewrite `text` into the four clauses.
    pub(crate) fn plan(&self, text: &str) -> Vec<PlannedClause> {
        let tokens = QueryTokens::new(text);
        CLAUSES
            .iter()
            .map(|spec| self.plan_clause(spec, &tokens.tokens(spec.analyzer)))
            .collect()
    }

    fn plan_clause(&self, spec: &ClauseSpec, tokens: &[String]) -> PlannedClause {
        // Long messages repeat words: analyse each distinct token once (sorted, not hashed).
        let mut distinct: Vec<&str> = tokens.iter().map(String::as_str).collect();
        distinct.sort_unstable();
        distinct.dedup();
        // Matched terms are few, so a linear merge is cheaper than a map.
        let mut terms: Vec<PlannedTerm> = Vec::new();
        let mut add =
            |term: &str, boost: f32, doc_freq: u64| match terms.iter_mut().find(|t| t.term == term)
            {
                Some(t) => t.boost_sum += boost,
                None => terms.push(PlannedTerm {
                    term: term.to_string(),
                    boost_sum: boost,
                    doc_freq,
                }),
            };
        let collapsed = if spec.fuzzy {
            let expansions: Vec<Vec<(String, f32, u64)>> = distinct
                .iter()
                .map(|t| self.index.expand(spec.field, t))
                .collect();
            for token in tokens {
                let Ok(i) = distinct.binary_search(&token.as_str()) else {
                    continue;
                };
                let blended_df = expansions[i].iter().map(|e| e.2).max().unwrap_or(0);
                for (term, similarity, _) in &expansions[i] {
                    add(term, *similarity, blended_df);
                }
            }
            terms.len() == 1
        } else {
            let doc_freqs: Vec<u64> = distinct
                .iter()
                .map(|t| self.index.doc_freq(spec.field, t))
                .collect();
            for token in tokens {
                let Ok(i) = distinct.binary_search(&token.as_str()) else {
                    continue;
                };
                if doc_freqs[i] > 0 {
                    add(token, 1.0, doc_freqs[i]);
                }
            }
            // Exact clauses count distinct analysed tokens, present in the index or not.
            distinct.len() == 1
        };
        PlannedClause {
            path: spec.path,
            terms,
            collapsed,
        }
    }
}

impl Backend for Bm25Backend {
    fn info(&self) -> &BackendInfo {
        &self.info
    }

    fn settings(&self) -> serde_json::Value {
        let mut settings = json!({
            "similarity": {"name": "Lucene BM25", "k1": 1.2, "b": 0.75},
            "clauses": CLAUSES.iter().map(|c| json!({
                "path": c.path.as_str(),
                "boost": c.boost,
                "fuzzy": c.fuzzy.then(|| json!({"maxEdits": 1, "prefixLength": fuzzy::PREFIX_LENGTH, "maxExpansions": fuzzy::MAX_EXPANSIONS, "transpositions": true})),
            })).collect::<Vec<_>>(),
            "statistics": "per-field docCount over every indexed version (replaced versions kept until a merge)",
            "tieBreak": "score descending, then index document order",
        });
        // Recorded only where it differs from Atlas, so default reports keep their bytes.
        if self.config.min_score != DEFAULT_MIN_SCORE {
            // The float32 as written (0.1), not its binary expansion (0.10000000149011612).
            let written: f64 = self
                .config
                .min_score
                .to_string()
                .parse()
                .unwrap_or(f64::NAN);
            settings["minScore"] = json!(written);
        }
        if self.config.replaced != ReplacedVersions::default() {
            settings["replacedVersions"] = json!(self.config.replaced);
        }
        settings
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>, BackendError> {
        let plan = self.plan(request.text);
        // Per admitted document, its clause sums; every contribution goes to one flat log in
        // scoring order, and only the returned hits' entries become attributions: at scale most
        // matched documents are not returned, and their term lists cost more than scoring.
        let mut sums: HashMap<u32, [f64; 4]> = HashMap::new();
        let mut log: Vec<(u32, u8, u16, f32)> = Vec::new();
        for (c, (clause, spec)) in plan.iter().zip(CLAUSES.iter()).enumerate() {
            let stats = self.index.stats(spec.field);
            for (t, term) in clause.terms.iter().enumerate() {
                if term.doc_freq == 0 {
                    continue;
                }
                let scorer = TermScorer::new(spec.boost * term.boost_sum, stats, term.doc_freq);
                self.index
                    .for_each_posting(spec.field, &term.term, |ordinal, term_freq| {
                        let version = self.index.version(ordinal);
                        if !request.filter.admits_kept(&version.belief) {
                            return;
                        }
                        let score = scorer.score(term_freq, version.lengths[spec.field as usize]);
                        sums.entry(ordinal).or_default()[c] += f64::from(score);
                        log.push((ordinal, c as u8, t as u16, score));
                    })
                    .map_err(|e| BackendError::caused_by("reading postings", e))?;
            }
        }
        // Lucene sums each BooleanQuery level in double and casts to float.
        let mut hits: Vec<(u32, f32)> = sums
            .into_iter()
            .map(|(ordinal, s)| {
                let total: f64 = s.iter().map(|&sum| f64::from(sum as f32)).sum();
                (ordinal, total as f32)
            })
            .filter(|(_, score)| *score >= self.config.min_score)
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(request.limit);
        let returned: HashMap<u32, usize> =
            hits.iter().enumerate().map(|(i, h)| (h.0, i)).collect();
        // Each returned hit: `sum of` its matched terms, each a leaf, in scoring order.
        let mut leaves: Vec<Vec<Explanation>> = hits.iter().map(|_| Vec::new()).collect();
        for (ordinal, c, t, score) in log {
            if let Some(&i) = returned.get(&ordinal) {
                let clause = &plan[c as usize];
                let term = TermMatch {
                    path: clause.path.as_str().to_string(),
                    term: clause.terms[t as usize].term.clone(),
                    collapsed: clause.collapsed,
                };
                leaves[i].push(Explanation::term(score, term));
            }
        }
        Ok(hits
            .into_iter()
            .zip(leaves)
            .map(|((ordinal, score), leaves)| Hit {
                id: self.index.version(ordinal).belief.id.to_string(),
                score: Some(score),
                explanation: Some(Explanation::node(score, "sum of", leaves)),
            })
            .collect())
    }

    fn insert(&mut self, belief: &Belief) -> Result<(), BackendError> {
        let indexed = self.index.write_all([belief]);
        indexed.map_err(|e| BackendError::caused_by("indexing", e))
    }

    fn replace(&mut self, belief: &Belief) -> Result<(), BackendError> {
        let indexed = self.index.write_all([belief]);
        indexed.map_err(|e| BackendError::caused_by("re-indexing", e))
    }

    fn apply(&mut self, writes: &[Write<'_>]) -> Result<(), BackendError> {
        let indexed = self.index.write_all(writes.iter().map(|w| w.belief()));
        indexed.map_err(|e| BackendError::caused_by("indexing", e))
    }
}
