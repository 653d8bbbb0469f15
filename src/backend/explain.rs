//! Why a hit scored what it did: a small tree in the manner of tantivy's `Explanation`. Each
//! node has a value and a description; leaves that are a term matched in a field say so in
//! [`TermMatch`], which is what report writers turn into per-term attribution.

use serde::{Deserialize, Serialize};

/// One node of a score explanation. Serialized as a run's journal keeps it (`run::journal`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// This node's contribution (float32, as the scorer computed it).
    pub value: f32,
    /// What it is (`sum of`, `canonical_name:redis`, `bm25 rank 3`).
    pub description: String,
    /// The term match this node stands for, when it is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub term: Option<TermMatch>,
    /// The parts it is made of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Explanation>,
    /// A context scorer's signals and tier (composite, spreading, recent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signals: Option<Box<super::Signals>>,
}

/// A leaf: one indexed term matched in one field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TermMatch {
    /// Field (or clause) path as the backend's own reports name it (`aliases.shingle`).
    pub path: String,
    /// The indexed term.
    pub term: String,
    /// Left out of the backend's compact clause view (Atlas collapses single-term clauses,
    /// which the static report parser then drops, spec §C.5); still part of the score.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub collapsed: bool,
}

/// One term's share of a hit's score: a [`TermMatch`] with its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Contribution {
    /// Field (or clause) path.
    pub path: String,
    /// The indexed term that matched.
    pub term: String,
    /// Its score (float32, boosts included).
    pub score: f32,
    /// Hidden from the compact clause view (see [`TermMatch::collapsed`]).
    pub collapsed: bool,
}

impl Explanation {
    /// An inner node.
    pub fn node(value: f32, description: impl Into<String>, details: Vec<Explanation>) -> Self {
        Explanation {
            value,
            description: description.into(),
            term: None,
            details,
            signals: None,
        }
    }

    /// A term-match leaf.
    pub fn term(value: f32, term: TermMatch) -> Self {
        Explanation {
            value,
            description: format!("{}:{}", term.path, term.term),
            term: Some(term),
            details: Vec::new(),
            signals: None,
        }
    }

    /// A context scorer's explanation: its score, what it is, and its signals.
    pub(crate) fn signals(signals: super::Signals, description: impl Into<String>) -> Self {
        Explanation {
            value: signals.score as f32,
            description: description.into(),
            term: None,
            details: Vec::new(),
            signals: Some(Box::new(signals)),
        }
    }

    /// Every term-match leaf with its value, depth first, in order.
    pub(crate) fn contributions(&self) -> Vec<Contribution> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect(&self, out: &mut Vec<Contribution>) {
        if let Some(t) = &self.term {
            out.push(Contribution {
                path: t.path.clone(),
                term: t.term.clone(),
                score: self.value,
                collapsed: t.collapsed,
            });
        }
        for d in &self.details {
            d.collect(out);
        }
    }
}
