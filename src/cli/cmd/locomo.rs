//! `tenure-eval locomo`: LoCoMo's results from the reports of runs on it, per category, with
//! LoCoMo's own recall accuracy beside the rank measures (docs/locomo.md).

use crate::cli::args::{figure_format, FigureFormatArg};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::{json_text, load_reports, write_stdout};
use crate::render::{render, write_figure};
use crate::study::locomo::{figure::figure, measure, tables};
use crate::suite::locomo::{observation_covers, questions, CORRECTED};
use crate::suite::{Label, Unit};
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval locomo`.
#[derive(Debug, Args)]
pub(crate) struct LocomoArgs {
    /// Reports of runs on `--suite locomo` (turns or sessions), any backend or system.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// The LoCoMo file the runs read (its evidence strings, as written, are what LoCoMo's own
    /// recall accuracy reads).
    #[arg(long, value_name = "FILE")]
    pub data: PathBuf,
    /// The corrections the runs of the corrected view read (`run --corrections`): their
    /// evidence is what LoCoMo's recall reads for those runs.
    #[arg(long, value_name = "PATH")]
    pub corrections: Vec<PathBuf>,
    /// Output format: the tables as markdown, CSV or LaTeX; JSON is every run's figures
    /// unrounded (per group: cases, passed, the rank measures, LoCoMo's recall accuracy).
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// Also draw the figure here (`.svg`, `.png` or `.pdf`): R@k against k, nDCG@10 by category.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// The figure's format; by default the one --plot's extension names, else SVG.
    #[arg(long, value_enum, requires = "plot")]
    pub plot_format: Option<FigureFormatArg>,
    /// No warnings on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The tables (and the figure).
pub(crate) fn run(args: LocomoArgs) -> Result<ExitCode> {
    let plot = match &args.plot {
        Some(file) => Some((
            file,
            figure_format(args.plot_format, file, "--plot-format")?,
        )),
        None => None,
    };
    let reports = load_reports(&args.reports, args.quiet)?;
    let views: Vec<Label> = reports
        .iter()
        .map(|r| Label::parse(r.suite().unwrap_or("")))
        .collect();
    let corrected = views.iter().any(|l| l.view == Some(CORRECTED));
    let released = views.iter().any(|l| l.view.is_none());
    if corrected && released {
        return Err(Error::Usage(
            "reports of the released and the corrected view given together: their gold \
             differs; give each view's reports to its own call"
                .into(),
        ));
    }
    if corrected == args.corrections.is_empty() {
        return Err(Error::Usage(if corrected {
            "the reports are of the corrected view (run --corrections): give the same \
             --corrections here"
                .into()
        } else {
            "--corrections: the reports are of the released view (no run --corrections)".into()
        }));
    }
    let questions = questions(&args.data, &args.corrections)?;
    if !crate::suite::locomo::is_released(&args.data)? {
        crate::cli::args::say_not_released("locomo");
    }
    let covers = if views.iter().any(|l| l.unit == Unit::Observations) {
        observation_covers(&args.data)?
    } else {
        Default::default()
    };
    let results = measure(&reports, &questions, &covers)?;
    if let Some((file, format)) = plot {
        write_figure(
            file,
            &figure(&results, "LoCoMo: retrieval of the evidence turns")?,
            format,
        )?;
        if !args.quiet {
            say!("wrote {}", file.display());
        }
    }
    let text = match args.format {
        OutputFormat::Json => json_text(&results),
        other => render(&tables(&results), other.table()),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
