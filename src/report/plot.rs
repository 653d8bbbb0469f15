//! Figures as SVG (plotters). Figure 2 of the paper: the drift score of every session turn, one
//! line per report (backend). Figure 1 (one query's BM25 scores beside its cosine scores) needs
//! per-belief cosine scores, which only the cosine backend's reports will carry.

use super::tables::{LoadedReport, ReportKind};
use crate::error::{Error, Result};
use plotters::prelude::*;

const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

fn plot_error(e: impl std::fmt::Display) -> Error {
    Error::Output {
        path: "<svg>".into(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// Figure 2: drift score per session turn (x: turns in run order, across session cases), one
/// line per session report, labelled by provider.
pub fn drift_figure(reports: &[LoadedReport]) -> Result<String> {
    let sessions: Vec<&LoadedReport> = reports
        .iter()
        .filter(|r| r.kind == ReportKind::Session)
        .collect();
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
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 440)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Drift score per session turn", ("sans-serif", 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..(turns as f64 - 0.5), 0f64..1.05f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("turn (x = cross-session case)")
            .y_desc("drift score")
            .x_labels(turns)
            .x_label_formatter(&|x| {
                let i = x.round() as usize;
                labels.get(i).cloned().unwrap_or_default()
            })
            .draw()
            .map_err(plot_error)?;
        for (k, report) in sessions.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let points: Vec<(f64, f64)> = report
                .rows
                .iter()
                .enumerate()
                .map(|(i, r)| (i as f64, r.drift.unwrap_or(0.0)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(plot_error)?
                .label(report.provider.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                .map_err(plot_error)?;
        }
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.9))
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
