//! Static retrieval cases and their assertions (spec §F.1).
//!
//! Assertion objects reject unknown keys: a misspelt assertion would otherwise be skipped
//! silently and the case would pass for the wrong reason.

use serde::Deserialize;

/// One static case of `retrieval.cases.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StaticCase {
    /// Unique id.
    pub case_id: String,
    /// Human description.
    #[serde(default)]
    pub description: String,
    /// HEAD only: free-text category used by the pass taxonomy and the category table.
    #[serde(default)]
    pub category: Option<String>,
    /// Scope list of the request.
    pub scope: Vec<String>,
    /// The raw user message.
    pub query: String,
    /// Defaults to `test-user`.
    #[serde(default)]
    pub user_id: Option<String>,
    /// Per-key budget overrides.
    #[serde(default)]
    pub budget: Option<BudgetOverride>,
    /// Assertions.
    pub expect: Expect,
    /// Free text.
    #[serde(default)]
    pub notes: Option<String>,
    /// Graded judgments of a test collection's topic (`suite::trec`), grade 0 included, in
    /// qrels order; empty for every other suite, whose gold is relevant with grade 1.
    #[serde(skip)]
    pub grades: Vec<(String, u32)>,
}

/// The user every case runs as unless it says otherwise.
pub const DEFAULT_USER: &str = "test-user";

impl StaticCase {
    /// The requesting user.
    pub fn user(&self) -> &str {
        self.user_id.as_deref().unwrap_or(DEFAULT_USER)
    }
}

/// Partial `ContextBudget` (spec §D). Only `maxBeliefs` is used by the data; the rest are
/// accepted because the upstream type has them.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BudgetOverride {
    /// Cap on pinned + relevant beliefs (default 20).
    pub max_beliefs: Option<i64>,
    /// Cap on pinned facts (default 10).
    pub max_pinned_facts: Option<i64>,
    /// Cap on open questions (default 15).
    pub max_questions: Option<i64>,
    /// Content clipping in the projection (default 400); no effect on ids.
    pub max_chars_per_belief: Option<i64>,
    /// Persona prelude clipping (default 800).
    pub max_persona_chars: Option<i64>,
    /// Unused upstream (the scope prelude was removed).
    pub max_scope_prelude_chars: Option<i64>,
    /// Projection name; only ids reach reports, so it has no effect.
    pub projection: Option<String>,
    /// Forced to true by the harness.
    pub score_details: Option<bool>,
}

/// Assertions of a static case.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Expect {
    /// Checks on the relevant tier (and on pinned ∪ relevant).
    #[serde(default)]
    pub relevant_beliefs: Option<RelevantExpect>,
    /// Checks on the pinned tier.
    #[serde(default)]
    pub pinned_facts: Option<IdsExpect>,
    /// Checks on the questions tier.
    #[serde(default)]
    pub open_questions: Option<IdsExpect>,
    /// Checks on the persona prelude text.
    #[serde(default)]
    pub persona_prelude: Option<PreludeExpect>,
    /// PAPER only; the context has no scope prelude, see spec §F.1 step 10.
    #[serde(default)]
    pub scope_prelude: Option<PreludeExpect>,
}

/// `relevantBeliefs` assertions.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RelevantExpect {
    /// Each id must be in pinned ∪ relevant.
    #[serde(default)]
    pub must_include: Vec<String>,
    /// No id may be in pinned ∪ relevant.
    #[serde(default)]
    pub must_exclude: Vec<String>,
    /// Like mustInclude, with its own message.
    #[serde(default)]
    pub should_include: Vec<String>,
    /// The relevant tier must be exactly this set (`[]`: empty). Also the gold set of the metrics.
    #[serde(default)]
    pub should_only_include: Option<Vec<String>>,
    /// Pairs `[a, b]`: both relevant, a before b.
    #[serde(default)]
    pub ordered_before: Vec<(String, String)>,
    /// Upper bound on the relevant count.
    #[serde(default)]
    pub max_count: Option<u64>,
    /// Lower bound on the relevant count.
    #[serde(default)]
    pub min_count: Option<u64>,
    /// Ours, never in upstream's files: `mustInclude` ids must be within this many results of
    /// the relevant tier, not anywhere in it (a suite whose context is deeper than its pass
    /// rule, as LoCoMo's: R@50 measured, all gold in the top 10 to pass).
    #[serde(skip)]
    pub within_top: Option<usize>,
}

impl RelevantExpect {
    /// No assertion: what an absent `relevantBeliefs` means.
    pub(crate) const NONE: RelevantExpect = RelevantExpect {
        must_include: Vec::new(),
        must_exclude: Vec::new(),
        should_include: Vec::new(),
        should_only_include: None,
        ordered_before: Vec::new(),
        max_count: None,
        min_count: None,
        within_top: None,
    };
}

/// `mustInclude` / `mustExclude` on one tier.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IdsExpect {
    /// Ids that must be present.
    #[serde(default)]
    pub must_include: Vec<String>,
    /// Ids that must be absent.
    #[serde(default)]
    pub must_exclude: Vec<String>,
}

impl IdsExpect {
    /// No assertion: what an absent tier means.
    pub(crate) const NONE: IdsExpect = IdsExpect {
        must_include: Vec::new(),
        must_exclude: Vec::new(),
    };
}

/// Persona (or scope) prelude assertions.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PreludeExpect {
    /// Text must be non-empty.
    #[serde(default)]
    pub non_empty: bool,
    /// Text must be empty.
    #[serde(default)]
    pub is_null: bool,
    /// Substrings that must occur.
    #[serde(default)]
    pub contains: Vec<String>,
    /// Substrings that must not occur.
    #[serde(default)]
    pub must_not_contain: Vec<String>,
}
