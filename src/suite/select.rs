//! Choosing some of a suite's cases (`run --case ID --category NAME --limit N`): a smoke test
//! of a slow system, or one case again while fixing it. A selection is part of what a run is:
//! the suite's label gains `-selected` (so its reports go to their own folder and never stand
//! for a whole run's, and `tables`, `verify` and the studies tell them apart), and the manifest
//! records the selection.

use super::Suite;
use crate::error::{Error, Result};
use globset::{Glob, GlobMatcher};
use serde::{Deserialize, Serialize};

/// Which cases a run takes; every list empty and no limit is every case.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Selection {
    /// Case ids or glob patterns (`conv-26/*`, `happy-*`): a static or session case is kept
    /// when one matches its id. Empty: every id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<String>,
    /// Categories: a static case is kept when its category is one of them; session cases have
    /// none, so naming a category leaves them out. Empty: every category.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// At most this many static cases, and this many session cases, the first in file order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
}

impl Selection {
    /// Whether it keeps every case (no pattern, category or limit).
    pub(crate) fn is_all(&self) -> bool {
        self.cases.is_empty() && self.categories.is_empty() && self.limit.is_none()
    }
}

/// The label suffix of a selection's reports.
pub(crate) const SELECTED: &str = "selected";

/// The whole suite's label of a selection's (`pmb-selected` -> `pmb`); any other as it is.
pub(crate) fn whole_label(label: &str) -> &str {
    label
        .strip_suffix(SELECTED)
        .and_then(|l| l.strip_suffix('-'))
        .unwrap_or(label)
}

impl Suite {
    /// Keep the cases `selection` takes, record it, and say how many of each kind were kept:
    /// `(static kept, static before, sessions kept, sessions before)`. A pattern or category
    /// that matches no case, or a selection that keeps nothing, is a usage error naming it.
    pub(crate) fn select(&mut self, selection: &Selection) -> Result<(usize, usize, usize, usize)> {
        let globs: Vec<(String, GlobMatcher)> = selection
            .cases
            .iter()
            .map(|p| {
                Glob::new(p)
                    .map(|g| (p.clone(), g.compile_matcher()))
                    .map_err(|e| Error::Usage(format!("--case {p}: not a glob pattern: {e}")))
            })
            .collect::<Result<_>>()?;
        let ids = self
            .cases
            .iter()
            .map(|c| c.case_id.as_str())
            .chain(self.sessions.iter().map(|s| s.case_id.as_str()));
        for (pattern, glob) in &globs {
            if !ids.clone().any(|id| glob.is_match(id)) {
                return Err(Error::Usage(format!(
                    "--case {pattern}: matches no case of {}",
                    self.label()
                )));
            }
        }
        let categories: Vec<&str> = (self.cases.iter())
            .filter_map(|c| c.category.as_deref())
            .collect();
        for name in &selection.categories {
            if !categories.contains(&name.as_str()) {
                let mut known = categories.clone();
                known.sort_unstable();
                known.dedup();
                return Err(Error::Usage(format!(
                    "--category {name}: no case of {} has it; its categories: {}",
                    self.label(),
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                )));
            }
        }
        let id_kept = |id: &str| globs.is_empty() || globs.iter().any(|(_, g)| g.is_match(id));
        let limit = selection.limit.unwrap_or(usize::MAX);
        let before = (self.cases.len(), self.sessions.len());
        let wanted = &selection.categories;
        self.cases.retain(|c| {
            id_kept(&c.case_id)
                && (wanted.is_empty() || c.category.as_ref().is_some_and(|k| wanted.contains(k)))
        });
        self.cases.truncate(limit);
        self.sessions
            .retain(|s| wanted.is_empty() && id_kept(&s.case_id));
        self.sessions.truncate(limit);
        if self.cases.is_empty() && self.sessions.is_empty() {
            return Err(Error::Usage(format!(
                "the selection keeps no case of {}",
                self.label()
            )));
        }
        // Every item stays, whoever's: a memory holds what it was told whatever is asked.
        self.selection = Some(selection.clone());
        Ok((self.cases.len(), before.0, self.sessions.len(), before.1))
    }
}
