//! The BEAM figure (SVG, plotters): nDCG@10 per ability over all tiers, one point per run and
//! ability, and the knowledge-update order (share of updates ranked above their original)
//! per run as the last column; one legend under the plot.

use super::RunResult;
use crate::error::{Error, Result};
use crate::render::plot::{plot_error, TABLEAU};
use plotters::prelude::*;

/// nDCG@10's place among the rank measures (`suite::beam::MEASURES`).
const NDCG10: usize = 4;

/// The figure of `results`.
pub(crate) fn figure(results: &[RunResult], title: &str) -> Result<String> {
    if results.is_empty() {
        return Err(Error::Usage(
            "the BEAM figure needs at least one report".into(),
        ));
    }
    // Over all tiers: each ability's cell, then the whole run's for the update order.
    let columns: Vec<String> = (results[0].cells.iter())
        .filter(|c| c.tier == "all" && c.ability != "all")
        .map(|c| c.ability.replace('_', " "))
        .chain(["update first".to_string()])
        .collect();
    let mut svg = String::new();
    {
        let legend_rows = results.len().div_ceil(3) as u32;
        let height = 440 + 24 * legend_rows + 16;
        let root = SVGBackend::with_string(&mut svg, (1080, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let root = root.titled(title, ("sans-serif", 18)).map_err(plot_error)?;
        let (plot, legend) = root.split_vertically(420);
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(20)
            .y_label_area_size(46)
            .caption(
                "nDCG@10 by ability (all tiers); last: knowledge updates ranked above their original",
                ("sans-serif", 14),
            )
            .build_cartesian_2d(0f64..columns.len() as f64, 0f64..1f64)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_label_formatter(&|_| String::new())
            .y_desc("nDCG@10 · share")
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(columns.iter().enumerate().map(|(g, name)| {
                Text::new(
                    name.clone(),
                    (g as f64 + 0.05, 0.97),
                    ("sans-serif", 10).into_font().color(&BLACK),
                )
            }))
            .map_err(plot_error)?;
        let n = results.len() as f64;
        for (i, r) in results.iter().enumerate() {
            let color = TABLEAU[i % TABLEAU.len()];
            let offset = 0.2 + 0.6 * (i as f64 + 0.5) / n;
            let mut points: Vec<(f64, f64)> = (r.cells.iter())
                .filter(|c| c.tier == "all" && c.ability != "all")
                .enumerate()
                .filter_map(|(g, c)| Some((g as f64 + offset, c.rank[NDCG10]?)))
                .collect();
            let whole = r
                .cells
                .iter()
                .find(|c| c.tier == "all" && c.ability == "all");
            if let Some((k, total)) = whole.and_then(|c| c.update_order) {
                points.push((points.len() as f64 + offset, k as f64 / total as f64));
            }
            chart
                .draw_series(points.iter().map(|p| Circle::new(*p, 4, color.filled())))
                .map_err(plot_error)?;
            let (x, y) = (60 + 340 * (i as i32 % 3), 12 + 24 * (i as i32 / 3));
            legend
                .draw(&Circle::new((x, y), 4, color.filled()))
                .map_err(plot_error)?;
            legend
                .draw(&Text::new(
                    r.name.clone(),
                    (x + 12, y - 7),
                    ("sans-serif", 13),
                ))
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
