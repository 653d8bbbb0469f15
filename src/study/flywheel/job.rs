//! The flywheel study as a job: simulate each variant of the mechanisms on one user's trace,
//! run the fixed cases, optionally the vector side and the sensitivity sweep, judge the
//! essay's claims, then write every output (each atomically, after all the work succeeded).
//!
//! Files under `--out`: `manifest.json` (parameters, variants, what was run, and the only
//! measured fields: elapsed times), `sessions-<variant>.json` (one record per session),
//! `cases.json`, `claims.json`, `claims.md`, and `vector.json`, `sensitivity.json` when run.

use super::cases::{self, Probe};
use super::claims::{
    breaking_points, claims, coverage_at, coverage_ends, f2, min_precision, Claim, Evidence,
    SensitivityRow,
};
use super::figure;
use super::metrics::SessionMetrics;
use super::vector::{self, VectorOptions, VectorRow};
use super::{domain, simulate::simulate, user, Mechanisms, Params, Variant};
use crate::error::{Error, Result};
use crate::render::{figure_file, render, FigureFormat, Table, TableFormat};
use crate::report::json::to_bytes;
use crate::report::write_atomic;
use crate::run::Observer;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

pub(crate) use super::SWEEP;

/// What `tenure-eval flywheel` was asked to do.
#[derive(Debug, Clone)]
pub(crate) struct FlywheelPlan {
    /// The model and store parameters.
    pub params: Params,
    /// The variants, one line each in the figure.
    pub variants: Vec<Variant>,
    /// The vector side, when asked for.
    pub vector: Option<VectorOptions>,
    /// The sensitivity sweep: parameter and values.
    pub sweep: Vec<(String, Vec<f64>)>,
    /// The mechanisms every variant starts from (all but `--off`): the sweep's too, which ran
    /// every mechanism whatever `--off` said, beside a variant `all` that did not (an audit).
    pub base: Mechanisms,
    /// Folder of the JSON outputs.
    pub out: Option<PathBuf>,
    /// The figure's file and format.
    pub plot: Option<(PathBuf, FigureFormat)>,
}

/// What the study found.
#[derive(Debug, Clone)]
pub(crate) struct FlywheelResult {
    /// Each variant's sessions.
    pub runs: Vec<(String, Vec<SessionMetrics>)>,
    /// Fixed cases: counter-signals, compaction, compaction past the ceiling (one-word
    /// aliases, two-word aliases).
    pub cases: [Vec<Probe>; 4],
    /// The vector side.
    pub vector: Option<Vec<VectorRow>>,
    /// The sensitivity sweep.
    pub sensitivity: Vec<SensitivityRow>,
    /// The claims table.
    pub claims: Vec<Claim>,
    /// Elapsed ms per piece of work. Measured.
    pub elapsed_ms: Vec<(String, f64)>,
}

fn timed<T>(
    elapsed: &mut Vec<(String, f64)>,
    what: String,
    f: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let start = Instant::now();
    let value = f()?;
    elapsed.push((what, start.elapsed().as_secs_f64() * 1000.0));
    Ok(value)
}

/// Run the study, then write what the plan asks for.
pub(crate) fn execute(plan: &FlywheelPlan, observer: &mut dyn Observer) -> Result<FlywheelResult> {
    plan.params.check().map_err(Error::Usage)?;
    let mut elapsed = Vec::new();
    let trace = user::trace(&plan.params).map_err(|e| Error::backend("flywheel", e))?;
    let mut runs = Vec::new();
    for variant in &plan.variants {
        observer.pass_started(&format!("flywheel {}", variant.name));
        let sessions = timed(&mut elapsed, format!("variant {}", variant.name), || {
            simulate(&trace, &plan.params, variant.mechanisms, &mut |d, t, u| {
                observer.finished(d, t, u)
            })
        })?;
        observer.pass_finished();
        runs.push((variant.name.clone(), sessions));
    }
    let cases = [
        cases::counter_signals()?,
        cases::compaction_named()?,
        cases::compaction(15, false)?,
        cases::compaction(15, true)?,
    ];
    let vector = match &plan.vector {
        Some(options) => {
            observer.pass_started("flywheel vector side");
            let rows = timed(&mut elapsed, "vector side".into(), || {
                vector::run(&plan.params, options, &mut |d, t, u| {
                    observer.finished(d, t, u)
                })
            })?;
            observer.pass_finished();
            Some(rows)
        }
        None => None,
    };
    let mut sensitivity = Vec::new();
    for (name, values) in &plan.sweep {
        for &value in values {
            let params = plan.params.with(name, value).map_err(Error::Usage)?;
            observer.pass_started(&format!("sensitivity {name} {value}"));
            let sessions = timed(&mut elapsed, format!("sensitivity {name} {value}"), || {
                let trace = user::trace(&params).map_err(|e| Error::backend("flywheel", e))?;
                simulate(&trace, &params, plan.base, &mut |d, t, u| {
                    observer.finished(d, t, u)
                })
            })?;
            observer.pass_finished();
            sensitivity.push(SensitivityRow::of(name, value, &sessions));
        }
    }
    let claims = claims(&Evidence {
        params: &plan.params,
        runs: &runs,
        counter_signals: &cases[0],
        compaction: &cases[1],
        compaction_ceiling: &cases[3],
        compaction_ceiling_one_word: &cases[2],
        vector: vector.as_deref(),
        sensitivity: (!sensitivity.is_empty()).then_some(sensitivity.as_slice()),
    });
    let result = FlywheelResult {
        runs,
        cases,
        vector,
        sensitivity,
        claims,
        elapsed_ms: elapsed,
    };
    write(plan, &result)?;
    Ok(result)
}

