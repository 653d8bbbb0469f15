//! `tenure-eval merge`: the shards' `--out` folders made into the whole run's reports
//! (docs/journal.md). Each folder says what it holds: a `run`/`models --shard K/N` folder its
//! journals, a `scale --shard K/N` folder its `scale-shard.json`. Its flags are its own: the
//! suite, where the merged reports go, the gates and the files a run writes; what chose and
//! drove the backends is in the journals, so no backend flag exists here to be ignored.

use crate::backend::Workload;
use crate::cli::args::{load, GateArgs, OutputArgs, SuiteArgs};
use crate::cli::backends::ids;
use crate::cli::finish::{baselines, finish, RunHistoryArgs};
use crate::job::RunPlan;
use crate::study::scale::shard as scale_shard;
use crate::suite::Suite;
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval merge`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Progress on stderr.
    #[command(flatten)]
    pub progress: crate::cli::progress::ProgressArg,
    /// The --out folder of each shard (`run`, `models` or `scale --shard K/N`), every shard
    /// once.
    #[arg(required = true, value_name = "SHARD_DIR")]
    pub shards: Vec<PathBuf>,
    /// The suite the shards ran.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Where the merged reports go, what is printed, the measures.
    #[command(flatten)]
    pub output: OutputArgs,
    /// CI gates on the merged run.
    #[command(flatten)]
    pub gates: GateArgs,
    /// Also write one self-contained HTML page of the merged reports (see `html`).
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Run history.
    #[command(flatten)]
    pub history: RunHistoryArgs,
}

/// Merge the shards.
pub(crate) fn run(args: MergeArgs) -> Result<ExitCode> {
    // Scale shards hold the study's rows and its settings, merged as `scale` wrote them.
    if args.shards.iter().any(|dir| scale_shard::is_shard(dir)) {
        let ids = ids::<MergeArgs>().into_iter().filter(|id| id != "shards");
        if let Some(flag) = crate::cli::given::first_given(
            ids,
            "these are `scale` shards, merged with the settings they ran with",
        ) {
            return Err(Error::Usage(format!(
                "merge: these are `scale` shards, merged with the settings they ran with; {flag} \
                 does not apply"
            )));
        }
        return crate::cli::study_rows::merge_scale(&args.shards);
    }
    // `models` shards say the table they are part of: the merge prints it, with the
    // shards' measures, and writes the reports where `models` writes them (reports/models,
    // where a `run`'s are never written over) unless --out is given.
    let models = crate::study::models::shard::read(&args.shards)?;
    let mut output = args.output;
    if let Some(layout) = &models {
        if crate::cli::given::given_else_noted("metrics", || {
            "the measures of `models` shards are the ones they ran with".into()
        }) {
            return Err(Error::Usage(format!(
                "merge: --metrics does not apply to `models` shards: their table's measures \
                 are the ones they ran with ({})",
                layout.measures.join(",")
            )));
        }
        if !crate::cli::given::set("out") {
            output.out = PathBuf::from("reports/models");
        }
    }
    let suite = load(&args.suite)?;
    if !output.quiet {
        for note in crate::cli::args::input_notes(&suite) {
            say!("{note}");
        }
    }
    let baselines = baselines(&args.gates)?;
    let kinds = [Workload::Static, Workload::Session];
    let mut plan = RunPlan::new(suite, Vec::new(), &kinds, &output.out)?
        .with_gates(args.gates.gates(), baselines)?;
    if let Some(layout) = &models {
        plan.measures = (layout.measures.iter())
            .map(|m| m.parse().map_err(Error::Usage))
            .collect::<Result<_>>()?;
    }
    plan.harness = plan.suite.harness_copy()?;
    let suites: Vec<&Suite> = std::iter::once(&plan.suite).chain(&plan.harness).collect();
    plan.replay = crate::job::merge::merge(&args.shards, &suites)?;
    finish(
        plan,
        &output,
        &args.gates,
        args.html.as_deref(),
        &args.history,
        models.as_ref(),
    )
}
