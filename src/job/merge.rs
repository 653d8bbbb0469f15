//! `merge`: the journals of a run's shards (`--shard K/N`, each shard's `--out` folder) made one
//! recording per pass, which a replay turns into the whole run's reports: byte-identical to an
//! unsharded run's apart from measured fields, since every case is rebuilt from what its
//! shard's backend answered, by the same code, in suite order.
//!
//! Refused (exit 2) before anything is written: shards of different runs (suite, inputs, kind,
//! label, backend or settings; a difference is named), a shard given twice, a shard missing, a
//! shard that did not finish, and a folder holding no shard's journal. Shards that reached
//! their system at different addresses are merged, every address recorded.

use super::journal::suite_of;
use crate::error::{Error, Result};
use crate::run::journal::{End, Recorded};
use crate::suite::Suite;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The shards' journals under `dirs` merged: one recording per pass (kind and report name), each
/// of one of `suites`.
pub(crate) fn merge(dirs: &[PathBuf], suites: &[&Suite]) -> Result<Vec<Recorded>> {
    // Each pass's journal (by suite folder and file name) in every shard folder.
    let mut passes: BTreeMap<(String, String), Vec<Recorded>> = BTreeMap::new();
    for dir in dirs {
        let journals = journals(dir)?;
        if journals.is_empty() {
            return Err(Error::Usage(format!(
                "merge: {} holds no journal (.journal/SUITE/*.jsonl): give the --out folder of \
                 each shard",
                dir.display()
            )));
        }
        for path in journals {
            let recorded = Recorded::read(&path)?;
            let suite = path
                .parent()
                .and_then(Path::file_name)
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            passes.entry((suite, name)).or_default().push(recorded);
        }
    }
    // Shards of different settings are named apart (the label's tag is in the file name): say
    // how they differ rather than that each lacks the other's shards.
    let groups: Vec<(&(String, String), &Vec<Recorded>)> = passes.iter().collect();
    for (key, shards) in &groups {
        let n = shards[0].header.shard.map_or(0, |s| s.n) as usize;
        if shards.len() >= n {
            continue;
        }
        let other = groups
            .iter()
            .find(|(k, o)| k.0 == key.0 && *k != *key && o[0].header.kind == shards[0].header.kind);
        if let Some((_, other)) = other {
            let mut header = other[0].header.clone();
            header.shard = shards[0].header.shard;
            if let Some(built) = &other[0].built {
                if let Some(difference) = shards[0].differs(&header, built) {
                    return Err(Error::Usage(format!(
                        "merge: {} and {} are shards of different runs ({difference})",
                        shards[0].path.display(),
                        other[0].path.display()
                    )));
                }
            }
        }
    }
    passes
        .into_values()
        .map(|shards| merge_pass(shards, suites))
        .collect()
}

/// The journals of one shard's `--out` folder, sorted.
fn journals(dir: &Path) -> Result<Vec<PathBuf>> {
    let root = dir.join(".journal");
    let mut out = Vec::new();
    let Ok(suites) = std::fs::read_dir(&root) else {
        return Ok(out);
    };
    for suite in suites.flatten() {
        for file in std::fs::read_dir(suite.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if file.path().extension().is_some_and(|e| e == "jsonl") {
                out.push(file.path());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// One pass's shards made one recording.
fn merge_pass(shards: Vec<Recorded>, suites: &[&Suite]) -> Result<Recorded> {
    let name = |r: &Recorded| r.path.display().to_string();
    let shard_of = |r: &Recorded| {
        r.header.shard.ok_or_else(|| {
            Error::Usage(format!(
                "merge: {} is a whole run's journal, not a shard's (--shard K/N)",
                name(r)
            ))
        })
    };
    let mut given = Vec::with_capacity(shards.len());
    for r in shards {
        let s = shard_of(&r)?;
        if r.end.is_none() {
            return Err(Error::Usage(format!(
                "merge: shard {s} did not finish ({} has no end): run it again with --resume",
                name(&r)
            )));
        }
        given.push((s, name(&r), r));
    }
    let file = given[0].2.path.file_name().unwrap_or_default();
    let what = format!(" for {}", file.to_string_lossy());
    let shards = crate::shard::complete(given, &what)?;
    let mut merged = shards[0].clone();
    merged.header.shard = None;
    // The merged run began when its first shard did.
    merged.header.started_at = shards
        .iter()
        .filter_map(|r| r.header.started_at.clone())
        .min();
    for r in &shards[1..] {
        let mut header = r.header.clone();
        header.shard = None;
        let built = r.built.as_ref().ok_or_else(|| {
            Error::Usage(format!("merge: {} never got its backend built", name(r)))
        })?;
        if let Some(difference) = merged.differs(&header, built) {
            return Err(Error::Usage(format!(
                "merge: {} and {} are shards of different runs ({difference})",
                name(&shards[0]),
                name(r)
            )));
        }
        for (i, entry) in &r.entries {
            if merged.entries.insert(*i, entry.clone()).is_some() {
                return Err(Error::Usage(format!(
                    "merge: case {} is in two shards ({} among them): not a partition",
                    entry.id,
                    name(r)
                )));
            }
        }
    }
    record_driving(&mut merged, &shards);
    // A shard rerun with --rerun-failed makes the whole run one with second tries: the sent
    // are those shards' second tries, every other row a first try (a shard not rerun added
    // nothing to `taken`, so taken + sent fell short of the rows: a review).
    let reruns: Vec<_> = (shards.iter())
        .filter_map(|r| r.end.as_ref()?.rerun_failed)
        .collect();
    let rerun_failed = (!reruns.is_empty()).then(|| {
        let sent = reruns.iter().map(|r| r.sent).sum::<usize>();
        crate::run::journal::Rerun {
            taken: merged.entries.len().saturating_sub(sent),
            sent,
        }
    });
    // The shards' counters, summed: they judge a compat pass, and a merge without them
    // published shards each judged a failed run as a good one (an eighteenth audit).
    let backend_stats = crate::run::journal::stats::sum_all(
        (shards.iter()).map(|r| r.end.as_ref().and_then(|e| e.backend_stats.as_ref())),
    );
    merged.end = Some(End {
        backend_stats,
        rerun_failed,
    });
    if suite_of(&merged, suites).is_none() {
        return Err(Error::Usage(format!(
            "merge: {} records suite {} ({} profile, {} {}s), not the suite given",
            name(&shards[0]),
            merged.header.suite,
            merged.header.profile,
            merged.header.total,
            merged.header.kind
        )));
    }
    Ok(merged)
}

/// The shard check leaves out how each shard reached and drove its system (the `--resume`
/// check's driving settings, `journal::DRIVING`: a cluster's shards reach one system by
/// different addresses), so a merged run of shards that differ in one keeps every shard's
/// value, in shard order, where a run keeps its one (`backendSettings.url`): the report says
/// what answered and how, and a reader can see two systems.
fn record_driving(merged: &mut Recorded, shards: &[Recorded]) {
    for key in crate::run::journal::DRIVING {
        let values: Vec<serde_json::Value> = shards
            .iter()
            .map(|r| {
                r.built
                    .as_ref()
                    .and_then(|b| b.settings.get(*key).cloned())
                    .unwrap_or(serde_json::Value::Null)
            })
            .collect();
        if values.iter().all(|u| u == &values[0]) {
            continue;
        }
        if let Some(serde_json::Value::Object(settings)) =
            merged.built.as_mut().map(|b| &mut b.settings)
        {
            settings.insert(key.to_string(), serde_json::Value::Array(values));
        }
    }
}
