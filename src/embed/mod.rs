//! Dense embeddings for the cosine backend: which text of a belief or a query is embedded
//! (text policies, spec §E), the content-addressed vector store, the ONNX embedder, and the
//! list of texts a suite run needs.

pub(crate) mod builtin;
mod identity;
pub mod import;
mod kind;
pub mod needed;
pub mod onnx;
pub(crate) mod places;
pub mod service;
pub(crate) mod source;
pub mod store;
pub mod vectors;

pub use needed::{needed_texts, NeededText};
pub use store::{EmbeddingStore, ModelInfo};
pub use vectors::{CachedSource, Embedder, SourceSummary, VectorSource};

pub use crate::suite::text::{BeliefText, QueryText, Role, TextPolicy};

/// The store key of one text: sha256 over the model name, the role and policy, and the exact
/// text, so a vector is found again only for the same model, policy and text.
pub(crate) fn key(model: &str, role: Role, policy: &str, text: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in [model, role.name(), policy, text] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    format!("{:x}", hasher.finalize())
}

/// `v / |v|`, or `None` when the vector is zero or not finite (cosine is undefined there).
pub fn normalised(v: &[f32]) -> Option<Vec<f32>> {
    let norm = v
        .iter()
        .map(|x| f64::from(*x) * f64::from(*x))
        .sum::<f64>()
        .sqrt();
    if !norm.is_finite() || norm == 0.0 {
        return None;
    }
    Some(v.iter().map(|x| (f64::from(*x) / norm) as f32).collect())
}

/// Why a vector cannot be used for cosine search, if it cannot.
pub(crate) fn check_vector(v: &[f32]) -> std::result::Result<(), &'static str> {
    if v.iter().any(|x| !x.is_finite()) {
        Err("a vector with NaN or infinite values")
    } else if v.iter().all(|x| *x == 0.0) {
        Err("an all-zero vector")
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_separate_model_role_policy_and_text() {
        let k = key("m", Role::Belief, "names", "redis");
        assert_eq!(k.len(), 64);
        assert_ne!(k, key("m2", Role::Belief, "names", "redis"));
        assert_ne!(k, key("m", Role::Query, "names", "redis"));
        assert_ne!(k, key("m", Role::Belief, "names-content", "redis"));
        assert_ne!(k, key("m", Role::Belief, "names", "redis "));
        // Length prefixes keep ("ab","c") and ("a","bc") apart.
        assert_ne!(
            key("ab", Role::Belief, "c", "x"),
            key("a", Role::Belief, "bc", "x")
        );
    }

    #[test]
    fn normalising_rejects_zero_and_nan() {
        assert_eq!(normalised(&[3.0, 4.0]), Some(vec![0.6, 0.8]));
        assert_eq!(normalised(&[0.0, 0.0]), None);
        assert_eq!(normalised(&[f32::NAN, 1.0]), None);
    }
}
