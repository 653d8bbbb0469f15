//! Dense embeddings for the cosine backend: which text of a belief or a query is embedded
//! (text policies, spec §E), the content-addressed vector store, the ONNX embedder, and the
//! list of texts a suite run needs.

pub mod needed;
pub mod onnx;
pub mod source;
pub mod store;

pub use needed::{needed_texts, NeededText};
pub use store::{EmbeddingStore, ModelInfo};

use crate::profile::Profile;
use crate::suite::Belief;
use serde::{Deserialize, Serialize};

/// What is embedded: a belief's text or a query's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A belief (document side; the model's document prefix applies).
    Belief,
    /// A query (the model's query prefix applies).
    Query,
}

impl Role {
    /// `belief` or `query`.
    pub fn name(self) -> &'static str {
        match self {
            Role::Belief => "belief",
            Role::Query => "query",
        }
    }
}

/// Which fields of a belief make its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum BeliefText {
    /// canonical_name then each alias (the paper's vector harness: "apples to apples" with BM25).
    #[serde(rename = "names")]
    Names,
    /// canonical_name, aliases, content, why_it_matters (PrecisionMemBench's vector adapter).
    #[serde(rename = "names-content")]
    NamesContent,
}

/// Which form of the user message is embedded as the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum QueryText {
    /// The prepared query (`expandedQuery`, spec §B), as the paper's harness does.
    Expanded,
    /// The raw user message, as PrecisionMemBench's adapter does.
    Raw,
}

/// The texts a cosine run embeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct TextPolicy {
    /// Belief side.
    pub belief: BeliefText,
    /// Query side.
    pub query: QueryText,
}

impl TextPolicy {
    /// The upstream policy of each profile (spec §E).
    pub fn of(profile: Profile) -> TextPolicy {
        match profile {
            Profile::Paper => TextPolicy {
                belief: BeliefText::Names,
                query: QueryText::Expanded,
            },
            Profile::Head => TextPolicy {
                belief: BeliefText::NamesContent,
                query: QueryText::Raw,
            },
        }
    }

    /// The policy name of one role, as stores and keys record it.
    pub fn name(&self, role: Role) -> &'static str {
        match role {
            Role::Belief => self.belief.name(),
            Role::Query => self.query.name(),
        }
    }

    /// `names+expanded`, `names-content+raw`: for tables and file names.
    pub fn label(&self) -> String {
        format!("{}+{}", self.belief.name(), self.query.name())
    }
}

impl BeliefText {
    /// Command-line and store name.
    pub fn name(self) -> &'static str {
        match self {
            BeliefText::Names => "names",
            BeliefText::NamesContent => "names-content",
        }
    }

    /// The text of `belief` under this policy. Upstream joins a JavaScript array with single
    /// spaces, so a missing `why_it_matters` still leaves its separator, as `[..., undefined]
    /// .join(" ")` does.
    pub fn of(self, belief: &Belief) -> String {
        let mut parts: Vec<&str> = Vec::with_capacity(belief.aliases.len() + 3);
        parts.push(&belief.canonical_name);
        parts.extend(belief.aliases.iter().map(String::as_str));
        if self == BeliefText::NamesContent {
            parts.push(&belief.content);
            parts.push(belief.why_it_matters.as_deref().unwrap_or(""));
        }
        parts.join(" ")
    }
}

impl QueryText {
    /// Command-line and store name.
    pub fn name(self) -> &'static str {
        match self {
            QueryText::Expanded => "expanded",
            QueryText::Raw => "raw",
        }
    }

    /// The query text of `message` under this policy.
    pub fn of(self, message: &str, profile: Profile) -> String {
        match self {
            QueryText::Expanded => crate::query::prepare(message, profile).query,
            QueryText::Raw => message.to_string(),
        }
    }
}

/// The store key of one text: sha256 over the model name, the role and policy, and the exact
/// text, so a vector is found again only for the same model, policy and text.
pub fn key(model: &str, role: Role, policy: &str, text: &str) -> String {
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
