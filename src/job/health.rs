//! Is the system that answered a pass healthy? Two things no case's pass/fail shows:
//!
//! - answers holding ids the run never added, or another user's beliefs (the careful client's
//!   diagnostics, provider-http spec §5.2): a system inventing ids, or holding another run's
//!   data, scores like a healthy one; the pass warns, with counts and examples;
//! - in careful mode, answers the client cannot read: results without an id (dropped, as
//!   upstream drops them: spec D3, D4), or no result to any search; a system answering so
//!   scored 34/77 on pmb, more than a working one's 16/77 (a twelfth audit). Past
//!   [`UNHEALTHY_SHARE`] of the results, or every search, the pass is a failed run;
//! - in compat mode, calls that errored: upstream's client reads an error answer as no results
//!   (spec §9, D2), so a system answering HTTP 500 to every search still gets a score, even a
//!   better one than a healthy system's. The numbers stay upstream's, but a pass where more
//!   than [`UNHEALTHY_SHARE`] of an endpoint's calls failed is a failed run: its report goes
//!   to `failed/` and the exit code says so.

use crate::context::Context;
use std::collections::BTreeMap;

/// The share of an endpoint's calls that may fail before a compat pass is a failed run.
pub(crate) const UNHEALTHY_SHARE: f64 = 0.05;

/// Ids shown per warning.
const EXAMPLES: usize = 5;

/// What the answers of a pass held that they should not have.
#[derive(Debug, Default)]
pub(crate) struct Answers {
    entries: usize,
    never_added: BTreeMap<String, usize>,
    with_never_added: usize,
    other_user: BTreeMap<String, usize>,
    with_other_user: usize,
    /// Entries that searched, and those whose search answered no result.
    searched: usize,
    empty: usize,
    /// Results returned, and those without an id.
    returned: usize,
    without_id: usize,
}

impl Answers {
    /// Count one case's or turn's context.
    pub(crate) fn see(&mut self, context: &Context) {
        self.entries += 1;
        let Some(d) = &context.diagnostics else {
            return;
        };
        if context.search_ms.is_some() {
            self.searched += 1;
            self.empty += usize::from(d.returned == 0);
        }
        self.returned += d.returned;
        self.without_id += d.without_id;
        let count = |ids: &[String], map: &mut BTreeMap<String, usize>| {
            for id in ids {
                *map.entry(id.clone()).or_default() += 1;
            }
            !ids.is_empty()
        };
        self.with_never_added += usize::from(count(&d.unknown, &mut self.never_added));
        self.with_other_user += usize::from(count(&d.other_user, &mut self.other_user));
    }

    /// One warning per kind of wrong answer, with counts and examples.
    pub(crate) fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.with_never_added > 0 {
            out.push(format!(
                "answers to {} of {} cases held ids this run never added ({} distinct, {} in \
                 all; e.g. {}): the system invents ids, or keeps data of another run \
                 (`tenure-eval doctor` names them)",
                self.with_never_added,
                self.entries,
                self.never_added.len(),
                self.never_added.values().sum::<usize>(),
                examples(&self.never_added)
            ));
        }
        if self.with_other_user > 0 {
            out.push(format!(
                "answers to {} of {} cases held another user's beliefs ({} distinct; e.g. {}): \
                 the system does not filter by user_id",
                self.with_other_user,
                self.entries,
                self.other_user.len(),
                examples(&self.other_user)
            ));
        }
        out
    }
}

impl Answers {
    /// Why answers the client cannot read make no good run: too many results without an id,
    /// or no result to any search.
    pub(crate) fn unreadable(&self) -> Option<String> {
        if self.without_id > 0 && self.without_id as f64 > UNHEALTHY_SHARE * self.returned as f64 {
            return Some(format!(
                "{} of {} results had no id (neither a top-level `id` nor `metadata.beliefId`; \
                 more than {:.0}%): the client drops them, as upstream's does, so the numbers \
                 measure the rest; this is not a good run (the report went to failed/; \
                 `tenure-eval doctor` checks the system)",
                self.without_id,
                self.returned,
                UNHEALTHY_SHARE * 100.0
            ));
        }
        (self.searched > 0 && self.empty == self.searched).then(|| {
            format!(
                "every one of the {} searches answered no result: the system holds or returns \
                 nothing, and the cases that expect nothing pass; this is not a good run (the \
                 report went to failed/; `tenure-eval doctor` checks the system)",
                self.searched
            )
        })
    }
}

