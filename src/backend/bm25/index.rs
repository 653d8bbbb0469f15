//! The belief index: tantivy holds terms, postings and the term dictionary; a side table holds
//! every indexed document version with its exact field lengths.
//!
//! Lucene keeps a replaced document in N, df and avgdl until a merge (spec §C.6), and the
//! published session scores depend on it. tantivy does the same for df and the term dictionary
//! as long as segments are not merged, so merging is disabled; the per-field docCount Lucene
//! uses (tantivy has none) comes from the side table. Documents map back to versions through a
//! fast field holding each one's version ordinal ([`segments`]): a commit makes one segment (or
//! several past the writer's memory budget), whose ordinals are read once when it appears.

use super::analysis::{whole_name_count, WholeName, WHOLE_NAME};
use super::fuzzy::{self, MAX_EXPANSIONS, PREFIX_LENGTH};
use super::segments::{self, DocAt, ORDINAL};
use super::similarity::FieldStats;
use crate::backend::{Filterable, Interner};
use crate::suite::Belief;
use std::collections::HashMap;
use std::sync::Arc;
use tantivy::fastfield::AliveBitSet;
use tantivy::index::InvertedIndexReader;
use tantivy::index::SegmentId;
use tantivy::indexer::NoMergePolicy;
use tantivy::postings::Postings;
use tantivy::query::doc_predicate_query::DocPredicateQuery;
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST};
use tantivy::{
    DocSet, Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term, TERMINATED,
};

/// The two indexed string fields. The `.phrase` and `.shingle` multi-fields of Atlas use the
/// same index analyzer, so their terms and statistics are these fields' own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexedField {
    /// `canonical_name` (and `canonical_name.phrase`).
    CanonicalName = 0,
    /// `aliases` (and `aliases.shingle`).
    Aliases = 1,
}

/// One indexed version of a belief.
#[derive(Debug, Clone)]
pub struct DocVersion {
    /// What the search filter reads of the belief as it was when this version was written.
    pub belief: Filterable,
    /// Terms per field (`whole_name` tokens, summed over array values).
    pub lengths: [u32; 2],
    /// False once a newer version replaced it.
    pub live: bool,
    /// Still physically in the index, so still counted in N, df and avgdl (Lucene keeps a
    /// replaced document until a merge expunges it).
    pub counted: bool,
}

/// What happens to a replaced version (spec §C.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReplacedVersions {
    /// Atlas and Lucene without a merge: replaced versions stay in the statistics. The published
    /// session scores need this (turn 10 `allkeys-lru` 13.96).
    #[default]
    KeptUntilMerge,
    /// Merge after every replacement, as if Lucene had merged: statistics over live documents only.
    Expunged,
}

struct SegmentView {
    id: SegmentId,
    inverted: [Arc<InvertedIndexReader>; 2],
    /// tantivy doc id → version ordinal, read once when the segment first appears.
    ordinals: Vec<u32>,
    alive: Option<AliveBitSet>,
}

/// Memory budget of the index writer: 1 GiB. Past it a commit writes several segments, so memory
/// stays bounded. tantivy takes its arena as it fills (68 MiB peak at 1k beliefs, as with 256
/// MB), and 1M beliefs fit one segment: by `tenure-eval scale` (three interleaved runs each),
/// search p50 260-405 µs and build 8.1-8.6 s, against 410-560 µs and 8.5-9.2 s in the two
/// segments of a 256 MB budget, for 70 MiB more peak memory (1.5 GiB).
pub(crate) const WRITER_MEMORY: usize = 1 << 30;

/// tantivy's smallest writer budget.
pub(crate) const MIN_WRITER_MEMORY: usize = 15_000_000;

/// Indexed beliefs.
pub struct BeliefIndex {
    index: Index,
    reader: IndexReader,
    writer: IndexWriter,
    ordinal_field: Field,
    fields: [Field; 2],
    versions: Vec<DocVersion>,
    current: HashMap<Arc<str>, u32>,
    interner: Interner,
    stats: [FieldStats; 2],
    segments: Vec<SegmentView>,
    /// Each field's merged dictionary, while small (see [`fuzzy::MERGE_UP_TO`]).
    merged: [Option<fuzzy::Merged>; 2],
    replaced: ReplacedVersions,
    /// Versions below this ordinal are in committed segments.
    committed: usize,
}

impl BeliefIndex {
    /// Index `corpus` with a writer budget of `writer_memory` bytes (at least tantivy's 15 MB):
    /// the larger, the fewer segments.
    pub(crate) fn build_with(
        corpus: &[Belief],
        replaced: ReplacedVersions,
        writer_memory: usize,
    ) -> tantivy::Result<BeliefIndex> {
        let mut schema = Schema::builder();
        let ordinal_field = schema.add_u64_field(ORDINAL, FAST);
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(WHOLE_NAME)
                .set_index_option(IndexRecordOption::WithFreqs)
                // Lengths are the side table's (spec §C.3); tantivy's norms feed nothing here.
                .set_fieldnorms(false),
        );
        let canonical = schema.add_text_field("canonical_name", text.clone());
        let aliases = schema.add_text_field("aliases", text);
        let index = Index::create_in_ram(schema.build());
        index.tokenizers().register(WHOLE_NAME, WholeName);

