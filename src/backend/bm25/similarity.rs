//! Lucene's `BM25Similarity` (k1 1.2, b 0.75), in float32 where Lucene uses float (spec §C.3).
//!
//! tantivy's own BM25 multiplies by (k1 + 1) and counts every document of the index in N and
//! avgdl; Lucene counts only documents that have the field. Hence this module.

const K1: f32 = 1.2;
const B: f32 = 0.75;

/// Statistics of one field over every indexed document version (deleted-but-unmerged ones too).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FieldStats {
    /// Lucene `docCount`: documents with at least one term in the field.
    pub doc_count: u64,
    /// Lucene `sumTotalTermFreq`: tokens of the field over those documents.
    pub sum_total_term_freq: u64,
}

impl FieldStats {
    /// `avgdl`, as Lucene computes it: a double division cast to float.
    pub(crate) fn avgdl(&self) -> f32 {
        (self.sum_total_term_freq as f64 / self.doc_count as f64) as f32
    }
}

/// `idf = ln(1 + (N − df + 0.5)/(df + 0.5))`, computed in double, returned as float.
pub(crate) fn idf(doc_count: u64, doc_freq: u64) -> f32 {
    (1.0 + (doc_count as f64 - doc_freq as f64 + 0.5) / (doc_freq as f64 + 0.5)).ln() as f32
}

/// Scorer of one term in one field: weight and avgdl fixed, documents vary.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TermScorer {
    weight: f32,
    avgdl: f32,
}

impl TermScorer {
    /// `boost` already multiplies clause boost, repeat count and fuzzy similarity.
    pub(crate) fn new(boost: f32, stats: FieldStats, doc_freq: u64) -> TermScorer {
        TermScorer {
            weight: boost * idf(stats.doc_count, doc_freq),
            avgdl: stats.avgdl(),
        }
    }

    /// Score of a document with `term_freq` occurrences and `field_length` tokens.
    pub(crate) fn score(&self, term_freq: u32, field_length: u32) -> f32 {
        let dl = byte4_to_int(int_to_byte4(field_length)) as f32;
        let norm_inverse = 1.0f32 / (K1 * ((1.0 - B) + B * dl / self.avgdl));
        self.weight - self.weight / (1.0f32 + term_freq as f32 * norm_inverse)
    }
}

/// Lengths below this are stored exactly by `SmallFloat.intToByte4`.
const NUM_FREE_VALUES: u32 = 24;

/// `SmallFloat.intToByte4`: the norm byte Lucene stores for a field length.
pub(crate) fn int_to_byte4(i: u32) -> u8 {
    if i < NUM_FREE_VALUES {
        i as u8
    } else {
        (NUM_FREE_VALUES + long_to_int4(u64::from(i - NUM_FREE_VALUES))) as u8
    }
}

/// `SmallFloat.byte4ToInt`: the field length Lucene decodes from a norm byte.
pub(crate) fn byte4_to_int(b: u8) -> u32 {
    let i = u32::from(b);
    if i < NUM_FREE_VALUES {
        i
    } else {
        (u64::from(NUM_FREE_VALUES) + int4_to_long(i - NUM_FREE_VALUES)) as u32
    }
}

fn long_to_int4(i: u64) -> u32 {
    let num_bits = 64 - i.leading_zeros();
    if num_bits < 4 {
        i as u32
    } else {
        let shift = num_bits - 4;
        (((i >> shift) as u32) & 0x07) | ((shift + 1) << 3)
    }
}

fn int4_to_long(i: u32) -> u64 {
    let bits = u64::from(i & 0x07);
    match (i >> 3) as i32 - 1 {
        -1 => bits,
        shift => (bits | 0x08) << shift,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round2(x: f32) -> f64 {
        crate::js::round2(f64::from(x))
    }

    #[test]
    fn spec_check_values() {
        // HEAD static statistics: aliases N=30, 80 values; canonical_name N=35, 35 values.
        let aliases = FieldStats {
            doc_count: 30,
            sum_total_term_freq: 80,
        };
        let canonical = FieldStats {
            doc_count: 35,
            sum_total_term_freq: 35,
        };
        assert_eq!(
            round2(TermScorer::new(14.0, canonical, 1).score(1, 1)),
            20.22
        );
        assert_eq!(round2(TermScorer::new(5.0, aliases, 1).score(1, 2)), 7.67);
        assert_eq!(round2(TermScorer::new(5.0, aliases, 2).score(1, 1)), 7.69);
        assert_eq!(round2(TermScorer::new(5.0, aliases, 1).score(1, 5)), 5.07);
        assert_eq!(round2(TermScorer::new(14.0, aliases, 1).score(1, 3)), 18.33);
        assert_eq!(round2(TermScorer::new(14.0, aliases, 1).score(1, 4)), 16.00);
    }

    #[test]
    fn small_float_is_exact_below_24_and_lossy_above() {
        for i in 0..24 {
            assert_eq!(byte4_to_int(int_to_byte4(i)), i);
        }
        assert_eq!(byte4_to_int(int_to_byte4(24)), 24);
        assert_eq!(byte4_to_int(int_to_byte4(41)), 40);
        assert!(byte4_to_int(int_to_byte4(1000)) <= 1000);
        assert_eq!(int_to_byte4(u32::MAX >> 1), 255);
    }
}
