//! `tenure-eval plot`: the paper's Figures 1 and 2 as SVG.

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::report::write_atomic;
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
    /// The SVG file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// Draw a figure.
pub fn run(args: PlotArgs) -> Result<ExitCode> {
    // Only SVG is drawn: a `.png` name would hold SVG bytes that image viewers refuse.
    let svg_name = args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !svg_name && !is_special_file(&args.out) {
        return Err(Error::Usage(format!(
            "--out {}: plot writes SVG; expected a file name ending in .svg",
            args.out.display()
        )));
    }
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
        write_atomic(&args.out, svg.as_bytes())?;
        say!("wrote {}", args.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let reports = crate::cli::load_reports(&args.reports, false)?;
    crate::cli::mixed::warn(&reports);
    let svg = tenure_eval::render::plot::drift_figure(&reports)?;
    write_atomic(&args.out, svg.as_bytes())?;
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

/// A device, FIFO or link (`/dev/stdout`): written through whatever its name.
fn is_special_file(path: &std::path::Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}
