//! Pipeline profiles: the two upstream code versions whose behaviour differs (spec **\[DIFF\]** marks).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which upstream pipeline to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Tag `v1.0.0-paper` of tenurehq/tenure: the paper's numbers.
    Paper,
    /// tenurehq/tenure HEAD, as run by PrecisionMemBench.
    Head,
}

impl Profile {
    /// Name used on the command line and in manifests.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Profile::Paper => "paper",
            Profile::Head => "head",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which upstream reader a backend stands in for: PrecisionMemBench's vector adapter builds the
/// context differently from Tenure's text reader (spec §E). A backend says its own
/// (`BackendInfo::reader`); nothing guesses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reader {
    /// Tenure's `BeliefsReader` (Atlas Search): every profile's text backends.
    Text,
    /// A vector reader: at the paper tag it shares the text reader's context rules; at HEAD it
    /// is PrecisionMemBench's adapter.
    Vector,
    /// PrecisionMemBench's external client (provider-http spec §5.2): the system answers the
    /// search, the client keeps the seed corpus and builds the rest (pinned facts in seed
    /// order, relation expansion, cap), and checks and reports as its external harness does.
    External,
}

/// Whose checks: the in-process harnesses' (Tenure's order, spec §F) or PrecisionMemBench's
/// external harness (the same static checks in another order, other session wording;
/// provider-http spec §5.3, §6.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Harness {
    /// `retrieval.eval.test.ts` and the vector harnesses.
    Tenure,
    /// `retrieval.external.eval.test.ts` and its session twin.
    External,
}

/// Whose context-building rules a run follows (spec §D, §E; provider-http spec §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ContextRules {
    /// Tenure's reader at `profile` (the paper's vector harness also builds its context so).
    Tenure(Profile),
    /// PrecisionMemBench's vector adapter (HEAD with a vector reader).
    VectorAdapter,
    /// PrecisionMemBench's external client around a system that answers the search.
    External(Profile),
}

/// Which upstream code a run reproduces: the pipeline version of the suite and the reader of the
/// backend. Every question whose answer depends on both is answered here, once: how the context
/// is built, whose checks judge it, which checks the paper tag still ran and how an empty
/// context scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fidelity {
    /// The suite's pipeline version.
    pub profile: Profile,
    /// The backend's reader.
    pub reader: Reader,
}

impl Fidelity {
    /// `profile`'s pipeline with `reader`.
    pub(crate) fn new(profile: Profile, reader: Reader) -> Fidelity {
        Fidelity { profile, reader }
    }

    /// Whether a system outside the process answers the searches (the external client's run).
    pub(crate) fn is_external(self) -> bool {
        self.reader == Reader::External
    }

    /// Whose checks judge the context: an external system's are judged as PrecisionMemBench's
    /// external harness judges them.
    pub(crate) fn harness(self) -> Harness {
        if self.is_external() {
            Harness::External
        } else {
            Harness::Tenure
        }
    }

    /// Whose rules build the context.
    pub(crate) fn context_rules(self) -> ContextRules {
        match (self.profile, self.reader) {
            (_, Reader::External) => ContextRules::External(self.profile),
            (Profile::Head, Reader::Vector) => ContextRules::VectorAdapter,
            // The paper's vector harness builds its context with the BM25 reader's rules.
            (profile, _) => ContextRules::Tenure(profile),
        }
    }

    /// Whether the paper tag's check of a scope prelude runs: its Tenure harness still checked
    /// one the context no longer had (it reads as undefined); the external harness never did.
    pub(crate) fn checks_scope_prelude(self) -> bool {
        self.profile == Profile::Paper && self.harness() == Harness::Tenure
    }

    /// Precision of a case whose context surfaced nothing although it has gold: HEAD's
    /// harnesses count it 0, the paper tag's leave it undefined (spec §G).
    pub(crate) fn precision_of_empty_context(self) -> Option<f64> {
        match self.profile {
            Profile::Paper => None,
            Profile::Head => Some(0.0),
        }
    }
}
