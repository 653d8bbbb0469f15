//! `tenure-eval history DIR`: the runs a history folder keeps (`run --history DIR`), one table
//! per label, suite and kind, the verdict on each series' last change (exact McNemar, as
//! `compare`), and a figure of one measure over the runs (docs/history.md).

use crate::analysis::history::{last_change, read, series};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::error::exit;
use crate::render::history::{figure, tables};
use crate::render::table::render;
use crate::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval history`.
#[derive(Debug, Args)]
pub(crate) struct HistoryArgs {
    /// The history folder (`run --history DIR`).
    pub dir: PathBuf,
    /// Measures shown, comma-separated [default: every measure of the first run].
    #[arg(long, value_delimiter = ',')]
    pub metric: Vec<String>,
    /// Significance level of the regression verdict.
    #[arg(long, default_value_t = 0.05, value_parser = crate::cli::args::level)]
    pub alpha: f64,
    /// Write a figure of the first measure over the runs: `.svg`, `.png` or `.pdf`.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// The figure's format; by default the one --plot's extension names, else SVG.
    #[arg(long, value_enum, requires = "plot")]
    pub plot_format: Option<crate::cli::args::FigureFormatArg>,
    /// Exit 1 when a series' last change is a regression (a CI gate).
    #[arg(long)]
    pub fail_on_regression: bool,
    /// Output format.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
}

/// Print the history.
pub(crate) fn run(args: HistoryArgs) -> Result<ExitCode> {
    // The figure's format is settled before any work: a name it cannot write is exit 2.
    let plot_format = match &args.plot {
        Some(file) => crate::cli::args::figure_format(args.plot_format, file, "--plot-format")?,
        None => crate::render::FigureFormat::Svg,
    };
    let entries = read(&args.dir)?;
    // An empty file (a CI cache recreated it) printed nothing, passed --fail-on-regression and
    // drew a figure without a series, each with exit 0 (a ninth audit). `run --history` reads
    // it too, and there no line yet is a first run.
    if entries.is_empty() {
        return Err(crate::Error::input(
            &args.dir.join(crate::analysis::history::FILE),
            "file",
            "empty: no run is recorded (each `run --history DIR` adds one line)",
        ));
    }
    let series = series(&entries);
    let metrics: Vec<String> = if args.metric.is_empty() {
        entries
            .first()
            .map(|e| e.metrics.iter().map(|(m, _)| m.clone()).collect())
            .unwrap_or_default()
    } else {
        if let Some(metric) = crate::cli::args::repeated(&args.metric) {
            return Err(crate::Error::Usage(format!(
                "--metric {metric} is given twice: name each measure once"
            )));
        }
        crate::analysis::history::check_metrics(&entries, &args.metric)
            .map_err(|why| crate::Error::Usage(format!("{why} ({})", args.dir.display())))?;
        args.metric.clone()
    };
    let (tables, verdicts) = tables(&series, &metrics, args.alpha);
    let text = match args.format {
        OutputFormat::Json => {
            let out: Vec<_> = series
                .iter()
                .zip(&tables)
                .map(|(s, t)| {
                    serde_json::json!({
                        "label": s.label, "suite": s.suite, "kind": s.kind,
                        "profile": s.profile, "inputs": s.inputs, "shown": s.shown,
                        "header": t.header, "rows": t.rows,
                        "lastChange": last_change(s, args.alpha),
                    })
                })
                .collect();
            crate::cli::json_text(&out)
        }
        other => {
            let mut text = render(&tables, other.table());
            if other == OutputFormat::Markdown {
                text.push('\n');
                for v in &verdicts {
                    text.push_str(&format!("- {v}\n"));
                }
            } else {
                // CSV and LaTeX hold the tables only: the verdicts go to stderr, or a CI job
                // failed by --fail-on-regression said nothing of why (a thirteenth audit).
                for v in &verdicts {
                    say!("{v}");
                }
            }
            text
        }
    };
    crate::cli::write_stdout(&text)?;
    if let Some(path) = &args.plot {
        let metric = metrics.first().map_or("passRate", String::as_str);
        crate::render::write_figure(path, &figure(&series, metric)?, plot_format)?;
        say!("wrote {}", path.display());
    }
    let regressed = series
        .iter()
        .any(|s| last_change(s, args.alpha).is_some_and(|c| c.regression));
    if args.fail_on_regression && regressed && args.format == OutputFormat::Json {
        // JSON says it in each series' `lastChange`; the exit is explained on stderr too.
        for v in verdicts.iter().filter(|v| v.contains("REGRESSION")) {
            say!("{v}");
        }
    }
    Ok(ExitCode::from(if args.fail_on_regression && regressed {
        exit::FAILED_CHECK
    } else {
        exit::OK
    }))
}
