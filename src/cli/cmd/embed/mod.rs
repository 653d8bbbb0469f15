//! `tenure-eval embed`: fill an embedding store from an ONNX model, or import upstream vectors.

mod texts;

use crate::backend::cosine::IndexKind;
use crate::cli::args::{load, CustomSuiteArgs, DataSuiteArgs, SuiteArg, SuiteArgs};
use crate::cli::backends::CosineArgs;
use crate::cli::progress::Progress;
use crate::cli::remote::RemoteArgs;
use crate::suite::Suite;
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// `tenure-eval embed`.
#[derive(Debug, Args)]
pub(crate) struct EmbedArgs {
    /// Progress on stderr.
    #[command(flatten)]
    pub progress: crate::cli::progress::ProgressArg,
    /// Suites to embed for: built-in suites (default: every one, each under its own policy), or
    /// one benchmark with --data.
    #[arg(long, value_enum, help_heading = "Suite")]
    pub suite: Vec<SuiteArg>,
    /// Custom suite instead.
    #[command(flatten)]
    pub custom: CustomSuiteArgs,
    /// A benchmark's file (`--suite locomo --data FILE`).
    #[command(flatten)]
    pub data: DataSuiteArgs,
    /// Model and policy.
    #[command(flatten)]
    pub cosine: CosineArgs,
    /// Served models: calls in flight, timeout, retries.
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// Import the `embedding` arrays of an upstream beliefs.seed.embedded.json instead of running
    /// a model (store named by --model, keyed under the suite's belief text).
    #[arg(long, help_heading = "Vectors computed elsewhere")]
    pub import_upstream: Option<PathBuf>,
    /// Import vectors computed elsewhere into the store named by --model: JSON Lines of
    /// {"text", "role", "vector"[, "policy"]}, or a float32 or float64 .npy matrix with
    /// --texts. A record without a policy gets the suite's for its role.
    #[arg(
        long,
        conflicts_with = "import_upstream",
        help_heading = "Vectors computed elsewhere"
    )]
    pub import_vectors: Option<PathBuf>,
    /// With --import-vectors FILE.npy: a JSON list of {"text", "role"[, "policy"]}, one per row.
    #[arg(
        long,
        requires = "import_vectors",
        help_heading = "Vectors computed elsewhere"
    )]
    pub texts: Option<PathBuf>,
    /// Write every text the suites need, one {"text", "role", "policy"} per line (the
    /// --import-vectors format without the vector), to --out or stdout; embeds nothing.
    #[arg(
        long,
        conflicts_with_all = ["import_vectors", "import_upstream", "refresh", "texts"],
        help_heading = "Vectors computed elsewhere"
    )]
    pub export_texts: bool,
    /// With --export-texts: only the texts the store named by --model has no vector for.
    #[arg(
        long,
        requires = "export_texts",
        help_heading = "Vectors computed elsewhere"
    )]
    pub missing: bool,
    /// With --export-texts: the JSON Lines file to write (`-` or none: stdout).
    #[arg(
        long,
        requires = "export_texts",
        help_heading = "Vectors computed elsewhere"
    )]
    pub out: Option<PathBuf>,
    /// Recompute every vector the suites need instead of only the missing ones (and drop
    /// vectors they no longer need); with an import, replace the vectors the store holds for
    /// the texts imported (without it, another vector for a text the store has is refused).
    #[arg(long, help_heading = "Embedding")]
    pub refresh: bool,
    /// With --import-upstream or --import-vectors: where the vectors came from (recorded in the
    /// store's manifest).
    #[arg(long, help_heading = "Vectors computed elsewhere")]
    pub source: Option<String>,
    /// No progress bar.
    #[arg(long, short, help_heading = "Output")]
    pub quiet: bool,
}

