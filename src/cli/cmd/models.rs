//! `tenure-eval models`: each embedding model under cosine, compared the way the field compares
//! retrieval models (MTEB ranks by nDCG@10): rank measures, BM25 as the reference row above,
//! and a chance row below (`--model random`: a random vector per text), every model tested
//! against chance with the paired randomisation test `compare` uses (Holm-adjusted over the
//! table's pairs). A model not distinguishable from chance is named under the table. The flags
//! choose the rows; the comparison itself is the library's (`study::models`).

use crate::analysis::compare::significance::TestSettings;
use crate::backend::BackendConfig;
use crate::cli::args::{load, SuiteArgs};
use crate::cli::backends::{BackendArg, BackendFlags};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::progress::Progress;
use crate::cli::remote::RemoteArgs;
use crate::cli::study_rows::models_text;
use crate::cli::write_stdout_then_go_on;
use crate::study::models::{self, ModelsPlan};
use crate::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval models`.
#[derive(Debug, Args)]
pub(crate) struct ModelsArgs {
    /// Progress on stderr.
    #[command(flatten)]
    pub progress: crate::cli::progress::ProgressArg,
    /// Also each model fused with the reference by these methods (rrf, combsum, fallback), a
    /// row each.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub fusion: Vec<FusionArg>,
    /// The lexical reference row above the models, and what `--fusion` fuses each model with:
    /// bm25 (alias-BM25) or bm25-text (BM25) [default: the one the suite's items can be
    /// matched by: alias-BM25 where they carry names and aliases, BM25 on text].
    #[arg(long, value_enum, value_name = "BACKEND")]
    pub reference: Option<ReferenceArg>,
    /// Report folder: the models' reports go to DIR/SUITE/, a folder of their own, so a
    /// `run` of the same model in `reports/` is never written over.
    #[arg(long, default_value = "reports/models", value_parser = crate::cli::args::report_folder)]
    pub out: PathBuf,
    /// Output format: the table with its note on chance as markdown, the table as CSV or
    /// LaTeX, every row unrounded as JSON.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// No progress bar and no messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Run shard K of N of every model's cases (see `run --shard`); `tenure-eval merge` makes
    /// the whole run's reports from every shard's --out folder.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Rank measures of the table, ir_measures names (the first is the one tested against
    /// chance).
    #[arg(long, default_value = "nDCG@10,R@10,RR", value_parser = crate::cli::args::measures)]
    pub metrics: crate::cli::args::Measures,
    /// Leave out the chance row (and the test against it).
    #[arg(long)]
    pub no_chance: bool,
    /// Significance level of the test against chance, after Holm's adjustment.
    #[arg(long, default_value_t = 0.05, value_parser = crate::cli::args::level)]
    pub alpha: f64,
    /// Seed of sampled randomisation tests (over 40 differing cases).
    #[arg(long, default_value_t = 20_260_511)]
    pub seed: u64,

    /// Suite selection.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Models, search and fusion settings (a fusion fuses BM25 and each model here).
    #[command(flatten)]
    pub backends: BackendFlags,
    /// Served models: calls in flight, timeout, retries.
    #[command(flatten)]
    pub remote: RemoteArgs,
}

/// `--reference` values: the lexical backends (the models are the cosine rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ReferenceArg {
    /// Alias-BM25: Tenure's query over names and aliases.
    Bm25,
    /// BM25 over the items' words.
    Bm25Text,
}

/// `--fusion` values: the ways a model's list is fused with the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FusionArg {
    /// Reciprocal rank fusion.
    Rrf,
    /// CombSUM over min-max normalised scores.
    Combsum,
    /// The reference's list, or the model's when the reference finds nothing.
    Fallback,
}

impl FusionArg {
    fn backend(self) -> BackendArg {
        match self {
            FusionArg::Rrf => BackendArg::Rrf,
            FusionArg::Combsum => BackendArg::Combsum,
            FusionArg::Fallback => BackendArg::Fallback,
        }
    }
}

/// The invariance table.
pub(crate) fn run(args: ModelsArgs) -> Result<ExitCode> {
    let suite = load(&args.suite)?;
    let reference = match args.reference {
        None if suite.has_aliases() => BackendArg::Bm25,
        None => BackendArg::Bm25Text,
        Some(ReferenceArg::Bm25) => BackendArg::Bm25,
        Some(ReferenceArg::Bm25Text) => BackendArg::Bm25Text,
    };
    // What a fusion fuses is the reference and each model: a --fuse list would be ignored.
    let why = "each --fusion row of models fuses the --reference backend with one model";
    if crate::cli::given::given_else_noted("fuse", || why.into()) {
        return Err(crate::Error::Usage(format!(
            "--fuse does not apply to models: {why}"
        )));
    }
    // A fusion given twice ran twice, wrote its report over itself and added a pair to Holm's
    // family, raising every other row's adjusted p (a ninth audit); models and floors given
    // twice were refused already.
    if let Some(fusion) = crate::cli::args::repeated(&args.fusion) {
        return Err(crate::Error::Usage(format!(
            "--fusion {} is given twice: each fusion runs once",
            fusion.backend().name()
        )));
    }
    let fusions: Vec<BackendArg> = args.fusion.iter().map(|f| f.backend()).collect();
    let mut chosen = vec![reference, BackendArg::Cosine];
    chosen.extend(fusions.iter().copied());
    args.backends.check(&chosen, None, false)?;
    let (name, profile) = (suite.label(), suite.profile);
    // Each --fusion value names a fusion (FusionArg), so each has its method.
    let methods: Vec<_> = fusions
        .iter()
        .filter_map(|b| args.backends.method(*b))
        .collect();
    // Each fusion fuses BM25 with one model: its settings must fit two backends.
    for m in &methods {
        args.backends.fusion.check(m, 2)?;
    }
    let bm25 = args.backends.configs(&[reference], &args.remote, None)?;
    let mut backends = bm25.clone();
    let index = args.backends.index_kind();
    let models = args.backends.cosine.configs(&args.remote, index);
    for model in args.backends.index.with_floors(models) {
        let cosine = BackendConfig::cosine(model);
        for m in &methods {
            let children = vec![bm25[0].clone(), cosine.clone()];
            backends.push(args.backends.fusion.config(m.clone(), children));
        }
        backends.insert(backends.len() - methods.len(), cosine);
    }
    if args.metrics.0.is_empty() {
        return Err(crate::Error::Usage(
            "--metrics none: models compares by rank measures; name at least one".into(),
        ));
    }
    if args.no_chance {
        if let Some(flag) = ["alpha", "seed"].iter().find(|id| {
            crate::cli::given::given_else_noted(id, || {
                "--no-chance leaves the test against chance out".into()
            })
        }) {
            return Err(crate::Error::Usage(format!(
                "--{flag} is the test against chance's; --no-chance leaves the test out"
            )));
        }
    }
    let chance = (!args.no_chance).then(|| {
        let model = args.backends.cosine.configs(&args.remote, index).remove(0);
        (model, args.backends.index.cosine_floor.clone())
    });
    // Each row is tested against chance, Holm-adjusted over the rows: an --alpha so small
    // that no p can reach it declared BM25 (nDCG 1.00) "not distinguishable from chance".
    let tests = TestSettings {
        alpha: args.alpha,
        resamples: 100_000,
        seed: args.seed,
    };
    tests.check(backends.len())?;
    let shard = (args.shard.as_deref())
        .map(crate::shard::Shard::parse)
        .transpose()?;
    let plan = ModelsPlan {
        suite,
        backends,
        chance,
        measures: args.metrics.0.clone(),
        shard,
        out: args.out.clone(),
        settings: tests,
    };
    let mut progress = Progress::new(args.quiet, &name);
    let ran = models::run(plan, &mut progress)?;
    progress.finish();
    if !args.quiet {
        for p in ran.outcome.passes.iter().flat_map(|p| &p.reports) {
            say!("wrote {}", p.display());
        }
    }
    let title = format!(
        "Embedding models · suite {name} ({profile} profile, index {})",
        index.name()
    );
    // A shard says what table it is part of, so that `merge` makes that table.
    if let Some(s) = shard {
        models::shard::write(&args.out, &ran.layout(&title), s)?;
    }
    let compared = ran.compare()?;
    let text = models_text(&compared, &title, shard, args.format);
    write_stdout_then_go_on(&text)?;
    let outcome = compared.outcome;
    if outcome.errored() > 0 {
        say!(
            "error: the backend failed on {} cases or turns",
            outcome.errored()
        );
        return Ok(ExitCode::from(crate::error::exit::RUNTIME));
    }
    Ok(ExitCode::SUCCESS)
}
