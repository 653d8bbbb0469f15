//! `tenure-eval plot`: the paper's Figures 1 and 2 as SVG, PNG or PDF.

use crate::cli::args::{figure_format, FigureFormatArg};
use crate::render::figure_file::encode;
use crate::render::{write_figure, FigureFormat};
use crate::report::read::entries::static_case;
use crate::report::LoadedReport;
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval plot`.
#[derive(Debug, Args)]
pub(crate) struct PlotArgs {
    /// Figure 2: session reports, one line each. Figure 1 (--case): a BM25 static report, then a
    /// cosine static report.
    #[arg(required = true)]
    pub reports: Vec<PathBuf>,
    /// Figure 1 for this static case: each belief's score in the first report above its score
    /// in the second.
    #[arg(long)]
    pub case: Option<String>,
    /// The file to write (`.svg`, `.png` or `.pdf`).
    #[arg(long)]
    pub out: PathBuf,
    /// Its format; by default the one --out's extension names, else SVG.
    #[arg(long, value_enum)]
    pub format: Option<FigureFormatArg>,
}

/// Draw a figure.
pub(crate) fn run(args: PlotArgs) -> Result<ExitCode> {
    // Before any work: a file whose name says another format than --format is refused.
    let format = figure_format(args.format, &args.out, "--format")?;
    if let Some(case) = &args.case {
        use crate::render::plot::{score_figure, ScoreSource};
        let [top, bottom] = args.reports.as_slice() else {
            return Err(Error::Usage(
                "plot --case needs two static reports: BM25 first, then cosine".into(),
            ));
        };
        // Both reports read typed, through the report's read half.
        let (a, b) = (static_case(top, case)?, static_case(bottom, case)?);
        let (ra, rb) = (LoadedReport::load(top)?, LoadedReport::load(bottom)?);
        // A static case of runs that stand for their cases (not a stopped or failed run's),
        // of one suite (said when not): a session report's first turn was drawn as the case.
        for report in [&ra, &rb] {
            if report.kind != crate::backend::Workload::Static {
                return Err(Error::input(
                    &report.path,
                    "$",
                    "a session report: plot --case draws a static case's scores",
                ));
            }
            report.answered_well()?;
        }
        crate::cli::mixed::warn([&ra, &rb]);
        crate::cli::warn_twice(&[top.clone(), bottom.clone()]);
        crate::cli::warn_copies([&ra, &rb]);
        // A case the backend failed on has no scores: its half of the figure would be empty.
        for (report, (i, entry)) in [(&ra, &a), (&rb, &b)] {
            if entry.error.is_some() {
                return Err(Error::input(
                    &report.path,
                    report.entry_at(*i) + ".error",
                    format!("the backend failed on case {case}: it has no scores to draw"),
                ));
            }
        }
        let (la, lb) = (ra.score_label(), rb.score_label());
        let query = a.1.expanded_query.clone().unwrap_or_default();
        let svg = score_figure(
            case,
            &query,
            &ScoreSource {
                path: top,
                case: (a.0, &a.1),
                label: la,
            },
            &ScoreSource {
                path: bottom,
                case: (b.0, &b.1),
                label: lb,
            },
        )?;
        out_figure(&args.out, &svg, format)?;
        return Ok(ExitCode::SUCCESS);
    }
    let reports = crate::cli::load_reports(&args.reports, false)?;
    // An errored turn has no lists: its drift would be drawn as 0, the best a system can do;
    // a stopped run's line ends early and a failed run's answers are its failures (drawn
    // beside whole runs, unmarked, before an audit).
    for report in &reports {
        report.ran_to_end()?;
    }
    crate::cli::mixed::warn(&reports);
    let svg = crate::render::plot::drift_figure(&reports)?;
    out_figure(&args.out, &svg, format)?;
    Ok(ExitCode::SUCCESS)
}

/// The figure to its file (atomically, `wrote` on stderr), or to stdout for `--out -` (SVG
/// unless --format says PNG or PDF).
fn out_figure(out: &std::path::Path, svg: &str, format: FigureFormat) -> Result<()> {
    if out == std::path::Path::new("-") {
        return crate::cli::write_stdout_bytes(&encode(out, svg, format)?);
    }
    write_figure(out, svg, format)?;
    say!("wrote {}", out.display());
    Ok(())
}
