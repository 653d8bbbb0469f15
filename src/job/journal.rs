//! Where a pass keeps its journal and what it does with the one there (`run::journal`): every
//! pass writes `REPORTS/.journal/SUITE/NAME.jsonl` (NAME its report's name), or into the
//! `--record` folder; `--resume` and `--rerun-errored` continue it; `--replay DIR` reads every
//! journal of a folder instead of running a backend.

use crate::backend::{BackendInfo, Workload};
use crate::error::{Error, Result};
use crate::report::file_name;
use crate::run::journal::{Checkpoint, Continue, Header, Recorded, ReplayBackend, FORMAT};
use crate::shard::Shard;
use crate::suite::Suite;
use std::path::{Path, PathBuf};

/// What the plan does with journals.
#[derive(Debug, Clone)]
pub struct JournalPlan {
    /// Fresh, resume, rerun errored (a replay is [`super::RunPlan::replay`]).
    pub mode: Continue,
    /// Where journals go (`--record DIR`); `None`: `journal/` in the report folder.
    pub dir: Option<PathBuf>,
}

impl Default for JournalPlan {
    fn default() -> JournalPlan {
        JournalPlan {
            mode: Continue::Fresh,
            dir: None,
        }
    }
}

impl JournalPlan {
    /// The folder of a plan whose reports go to `out_dir` (`REPORTS/SUITE`):
    /// `REPORTS/.journal/SUITE`, out of the report folder that tools and globs list.
    pub(crate) fn folder(&self, out_dir: &Path) -> PathBuf {
        self.dir.clone().unwrap_or_else(|| {
            let suite = out_dir.file_name().unwrap_or_default();
            out_dir
                .parent()
                .unwrap_or(Path::new(""))
                .join(".journal")
                .join(suite)
        })
    }
}

/// What a run of `kind` of `suite` is, for its journal's header.
pub(crate) fn header(suite: &Suite, kind: Workload, label: Option<&str>) -> Header {
    sharded(suite, kind, label, None)
}

/// [`header`] of shard `shard` of that run.
pub(crate) fn sharded(
    suite: &Suite,
    kind: Workload,
    label: Option<&str>,
    shard: Option<Shard>,
) -> Header {
    let total = match kind {
        Workload::Static => suite.cases.len(),
        Workload::Session => suite.sessions.iter().map(|c| c.turns.len()).sum(),
    };
    Header {
        format: FORMAT,
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
        kind: kind.label().to_string(),
        suite: suite.label(),
        profile: suite.profile.to_string(),
        inputs: suite.input_digests(),
        total,
        label: label.map(str::to_string),
        shard,
        started_at: Some(crate::run::now_rfc3339()),
    }
}

/// The journal of a pass: `dir/NAME.jsonl`, NAME the report's file name without `.json`.
pub(crate) fn checkpoint(
    mode: Continue,
    dir: &Path,
    suite: &Suite,
    kind: Workload,
    label: Option<&str>,
    shard: Option<Shard>,
) -> Checkpoint {
    let dir = dir.to_path_buf();
    let profile = suite.profile;
    let given = label.map(str::to_string);
    Checkpoint::new(
        mode,
        sharded(suite, kind, label, shard),
        Box::new(move |backend: &BackendInfo| {
            let name = file_name(kind, profile, backend, given.as_deref());
            dir.join(format!("{}l", name))
        }),
    )
}

/// A recording to replay: its journals, each checked to be of one of `suites` (the suite
/// given, and PrecisionMemBench's copy of it that a memory system runs), those of `kinds`
/// kept, in file-name order. A journal of another suite (or of other input files) is refused.
pub(crate) fn recording(
    dir: &Path,
    suites: &[&Suite],
    kinds: &[Workload],
) -> Result<Vec<Recorded>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Error::Usage(format!(
            "--replay {}: not a folder to read ({e})",
            dir.display()
        ))
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    paths.sort();
    let mut kept = Vec::new();
    for path in paths {
        let recorded = Recorded::read(&path)?;
        let kind = kind_of(&recorded).ok_or_else(|| {
            Error::input(
                &path,
                "line 1: header.kind",
                format!(
                    "expected static or session, found {:?}",
                    recorded.header.kind
                ),
            )
        })?;
        if !kinds.contains(&kind) {
            continue;
        }
        if suite_of(&recorded, suites).is_none() {
            let h = &recorded.header;
            let wanted = header(suites[0], kind, None);
            return Err(Error::Usage(format!(
                "--replay: {} records suite {} ({} profile, {} {}s, inputs {}), not the suite \
                 given: {} ({} profile, {} {}s, inputs {})",
                path.display(),
                h.suite,
                h.profile,
                h.total,
                h.kind,
                short(&h.inputs),
                wanted.suite,
                wanted.profile,
                wanted.total,
                wanted.kind,
                short(&wanted.inputs)
            )));
        }
        if recorded.built.is_none() {
            return Err(Error::input(
                &path,
                "line 2",
                "the recording never got its backend built (no `built` line): nothing to replay",
            ));
        }
        kept.push(recorded);
    }
    if kept.is_empty() {
        return Err(Error::Usage(format!(
            "--replay {}: no journal (*.jsonl) of the kinds asked for",
            dir.display()
        )));
    }
    Ok(kept)
}

/// The workload a journal ran.
fn kind_of(recorded: &Recorded) -> Option<Workload> {
    match recorded.header.kind.as_str() {
        "static" => Some(Workload::Static),
        "session" => Some(Workload::Session),
        _ => None,
    }
}

/// Which of `suites` the journal ran: same name, profile, input bytes and size.
pub(crate) fn suite_of<'a>(recorded: &Recorded, suites: &[&'a Suite]) -> Option<&'a Suite> {
    let kind = kind_of(recorded)?;
    let h = &recorded.header;
    suites.iter().copied().find(|suite| {
        let wanted = header(suite, kind, None);
        (h.suite.as_str(), h.profile.as_str(), &h.inputs, h.total)
            == (
                wanted.suite.as_str(),
                wanted.profile.as_str(),
                &wanted.inputs,
                wanted.total,
            )
    })
}

/// `role:sha256[..8]` of each input.
fn short(inputs: &[(String, String)]) -> String {
    inputs
        .iter()
        .map(|(role, sha)| format!("{role}:{}", &sha[..sha.len().min(8)]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The backend a recording stands for, the workload it ran, and its label.
pub(crate) fn replayed(recorded: &Recorded) -> (ReplayBackend, Workload, Option<String>) {
    let built = recorded.built.clone().expect("checked by `recording`");
    let stats = recorded.end.as_ref().and_then(|e| e.backend_stats.clone());
    let kind = kind_of(recorded).unwrap_or(Workload::Static);
    (
        ReplayBackend::new(built, stats),
        kind,
        recorded.header.label.clone(),
    )
}
