//! Figures as SVG (plotters). Figure 1 of the paper: one query's BM25 score per belief above its
//! cosine score (a spike against a flat band). Figure 2: the drift score of every session turn,
//! one line per report (backend).

use crate::backend::Workload;
use crate::error::{Error, Result};
use crate::report::schema::CaseEntry;
use crate::report::LoadedReport;
use plotters::prelude::*;

/// Tableau's ten categorical colours, in matplotlib's default order (blue, orange, green, red,
/// purple, brown, pink, grey, olive, cyan): the one palette of every figure.
pub(crate) const TABLEAU: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The paper's figures take them in their own order (blue, red, green, purple, orange, cyan,
/// ...), distinct for ten series. Beyond ten, the marker shape changes too, so no two series
/// look alike.
const COLOURS: [RGBColor; 10] = [
    TABLEAU[0], TABLEAU[3], TABLEAU[2], TABLEAU[4], TABLEAU[1], TABLEAU[9], TABLEAU[5], TABLEAU[6],
    TABLEAU[7], TABLEAU[8],
];

pub(crate) fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::Output {
        path: "<svg>".into(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// The legend right of a plot: one line sample and label per series, in `colours` order.
pub(crate) fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    names: &[String],
    colours: &[RGBColor],
) -> Result<()> {
    for (k, name) in names.iter().enumerate() {
        let colour = colours[k % colours.len()];
        let y = 60 + 22 * k as i32;
        area.draw(&PathElement::new(
            vec![(8, y), (32, y)],
            colour.stroke_width(2),
        ))
        .map_err(plot_error)?;
        area.draw(&Text::new(name.clone(), (38, y - 7), ("sans-serif", 14)))
            .map_err(plot_error)?;
    }
    Ok(())
}

/// Figure 2: drift score per session turn (x: turns in run order, across session cases), one
/// line per session report, labelled by provider.
pub(crate) fn drift_figure(reports: &[LoadedReport]) -> Result<String> {
    // A static report beside session reports was left out of the figure in silence (an
    // eleventh audit): the figure draws turns, and `plot --case` draws a static report's case.
    if let Some(r) = reports.iter().find(|r| r.kind != Workload::Session) {
        return Err(Error::Usage(format!(
            "{}: a static report; the drift figure draws session reports' turns (plot --case \
             CASE draws a case of a static report)",
            r.path.display()
        )));
    }
    let sessions: Vec<&LoadedReport> = reports.iter().collect();
    if sessions.is_empty() {
        return Err(Error::Usage(
            "the drift figure needs at least one session report".into(),
        ));
    }
    let turns = sessions
        .iter()
        .map(|r| r.rows.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let labels: Vec<String> = sessions[0]
        .rows
        .iter()
        .map(|r| {
            let case = if r.case_id.starts_with("cross-session") {
                "x"
            } else {
                ""
            };
            format!("{case}{}", r.turn_index.unwrap_or(0))
        })
        .collect();
    let mut suites: Vec<String> = sessions.iter().filter_map(|r| suite_of(r)).collect();
    suites.sort();
    suites.dedup();
    let title = match suites.as_slice() {
        [] => "Drift score per session turn".to_string(),
        names => format!("Drift score per session turn · suite {}", names.join(", ")),
    };
    let mut svg = String::new();
    {
        // Wide enough for the legend to sit right of the plot, off the data.
        let root = SVGBackend::with_string(&mut svg, (960, 440)).into_drawing_area();
        let (plot_area, legend_area) = root.split_horizontally(760);
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(&title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..(turns as f64 - 0.5), 0f64..1.05f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("turn (x = cross-session case)")
            .y_desc("drift = noise / (relevant + pinned)")
            .x_labels(turns)
            .x_label_formatter(&|x| {
                let i = x.round() as usize;
                labels.get(i).cloned().unwrap_or_default()
            })
            .draw()
            .map_err(plot_error)?;
        for (k, report) in sessions.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            // Later series are drawn thinner, so a line under another still shows at its edges.
            let width = 3u32.saturating_sub((k / 2) as u32).max(1);
            // Each turn where the first report has it (by case and turn, not by its place in
            // the file: a report with its rows in another order drew another curve).
            let drift: std::collections::HashMap<String, f64> = (report.rows.iter())
                .map(|r| (r.key(), r.noise_drift.unwrap_or(0.0)))
                .collect();
            let points: Vec<(f64, f64)> = (sessions[0].rows.iter().enumerate())
                .filter_map(|(i, r)| Some((i as f64, *drift.get(&r.key())?)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(width)))
                .map_err(plot_error)?;
            if (k / COLOURS.len()).is_multiple_of(2) {
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                    .map_err(plot_error)?;
            } else {
                chart
                    .draw_series(
                        points
                            .iter()
                            .map(|&p| Cross::new(p, 4, colour.stroke_width(2))),
                    )
                    .map_err(plot_error)?;
            }
        }
        let names: Vec<String> = sessions.iter().map(|r| r.provider.clone()).collect();
        legend(&legend_area, &names, &COLOURS)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// A case entry's `searchScores` as (id, score); `at` is its place in the report's entries.
fn case_scores(path: &std::path::Path, at: usize, case: &CaseEntry) -> Result<Vec<(String, f64)>> {
    let scores = case.search_scores.as_ref().ok_or_else(|| {
        Error::input(
            path,
            format!("$[{at}].searchScores"),
            "missing: this report has no per-belief scores (published PrecisionMemBench reports drop them)",
        )
    })?;
    Ok(scores.iter().map(|s| (s.id.clone(), s.score)).collect())
}

/// One labelled report for Figure 1.
pub(crate) struct ScoreSource<'a> {
    /// The report file (for messages).
    pub path: &'a std::path::Path,
    /// The case's entry in it, and the entry's place in the report.
    pub case: (usize, &'a CaseEntry),
    /// Legend label (`BM25 (Lucene score)`).
    pub label: String,
}

/// Figure 1: for one query (`case_id`), each belief's score under the first report (BM25) above
/// its score under the second (cosine). Beliefs are those either backend returned, ordered by
/// the first score, then the second; a belief a backend did not return scores 0 there.
pub(crate) fn score_figure(
    case_id: &str,
    query: &str,
    top: &ScoreSource<'_>,
    bottom: &ScoreSource<'_>,
) -> Result<String> {
    let a = case_scores(top.path, top.case.0, top.case.1)?;
    let b = case_scores(bottom.path, bottom.case.0, bottom.case.1)?;
    let score = |list: &[(String, f64)], id: &str| {
        list.iter().find(|(i, _)| i == id).map_or(0.0, |(_, s)| *s)
    };
    let mut ids: Vec<String> = a.iter().chain(&b).map(|(id, _)| id.clone()).collect();
    ids.sort();
    ids.dedup();
    ids.sort_by(|x, y| {
        score(&a, y)
            .total_cmp(&score(&a, x))
            .then(score(&b, y).total_cmp(&score(&b, x)))
            .then(x.cmp(y))
    });
    if ids.is_empty() {
        return Err(Error::Usage(format!(
            "case {case_id}: neither report has a scored belief"
        )));
    }
    // Horizontal bars: beliefs down the left (best first), BM25 on the left, cosine on the right.
    let height = 140 + 26 * ids.len() as u32;
    let n = ids.len() as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let root = root
            .titled(&format!("{case_id}: \"{query}\""), ("sans-serif", 18))
            .map_err(plot_error)?;
        let panels = root.split_evenly((1, 2));
        for (k, (panel, (source, scores))) in
            panels.iter().zip([(top, &a), (bottom, &b)]).enumerate()
        {
            if scores.is_empty() {
                // An empty panel would draw all-"0.0" ticks; say what happened instead.
                let panel = panel
                    .titled(&source.label, ("sans-serif", 14))
                    .map_err(plot_error)?;
                let (w, h) = panel.dim_in_pixel();
                panel
                    .draw_text(
                        &format!(
                            "{} keeps nothing above its floor for this query",
                            source.label
                        ),
                        &("sans-serif", 14).into_text_style(&panel),
                        (12, (h / 2) as i32),
                    )
                    .map_err(plot_error)?;
                let _ = w;
                continue;
            }
            let max = scores.iter().map(|(_, s)| *s).fold(0.0, f64::max).max(1e-9) * 1.1;
            let colour = COLOURS[k];
            let labels = ids.clone();
            let mut chart = ChartBuilder::on(panel)
                .caption(&source.label, ("sans-serif", 14))
                .margin(12)
                .x_label_area_size(36)
                .y_label_area_size(if k == 0 { 190 } else { 8 })
                .build_cartesian_2d(0f64..max, -0.5f64..(n - 0.5))
                .map_err(plot_error)?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .x_desc("score")
                .y_labels(ids.len())
                .y_label_formatter(&|y| {
                    let i = y.round();
                    if k == 1 || (y - i).abs() > 1e-6 || i < 0.0 {
                        return String::new();
                    }
                    // Row 0 is drawn at the top.
                    labels
                        .get((n - 1.0 - i) as usize)
                        .cloned()
                        .unwrap_or_default()
                })
                .draw()
                .map_err(plot_error)?;
            chart
                .draw_series(ids.iter().enumerate().map(|(i, id)| {
                    let y = n - 1.0 - i as f64;
                    Rectangle::new(
                        [(0.0, y - 0.35), (score(scores, id), y + 0.35)],
                        colour.filled(),
                    )
                }))
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// The suite a report ran: its manifest's, else the folder it sits in (`reports/pmb/...`).
fn suite_of(report: &LoadedReport) -> Option<String> {
    report.suite().map(str::to_string)
}
