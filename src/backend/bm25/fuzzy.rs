//! Lucene `FuzzyQuery(maxEdits 1, prefixLength 2, transpositions true)` term matching and its
//! similarity boost (spec §C.3 rule 3). tantivy's `FuzzyTermQuery` scores every expansion as a
//! constant, so expansion and boost are computed here.

use std::collections::BTreeMap;
use tantivy::query::FuzzyTermQuery;
use tantivy::termdict::TermDictionary;
use tantivy::Term;

/// Prefix that must match exactly, in code points.
pub const PREFIX_LENGTH: usize = 2;
/// `maxExpansions`: at most this many terms per query token (best similarity first).
pub const MAX_EXPANSIONS: usize = 50;

/// Term dictionaries up to this size are read over a prefix range for fuzzy expansion; larger
/// ones through the Levenshtein automaton.
pub const SCAN_UP_TO: usize = 20_000;

/// In a larger dictionary, a prefix range this short is read rather than built an automaton for.
pub(crate) const RANGE_FIRST: usize = 16;

/// Up to this many terms in a field (summed over segments), the index also keeps one merged,
/// sorted copy of its dictionary: a binary search and a short scan in memory beat opening a
/// stream per segment on the suites' and other small stores.
pub const MERGE_UP_TO: usize = 10_000;

/// A field's terms with their df summed over segments, sorted by bytes.
pub(crate) type Merged = Vec<(String, u64)>;

/// The merged copy of `dictionaries`, or `None` past [`MERGE_UP_TO`] terms.
pub(crate) fn merge<'a>(
    dictionaries: impl Iterator<Item = &'a TermDictionary> + Clone,
) -> Option<Merged> {
    let total: usize = dictionaries.clone().map(TermDictionary::num_terms).sum();
    if total > MERGE_UP_TO {
        return None;
    }
    let mut merged: BTreeMap<String, u64> = BTreeMap::new();
    for dictionary in dictionaries {
        let mut stream = dictionary.stream().ok()?;
        while stream.advance() {
            if let Ok(term) = std::str::from_utf8(stream.key()) {
                *merged.entry(term.to_string()).or_default() += u64::from(stream.value().doc_freq);
            }
        }
    }
    Some(merged.into_iter().collect())
}

/// df of `term` in a merged dictionary.
pub(crate) fn merged_doc_freq(merged: &Merged, term: &str) -> u64 {
    merged
        .binary_search_by(|(t, _)| t.as_str().cmp(term))
        .map_or(0, |i| merged[i].1)
}

/// The expansions of `query` in a merged dictionary: the terms sharing its prefix, by
/// [`similarity`], in term order.
pub(crate) fn merged_candidates(merged: &Merged, query: &[char]) -> Vec<(String, f32, u64)> {
    let prefix: String = query.iter().take(PREFIX_LENGTH).collect();
    let start = merged.partition_point(|(t, _)| t.as_str() < prefix.as_str());
    merged[start..]
        .iter()
        .take_while(|(t, _)| t.starts_with(&prefix))
        .filter_map(|(t, df)| similarity(query, t).map(|s| (t.clone(), s, *df)))
        .collect()
}

/// Every term of `dictionaries` (one per segment) that is an expansion of `query` (the analysed
/// token of `term`), with its similarity and its df summed over them, in term order.
///
/// Candidates come from each segment's term dictionary, never a merged copy of it. A small
/// dictionary is read over the range of terms sharing the token's first two characters (every
/// expansion keeps them), and so is a large one when that range is short (`RANGE_FIRST`).
/// Otherwise the dictionary is intersected with the Levenshtein automaton (distance 1,
/// transpositions), which finds the terms within one edit of the whole token without walking
/// the range; building it costs more than reading a short range. Either way the candidates are
/// a superset that [`similarity`] narrows.
pub(crate) fn candidates<'a>(
    dictionaries: impl Iterator<Item = &'a TermDictionary>,
    term: &Term,
    query: &[char],
) -> BTreeMap<String, (f32, u64)> {
    let mut found: BTreeMap<String, (f32, u64)> = BTreeMap::new();
    // Only expansions are kept (most of a range is not one): no allocation for the rest.
    let mut add = |key: &[u8], df: u32| {
        if let Ok(t) = std::str::from_utf8(key) {
            if let Some(&mut (_, ref mut n)) = found.get_mut(t) {
                *n += u64::from(df);
            } else if let Some(sim) = similarity(query, t) {
                found.insert(t.to_string(), (sim, u64::from(df)));
            }
        }
    };
    let prefix: String = query.iter().take(PREFIX_LENGTH).collect();
    for dictionary in dictionaries {
        // The prefix range: all of it in a small dictionary; in a large one, only when it ends
        // within RANGE_FIRST terms (a rare prefix), else the automaton.
        let limit = if dictionary.num_terms() <= SCAN_UP_TO {
            usize::MAX
        } else {
            RANGE_FIRST
        };
        let Ok(mut stream) = dictionary.range().ge(prefix.as_bytes()).into_stream() else {
            continue;
        };
        let mut range: Vec<(Vec<u8>, u32)> = Vec::new();
        let mut ended = false;
        while range.len() < limit {
            if !stream.advance() || !stream.key().starts_with(prefix.as_bytes()) {
                ended = true;
                break;
            }
            range.push((stream.key().to_vec(), stream.value().doc_freq));
        }
        if ended {
            range.iter().for_each(|(key, df)| add(key, *df));
            continue;
        }
        let Ok(dfa) = FuzzyTermQuery::new(term.clone(), 1, true).automaton() else {
            continue;
        };
        let Ok(mut stream) = dictionary.search(dfa).into_stream() else {
            continue;
        };
        while stream.advance() {
            add(stream.key(), stream.value().doc_freq);
        }
    }
    found
}

