//! The scale study's figure (SVG, plotters): as the store grows (log scale), how long a search
//! and an index build take (log scale), and whether the suite's precision holds.

use crate::error::{Error, Result};
use crate::render::plot::{plot_error, TABLEAU};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// One store size's figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ScalePoint {
    /// Beliefs in the store.
    pub beliefs: f64,
    /// Index build, ms.
    pub build_ms: f64,
    /// Median search, µs (`None`: no query ran, no point drawn).
    pub search_p50_us: Option<f64>,
    /// 95th percentile search, µs.
    pub search_p95_us: Option<f64>,
    /// The suite's mean precision in the grown store.
    pub precision: Option<f64>,
}

/// A log axis range around `values` (whole decades).
fn decades(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| *v > 0.0)
        .fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return 1.0..10.0;
    }
    10f64.powf(lo.log10().floor())..10f64.powf(hi.log10().ceil().max(lo.log10().floor() + 1.0))
}

type Series<'a> = (
    &'a str,
    RGBColor,
    Box<dyn Fn(&ScalePoint) -> Option<f64> + 'a>,
);

/// The figure: three panels (search latency, build time, precision) against store size.
pub(crate) fn scale_figure(points: &[ScalePoint], title: &str) -> Result<String> {
    if points.is_empty() {
        return Err(Error::Usage(
            "the scale figure needs at least one size".into(),
        ));
    }
    let x = decades(points.iter().map(|p| p.beliefs));
    let (blue, red, green) = (TABLEAU[0], TABLEAU[3], TABLEAU[2]);
    // (y axis, series, whether y is a share on a linear axis rather than a time on a log one)
    let panels: [(&str, Vec<Series>, bool); 3] = [
        (
            "search, µs",
            vec![
                ("p50", blue, Box::new(|p: &ScalePoint| p.search_p50_us)),
                ("p95", red, Box::new(|p: &ScalePoint| p.search_p95_us)),
            ],
            false,
        ),
        (
            "index build, ms",
            vec![("build", blue, Box::new(|p: &ScalePoint| Some(p.build_ms)))],
            false,
        ),
        (
            "suite precision",
            vec![("precision", green, Box::new(|p: &ScalePoint| p.precision))],
            true,
        ),
    ];
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1080, 380)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let root = root.titled(title, ("sans-serif", 18)).map_err(plot_error)?;
        let areas = root.split_evenly((1, 3));
        for (area, (name, series, share)) in areas.iter().zip(&panels) {
            if *share {
                let labels = Labels {
                    y: &|v| format!("{v:.1}"),
                    legend: SeriesLabelPosition::LowerLeft,
                };
                panel(area, x.clone(), 0f64..1.05f64, name, series, points, labels)?;
            } else {
                let values = series
                    .iter()
                    .flat_map(|(_, _, f)| points.iter().filter_map(f));
                let labels = Labels {
                    y: &|v| human(*v),
                    legend: SeriesLabelPosition::UpperLeft,
                };
                let y = decades(values).log_scale();
                panel(area, x.clone(), y, name, series, points, labels)?;
            }
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// `1000` as `1k`, `1000000` as `1M`; small values as whole numbers.
fn human(v: f64) -> String {
    match v {
        v if v >= 1e6 => format!("{}M", v / 1e6),
        v if v >= 1e3 => format!("{}k", v / 1e3),
        v if v >= 1.0 => format!("{v:.0}"),
        v => format!("{v}"),
    }
}

/// How a panel labels its y axis and where its legend sits.
struct Labels<'f> {
    y: &'f dyn Fn(&f64) -> String,
    legend: SeriesLabelPosition,
}

/// One panel: each series a line with points, beliefs on a log axis, `y` as given.
fn panel<Y>(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    x: std::ops::Range<f64>,
    y: Y,
    name: &str,
    series: &[Series],
    points: &[ScalePoint],
    labels: Labels,
) -> Result<()>
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .margin(14)
        .margin_right(24)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(x.log_scale(), y)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc("beliefs")
        .y_desc(name)
        .x_label_formatter(&|v| human(*v))
        .y_label_formatter(labels.y)
        .draw()
        .map_err(plot_error)?;
    for (label, colour, f) in series {
        let colour = *colour;
        let pts: Vec<(f64, f64)> = points
            .iter()
            .filter_map(|p| Some((p.beliefs, f(p)?)))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
            .map_err(plot_error)?
            .label(*label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour));
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(plot_error)?;
    }
    chart
        .configure_series_labels()
        .position(labels.legend)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_error)?;
    Ok(())
}
