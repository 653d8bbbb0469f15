//! `tenure-eval models`: each embedding model under cosine, with BM25 as the reference row.

use crate::cli::args::{load, CompareFormatArg, CosineArgs, RemoteArgs, SuiteArgs};
use crate::cli::progress::Progress;
use crate::cli::{json_text, write_stdout_then_go_on};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::backend::BackendConfig;
use tenure_eval::job::{execute, RunPlan};
use tenure_eval::report::table::{models_table, ModelRow};
use tenure_eval::report::RunKind;
use tenure_eval::Result;

/// `tenure-eval models`.
#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// Suite selection.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Models (and search settings).
    #[command(flatten)]
    pub cosine: CosineArgs,
    /// Served models: calls in flight, timeout, retries.
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// Report folder.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: CompareFormatArg,
    /// No progress bar and no messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The invariance table.
pub fn run(args: ModelsArgs) -> Result<ExitCode> {
    let suite = load(&args.suite)?;
    let (name, profile) = (suite.name.clone(), suite.profile);
    let backends: Vec<BackendConfig> = std::iter::once(BackendConfig::bm25())
        .chain(
            args.cosine
                .configs(&args.remote)
                .into_iter()
                .map(BackendConfig::cosine),
        )
        .collect();
    let kinds = [RunKind::Static, RunKind::Session];
    let mut plan = RunPlan::new(suite, backends, &kinds, &args.out)?;
    let mut progress = Progress::new(args.quiet, &name);
    let outcome = execute(&mut plan, &mut progress)?;
    progress.finish();
    let mut rows = Vec::new();
    for passes in outcome.passes.chunks(plan.kinds.len()) {
        if !args.quiet {
            for p in passes.iter().flat_map(|p| &p.reports) {
                say!("wrote {}", p.display());
            }
        }
        let info = &passes[0].backend;
        let session = passes.get(1).map(|p| &p.row);
        rows.push(ModelRow {
            backend: info.id.clone(),
            model: info.model.clone(),
            text_policy: info.text_policy.clone(),
            static_summary: passes[0].row.summary.clone(),
            mean_drift: session.and_then(|s| s.mean_drift),
            session_summary: session.map(|s| s.summary.clone()),
        });
    }
    let text = match args.format {
        CompareFormatArg::Markdown => format!(
            "### Embedding model invariance · suite {name} ({profile} profile, index {})\n\n{}",
            args.cosine.index().name(),
            models_table(&rows)
        ),
        CompareFormatArg::Json => json_text(&rows),
    };
    write_stdout_then_go_on(&text)?;
    if outcome.errored() > 0 {
        say!(
            "error: the backend failed on {} cases or turns",
            outcome.errored()
        );
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}