/// Refuse what the chosen mode would ignore: a benchmark's flags without its `--data`; in an
/// export or an import (nothing embedded), the flags of running a model; `--source` outside an
/// import; `--model` in an export without `--missing`; when embedding, a flag of a kind of
/// model none of `--model` is.
fn refuse_unused(args: &EmbedArgs) -> Result<()> {
    use crate::cli::given::given_else_noted as given;
    let one = match args.suite.as_slice() {
        [s] => Some(*s),
        _ => None,
    };
    SuiteArgs {
        suite: one,
        custom: args.custom.clone(),
        data: args.data.clone(),
    }
    .check_flags()?;
    let import = args.import_vectors.is_some() || args.import_upstream.is_some();
    let why = "--source applies to an import (--import-vectors, --import-upstream): it names \
               where imported vectors came from";
    if !import && given("source", || why.into()) {
        return Err(Error::Usage(why.into()));
    }
    let mode = match (args.export_texts, import) {
        (true, _) => "--export-texts",
        (false, true) => "an import (--import-vectors, --import-upstream)",
        (false, false) => {
            args.cosine.check_kinds()?;
            let remote = ["concurrency", "timeout", "retries"];
            let why = |id: &str| {
                format!("--{id} applies to a served model (--model ollama:NAME or openai:NAME)")
            };
            if args.cosine.serves() {
                return Ok(());
            }
            return match remote.iter().find(|id| given(id, || why(id))) {
                Some(id) => Err(Error::Usage(why(id))),
                None => Ok(()),
            };
        }
    };
    let running = [
        "ort_lib",
        "threads",
        "batch_size",
        "batch_tokens",
        "ollama_api",
        "api_key_env",
        "query_prefix",
        "document_prefix",
        "store_name",
        "concurrency",
        "timeout",
        "retries",
        "progress",
    ];
    let why = |id: &str| {
        format!(
            "--{} applies when embedding with a model; {mode} runs none",
            id.replace('_', "-")
        )
    };
    if let Some(id) = running.iter().find(|id| given(id, || why(id))) {
        return Err(Error::Usage(why(id)));
    }
    if args.export_texts && !args.missing {
        let why = |id: &str| {
            format!(
                "--{} with --export-texts finds the store whose missing texts to list: it \
                 applies with --missing",
                id.replace('_', "-")
            )
        };
        if let Some(id) = ["model", "store_dir"]
            .iter()
            .find(|id| given(id, || why(id)))
        {
            return Err(Error::Usage(why(id)));
        }
    }
    Ok(())
}

