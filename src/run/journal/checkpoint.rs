//! A pass's journal as its runner uses it: opened once the backend says who it is, checked to
//! be the same run when continuing one, written case by case, closed with `end` or `stopped`.

use super::{Built, Continue, End, Entry, Header, JournalWriter, Line, Recorded};
use crate::backend::BackendInfo;
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Names a pass's journal from who its backend is (the job names it after the report).
pub type JournalPath = Box<dyn Fn(&BackendInfo) -> PathBuf>;

/// How a pass keeps its journal and what it takes from an earlier one.
pub struct Checkpoint {
    mode: Continue,
    header: Header,
    path_of: Option<JournalPath>,
    recorded: Option<Recorded>,
    writer: Option<JournalWriter>,
}

/// Which cases a runner takes from the journal instead of running (shared by its workers).
#[derive(Clone, Copy)]
pub struct Reuse<'a> {
    mode: Continue,
    entries: Option<&'a BTreeMap<usize, Entry>>,
    /// A `--resume` of a second look that stopped: the cases it tried. The others it had yet
    /// to reach are judged as `--rerun-failed` judges them (a failed one is sent), so the
    /// resume finishes the second look rather than keep their first tries.
    tried: Option<&'a std::collections::BTreeSet<usize>>,
}

impl<'a> Reuse<'a> {
    /// The entry standing for case (or turn) `i`, when it is not to be run.
    pub(crate) fn entry(self, i: usize) -> Option<&'a Entry> {
        self.entries?.get(&i).filter(|e| self.mode.reuses(e))
    }

    /// Case (or turn) `i` from the journal, rebuilt by `replay`, when it is not to be run; with
    /// `--rerun-failed`, one that `passed` says failed is run again (`None`).
    pub(crate) fn take<T>(
        self,
        i: usize,
        replay: impl FnOnce(&Entry) -> T,
        passed: impl FnOnce(&T) -> bool,
    ) -> Option<T> {
        let taken = replay(self.entry(i)?);
        let second_look = self.mode == Continue::RerunFailed
            || self.tried.is_some_and(|tried| !tried.contains(&i));
        (!second_look || passed(&taken)).then_some(taken)
    }
}

impl Checkpoint {
    /// No journal at all (library runs, benches, studies).
    pub(crate) fn none() -> Checkpoint {
        Checkpoint {
            mode: Continue::Fresh,
            header: Header {
                format: super::FORMAT,
                tool_version: String::new(),
                kind: String::new(),
                suite: String::new(),
                profile: String::new(),
                inputs: Vec::new(),
                total: 0,
                label: None,
                shard: None,
                started_at: None,
            },
            path_of: None,
            recorded: None,
            writer: None,
        }
    }

    /// A journal for the run `header` describes, at `path_of(backend)`, written fresh or
    /// continuing the one there (`mode`).
    pub(crate) fn new(mode: Continue, header: Header, path_of: JournalPath) -> Checkpoint {
        Checkpoint {
            mode,
            header,
            path_of: Some(path_of),
            recorded: None,
            writer: None,
        }
    }

    /// Every case from `recording`; nothing written.
    pub(crate) fn replay(recording: Recorded) -> Checkpoint {
        Checkpoint {
            mode: Continue::Replay,
            header: recording.header.clone(),
            path_of: None,
            recorded: Some(recording),
            writer: None,
        }
    }

    /// The shard this run is, if it is one.
    pub(crate) fn shard(&self) -> Option<super::Shard> {
        self.header.shard
    }

    /// What a `--rerun-failed` run took and sent, for its manifest (and, through its journal's
    /// end or its second-look mark, a later continuation's or replay's); `None` for a run that
    /// continues no second look (its report equals an uninterrupted run's: docs/journal.md).
    pub(crate) fn rerun(&self, taken: usize, sent: usize) -> Option<super::Rerun> {
        if self.mode == Continue::RerunFailed {
            return Some(super::Rerun { taken, sent });
        }
        // A later continuation (`--rerun-errored`, `--resume`) or a replay of a run that was a
        // second look keeps saying so: its rows still hold the second tries.
        let recorded = self.recorded.as_ref()?;
        if let Some(rerun) = recorded.end.as_ref().and_then(|e| e.rerun_failed) {
            return Some(rerun);
        }
        // A second look that stopped, resumed: every case tried after the first run (by it,
        // or now) is sent; the rest of the rows are the first run's.
        let tried = recorded.second_tries.as_ref()?;
        let rows = taken + sent;
        let tried = match self.writer.as_ref().map(JournalWriter::written) {
            Some(now) => tried.union(now).count(),
            None => tried.len(),
        };
        Some(super::Rerun {
            taken: rows.saturating_sub(tried),
            sent: tried,
        })
    }

