//! Which versions a segment's documents are, and how one document is deleted. Every document
//! carries its version ordinal in a fast field, so a segment maps to versions by reading that
//! column: whatever order the writer flushed its segments in, and after a merge (which keeps the
//! column of the documents it keeps).
//!
//! No belief id is indexed. An indexed id was one unique term per document: at 1M beliefs a
//! million more terms to hash, sort and put in the term dictionary, about a sixth of the build
//! (docs/results.md, "Beside Lucene"). A replaced version is deleted where it is instead, by its
//! segment and document (a [`DocAt`] predicate), through `IndexWriter::delete_query`: public
//! but hidden from tantivy's docs (its own `delete_term` calls it), so a tantivy upgrade must
//! keep it; `tests/it/segments.rs` replaces beliefs across segments and would fail.

use tantivy::columnar::Cardinality;
use tantivy::index::{SegmentId, SegmentReader};
use tantivy::query::doc_predicate_query::{
    ConstOrVariableSegmentPredicate, DocPredicate, SegmentDocPredicate,
};
use tantivy::query::BitSetDocSet;
use tantivy::{BitSet, DocId};

/// The fast field holding each document's version ordinal.
pub(crate) const ORDINAL: &str = "ordinal";

/// The version ordinal of every document of `segment`, in doc id order.
pub(crate) fn ordinals(segment: &SegmentReader) -> tantivy::Result<Vec<u32>> {
    let column = segment.fast_fields().u64(ORDINAL)?;
    let docs = segment.max_doc();
    if column.num_docs() != docs || column.get_cardinality() != Cardinality::Full {
        return Err(tantivy::TantivyError::InternalError(format!(
            "segment {} lacks a version ordinal for some of its {docs} documents",
            segment.segment_id()
        )));
    }
    let mut values = vec![0u64; docs as usize];
    column.values.get_range(0, &mut values);
    values
        .into_iter()
        .map(|v| {
            u32::try_from(v).map_err(|_| {
                tantivy::TantivyError::InternalError(format!("version ordinal {v} out of range"))
            })
        })
        .collect()
}

/// Document `doc` of segment `segment`: what a replaced version's delete matches.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DocAt {
    pub segment: SegmentId,
    pub doc: DocId,
}

/// The per-segment test of [`DocAt`].
pub(crate) struct Is(DocId);

impl SegmentDocPredicate for Is {
    fn eval(&mut self, doc: DocId) -> bool {
        doc == self.0
    }

    fn cost(&self) -> u64 {
        1
    }
}

impl DocPredicate for DocAt {
    type SegmentDocPredicate = Is;

    fn doc_predicate(
        &self,
        reader: &SegmentReader,
    ) -> tantivy::Result<ConstOrVariableSegmentPredicate<Is>> {
        if reader.segment_id() != self.segment || self.doc >= reader.max_doc() {
            return Ok(ConstOrVariableSegmentPredicate::Const(false));
        }
        // The one candidate: a set holding just `doc`, so nothing else is walked.
        let mut one = BitSet::with_max_value(reader.max_doc());
        one.insert(self.doc);
        Ok(ConstOrVariableSegmentPredicate::Variable {
            predicate: Is(self.doc),
            necessary_condition: Box::new(BitSetDocSet::from(one)),
        })
    }
}