/// A pass's health: warnings for the console and the summary, and why a compat pass is not
/// a good run.
#[derive(Debug, Default)]
pub(crate) struct Health {
    /// Answers holding what they should not (careful mode, which sees them).
    pub warnings: Vec<String>,
    /// Too many failed calls in compat mode: the pass is a failed run.
    pub unhealthy: Option<String>,
}

impl Health {
    /// What `answers` and `stats` (the client's counters) say of the system behind `backend`.
    pub(crate) fn of(
        backend: &crate::backend::BackendInfo,
        stats: &Option<serde_json::Value>,
        answers: &Answers,
    ) -> Health {
        if backend.reader != crate::backend::Reader::External {
            return Health::default();
        }
        if backend.upstream_exact {
            Health {
                warnings: Vec::new(),
                unhealthy: stats.as_ref().and_then(failed_calls),
            }
        } else {
            Health {
                warnings: answers.warnings(),
                unhealthy: answers.unreadable(),
            }
        }
    }
}

/// The most frequent ids first (ties by id), at most [`EXAMPLES`], then how many more.
fn examples(ids: &BTreeMap<String, usize>) -> String {
    let mut by_count: Vec<(&String, &usize)> = ids.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let shown: Vec<String> = by_count
        .iter()
        .take(EXAMPLES)
        .map(|(id, n)| format!("{id} ({n}×)"))
        .collect();
    let more = ids.len().saturating_sub(EXAMPLES);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Why a compat pass is not a good run, from the client's counters (`requests`,
/// `failedRequests` per endpoint): each endpoint whose failed share exceeds
/// [`UNHEALTHY_SHARE`]; `None` when none does.
pub(crate) fn failed_calls(stats: &serde_json::Value) -> Option<String> {
    let mut why = Vec::new();
    // `/reset` and `/wait` too: a store never cleared, or never said to be indexed, was
    // published as a clean run (an eighteenth audit).
    for endpoint in ["reset", "wait", "add", "search", "update"] {
        let sent = stats["requests"][endpoint].as_u64().unwrap_or(0);
        let failed = stats["failedRequests"][endpoint].as_u64().unwrap_or(0);
        if sent > 0 && failed as f64 > UNHEALTHY_SHARE * sent as f64 {
            why.push(format!("{failed} of {sent} /{endpoint} calls failed"));
        }
    }
    (!why.is_empty()).then(|| {
        format!(
            "{} (more than {:.0}%): upstream's client reads a failed call as no results, so \
             the numbers are upstream's, but this is not a good run (the report went to \
             failed/; `tenure-eval doctor` checks the system)",
            why.join(", "),
            UNHEALTHY_SHARE * 100.0
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_small_share_of_failed_calls_is_tolerated_and_a_larger_one_named() {
        let stats = |failed: u64| json!({"requests": {"add": 35, "search": 77}, "failedRequests": {"search": failed}});
        assert_eq!(failed_calls(&stats(3)), None);
        let why = failed_calls(&stats(4)).unwrap();
        assert!(
            why.starts_with("4 of 77 /search calls failed (more than 5%)"),
            "{why}"
        );
        assert_eq!(failed_calls(&json!({})), None);
    }

    #[test]
    fn examples_are_the_most_frequent_ids_then_a_count() {
        let ids: BTreeMap<String, usize> = (0..7).map(|i| (format!("x{i}"), i % 3 + 1)).collect();
        assert_eq!(
            examples(&ids),
            "x2 (3×), x5 (3×), x1 (2×), x4 (2×), x0 (1×) and 2 more"
        );
    }
}
