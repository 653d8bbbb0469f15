//! Which versions a commit's new segments hold. One indexing thread fills segments in add order,
//! so each new segment holds a run of the commit's documents; when the documents outgrow the
//! writer's budget there are several, and which run each holds is read off its first and last
//! documents' ids (every document's, if repeated ids leave a doubt).

use tantivy::index::{SegmentId, SegmentReader};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocSet, Term};

/// Does document `doc` of `segment` have `id`?
fn holds(segment: &SegmentReader, field: Field, id: &str, doc: u32) -> tantivy::Result<bool> {
    let term = Term::from_field_text(field, id);
    let Some(mut postings) = segment
        .inverted_index(field)?
        .read_postings(&term, IndexRecordOption::Basic)?
    else {
        return Ok(false);
    };
    Ok(postings.seek(doc) == doc)
}

/// Each segment of `new` with the run of `pending` (version ordinals, in add order) it holds;
/// `id_of` gives an ordinal's belief id, `id_field` is where the index keeps it.
pub(crate) fn assign<'a>(
    mut new: Vec<&SegmentReader>,
    pending: &[u32],
    id_field: Field,
    id_of: impl Fn(u32) -> &'a str,
) -> tantivy::Result<Vec<(SegmentId, Vec<u32>)>> {
    let found: usize = new.iter().map(|s| s.max_doc() as usize).sum();
    if found != pending.len() {
        return Err(tantivy::TantivyError::InternalError(format!(
            "expected {} new documents, found {found} in {} new segments",
            pending.len(),
            new.len()
        )));
    }
    let mut runs = Vec::with_capacity(new.len());
    let mut offset = 0;
    while !new.is_empty() {
        // The segment whose documents are the next run of `pending`.
        let fits = |s: &SegmentReader, every: bool| -> tantivy::Result<bool> {
            let n = s.max_doc() as usize;
            let run = &pending[offset..offset + n];
            let docs: Vec<usize> = if every {
                (0..n).collect()
            } else {
                vec![0, n - 1]
            };
            for d in docs {
                if !holds(s, id_field, id_of(run[d]), d as u32)? {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        let mut candidates = Vec::new();
        for (i, s) in new.iter().enumerate() {
            if offset + (s.max_doc() as usize) <= pending.len() && fits(s, false)? {
                candidates.push(i);
            }
        }
        // Only repeated ids in one commit can leave two candidates: check every document.
        if candidates.len() > 1 {
            let mut exact = Vec::new();
            for i in candidates {
                if fits(new[i], true)? {
                    exact.push(i);
                }
            }
            candidates = exact;
        }
        let Some(&i) = candidates.first() else {
            return Err(tantivy::TantivyError::InternalError(
                "a new segment holds documents out of add order".into(),
            ));
        };
        let segment = new.remove(i);
        let n = segment.max_doc() as usize;
        runs.push((segment.segment_id(), pending[offset..offset + n].to_vec()));
        offset += n;
    }
    Ok(runs)
}