fn write(plan: &FlywheelPlan, r: &FlywheelResult) -> Result<()> {
    // The figure first: it is the one output that can fail on its own (plotters, rendering).
    let figure = match &plan.plot {
        Some((file, format)) => {
            let title = format!(
                "Alias flywheel: one simulated user, seed {}, {} beliefs at start (alias-BM25)",
                plan.params.seed, plan.params.initial_beliefs
            );
            let svg = figure::figure(&r.runs, &title)?;
            Some((file, figure_file::encode(file, &svg, *format)?))
        }
        None => None,
    };
    if let Some(dir) = &plan.out {
        // Only an earlier study's files are removed: a folder this study never wrote keeps
        // whatever it holds (`vector.json` of someone else's).
        let earlier = std::fs::read(dir.join("manifest.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
        let ours = earlier.is_some_and(|m| m["command"] == "tenure-eval flywheel");
        std::fs::create_dir_all(dir).map_err(|source| Error::Output {
            path: dir.clone(),
            source,
        })?;
        let mut files: Vec<String> = Vec::new();
        let mut put = |name: String, value: serde_json::Value| -> Result<()> {
            write_atomic(&dir.join(&name), &to_bytes(&value))?;
            files.push(name);
            Ok(())
        };
        for (name, sessions) in &r.runs {
            put(format!("sessions-{name}.json"), json!(sessions))?;
        }
        put(
            "cases.json".into(),
            json!({
                "counterSignals": r.cases[0], "compaction": r.cases[1], "compactionPastCeilingOneWord": r.cases[2], "compactionPastCeiling": r.cases[3],
            }),
        )?;
        if let Some(rows) = &r.vector {
            put("vector.json".into(), json!(rows))?;
        }
        if !r.sensitivity.is_empty() {
            put("sensitivity.json".into(), json!(r.sensitivity))?;
        }
        put("claims.json".into(), json!(r.claims))?;
        write_atomic(&dir.join("claims.md"), markdown(plan, r).as_bytes())?;
        files.push("claims.md".into());
        let manifest = json!({
            "command": "tenure-eval flywheel",
            "version": env!("CARGO_PKG_VERSION"),
            "params": plan.params,
            "variants": plan.variants,
            "domain": {"categories": domain::CATEGORIES.len(), "topics": domain::topics(0).len()},
            "vector": plan.vector,
            "sweep": plan.sweep,
            "files": files,
            "measured": {"elapsedMs": r.elapsed_ms.iter().map(|(k, v)| json!({"what": k, "ms": (v * 100.0).round() / 100.0})).collect::<Vec<_>>()},
        });
        write_atomic(&dir.join("manifest.json"), &to_bytes(&manifest))?;
        if ours {
            super::stale::remove_stale(dir, &files)?;
        }
    }
    if let Some((file, bytes)) = figure {
        write_atomic(file, &bytes)?;
    }
    Ok(())
}

/// The study's tables: claims, last sessions per variant, vector side, sensitivity.
pub(crate) fn tables(r: &FlywheelResult) -> Vec<Table> {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut out = vec![Table {
        title: "The flywheel essay's claims, measured".into(),
        header: strings(&[
            "Claim",
            "The essay says",
            "Measured",
            "Parameters",
            "Verdict",
        ]),
        rows: r
            .claims
            .iter()
            .map(|c| {
                vec![
                    c.id.into(),
                    c.essay.into(),
                    c.measured.clone(),
                    c.parameters.clone(),
                    c.verdict.name().into(),
                ]
            })
            .collect(),
    }];
    out.push(Table {
        title: "Variants after the last session".into(),
        header: strings(&[
            "Variant",
            "Coverage s1-5",
            "Coverage s6-10",
            "Coverage last 5",
            "Min precision",
            "Per query",
            "Aliases median",
            "Aliases p90",
            "Collisions",
            "Word overlaps",
        ]),
        rows: r
            .runs
            .iter()
            .map(|(name, s)| {
                let last = s.last().cloned().unwrap_or_default();
                vec![
                    name.clone(),
                    f2(coverage_ends(s).0),
                    f2(coverage_at(s, 10)),
                    f2(coverage_ends(s).1),
                    f2(min_precision(s)),
                    format!("{:.2}", last.retrieved_per_query),
                    format!("{}", last.aliases_median),
                    format!("{}", last.aliases_p90),
                    last.collisions.to_string(),
                    last.word_overlaps.to_string(),
                ]
            })
            .collect(),
    });
    if let Some(rows) = &r.vector {
        out.push(Table {
            title: "The vector side: the same stores and queries".into(),
            header: strings(&[
                "Beliefs",
                "System",
                "Precision",
                "Coverage",
                "Top 1",
                "Per query",
                "Gold score",
                "Best other",
            ]),
            rows: rows
                .iter()
                .map(|v| {
                    vec![
                        v.beliefs.to_string(),
                        v.system.clone(),
                        f2(v.precision),
                        format!("{:.2}", v.coverage),
                        format!("{:.2}", v.top1),
                        format!("{:.2}", v.retrieved_per_query),
                        f2(v.gold_score),
                        f2(v.best_other_score),
                    ]
                })
                .collect(),
        });
    }
    if !r.sensitivity.is_empty() {
        out.push(Table {
            title: "Sensitivity: the baseline with one parameter moved (variant all)".into(),
            header: strings(&[
                "Parameter",
                "Value",
                "Min precision",
                "Coverage s1-5",
                "Coverage s6-10",
                "Coverage last 5",
                "Collisions",
                "Word overlaps",
                "C1",
                "C2",
            ]),
            rows: r
                .sensitivity
                .iter()
                .map(|s| {
                    vec![
                        s.parameter.clone(),
                        s.value.to_string(),
                        f2(s.min_precision),
                        f2(s.coverage_first),
                        f2(s.coverage_10),
                        f2(s.coverage_last),
                        s.collisions.to_string(),
                        s.word_overlaps.to_string(),
                        s.c1.name().into(),
                        s.c2.name().into(),
                    ]
                })
                .collect(),
        });
        out.push(Table {
            title: "Where each claim holds".into(),
            header: strings(&["Parameter", "C1", "C2"]),
            rows: breaking_points(&r.sensitivity)
                .into_iter()
                .map(|(p, c1, c2)| vec![p, c1, c2])
                .collect(),
        });
    }
    out
}

/// The tables as markdown, headed by the parameters.
pub(crate) fn markdown(plan: &FlywheelPlan, r: &FlywheelResult) -> String {
    let params = serde_json::to_string(&plan.params).unwrap_or_default();
    // The vector side's figures (and C3, C4) are the model's: named beside them, `random` or
    // `hashed` included (only the manifest said it before).
    let model = match &plan.vector {
        Some(v) => format!("Vector side: model `{}`\n\n", v.model),
        None => String::new(),
    };
    // `--off`'s mechanisms are off in `all` too, whose claims were judged without a word.
    let off: Vec<&str> = (Mechanisms::NAMES.iter().copied())
        .filter(|name| {
            let mut base = plan.base;
            base.switch(name).is_some_and(|on| !*on)
        })
        .collect();
    let off = if off.is_empty() {
        String::new()
    } else {
        format!(
            "Mechanisms off in every variant, `all` included: {}\n\n",
            off.join(", ")
        )
    };
    format!(
        "Parameters: `{params}`\n\n{off}{model}{}",
        render(&tables(r), TableFormat::Markdown)
    )
}
