//! What a benchmark's loader shares (LoCoMo, LongMemEval): an item of a conversation as a
//! belief, a question as a static case judged by the items it must retrieve, and the check that
//! names a user (one per conversation or per question) usable as an id prefix.

use super::{Belief, BeliefType, BudgetOverride, Expect, RelevantExpect, StaticCase};
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::path::Path;

/// One item said at `time` (Unix ms): its text is its canonical name and it has no aliases.
pub(crate) fn item(id: String, user: &str, text: String, time: i64) -> Belief {
    Belief {
        created_at: Some(time),
        updated_at: Some(time),
        ..Belief::new(id, user.to_string(), BeliefType::Entity, text)
    }
}

/// One question asked, as a case: its context holds `depth` results, and it passes when every `gold`
/// item is in the first `pass_depth`.
pub(crate) struct Asked<'a> {
    /// The case id.
    pub case_id: String,
    /// The user (conversation or question) it asks as.
    pub user: &'a str,
    /// Its category.
    pub category: &'a str,
    /// The question.
    pub query: &'a str,
    /// The items it must retrieve.
    pub gold: Vec<String>,
    /// Results its context holds.
    pub depth: usize,
    /// The pass rule's depth.
    pub pass_depth: usize,
}

impl Asked<'_> {
    /// The static case.
    pub(crate) fn case(self) -> StaticCase {
        StaticCase {
            case_id: self.case_id,
            description: String::new(),
            category: Some(self.category.to_string()),
            scope: Vec::new(),
            query: self.query.to_string(),
            user_id: Some(self.user.to_string()),
            budget: Some(BudgetOverride {
                max_beliefs: Some(self.depth as i64),
                ..BudgetOverride::default()
            }),
            expect: Expect {
                relevant_beliefs: Some(RelevantExpect {
                    must_include: self.gold,
                    within_top: Some(self.pass_depth),
                    ..RelevantExpect::NONE
                }),
                ..Expect::default()
            },
            notes: None,
            grades: Vec::new(),
        }
    }
}

/// A user id read at `at` of `data`: unique in the file, non-empty, and without `/` (item ids
/// are `USER/...`).
pub(crate) fn check_user(
    data: &Path,
    at: &str,
    user: &str,
    seen: &mut HashSet<String>,
) -> Result<()> {
    if user.is_empty() || user.contains('/') || !seen.insert(user.to_string()) {
        return Err(Error::input(
            data,
            at,
            format!("{user:?}: expected a unique id without '/'"),
        ));
    }
    Ok(())
}

/// The paths of `inputs` whose bytes are not the released file of that path in `released` (a
/// SHA256SUMS table: `sha256  path` a line), in input order.
pub(crate) fn unreleased(released: &str, inputs: &[super::InputFile]) -> Vec<String> {
    let is_released = |i: &super::InputFile| {
        (released.lines())
            .filter_map(|line| line.split_once("  "))
            .any(|(sha, path)| sha == i.sha256 && path == i.path)
    };
    (inputs.iter().filter(|i| !is_released(i)))
        .map(|i| i.path.clone())
        .collect()
}

/// The paths of `released` that `part` holds and `inputs` did not read, in release order: a
/// folder with files taken out ran as the release (a tenth audit).
pub(crate) fn absent(
    released: &str,
    inputs: &[super::InputFile],
    part: impl Fn(&str) -> bool,
) -> Vec<String> {
    (released.lines())
        .filter_map(|line| line.split_once("  ").map(|(_, path)| path))
        .filter(|path| part(path) && !inputs.iter().any(|i| i.path == *path))
        .map(str::to_string)
        .collect()
}
