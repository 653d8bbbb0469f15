//! Whether a report is a whole, finished run, and on which files: what `tables`, `verify`,
//! `claims` and the studies that read a report against a benchmark's files (`locomo`, `beam`,
//! `longmemeval`, `trec`) ask before they take one as a run of the suite. An audit found a
//! shard's, a selection's and a stopped run's report, a failed run's (cases the backend erred
//! on), and a run on an altered copy of a benchmark, each measured as a whole run on the files
//! given, with exit 0.

use super::LoadedReport;
use crate::error::Result;
use crate::suite::Suite;

impl LoadedReport {
    /// An input error for a shard's or a selection's report where a whole run's belongs.
    pub(crate) fn whole_run(&self) -> Result<&LoadedReport> {
        let label = self.manifest.as_ref().and_then(|m| m.suite.as_deref());
        if let Some(label) =
            label.filter(|l| crate::suite::Label::parse(l).view == Some(crate::suite::SCALE))
        {
            return Err(crate::error::Error::input(
                &self.path,
                "$.manifest.suite",
                format!(
                    "{label}: the scale study's report (the suite's cases over a synthetic \
                     store grown around its corpus), not a run of the suite"
                ),
            ));
        }
        if let Some(selection) = self.manifest.as_ref().and_then(|m| m.selection.as_ref()) {
            return Err(crate::error::Error::input(
                &self.path,
                "$.manifest.selection",
                format!(
                    "the report of a run that chose some cases ({}), not a whole run: run \
                     without --case, --category and --limit for one",
                    serde_json::to_string(selection).unwrap_or_default()
                ),
            ));
        }
        match self.shard() {
            Some(shard) => Err(crate::error::Error::input(
                &self.path,
                "$.manifest.shard",
                format!(
                    "the report of shard {shard} of a run (its cases only), not a whole run: \
                     `tenure-eval merge` the shards' --out folders and use the merged report"
                ),
            )),
            None => Ok(self),
        }
    }

    /// The JSON path of its `i`th case or turn: `$[i]` in the paper layout's bare array,
    /// `$.cases[i]` otherwise.
    pub(crate) fn entry_at(&self, i: usize) -> String {
        match self.bare_array {
            true => format!("$[{i}]"),
            false => format!("$.cases[{i}]"),
        }
    }

    /// An input error unless this is a whole run ([`Self::whole_run`]) that ran to its end
    /// and measured every case ([`Self::ran_to_end`]): what `tables` and the studies read as a
    /// run of the suite.
    pub(crate) fn finished(&self) -> Result<&LoadedReport> {
        self.whole_run()?.ran_to_end()
    }

    /// An input error unless its run (a whole one or a shard) ran to its end, its system's
    /// answers made a good run, and the backend failed on no case ([`Self::no_errored`]): what
    /// a run's report must be to stand for its cases, as a study's input or a `--baseline`. A
    /// stopped run's report holds the cases before it stopped.
    pub(crate) fn ran_to_end(&self) -> Result<&LoadedReport> {
        self.answered_well()?.no_errored()
    }

    /// [`Self::ran_to_end`] but for errored cases: the run did not stop and its system's
    /// answers made a good run. What `plot --case` asks, which checks its one case itself.
    pub(crate) fn answered_well(&self) -> Result<&LoadedReport> {
        if let Some(stopped) = self.manifest.as_ref().and_then(|m| m.stopped.as_ref()) {
            return Err(crate::error::Error::input(
                &self.path,
                "$.manifest.stopped",
                format!(
                    "the report of a run that stopped before its end ({} of its cases): not a \
                     whole run; resume it (`run --resume`) for one",
                    self.rows.len()
                ) + &format!(" [{}]", serde_json::to_string(stopped).unwrap_or_default()),
            ));
        }
        if let Some(why) = self.manifest.as_ref().and_then(|m| m.unhealthy.as_ref()) {
            return Err(crate::error::Error::input(
                &self.path,
                "$.manifest.unhealthy",
                format!(
                    "the report of a failed run, whose system's answers make no good run: {why}"
                ),
            ));
        }
        Ok(self)
    }

    /// An input error when the backend failed on any of its cases or turns (an `error` on the
    /// entry; such a run's report goes to `failed/`). An errored row is no measurement, yet it
    /// reads as a miss: an audit found `tables`, `compare`, `plot` and the studies scoring a
    /// failed run's report, its errored cases as failures, with exit 0.
    pub(crate) fn no_errored(&self) -> Result<&LoadedReport> {
        let errored: Vec<usize> = (self.rows.iter().enumerate())
            .filter(|(_, r)| r.errored)
            .map(|(i, _)| i)
            .collect();
        let Some(&first) = errored.first() else {
            return Ok(self);
        };
        let at = self.entry_at(first) + ".error";
        let what = match self.kind {
            crate::backend::Workload::Static => "cases",
            crate::backend::Workload::Session => "turns",
        };
        Err(crate::error::Error::input(
            &self.path,
            at,
            format!(
                "the backend failed on {} of its {} {what} ({} first): an errored row is no \
                 measurement, yet reads as a miss; run them again (`run --rerun-errored` with \
                 the same settings) for a report of every case",
                errored.len(),
                self.rows.len(),
                self.rows[first].key()
            ),
        ))
    }

