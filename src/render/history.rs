//! A run history (`analysis::history`) as tables, one per label, suite and kind, with the last
//! change's McNemar verdict under each, and as a figure: one metric over the runs, one line per
//! series.

use super::plot::{legend, plot_error, TABLEAU};
use super::table::Table;
use crate::analysis::history::{last_change, Entry, Series};
use crate::error::Result;
use plotters::prelude::*;

/// Cases named in a change line; the rest are counted.
const SHOWN: usize = 10;

/// One table per series: each run's date, commit and `metrics`; and the verdict on its last
/// change at level `alpha` (the tables' order).
pub(crate) fn tables(
    series: &[Series<'_>],
    metrics: &[String],
    alpha: f64,
) -> (Vec<Table>, Vec<String>) {
    let mut tables = Vec::new();
    let mut verdicts = Vec::new();
    for s in series {
        let mut header = vec!["Run".to_string(), "Date".to_string(), "Commit".to_string()];
        header.extend(metrics.iter().cloned());
        let rows = s
            .runs
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let mut row = vec![
                    (i + 1).to_string(),
                    e.date.clone(),
                    e.commit.clone().unwrap_or_else(|| "–".into()),
                ];
                row.extend(
                    metrics
                        .iter()
                        .map(|m| e.metric(m).map_or("–".into(), |v| format!("{v:.4}"))),
                );
                row
            })
            .collect();
        tables.push(Table {
            title: format!(
                "{} · {} {} ({} runs)",
                s.label,
                s.shown,
                s.kind,
                s.runs.len()
            ),
            header,
            rows,
        });
        verdicts.push(match last_change(s, alpha) {
            None => format!(
                "{} · {} {}: one run, nothing to compare",
                s.label, s.shown, s.kind
            ),
            Some(c) => {
                let head = if c.regression {
                    "REGRESSION"
                } else {
                    "no regression"
                };
                let mut line = format!(
                    "{} · {} {}: {head} from run {} to run {} ({} → {}): {} pass→fail, {} \
                     fail→pass, exact McNemar p = {:.4} (α = {alpha})",
                    s.label,
                    s.shown,
                    s.kind,
                    s.runs.len() - 1,
                    s.runs.len(),
                    c.from,
                    c.to,
                    c.pass_to_fail.len(),
                    c.fail_to_pass.len(),
                    c.p
                );
                if !c.pass_to_fail.is_empty() {
                    let shown: Vec<&str> = c
                        .pass_to_fail
                        .iter()
                        .take(SHOWN)
                        .map(String::as_str)
                        .collect();
                    line.push_str(&format!("; newly failing: {}", shown.join(", ")));
                    if c.pass_to_fail.len() > SHOWN {
                        line.push_str(&format!(" and {} more", c.pass_to_fail.len() - SHOWN));
                    }
                }
                line
            }
        });
    }
    (tables, verdicts)
}

/// `metric` over the runs, one line per series (x: the run's place in its series).
pub(crate) fn figure(series: &[Series<'_>], metric: &str) -> Result<String> {
    let runs = series
        .iter()
        .map(|s| s.runs.len())
        .max()
        .unwrap_or(1)
        .max(2);
    let values: Vec<Vec<(f64, f64)>> = series
        .iter()
        .map(|s| {
            s.runs
                .iter()
                .enumerate()
                .filter_map(|(i, e): (usize, &&Entry)| {
                    e.metric(metric).map(|v| ((i + 1) as f64, v))
                })
                .collect()
        })
        .collect();
    let top = values.iter().flatten().map(|p| p.1).fold(1.0f64, f64::max);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 440)).into_drawing_area();
        let (plot_area, legend_area) = root.split_horizontally(700);
        root.fill(&WHITE).map_err(plot_error)?;
        let mut chart = ChartBuilder::on(&plot_area)
            .caption(format!("{metric} per run"), ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.5f64..(runs as f64 + 0.5), 0f64..top * 1.05)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("run")
            .y_desc(metric)
            .x_labels(runs)
            .x_label_formatter(&|x| format!("{}", x.round() as usize))
            .draw()
            .map_err(plot_error)?;
        for (k, points) in values.iter().enumerate() {
            let colour = TABLEAU[k % TABLEAU.len()];
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(plot_error)?;
            chart
                .draw_series(points.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                .map_err(plot_error)?;
        }
        let names: Vec<String> = series
            .iter()
            .map(|s| format!("{} · {} {}", s.label, s.shown, s.kind))
            .collect();
        legend(&legend_area, &names, &TABLEAU)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
