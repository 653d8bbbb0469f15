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
pub mod fuzzy;
mod index;
pub mod similarity;

pub use index::{BeliefIndex, DocVersion, IndexedField};

use super::{Backend, Contribution, FieldPath, Hit, SearchRequest};
use crate::error::{Error, Result};
use crate::suite::Belief;
use serde_json::json;
use similarity::TermScorer;
use std::collections::HashMap;

/// How a clause analyses and matches the query.
#[derive(Debug, Clone, Copy)]
struct ClauseSpec {
    path: FieldPath,
    field: IndexedField,
    boost: f32,
    fuzzy: bool,
    analyze: fn(&str) -> Vec<String>,
}

const CLAUSES: [ClauseSpec; 4] = [
    ClauseSpec {
        path: FieldPath::CanonicalName,
        field: IndexedField::CanonicalName,
        boost: 14.0,
        fuzzy: true,
        analyze: analysis::standard,
    },
    ClauseSpec {
        path: FieldPath::CanonicalNamePhrase,
        field: IndexedField::CanonicalName,
        boost: 14.0,
        fuzzy: false,
        analyze: analysis::canonical_shingles,
    },
    ClauseSpec {
        path: FieldPath::Aliases,
        field: IndexedField::Aliases,
        boost: 5.0,
        fuzzy: true,
        analyze: analysis::aliases_light,
    },
    ClauseSpec {
        path: FieldPath::AliasesShingle,
        field: IndexedField::Aliases,
        boost: 14.0,
        fuzzy: false,
        analyze: analysis::alias_shingles,
    },
];

/// One rewritten term of a clause.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedTerm {
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
pub struct PlannedClause {
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
}

impl Bm25Backend {
    /// Index `corpus`.
    pub fn build(corpus: &[Belief]) -> Result<Bm25Backend> {
        let index = BeliefIndex::build(corpus).map_err(|e| Error::backend("bm25", e))?;
        Ok(Bm25Backend { index })
    }

    /// The underlying index (statistics, versions).
    pub fn index(&self) -> &BeliefIndex {
        &self.index
    }

    /// Analyse and rewrite `text` into the four clauses.
    pub fn plan(&self, text: &str) -> Result<Vec<PlannedClause>> {
        CLAUSES
            .iter()
            .map(|spec| self.plan_clause(spec, text))
            .collect()
    }

    fn plan_clause(&self, spec: &ClauseSpec, text: &str) -> Result<PlannedClause> {
        let fail = |e: tantivy::TantivyError| Error::backend("bm25", e);
        let mut terms: Vec<PlannedTerm> = Vec::new();
        let mut position: HashMap<String, usize> = HashMap::new();
        let mut add = |term: String, boost: f32, doc_freq: u64| match position.get(&term) {
            Some(&i) => terms[i].boost_sum += boost,
            None => {
                position.insert(term.clone(), terms.len());
                terms.push(PlannedTerm {
                    term,
                    boost_sum: boost,
                    doc_freq,
                });
            }
        };
        for token in (spec.analyze)(text) {
            if spec.fuzzy {
                let expansions = self.index.expand(spec.field, &token).map_err(fail)?;
                let blended_df = expansions.iter().map(|e| e.2).max().unwrap_or(0);
                for (term, similarity, _) in expansions {
                    add(term, similarity, blended_df);
                }
            } else {
                let doc_freq = self.index.doc_freq(spec.field, &token).map_err(fail)?;
                add(token, 1.0, doc_freq);
            }
        }
        // Exact clauses count distinct analysed tokens, present in the index or not.
        let collapsed = terms.len() == 1;
        Ok(PlannedClause {
            path: spec.path,
            terms,
            collapsed,
        })
    }
}

/// Per-document accumulator.
#[derive(Default)]
struct Scored {
    clause_sums: [f64; 4],
    contributions: Vec<Contribution>,
}

impl Backend for Bm25Backend {
    fn id(&self) -> &'static str {
        "bm25"
    }

    fn settings(&self) -> serde_json::Value {
        json!({
            "similarity": {"name": "Lucene BM25", "k1": 1.2, "b": 0.75},
            "clauses": CLAUSES.iter().map(|c| json!({
                "path": c.path.as_str(),
                "boost": c.boost,
                "fuzzy": c.fuzzy.then(|| json!({"maxEdits": 1, "prefixLength": fuzzy::PREFIX_LENGTH, "maxExpansions": fuzzy::MAX_EXPANSIONS, "transpositions": true})),
            })).collect::<Vec<_>>(),
            "statistics": "per-field docCount over every indexed version (replaced versions kept until a merge)",
            "tieBreak": "score descending, then index document order",
        })
    }

    fn search(&self, request: &SearchRequest<'_>) -> Result<Vec<Hit>> {
        let plan = self.plan(request.text)?;
        let mut scored: HashMap<u32, Scored> = HashMap::new();
        for (c, (clause, spec)) in plan.iter().zip(CLAUSES.iter()).enumerate() {
            let stats = self.index.stats(spec.field);
            for term in clause.terms.iter().filter(|t| t.doc_freq > 0) {
                let scorer = TermScorer::new(spec.boost * term.boost_sum, stats, term.doc_freq);
                self.index
                    .for_each_posting(spec.field, &term.term, |ordinal, term_freq| {
                        let version = self.index.version(ordinal);
                        if !request.filter.admits(&version.belief) {
                            return;
                        }
                        let score = scorer.score(term_freq, version.lengths[spec.field as usize]);
                        let entry = scored.entry(ordinal).or_default();
                        entry.clause_sums[c] += f64::from(score);
                        entry.contributions.push(Contribution {
                            path: clause.path,
                            term: term.term.clone(),
                            score,
                            collapsed: clause.collapsed,
                        });
                    })
                    .map_err(|e| Error::backend("bm25", e))?;
            }
        }
        // Lucene sums each BooleanQuery level in double and casts to float.
        let mut hits: Vec<(u32, f32, Vec<Contribution>)> = scored
            .into_iter()
            .map(|(ordinal, s)| {
                let total: f64 = s.clause_sums.iter().map(|&sum| f64::from(sum as f32)).sum();
                (ordinal, total as f32, s.contributions)
            })
            .filter(|(_, score, _)| *score >= request.min_score)
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(request.limit);
        Ok(hits
            .into_iter()
            .map(|(ordinal, score, contributions)| Hit {
                id: self.index.version(ordinal).belief.id.clone(),
                score,
                contributions,
            })
            .collect())
    }

    fn insert(&mut self, belief: &Belief) -> Result<()> {
        self.index
            .write(belief)
            .map_err(|e| Error::backend("bm25", e))
    }

    fn replace(&mut self, belief: &Belief) -> Result<()> {
        self.index
            .write(belief)
            .map_err(|e| Error::backend("bm25", e))
    }
}