    /// An input error unless this is a whole, finished run on `suite`'s own files: not a
    /// shard's or a selection's, not a run that stopped before its end or erred on a case
    /// ([`Self::finished`]), and every input file its manifest records (by sha256) one the suite was read from. The
    /// studies that read a report's rows against a benchmark's files (`beam`, `locomo`,
    /// `longmemeval`, `trec`) call it: an audit found each taking a stopped run's report, a
    /// shard's, or a run on altered files as a whole run on the files given, with exit 0.
    pub(crate) fn whole_run_on(&self, suite: &Suite) -> Result<&LoadedReport> {
        let report = self.finished()?.on_files_of(suite)?;
        let session = report.rows.iter().any(|r| r.turn_index.is_some());
        let expected: Vec<String> = match session {
            true => (suite.sessions.iter())
                .flat_map(|c| {
                    (c.turns.iter()).map(|t| format!("{} turn {}", c.case_id, t.turn_index))
                })
                .collect(),
            false => suite.cases.iter().map(|c| c.case_id.clone()).collect(),
        };
        report.covers(&expected, &suite.label())
    }

    /// An input error unless the report holds each of `expected` (case ids, or `CASE turn N`
    /// for a session run's turns) once and nothing else: a whole run's rows. An audit found
    /// reports with a case twice, with only the passed cases, or with none, measured by the
    /// studies as runs (R@10 1.000 of the passed half), exit 0; `verify` saw the summary
    /// disagree, the studies read only the rows. `what` names the suite.
    pub(crate) fn covers(&self, expected: &[String], what: &str) -> Result<&LoadedReport> {
        let wanted: std::collections::HashSet<&str> = expected.iter().map(String::as_str).collect();
        let mut seen: std::collections::HashSet<String> = Default::default();
        for (i, row) in self.rows.iter().enumerate() {
            let key = row.key();
            if !wanted.contains(key.as_str()) {
                let message = format!("{key:?} is not one of {what}'s cases: a run on other cases");
                return Err(crate::error::Error::input(
                    &self.path,
                    self.entry_at(i),
                    message,
                ));
            }
            // A case twice never gets here: a report is refused so when read.
            seen.insert(key);
        }
        let missing: Vec<&String> = expected.iter().filter(|k| !seen.contains(*k)).collect();
        if let Some(first) = missing.first() {
            let list = if self.bare_array { "$" } else { "$.cases" };
            return Err(crate::error::Error::input(
                &self.path,
                list,
                format!(
                    "lacks {} of {what}'s {} cases (first: {first:?}): not a whole run's rows",
                    missing.len(),
                    expected.len()
                ),
            ));
        }
        Ok(self)
    }

    /// An input error unless the report's run read `suite`'s files: each file its manifest
    /// records is one the suite was read from ([`Self::read_among`]), and where the suite holds
    /// an overlay of corrections (LoCoMo's audit), the run read every file of it (with fewer,
    /// its gold differs). What `compare` and `html` ask of a report against a suite named, and
    /// the studies through [`Self::whole_run_on`]. A built-in suite's files are compiled in and
    /// cannot be altered; its runs through a memory system record PrecisionMemBench's own copy
    /// (other bytes, the same expectations: docs/providers.md), so none is compared.
    pub(crate) fn on_files_of(&self, suite: &Suite) -> Result<&LoadedReport> {
        // The files alone do not tell LoCoMo's units, LongMemEval's or LoCoMo-Plus's splices
        // apart (one file serves each): the suite's label does. A selection's report (which
        // `html` shows, saying so) carries the label of its selection. A custom suite is its
        // files whatever its label: a copy of pmb's files named with --corpus and --cases is
        // pmb's suite, which the files' check below decides.
        if let Some(recorded) = self.suite() {
            let base = match (self.manifest.as_ref()).is_some_and(|m| m.selection.is_some()) {
                true => crate::suite::select::whole_label(recorded),
                false => recorded,
            };
            let custom = base == "custom" || suite.name == "custom";
            if base != suite.label() && !custom {
                return Err(crate::error::Error::input(
                    &self.path,
                    "$.manifest.suite",
                    format!(
                        "the report is of suite {recorded}, not {} (the suite given): its cases \
                         are of another unit, splice or set of files",
                        suite.label()
                    ),
                ));
            }
        }
        if suite.copy.is_some() {
            return Ok(self);
        }
        let read: Vec<&str> = suite.inputs.iter().map(|f| f.sha256.as_str()).collect();
        self.read_among(&read, &suite.label())?;
        let Some(recorded) = self.manifest.as_ref().and_then(|m| m.inputs.as_ref()) else {
            return Ok(self);
        };
        let corrections = suite.inputs.iter().filter(|f| f.role == "corrections");
        for missing in corrections {
            if !recorded
                .iter()
                .any(|r| r.sha256.as_deref() == Some(&missing.sha256))
            {
                return Err(crate::error::Error::input(
                    &self.path,
                    "$.manifest.inputs",
                    format!(
                        "the run did not read {} (sha256 {}), a file of the corrections given: \
                         the report is of a run with other gold",
                        missing.path,
                        &missing.sha256[..missing.sha256.len().min(12)]
                    ),
                ));
            }
        }
        Ok(self)
    }

