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

/// A conversation's key as LoCoMo writes it, and the Temporal Memory Dataset after it:
/// `Some(N)` for `session_N`, `None` for `speaker_a`, `speaker_b` and `session_N_date_time`
/// (LoCoMo's release dates sessions it does not hold: conv-26's `session_20_date_time`), and
/// an input error at `at` for any other key. A session whose key was misspelt (`Session_2`,
/// `session_99999999999`) was skipped with its turns, and its questions' evidence said to
/// name no turn (a seventeenth audit).
pub(crate) fn session_key(path: &Path, at: &str, key: &str) -> Result<Option<u32>> {
    let number = |n: &str| n.parse::<u32>().ok();
    let rest = key.strip_prefix("session_");
    if rest
        .and_then(|k| k.strip_suffix("_date_time"))
        .and_then(number)
        .is_some()
    {
        return Ok(None);
    }
    match (key, rest.and_then(number)) {
        ("speaker_a" | "speaker_b", _) => Ok(None),
        (_, Some(n)) => Ok(Some(n)),
        _ => Err(Error::input(
            path,
            at,
            "expected speaker_a, speaker_b, session_N or session_N_date_time (N a whole number)",
        )),
    }
}

/// What every benchmark's suite holds, whatever its loader: each case id once, and a question
/// to retrieve with. Two of the Temporal Memory Dataset's content-time files gave every id
/// twice, a run exited 0 and `verify` then refused its report; a blank question was a case
/// that retrieves nothing, scored as the system's failure (a seventeenth audit). A blank one is
/// excluded, with its reason; a repeated id is refused.
pub(crate) fn checked(mut suite: super::Suite) -> Result<super::Suite> {
    let mut seen = HashSet::new();
    if let Some(case) = suite
        .cases
        .iter()
        .find(|c| !seen.insert(c.case_id.as_str()))
    {
        return Err(Error::Usage(format!(
            "{}: case {:?} twice (from {}); expected each question once",
            suite.label(),
            case.case_id,
            (suite.inputs.iter())
                .map(|i| i.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let (blank, asked): (Vec<_>, Vec<_>) = std::mem::take(&mut suite.cases)
        .into_iter()
        .partition(|c| c.query.trim().is_empty());
    suite.cases = asked;
    suite
        .excluded
        .extend(blank.into_iter().map(|c| super::Excluded {
            case: c.case_id,
            reason: "a blank question: nothing to retrieve with".into(),
        }));
    Ok(suite)
}
