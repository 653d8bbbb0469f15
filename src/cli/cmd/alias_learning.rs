//! `tenure-eval alias-learning`: the alias flywheel on a benchmark's held-out questions
//! (`study::alias_learning`, docs/alias-learning.md).

use crate::cli::args::{input_notes, load, SuiteArgs};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::{json_text, write_stdout};
use crate::render::render;
use crate::run::Silent;
use crate::study::alias_learning::{measure, table};
use crate::{Error, Result};
use clap::Args;
use std::process::ExitCode;

/// `tenure-eval alias-learning`.
#[derive(Debug, Args)]
pub(crate) struct AliasLearningArgs {
    /// The benchmark: a suite whose questions carry gold items per user (LoCoMo, BEAM, ...).
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Seed of the split into learning and held-out halves (and of the random control).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format: the table as markdown, CSV or LaTeX; JSON is every figure unrounded.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// No notes on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Split, learn, measure, print.
pub(crate) fn run(args: AliasLearningArgs) -> Result<ExitCode> {
    // It splits static questions and retrieves with its own BM25 over name, aliases and text:
    // a session file or a profile would be read and then ignored (an audit found both taken
    // with exit 0 and the same bytes out).
    for (id, why) in [
        (
            "sessions",
            "alias-learning splits the static questions; session cases are not read",
        ),
        (
            "profile",
            "alias-learning retrieves with its own BM25 over name, aliases and text, \
                     whatever the profile",
        ),
    ] {
        if crate::cli::given::given_else_noted(id, || why.to_string()) {
            return Err(Error::Usage(format!("--{id}: {why}")));
        }
    }
    let suite = load(&args.suite)?;
    if !args.quiet {
        for note in input_notes(&suite) {
            say!("{note}");
        }
    }
    if !suite.sessions.is_empty() && suite.cases.is_empty() {
        return Err(Error::Usage(format!(
            "{} has session cases only; alias-learning splits static questions",
            suite.label()
        )));
    }
    let outcome = measure(&suite, args.seed, &mut Silent)?;
    let text = match args.format {
        OutputFormat::Json => json_text(&outcome),
        other => render(&[table(&outcome)], other.table()),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}
