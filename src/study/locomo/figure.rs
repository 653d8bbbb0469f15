//! The LoCoMo figure (SVG, plotters): recall at depth k (1, 5, 10, 25, 50; log axis) of every
//! run over all scored questions, one line per run, turns solid and sessions dashed; nDCG@10
//! per category beside it, one point per run and category; one legend under both.

use super::{RunResult, DEPTHS};
use crate::error::{Error, Result};
use crate::render::plot::{plot_error, TABLEAU};
use crate::suite::{Label, Unit};
use plotters::prelude::*;

/// The figure of `results`.
pub(crate) fn figure(results: &[RunResult], title: &str) -> Result<String> {
    if results.is_empty() {
        return Err(Error::Usage(
            "the LoCoMo figure needs at least one report".into(),
        ));
    }
    let all = |r: &RunResult| r.cells.iter().find(|c| c.group == "all").cloned();
    let mut svg = String::new();
    {
        // One legend for both panels, under them: two columns, a run a line.
        let legend_rows = results.len().div_ceil(2) as u32;
        let height = 420 + 24 * legend_rows + 16;
        let root = SVGBackend::with_string(&mut svg, (1080, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let root = root.titled(title, ("sans-serif", 18)).map_err(plot_error)?;
        let (panels, legend) = root.split_vertically(400);
        let (left, right) = panels.split_horizontally(540);
        for (i, r) in results.iter().enumerate() {
            let color = TABLEAU[i % TABLEAU.len()];
            let (x, y) = (60 + 500 * (i as i32 % 2), 12 + 24 * (i as i32 / 2));
            let style = ShapeStyle::from(&color).stroke_width(2);
            if Label::parse(&r.suite).unit == Unit::Turns {
                legend.draw(&PathElement::new(vec![(x, y), (x + 28, y)], style))
            } else {
                legend
                    .draw(&PathElement::new(vec![(x, y), (x + 10, y)], style))
                    .map_err(plot_error)?;
                legend.draw(&PathElement::new(vec![(x + 18, y), (x + 28, y)], style))
            }
            .map_err(plot_error)?;
            legend
                .draw(&Circle::new((x + 14, y), 3, color.filled()))
                .map_err(plot_error)?;
            let unit = Label::parse(&r.suite).unit.name();
            let text = format!("{} ({unit})", r.name);
            legend
                .draw(&Text::new(text, (x + 36, y - 7), ("sans-serif", 13)))
                .map_err(plot_error)?;
        }
        let mut chart = ChartBuilder::on(&left)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(46)
            .caption("recall at depth k, all questions", ("sans-serif", 14))
            .build_cartesian_2d(
                (1f64..50f64)
                    .log_scale()
                    .with_key_points(DEPTHS.iter().map(|k| *k as f64).collect()),
                0f64..1f64,
            )
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("k")
            .y_desc("R@k")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()
            .map_err(plot_error)?;
        for (i, r) in results.iter().enumerate() {
            let Some(cell) = all(r) else { continue };
            let color = TABLEAU[i % TABLEAU.len()];
            // R@k are the first five rank measures (MEASURES order).
            let points: Vec<(f64, f64)> = DEPTHS
                .iter()
                .zip(&cell.rank)
                .filter_map(|(k, v)| Some((*k as f64, (*v)?)))
                .collect();
            let style = ShapeStyle::from(&color).stroke_width(2);
            if Label::parse(&r.suite).unit == Unit::Turns {
                chart.draw_series(LineSeries::new(points.clone(), style))
            } else {
                chart.draw_series(DashedLineSeries::new(points.clone(), 6, 4, style))
            }
            .map_err(plot_error)?;
            chart
                .draw_series(points.iter().map(|p| Circle::new(*p, 3, color.filled())))
                .map_err(plot_error)?;
        }

        let groups: Vec<String> = results[0].cells.iter().map(|c| c.group.clone()).collect();
        let mut chart = ChartBuilder::on(&right)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(46)
            .caption("nDCG@10 by category", ("sans-serif", 14))
            .build_cartesian_2d(0f64..groups.len() as f64, 0f64..1f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_label_formatter(&|_| String::new())
            .y_desc("nDCG@10")
            .draw()
            .map_err(plot_error)?;
        // Each group's name inside the plot, under its points (the axis has no categories).
        chart
            .draw_series(groups.iter().enumerate().map(|(g, name)| {
                Text::new(
                    name.clone(),
                    (g as f64 + 0.1, 0.04),
                    ("sans-serif", 10).into_font().color(&BLACK),
                )
            }))
            .map_err(plot_error)?;
        let n = results.len() as f64;
        for (i, r) in results.iter().enumerate() {
            let color = TABLEAU[i % TABLEAU.len()];
            let offset = 0.2 + 0.6 * (i as f64 + 0.5) / n;
            chart
                .draw_series(r.cells.iter().enumerate().filter_map(|(g, c)| {
                    // nDCG@10 is the sixth rank measure (MEASURES order); no point where no
                    // case has it.
                    Some(Circle::new(
                        (g as f64 + offset, c.rank[5]?),
                        4,
                        color.filled(),
                    ))
                }))
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