    /// Does this run continue a journal that had reached its end (a resume or second look of a
    /// finished run)? A pass then taken from it whole measured nothing anew.
    pub(crate) fn continues_finished(&self) -> bool {
        self.mode != Continue::Replay && self.recorded.as_ref().is_some_and(|r| r.end.is_some())
    }

    /// When the run began, for its reports: a fresh run's journal header's start (so that a
    /// replay of it, dated by its recording, is dated alike), and a replay's (and a merge's,
    /// which replays its shards' journals) the start its recording says; `None` otherwise.
    pub(crate) fn started_at(&self) -> Option<String> {
        match self.mode {
            Continue::Replay => self.recorded.as_ref()?.header.started_at.clone(),
            Continue::Fresh => self.header.started_at.clone(),
            _ => None,
        }
    }

    /// Is every case taken from a recording?
    pub(crate) fn replaying(&self) -> bool {
        self.mode == Continue::Replay
    }

    /// The journal being written, once the run began.
    pub(crate) fn path(&self) -> Option<&Path> {
        self.writer.as_ref().map(JournalWriter::path)
    }

    /// The backend is built (`built`): open the journal. Continuing a run, the journal there
    /// must be of the same run (else a usage error naming the first difference).
    ///
    /// `--resume` continues whatever did not finish: a pass whose journal finished is taken
    /// from it whole (its errored cases run again), and a pass without a journal (a run of
    /// several passes stopped before it began) runs from its start. `--rerun-errored` needs a
    /// finished journal.
    /// `ids`: the run's cases (or turns) in the order the journal keys them.
    pub(crate) fn begin(&mut self, built: &Built, ids: impl Iterator<Item = String>) -> Result<()> {
        let Some(path_of) = &self.path_of else {
            // A replay: the recording is read already.
            return self.recorded.as_ref().map_or(Ok(()), |r| owns(r, ids));
        };
        let path = path_of(&built.backend);
        let flag = self.mode.flag();
        if self.mode != Continue::Fresh && !path.exists() {
            // A changed setting renames the run (its label's tag): the journal of this system
            // under its old settings is beside it, and the difference is what to say.
            if let Some((other, difference)) = self.sibling(&path, built) {
                return Err(Error::Usage(format!(
                    "{flag}: no journal of this run at {}; {} is this system's with other \
                     settings ({difference}): run with those, or without {flag}",
                    path.display(),
                    other.display()
                )));
            }
            if self.mode == Continue::Resume {
                self.mode = Continue::Fresh;
            }
        }
        if self.mode != Continue::Fresh {
            if !path.exists() {
                return Err(Error::Usage(format!(
                    "{flag}: no journal at {} (every run keeps one per pass there; was the run \
                     made with another --out or --label?)",
                    path.display()
                )));
            }
            let recorded = Recorded::read(&path)?;
            if let Some(difference) = recorded.differs(&self.header, built) {
                return Err(Error::Usage(format!(
                    "{flag}: {} is another run's journal ({difference}); run again without \
                     {flag}, or with the settings it was made with",
                    path.display()
                )));
            }
            if matches!(self.mode, Continue::RerunErrored | Continue::RerunFailed)
                && recorded.end.is_none()
            {
                return Err(Error::Usage(format!(
                    "{flag}: the run in {} did not finish; --resume continues it (its errored \
                     cases included)",
                    path.display()
                )));
            }
            owns(&recorded, ids)?;
            self.recorded = Some(recorded);
        }
        let mut writer = JournalWriter::open(&path, self.mode != Continue::Fresh)?;
        if self.mode == Continue::Fresh {
            writer.write(&Line::Header(self.header.clone()))?;
        }
        let mut built = built.clone();
        built.second_look = self.mode == Continue::RerunFailed;
        writer.write(&Line::Built(built))?;
        self.writer = Some(writer);
        Ok(())
    }

