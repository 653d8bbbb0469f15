//! Which text of a belief or a query a text-based backend sees (spec §E): the cosine backend
//! embeds these, and HTTP providers receive the same belief-to-text rules.

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BeliefText {
    /// canonical_name then each alias (the paper's vector harness: "apples to apples" with BM25).
    #[serde(rename = "names")]
    Names,
    /// canonical_name, aliases, content, why_it_matters (PrecisionMemBench's vector adapter).
    #[serde(rename = "names-content")]
    NamesContent,
}

/// Which form of the user message is embedded as the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    pub(crate) fn label(&self) -> String {
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
