//! `tenure-eval beam`: BEAM's results from the reports of runs on it, per tier and ability,
//! with the knowledge-update order beside the rank measures (docs/beam.md).

use crate::cli::args::{figure_format, load_beam, FigureFormatArg};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::{json_text, load_reports, write_stdout};
use crate::render::{render, write_figure};
use crate::study::beam::{figure::figure, measure, tables};
use crate::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval beam`.
#[derive(Debug, Args)]
pub(crate) struct BeamArgs {
    /// Reports of runs on `--suite beam`, any backend or system.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// The BEAM folder the runs read (its knowledge updates name the original and the updated
    /// messages).
    #[arg(long, value_name = "DIR")]
    pub data: PathBuf,
    /// The tiers the runs read (`run --tier`) [default: every tier found].
    #[arg(long, value_name = "TIER", value_delimiter = ',')]
    pub tier: Vec<String>,
    /// Output format: the table as markdown, CSV or LaTeX; JSON is every run's figures
    /// unrounded.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// Also draw the figure here (`.svg`, `.png` or `.pdf`): nDCG@10 by ability, and the
    /// knowledge-update order.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// The figure's format; by default the one --plot's extension names, else SVG.
    #[arg(long, value_enum, requires = "plot")]
    pub plot_format: Option<FigureFormatArg>,
    /// No warnings on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The table (and the figure).
pub(crate) fn run(args: BeamArgs) -> Result<ExitCode> {
    let plot = match &args.plot {
        Some(file) => Some((
            file,
            figure_format(args.plot_format, file, "--plot-format")?,
        )),
        None => None,
    };
    // Through the one loader every command shares: files that are not BEAM's release are said.
    let suite = load_beam(&args.data, args.tier.clone())?;
    let reports = load_reports(&args.reports, args.quiet)?;
    let results = measure(&reports, &suite)?;
    if let Some((file, format)) = plot {
        write_figure(
            file,
            &figure(&results, "BEAM: retrieval of the evidence messages")?,
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