    /// A journal beside `path` of the same kind of pass and the same system (backend id and
    /// provider), with the first difference from this run; `None` when there is none.
    fn sibling(&self, path: &Path, built: &Built) -> Option<(PathBuf, String)> {
        let dir = std::fs::read_dir(path.parent()?).ok()?;
        let mut candidates: Vec<PathBuf> = dir
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        candidates.sort();
        candidates.into_iter().find_map(|p| {
            let r = Recorded::read(&p).ok()?;
            let theirs = r.built.as_ref()?;
            let same_system = r.header.kind == self.header.kind
                && theirs.backend.id == built.backend.id
                && theirs.backend.provider == built.backend.provider;
            let difference = r.differs(&self.header, built)?;
            same_system.then_some((p, difference))
        })
    }

    /// Cases kept from the journal (none on a fresh run), and the writer for the rest.
    pub(crate) fn parts(&mut self) -> (Reuse<'_>, Option<&mut JournalWriter>) {
        (
            Reuse {
                mode: self.mode,
                entries: self.recorded.as_ref().map(|r| &r.entries),
                tried: (self.recorded.as_ref())
                    .filter(|_| self.mode == Continue::Resume)
                    .and_then(|r| r.second_tries.as_ref()),
            },
            self.writer.as_mut(),
        )
    }

    /// Cases (or turns) the recording lacks, for a replay: (how many, the first).
    pub(crate) fn missing(&self, ids: impl Iterator<Item = String>) -> Option<(usize, String)> {
        let entries = &self.recorded.as_ref()?.entries;
        let missing: Vec<String> = ids
            .enumerate()
            .filter(|(i, _)| !entries.contains_key(i))
            .map(|(_, id)| id)
            .collect();
        let first = missing.first()?.clone();
        Some((missing.len(), first))
    }

    /// A remote backend's counters `now`, with those of the finished journal this run
    /// continues (`--resume`, `--rerun-errored`; not a replay, which sends nothing): the
    /// counters that judge a compat pass must be the whole run's ([`super::stats`]).
    pub(crate) fn carried(&self, now: Option<serde_json::Value>) -> Option<serde_json::Value> {
        let before = match self.mode {
            Continue::Replay => None,
            _ => (self.recorded.as_ref())
                .and_then(|r| r.end.as_ref())
                .and_then(|e| e.backend_stats.as_ref()),
        };
        super::stats::sum_all([before, now.as_ref()])
    }

    /// The run reached its end.
    pub(crate) fn finish(
        &mut self,
        backend_stats: Option<serde_json::Value>,
        rerun_failed: Option<super::Rerun>,
    ) -> Result<()> {
        if let Some(w) = &mut self.writer {
            w.write(&Line::End(End {
                backend_stats,
                rerun_failed,
            }))?;
        }
        Ok(())
    }

    /// The run stopped at `at` for `reason`.
    pub(crate) fn stop(&mut self, at: &str, reason: &str) {
        if let Some(w) = &mut self.writer {
            let _ = w.stopped(at, reason);
        }
    }

    /// A replay's ingestion: as recorded, not as the replay's instant build measured it.
    pub(crate) fn recorded_ingestion(&self) -> Option<crate::run::Ingestion> {
        self.recorded.as_ref()?.built.as_ref().map(Built::ingestion)
    }
}

/// A journal's entries belong to this run's cases: the journal keys them by place, so a journal
/// of another selection of the same size (another `--case` or `--category`) would lend one
/// case's answers to another (a twelfth audit: a failing case read 1/1 passed). Checked before
/// anything is written to the journal.
fn owns(recorded: &Recorded, ids: impl Iterator<Item = String>) -> Result<()> {
    for (i, id) in ids.enumerate() {
        match recorded.entries.get(&i) {
            Some(entry) if entry.id != id => {
                return Err(Error::input(
                    &recorded.path,
                    format!("case {i}"),
                    format!(
                        "the journal's case {i} is {}, this run's is {id}: a journal of another \
                         selection (--case, --category) or suite",
                        entry.id
                    ),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}
