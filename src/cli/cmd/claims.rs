//! `tenure-eval claims`: the paper's quantitative claims beside measured values.

use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::write_stdout;
use crate::render::render;
use crate::study::paper::table::claims_table;
use crate::study::paper::{check_paper_reports, claims, gate, measure_paper, ClaimSources};
use crate::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval claims`.
#[derive(Debug, Args)]
pub(crate) struct ClaimsArgs {
    /// Reports of the `paper` suite (BM25 and cosine, static and session). None: run the
    /// paper suite now, BM25 and cosine with the committed all-MiniLM-L6-v2 vectors.
    pub reports: Vec<PathBuf>,
    /// Output format.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// Exit 1 when a claim differs (`differs`), or differs or cannot be measured from the
    /// reports given (`fails`): a reproduction as a CI gate.
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOnArg>,
    /// A claim whose every number is within T of the paper's reads "within ±T" and does not
    /// fail (absolute: 0.01 on a precision, 1 on a pass count).
    #[arg(long, default_value_t = 0.0, value_name = "T", value_parser = crate::cli::args::non_negative)]
    pub tolerance: f64,
    /// A claim known to differ, exempt from --fail-on (still shown): its label, the claim's
    /// words lower-cased and joined by `-` (`cosine-mean-precision`), or its row number.
    /// Repeatable; one that names no claim is refused.
    #[arg(long, value_name = "CLAIM", requires = "fail_on")]
    pub known_difference: Vec<String>,
}

/// `--fail-on` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FailOnArg {
    /// A measured claim differs beyond the tolerance.
    Differs,
    /// A claim differs, or the reports given cannot measure it.
    Fails,
}

/// The claims table.
pub(crate) fn run(args: ClaimsArgs) -> Result<ExitCode> {
    let reports = if args.reports.is_empty() {
        let (reports, skipped) = measure_paper()?;
        if let Some(why) = skipped {
            say!("note: {why}");
        }
        reports
    } else {
        let reports = crate::cli::load_reports(&args.reports, false)?;
        check_paper_reports(&reports)?;
        reports
    };
    let mut claims = claims(&ClaimSources::from_reports(&reports));
    gate::apply_tolerance(&mut claims, args.tolerance);
    let table = claims_table(&claims);
    write_stdout(&render(&[table], args.format.table()))?;
    let Some(fail_on) = args.fail_on else {
        return Ok(ExitCode::SUCCESS);
    };
    let fail_on = match fail_on {
        FailOnArg::Differs => gate::FailOn::Differs,
        FailOnArg::Fails => gate::FailOn::Fails,
    };
    let exempt = gate::exemptions(&claims, &args.known_difference)?;
    let gate::Verdict { failing, notes } = gate::judge(&claims, fail_on, &exempt);
    for note in notes {
        say!("note: {note}");
    }
    if failing.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    say!(
        "gate: {} of {} claims {} (tolerance {}):",
        failing.len(),
        claims.len(),
        match fail_on {
            gate::FailOn::Differs => "differ",
            gate::FailOn::Fails => "differ or are not measured",
        },
        args.tolerance
    );
    for c in &failing {
        say!(
            "  {}: paper {}, measured {} ({})",
            c.claim,
            c.paper,
            c.measured,
            c.status.label()
        );
    }
    Ok(ExitCode::from(crate::error::exit::FAILED_CHECK))
}