/// Fill stores.
pub(crate) fn run(args: EmbedArgs) -> Result<ExitCode> {
    use crate::embed::places::Places;
    use crate::embed::source::import_upstream;
    use crate::embed::EmbeddingStore;
    use crate::job::embed::FillEvent;
    refuse_unused(&args)?;
    let suites: Vec<Suite> = if args.custom.corpus.is_some() {
        vec![load(&SuiteArgs {
            suite: None,
            custom: args.custom.clone(),
            data: args.data.clone(),
        })?]
    } else if args.data.data.is_some() {
        let [name] = args.suite.as_slice() else {
            return Err(Error::Usage(
                "--data is one benchmark's file: name it with one --suite (locomo)".into(),
            ));
        };
        vec![load(&SuiteArgs {
            suite: Some(*name),
            custom: args.custom.clone(),
            data: args.data.clone(),
        })?]
    } else if args.suite.is_empty() {
        (crate::suite::BUILTIN_SUITES.iter())
            .map(|s| builtin(s.name))
            .collect::<Result<Vec<_>>>()?
            .concat()
    } else {
        args.suite
            .iter()
            .map(|s| match s {
                SuiteArg::Paper | SuiteArg::Pmb | SuiteArg::Bitemporal => builtin(&s.name()),
                _ => Ok(vec![load(&SuiteArgs {
                    suite: Some(*s),
                    custom: args.custom.clone(),
                    data: args.data.clone(),
                })?]),
            })
            .collect::<Result<Vec<_>>>()?
            .concat()
    };
    let places = Places::new(args.cosine.store_dir.as_deref());
    if args.export_texts {
        return texts::export(&args, &suites);
    }
    if let Some(file) = &args.import_vectors {
        return texts::import(&args, &suites, file);
    }
    if let Some(file) = &args.import_upstream {
        // One suite named; of `pmb`'s two copies, Tenure's (the first), as before.
        let named = if args.suite.is_empty() {
            suites.len()
        } else {
            args.suite.len()
        };
        let (1, Some(suite)) = (named, suites.first()) else {
            return Err(Error::Usage(
                "--import-upstream needs exactly one --suite".into(),
            ));
        };
        let [name] = args.cosine.model.as_slice() else {
            return Err(Error::Usage(
                "--import-upstream needs one --model NAME (the store to fill)".into(),
            ));
        };
        let policy = args.cosine.configs(&args.remote, IndexKind::Exact)[0].policy(suite.profile);
        let existing = places.find(name)?;
        let before = existing.as_ref().map_or(0, EmbeddingStore::len);
        let store = import_upstream(
            file,
            name,
            args.source
                .as_deref()
                .unwrap_or("imported from an upstream beliefs.seed.embedded.json"),
            policy,
            existing,
            args.refresh,
        )?;
        return save_imported(&store, file, &places.folder(name), before, args.quiet);
    }
    if args.cosine.model.is_empty() {
        return Err(Error::Usage(
            "embed needs --model DIR (an ONNX model folder) or a served model (ollama:NAME, openai:NAME)".into(),
        ));
    }
    let plan = crate::job::embed::FillPlan {
        models: args.cosine.configs(&args.remote, IndexKind::Exact),
        suites,
        refresh: args.refresh,
    };
    let mut progress: Option<Progress> = None;
    plan.run(&mut |event| match event {
        FillEvent::Start { store, suite } => {
            progress = Some(Progress::new(args.quiet, &format!("{store} {suite}")));
        }
        FillEvent::Progress { done, total } => {
            if let Some(p) = progress.as_mut() {
                p.update(done, total, "texts");
            }
        }
        FillEvent::Filled(f) => {
            if let Some(mut p) = progress.take() {
                p.finish();
            }
            note(
                args.quiet,
                format!(
                    "{} · suite {} · {}: {} texts needed, {} embedded in {:.2} s, {} already stored",
                    f.store,
                    f.suite,
                    f.policy,
                    f.needed,
                    f.embedded,
                    f.seconds,
                    f.needed - f.embedded
                ),
            );
        }
        FillEvent::Saved { folder, vectors } => note(
            args.quiet,
            format!("wrote {} ({vectors} vectors)", folder.display()),
        ),
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Every copy of a built-in suite: `pmb` is embedded for both Tenure's copy (in-process runs)
/// and PrecisionMemBench's (what `serve` indexes when its harness seeds it).
fn builtin(name: &str) -> Result<Vec<Suite>> {
    let suite = Suite::load(&crate::suite::SuiteSource::Builtin(name.to_string()))?;
    let harness = suite.harness_copy()?;
    Ok(std::iter::once(suite).chain(harness).collect())
}

/// A message on stderr, unless `--quiet`.
pub(super) fn note(quiet: bool, message: String) {
    if !quiet {
        say!("{message}");
    }
}

/// Write an import's store and say what it added.
pub(super) fn save_imported(
    (store, replaced): &(crate::embed::EmbeddingStore, usize),
    file: &std::path::Path,
    folder: &std::path::Path,
    before: usize,
    quiet: bool,
) -> Result<ExitCode> {
    store.save(folder)?;
    note(
        quiet,
        format!(
            "imported {} into {}: {} vectors new{}, {} in all ({} dimensions)",
            file.display(),
            folder.display(),
            store.len() - before,
            match replaced {
                0 => String::new(),
                n => format!(", {n} replaced (--refresh)"),
            },
            store.len(),
            store.model.dimensions
        ),
    );
    Ok(ExitCode::SUCCESS)
}
