//! The flywheel figure (SVG, plotters): coverage and precision per session, one line per
//! variant of the mechanisms; [`super::job`] writes it through
//! [`crate::render::figure_file`].

use super::metrics::SessionMetrics;
use crate::error::{Error, Result};
use crate::render::plot::{plot_error, TABLEAU};
use plotters::prelude::*;

type Metric = fn(&SessionMetrics) -> Option<f64>;

/// The figure of `runs` (variant name, its sessions), titled `title`.
pub(crate) fn figure(runs: &[(String, Vec<SessionMetrics>)], title: &str) -> Result<String> {
    let sessions = runs.iter().map(|(_, s)| s.len()).max().unwrap_or(0);
    if sessions == 0 {
        return Err(Error::Usage(
            "the flywheel figure needs at least one session".into(),
        ));
    }
    let panels: [(&str, Metric); 2] = [
        ("coverage", |m| Some(m.coverage)),
        ("precision", |m| m.precision),
    ];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1080, 420)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let root = root.titled(title, ("sans-serif", 18)).map_err(plot_error)?;
        for (area, (name, metric)) in root.split_evenly((1, 2)).iter().zip(panels) {
            let mut chart = ChartBuilder::on(area)
                .margin(14)
                .margin_right(24)
                .x_label_area_size(36)
                .y_label_area_size(48)
                .build_cartesian_2d(1f64..sessions as f64, 0f64..1.02f64)
                .map_err(plot_error)?;
            chart
                .configure_mesh()
                .x_desc("session")
                .y_desc(name)
                .y_label_formatter(&|v| format!("{v:.1}"))
                // Sessions are whole numbers: at most one label per session (plotters picks
                // steps of 1, 2 or 5 times a power of ten within the count asked for), and a
                // fractional tick, were one chosen, is left unlabelled rather than rounded into
                // a repeat of its neighbour.
                .x_labels(sessions.clamp(2, 10))
                .x_label_formatter(&|v| match v.fract() == 0.0 {
                    true => format!("{v:.0}"),
                    false => String::new(),
                })
                .draw()
                .map_err(plot_error)?;
            for (i, (variant, metrics)) in runs.iter().enumerate() {
                // The first eight, in order, cycled.
                let colour = TABLEAU[i % 8];
                let points: Vec<(f64, f64)> = metrics
                    .iter()
                    .filter_map(|m| Some((m.session as f64, metric(m)?)))
                    .collect();
                chart
                    .draw_series(LineSeries::new(points, colour.stroke_width(2)))
                    .map_err(plot_error)?
                    .label(variant.as_str())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour));
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}
