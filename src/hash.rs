//! The project's stable string hash, FNV-1a 64: the same value on every platform, release and
//! run (std's hasher is seeded per process). A run shard's cases are dealt by it
//! (`shard::Shard`), and the temporal classifier's features are bucketed by it, so its
//! weights file holds bucket numbers, not phrases (`temporal::features::buckets`).

/// FNV-1a, 64 bits, of `text`'s UTF-8 bytes.
pub(crate) fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_values() {
        // FNV-1a 64 of "" is its offset basis; of "a", 0xaf63dc4c8601ec8c (the reference tables).
        assert_eq!(super::fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(super::fnv1a("foobar"), 0x85944171f73967e8);
    }
}