    /// [`Self::whole_run_on`] for a study that reads the benchmark's files itself: `read` the
    /// sha256 of every file it read (`None`: no input compared), `exact` when the run must
    /// have read those files and no others (LoCoMo's file and its overlay of corrections: a
    /// run with fewer corrections has other gold), `what` the files as messages name them.
    pub(crate) fn whole_run_of(
        &self,
        read: Option<&[&str]>,
        exact: bool,
        what: &str,
    ) -> Result<&LoadedReport> {
        self.finished()?;
        let Some(manifest) = &self.manifest else {
            return Ok(self);
        };
        let Some(read) = read else {
            return Ok(self);
        };
        self.read_among(read, what)?;
        let recorded: Vec<&str> = (manifest.inputs.iter().flatten())
            .filter_map(|i| i.sha256.as_deref())
            .collect();
        if exact && manifest.inputs.is_some() {
            if let Some(missing) = read.iter().find(|sha| !recorded.contains(sha)) {
                return Err(crate::error::Error::input(
                    &self.path,
                    "$.manifest.inputs",
                    format!(
                        "the run did not read one of the files given ({what}; sha256 {}): the \
                         report is of a run on other files (another overlay of corrections?)",
                        &missing[..missing.len().min(12)]
                    ),
                ));
            }
        }
        Ok(self)
    }

    /// An input error unless every input file its manifest records (by sha256) is among
    /// `read`, the files the suite given was read from (`what` names them): a run on other
    /// files has other gold. A report that records no inputs passes.
    pub(crate) fn read_among(&self, read: &[&str], what: &str) -> Result<&LoadedReport> {
        // tenure-eval records every file a run read; its manifest without them (a hand edit)
        // would pass any suite's files. Other tools' manifests record none and pass.
        if let Some(m) =
            (self.manifest.as_ref()).filter(|m| m.tool.as_deref() == Some("tenure-eval"))
        {
            if m.inputs.is_none() {
                return Err(crate::error::Error::input(
                    &self.path,
                    "$.manifest.inputs",
                    format!(
                        "missing: tenure-eval records the files each run read, and without them \
                         the report cannot be matched to {what} (a hand-edited manifest?)"
                    ),
                ));
            }
            // An empty list passed as well: no file recorded, none to differ.
            if m.inputs.as_ref().is_some_and(Vec::is_empty) && !read.is_empty() {
                return Err(crate::error::Error::input(
                    &self.path,
                    "$.manifest.inputs",
                    format!(
                        "empty: the run read none of {what}, yet tenure-eval records every file \
                         a run reads (a hand-edited manifest, or a suite built without files?)"
                    ),
                ));
            }
        }
        let inputs = self.manifest.iter().flat_map(|m| m.inputs.iter().flatten());
        for (i, input) in inputs.enumerate() {
            if let Some(sha) = input.sha256.as_deref().filter(|sha| !read.contains(sha)) {
                return Err(crate::error::Error::input(
                    &self.path,
                    format!("$.manifest.inputs[{i}]"),
                    format!(
                        "{} (sha256 {}) is not among the files given ({}): the report is of a \
                         run on other files",
                        input.path.as_deref().unwrap_or("an input"),
                        &sha[..sha.len().min(12)],
                        what
                    ),
                ));
            }
        }
        Ok(self)
    }

    /// The sha256 of every input file its manifest records, sorted; `None` when it records
    /// none, or when it is of a built-in suite (compiled in: its files cannot be altered, and
    /// a memory system's run of it records PrecisionMemBench's own copy, other bytes with the
    /// same expectations).
    pub(crate) fn recorded_inputs(&self) -> Option<Vec<String>> {
        let manifest = self.manifest.as_ref()?;
        if manifest.suite_copy.is_some() {
            return None;
        }
        let mut shas: Vec<String> = (manifest.inputs.as_ref()?.iter())
            .filter_map(|i| i.sha256.clone())
            .collect();
        shas.sort();
        Some(shas)
    }
}
