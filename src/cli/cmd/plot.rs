//! `tenure-eval plot`: the paper's Figures 1 and 2 as SVG, PNG or PDF.

use crate::cli::args::{figure_format, FigureFormatArg};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::render::write_figure;
use tenure_eval::report::LoadedReport;
use tenure_eval::{Error, Result};

/// `tenure-eval plot`.
#[derive(Debug, Args)]
pub struct PlotArgs {
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
pub fn run(args: PlotArgs) -> Result<ExitCode> {
    // Before any work: a file whose name says another format than --format is refused.
    let format = figure_format(args.format, &args.out, "--format")?;
    if let Some(case) = &args.case {
        use tenure_eval::render::plot::{score_figure, ScoreSource};
        let [top, bottom] = args.reports.as_slice() else {
            return Err(Error::Usage(
                "plot --case needs two static reports: BM25 first, then cosine".into(),
            ));
        };
        let read = |p: &PathBuf| -> Result<serde_json::Value> {
            tenure_eval::io::parse_json(p, &tenure_eval::io::read_bytes(p)?)
        };
        let (a, b) = (read(top)?, read(bottom)?);
        let la = LoadedReport::from_value(top, &a)?.score_label();
        let lb = LoadedReport::from_value(bottom, &b)?.score_label();
        let query = case_field(&a, case, "expandedQuery");
        let svg = score_figure(
            case,
            &query,
            &ScoreSource {
                path: top,
                report: &a,
                label: la,
            },
            &ScoreSource {
                path: bottom,
                report: &b,
                label: lb,
            },
        )?;
        write_figure(&args.out, &svg, format)?;
        say!("wrote {}", args.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let reports = crate::cli::load_reports(&args.reports, false)?;
    crate::cli::mixed::warn(&reports);
    let svg = tenure_eval::render::plot::drift_figure(&reports)?;
    write_figure(&args.out, &svg, format)?;
    say!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

/// A string field of one case of a report (either layout), or "".
fn case_field(report: &serde_json::Value, case: &str, key: &str) -> String {
    report
        .as_array()
        .or_else(|| report.get("cases").and_then(|c| c.as_array()))
        .and_then(|cases| cases.iter().find(|c| c["caseId"] == case))
        .and_then(|c| c[key].as_str())
        .unwrap_or_default()
        .to_string()
}