        // One indexing thread and no merges: replaced versions must stay in the statistics.
        let writer: IndexWriter =
            index.writer_with_num_threads(1, writer_memory.max(MIN_WRITER_MEMORY))?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        let mut this = BeliefIndex {
            index: index.clone(),
            reader: index
                .reader_builder()
                .reload_policy(ReloadPolicy::Manual)
                .try_into()?,
            writer,
            ordinal_field,
            fields: [canonical, aliases],
            versions: Vec::with_capacity(corpus.len()),
            current: HashMap::with_capacity(corpus.len()),
            interner: Interner::default(),
            stats: [FieldStats::default(); 2],
            segments: Vec::new(),
            merged: [None, None],
            replaced,
            committed: 0,
        };
        for belief in corpus {
            let doc = this.push_version(belief);
            this.writer.add_document(doc)?;
        }
        this.commit()?;
        Ok(this)
    }

    /// Record a new version and return its tantivy document.
    fn push_version(&mut self, belief: &Belief) -> TantivyDocument {
        let ordinal = self.versions.len() as u32;
        let canonical_len = whole_name_count(&belief.canonical_name);
        let alias_len: u32 = belief.aliases.iter().map(|a| whole_name_count(a)).sum();
        let lengths = [canonical_len, alias_len];
        for (stats, &len) in self.stats.iter_mut().zip(&lengths) {
            if len > 0 {
                stats.doc_count += 1;
                stats.sum_total_term_freq += u64::from(len);
            }
        }
        let kept = self.interner.keep(belief);
        let id = kept.id.clone();
        self.versions.push(DocVersion {
            belief: kept,
            lengths,
            live: true,
            counted: true,
        });
        if let Some(old) = self.current.insert(id, ordinal) {
            self.versions[old as usize].live = false;
        }

        let mut doc = TantivyDocument::new();
        doc.add_u64(self.ordinal_field, u64::from(ordinal));
        doc.add_text(self.fields[0], &belief.canonical_name);
        for alias in &belief.aliases {
            doc.add_text(self.fields[1], alias);
        }
        doc
    }

    /// Add beliefs, or new versions of existing ones (an old version is deleted but, as in Lucene
    /// before a merge, still counted), in one commit: one segment, as the corpus at build, for
    /// the cost of one fresh segment writer (a 512K-slot term table whatever the documents). A
    /// segment whose documents are all deleted is dropped (tantivy, as Lucene), statistics and
    /// all. A version replaced within the batch is committed first, so as to be found.
    pub(crate) fn write_all<'a>(
        &mut self,
        beliefs: impl IntoIterator<Item = &'a Belief>,
    ) -> tantivy::Result<()> {
        for belief in beliefs {
            let replaced = self.current.get(belief.id.as_str()).copied();
            if replaced.is_some_and(|old| old as usize >= self.committed) {
                self.commit()?;
            }
            // Found before the new version is recorded: a failure leaves this belief as it was.
            let at = replaced.map(|old| self.location(old)).transpose()?;
            let doc = self.push_version(belief);
            if let Some(at) = at {
                self.writer
                    .delete_query(Box::new(DocPredicateQuery::from(at)))?;
            }
            self.writer.add_document(doc)?;
            if let (Some(old), ReplacedVersions::Expunged) = (replaced, self.replaced) {
                self.commit()?;
                let segments = self.index.searchable_segment_ids()?;
                self.writer.merge(&segments).wait()?;
                let version = &mut self.versions[old as usize];
                version.counted = false;
                for (stats, &len) in self.stats.iter_mut().zip(&version.lengths) {
                    if len > 0 {
                        stats.doc_count -= 1;
                        stats.sum_total_term_freq -= u64::from(len);
                    }
                }
                self.reload()?;
            }
        }
        if self.committed < self.versions.len() {
            self.commit()?;
        }
        Ok(())
    }

    /// Commit what was added.
    fn commit(&mut self) -> tantivy::Result<()> {
        self.writer.commit()?;
        self.committed = self.versions.len();
        self.reload()
    }

    /// Where version `ordinal` is: its segment and document. A scan of the segments' ordinal
    /// lists, once per replacement; sessions replace a few beliefs in small stores.
    fn location(&self, ordinal: u32) -> tantivy::Result<DocAt> {
        self.segments
            .iter()
            .find_map(|view| {
                let doc = view.ordinals.iter().position(|&o| o == ordinal)?;
                Some(DocAt {
                    segment: view.id,
                    doc: doc as u32,
                })
            })
            .ok_or_else(|| {
                tantivy::TantivyError::InternalError(format!("version {ordinal} is in no segment"))
            })
    }

    /// Number of segments (several once a commit outgrows the writer budget).
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }

    fn reload(&mut self) -> tantivy::Result<()> {
        self.reader.reload()?;
        self.views()
    }

    /// Per-segment views of what the reader sees.
    fn views(&mut self) -> tantivy::Result<()> {
        let searcher = self.reader.searcher();
        // A segment seen before keeps its ordinals; one seen for the first time (a commit's or
        // a merge's) has them read.
        let mut known: HashMap<SegmentId, Vec<u32>> = std::mem::take(&mut self.segments)
            .into_iter()
            .map(|view| (view.id, view.ordinals))
            .collect();
        self.segments = searcher
            .segment_readers()
            .iter()
            .map(|segment| {
                let id = segment.segment_id();
                let ordinals = match known.remove(&id) {
                    Some(ordinals) => ordinals,
                    None => segments::ordinals(segment)?,
                };
                Ok(SegmentView {
                    id,
                    inverted: [
                        segment.inverted_index(self.fields[0])?,
                        segment.inverted_index(self.fields[1])?,
                    ],
                    ordinals,
                    alive: segment.alive_bitset().cloned(),
                })
            })
            .collect::<tantivy::Result<_>>()?;
        for field in [IndexedField::CanonicalName, IndexedField::Aliases] {
            let dictionaries = self
                .segments
                .iter()
                .map(|s| s.inverted[field as usize].terms());
            self.merged[field as usize] = fuzzy::merge(dictionaries);
        }
        Ok(())
    }

    /// Lucene statistics of `field`.
    pub fn stats(&self, field: IndexedField) -> FieldStats {
        self.stats[field as usize]
    }

    /// Document version `ordinal`.
    pub fn version(&self, ordinal: u32) -> &DocVersion {
        &self.versions[ordinal as usize]
    }

    /// Sum of `total_num_tokens` over tantivy segments (deleted documents included): must equal
    /// the side table's `sum_total_term_freq`.
    pub fn tantivy_total_tokens(&self, field: IndexedField) -> u64 {
        self.segments
            .iter()
            .map(|s| s.inverted[field as usize].total_num_tokens())
            .sum()
    }

    /// Documents containing `term`, deleted-but-unmerged ones included (Lucene's df).
    pub(crate) fn doc_freq(&self, field: IndexedField, term: &str) -> u64 {
        if let Some(merged) = &self.merged[field as usize] {
            return fuzzy::merged_doc_freq(merged, term);
        }
        let term = Term::from_field_text(self.fields[field as usize], term);
        self.segments
            .iter()
            .map(|s| {
                s.inverted[field as usize]
                    .doc_freq(&term)
                    .map_or(0, u64::from)
            })
            .sum()
    }

    /// Fuzzy expansions of `token` over the term dictionary (every segment, deleted documents
    /// included): (term, similarity, df), the best `MAX_EXPANSIONS` by similarity then term
    /// bytes, in term order.
    pub fn expand(&self, field: IndexedField, token: &str) -> Vec<(String, f32, u64)> {
        let query: Vec<char> = token.chars().collect();
        let mut expansions: Vec<(String, f32, u64)> = Vec::new();
        if query.len() <= PREFIX_LENGTH {
            let df = self.doc_freq(field, token);
            if df > 0 {
                expansions.push((token.to_string(), 1.0, df));
            }
            return expansions;
        }
        if let Some(merged) = &self.merged[field as usize] {
            expansions = fuzzy::merged_candidates(merged, &query);
        } else {
            let term = Term::from_field_text(self.fields[field as usize], token);
            let dictionaries = self
                .segments
                .iter()
                .map(|s| s.inverted[field as usize].terms());
            let found = fuzzy::candidates(dictionaries, &term, &query);
            expansions.extend(found.into_iter().map(|(term, (sim, df))| (term, sim, df)));
        }
        if expansions.len() > MAX_EXPANSIONS {
            // Lucene's TopTermsRewrite keeps the best boosts; on equal boost, the smaller term.
            expansions.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            expansions.truncate(MAX_EXPANSIONS);
            expansions.sort_by(|a, b| a.0.cmp(&b.0));
        }
        expansions
    }

    /// Call `visit(ordinal, term_freq)` for every live document containing `term`.
    pub fn for_each_posting(
        &self,
        field: IndexedField,
        term: &str,
        mut visit: impl FnMut(u32, u32),
    ) -> tantivy::Result<()> {
        let term = Term::from_field_text(self.fields[field as usize], term);
        for segment in &self.segments {
            let Some(mut postings) = segment.inverted[field as usize]
                .read_postings(&term, IndexRecordOption::WithFreqs)?
            else {
                continue;
            };
            let mut doc = postings.doc();
            while doc != TERMINATED {
                if segment
                    .alive
                    .as_ref()
                    .is_none_or(|alive| alive.is_alive(doc))
                {
                    visit(segment.ordinals[doc as usize], postings.term_freq());
                }
                doc = postings.advance();
            }
        }
        Ok(())
    }
}
