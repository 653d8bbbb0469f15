//! `tenure-eval locomo`: LoCoMo's results from the reports of runs on it, per category, with
//! LoCoMo's own recall accuracy beside the rank measures (docs/locomo.md).

use crate::cli::args::{figure_format, FigureFormatArg};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::{json_text, load_reports, write_stdout};
use crate::render::{render, write_figure};
use crate::study::locomo::{figure::figure, job::measure_reports, tables};
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
    let reports = load_reports(&args.reports, args.quiet).map_err(|e| {
        let audit = (args.reports.iter()).find(|p| crate::suite::locomo::is_audit_file(p));
        match audit {
            Some(path) => Error::Usage(format!(
                "{} is one of the locomo-audit's files, given as a report: --corrections takes \
                 one file or folder each (--corrections A --corrections B, or their folder)",
                path.display()
            )),
            None => e,
        }
    })?;
    let results = measure_reports(&reports, &args.data, &args.corrections, &mut || {
        crate::cli::args::say_not_released("locomo")
    })?;
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
