//! `tenure-eval html`: one self-contained page to explore reports, their cases, sessions and
//! differences (issue 25). The page is a single file: its data ([`model::Page`]) is one JSON
//! blob, its style and script are inlined from `assets/`; it makes no network request and
//! opens from `file://`.
//!
//! Flow: the report files ([`report_files`]) → their suite ([`suite_name`], checked so that
//! reports of different suites are not mixed) → the page's data ([`page`]) → the HTML
//! ([`template::render`]) → one file written atomically ([`write`]).

pub(crate) mod build;
pub(crate) mod differences;
pub(crate) mod history;
pub(crate) mod model;
pub(crate) mod template;

use crate::analysis::compare::significance::TestSettings;
use crate::error::{Error, Result};
use crate::eval::qrels::Qrels;
use crate::eval::rank::{parse_measures, Measure, DEFAULT_MEASURES};
use crate::report::LoadedReport;
use crate::suite::Suite;
use model::Page;
use std::path::{Path, PathBuf};

/// How to build the page.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// The page's title (default: the suite and the number of reports).
    pub title: Option<String>,
    /// How `compare`'s significance tests run.
    pub settings: TestSettings,
    /// Rank measures of the runs table (default: the first report's, else
    /// [`DEFAULT_MEASURES`]).
    pub measures: Option<Vec<Measure>>,
    /// A run history to show (`--history DIR`; `analysis::history`).
    pub history: Vec<crate::analysis::history::Entry>,
}

/// The report files `inputs` name: files as given, folders by every `.json` file under them
/// (sorted by path; sidecar manifests are skipped later by [`LoadedReport::load_all`]).
pub(crate) fn report_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found = Vec::new();
            walk(input, &mut found)?;
            found.sort();
            if found.is_empty() {
                return Err(Error::input(
                    input,
                    "folder",
                    "no .json file in it; expected a folder of reports",
                ));
            }
            out.extend(found);
        } else {
            out.push(input.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
    let unreadable = |e: std::io::Error| {
        Error::input(
            dir,
            "folder",
            format!("cannot list it: {e}; expected a folder of reports"),
        )
    };
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let path = entry.map_err(unreadable)?.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            found.push(path);
        }
    }
    Ok(())
}

/// The suite the reports' manifests name (`None` when none has a manifest: upstream's
/// reports). Reports naming different suites are an input error naming the first that
/// differs: the page pairs cases by id, which only means something within one suite.
pub(crate) fn suite_name(reports: &[LoadedReport]) -> Result<Option<String>> {
    let mut first: Option<(&str, &Path)> = None;
    for r in reports {
        let Some(name) = r.suite() else {
            continue;
        };
        match first {
            None => first = Some((name, &r.path)),
            Some((seen, at)) if seen != name => {
                return Err(Error::input(
                    &r.path,
                    "$.manifest.suite",
                    format!(
                        "a report of suite {name:?}, but {} is of suite {seen:?}; expected \
                         reports of one suite (or name the suite with --suite)",
                        at.display()
                    ),
                ))
            }
            Some(_) => {}
        }
    }
    Ok(first.map(|(name, _)| name.to_string()))
}

/// The page's data: `reports` of `suite`. Every case and turn must be one of the suite's (or
/// one of its cases repeated by `scale --case-count`).
pub(crate) fn page(reports: &[LoadedReport], suite: &Suite, options: &Options) -> Result<Page> {
    let qrels = Qrels::of(suite);
    // Cases the suite has, or its cases repeated by `scale --case-count` (`id~N`), shown
    // with the expectations of the case they repeat.
    let mut repeated: Vec<(String, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in reports {
        for row in &r.rows {
            if qrels.get(&row.case_id, row.turn_index).is_some() {
                continue;
            }
            match repeat_of(&row.case_id).filter(|base| qrels.get(base, row.turn_index).is_some()) {
                Some(base) if row.turn_index.is_none() => {
                    if seen.insert(row.case_id.clone()) {
                        repeated.push((row.case_id.clone(), base.to_string()));
                    }
                }
                _ => {
                    qrels.require(&r.path, &row.case_id, row.turn_index)?;
                }
            }
        }
    }
    let measures = match &options.measures {
        Some(m) => m.clone(),
        None => {
            let from_block = reports
                .iter()
                .flat_map(|r| &r.rows)
                .find(|row| !row.rank_metrics.is_empty())
                .map(|row| {
                    row.rank_metrics
                        .keys()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(",")
                });
            parse_measures(from_block.as_deref().unwrap_or(DEFAULT_MEASURES))
                .map_err(|e| Error::input(&reports[0].path, "$.cases[0].rankMetrics", e))?
        }
    };
    let mut views = Vec::with_capacity(reports.len());
    for (r, name) in reports
        .iter()
        .zip(crate::report::label::shown_names(reports))
    {
        views.push(build::report_view(
            r,
            name,
            crate::report::read::entries::read(&r.path, r.kind)?,
        ));
    }
    let (mut cases, sessions) = model::suite_views(suite, &qrels);
    let at: std::collections::HashMap<String, usize> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.clone(), i))
        .collect();
    for (id, base) in repeated {
        let mut copy = cases[at[&base]].clone();
        copy.id = id;
        cases.push(copy);
    }
    let title = options.title.clone().unwrap_or_else(|| {
        format!(
            "{} · {} report{}",
            suite.label(),
            reports.len(),
            if reports.len() == 1 { "" } else { "s" }
        )
    });
    Ok(Page {
        title,
        tool: format!("tenure-eval {}", env!("CARGO_PKG_VERSION")),
        suite: model::SuiteView {
            name: suite.label(),
            profile: suite.profile.to_string(),
        },
        differences: differences::differences(reports, &measures, &qrels, options.settings)?,
        reports: views,
        cases,
        sessions,
        history: history::history_views(&options.history, options.settings.alpha),
    })
}

/// The case `id` repeats: `scale --case-count` names its repeats `<case id>~<n>`.
fn repeat_of(id: &str) -> Option<&str> {
    let (base, n) = id.rsplit_once('~')?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(base)
}

/// Build the page of `reports` and write it to `out` atomically: on any error nothing is
/// written.
pub(crate) fn write(
    out: &Path,
    reports: &[LoadedReport],
    suite: &Suite,
    options: &Options,
) -> Result<usize> {
    if reports.is_empty() {
        return Err(Error::Usage("html needs at least one report".into()));
    }
    let html = template::render(&page(reports, suite, options)?);
    crate::io::write_atomic(out, html.as_bytes())?;
    Ok(html.len())
}

/// The page of a run that never started (nothing answered, a store lost before the first case):
/// the error, and that no case was scored. Written where the page of reports would have been, so
/// CI's artifact of the most common failure says what happened instead of being absent.
pub(crate) fn not_run(error: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>tenure-eval: the run \
         did not start</title></head>\n<body>\n<h1>tenure-eval: the run did not start</h1>\n\
         <p id=\"error\">{}</p>\n<p>No case was scored and no report was written.</p>\n</body>\n</html>\n",
        template::escape_html(error)
    )
}