/// Similarity boost of index term `candidate` for query token `query`, or `None` when the
/// candidate is not an expansion. Exact: 1.0; one edit: `1 − 1/min(len)` (float, code points).
pub fn similarity(query: &[char], candidate: &str) -> Option<f32> {
    // Cheap length screen before decoding: one edit changes the length by at most one char,
    // and a char is at most 4 bytes.
    if candidate.len() + 4 < query.len() || candidate.len() > 4 * (query.len() + 1) {
        return None;
    }
    let mut buffer = [' '; 64];
    let mut n = 0;
    for c in candidate.chars() {
        if n == buffer.len() {
            return similarity_slow(query, &candidate.chars().collect::<Vec<_>>());
        }
        buffer[n] = c;
        n += 1;
    }
    similarity_slow(query, &buffer[..n])
}

fn similarity_slow(query: &[char], candidate: &[char]) -> Option<f32> {
    if candidate == query {
        return Some(1.0);
    }
    // Tokens no longer than the prefix only match exactly.
    if query.len() <= PREFIX_LENGTH || candidate.len() < PREFIX_LENGTH {
        return None;
    }
    if query[..PREFIX_LENGTH] != candidate[..PREFIX_LENGTH] {
        return None;
    }
    // The Levenshtein automaton runs on what follows the prefix; maxEdits is 1.
    within_one_edit(&query[PREFIX_LENGTH..], &candidate[PREFIX_LENGTH..])
        .then(|| 1.0f32 - 1.0 / query.len().min(candidate.len()) as f32)
}

/// Optimal-string-alignment distance is exactly 1 (the strings differ): one substitution,
/// insertion, deletion or adjacent transposition. Linear time, no allocation; maxEdits is 1,
/// so nothing more general is needed.
pub(crate) fn within_one_edit(a: &[char], b: &[char]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let i = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        if i == short.len() {
            return false; // equal: distance 0
        }
        let substitution = short[i + 1..] == long[i + 1..];
        let transposition = i + 1 < short.len()
            && short[i] == long[i + 1]
            && short[i + 1] == long[i]
            && short[i + 2..] == long[i + 2..];
        substitution || transposition
    } else {
        short[i..] == long[i + 1..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Optimal string alignment distance by the full table: the reference for `within_one_edit`.
    fn osa_distance(a: &[char], b: &[char]) -> usize {
        let (n, m) = (a.len(), b.len());
        let mut d = vec![vec![0usize; m + 1]; n + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in d[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=n {
            for j in 1..=m {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (d[i - 1][j] + 1)
                    .min(d[i][j - 1] + 1)
                    .min(d[i - 1][j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        d[n][m]
    }

    fn sim(q: &str, t: &str) -> Option<f32> {
        similarity(&q.chars().collect::<Vec<_>>(), t)
    }

    #[test]
    fn spec_similarities() {
        assert_eq!(sim("typscript", "typescript"), Some(1.0 - 1.0 / 9.0));
        assert_eq!(sim("typsecript", "typescript"), Some(0.9));
        assert_eq!(sim("eror", "error"), Some(0.75));
        assert_eq!(sim("reedis", "redis"), Some(0.8));
        assert_eq!(sim("errors", "error"), Some(0.8));
        assert_eq!(sim("k8s?", "k8s"), Some(1.0 - 1.0 / 3.0));
        assert_eq!(sim("mongod", "mongo"), Some(0.8));
        assert_eq!(sim("mongod", "mongodb"), Some(1.0 - 1.0 / 6.0));
        assert_eq!(sim("reactjs", "react.js"), Some(1.0 - 1.0 / 7.0));
        assert_eq!(sim("try/catch", "try-catch"), Some(1.0 - 1.0 / 9.0));
        assert_eq!(sim("mongoose", "moongoose"), Some(1.0 - 1.0 / 8.0));
        assert_eq!(sim("allkeys-lfu", "allkeys-lru"), Some(1.0 - 1.0 / 11.0));
    }

    #[test]
    fn linear_check_agrees_with_the_full_distance() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "bac", "abcd", "abdc", "abd", "xbcd", "abcde",
            "aabc", "redis", "reedis", "rdeis", "mongo", "mongodb", "mongod", "k8s", "k8s?",
        ];
        for a in words {
            for b in words {
                let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                assert_eq!(
                    within_one_edit(&a, &b),
                    osa_distance(&a, &b) == 1,
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn prefix_and_short_token_guards() {
        assert_eq!(sim("mango", "mongo"), None);
        assert_eq!(sim("k9s", "k8s"), None);
        assert_eq!(sim("ts", "ts"), Some(1.0));
        assert_eq!(sim("ts", "tsx"), None);
        assert_eq!(sim("redis", "redisearch"), None);
    }
}
