//! `tenure-eval serve`: a built-in backend behind PrecisionMemBench's HTTP provider contract.

use crate::cli::args::{load, SuiteArgs};
use crate::cli::backends::{BackendArg, BackendFlags};
use crate::cli::progress::Progress;
use crate::cli::remote::RemoteArgs;
use crate::serve::Server;
use crate::{Error, Result};
use clap::Args;
use std::process::ExitCode;

/// `tenure-eval serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Progress on stderr.
    #[command(flatten)]
    pub progress: crate::cli::progress::ProgressArg,
    /// The backend to serve: any built-in one (bm25, bm25-text, cosine, a fusion, a context
    /// scorer, recent), over the suite's beliefs; not http. Default: alias-BM25 (bm25) where the
    /// suite's items have aliases, else plain BM25 (bm25-text), as `run` chooses.
    #[arg(long, value_enum)]
    pub backend: Option<BackendArg>,
    /// Address to listen on; 127.0.0.1 keeps it to this machine.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Port (0: any free port; the URL is printed on stdout).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Add this many ms to every search (to try --concurrency and --timeout against a slow
    /// system).
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
    /// Threads answering requests (at least 1: 0 was said and served on 1).
    #[arg(long, default_value_t = 4, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    pub workers: usize,
    /// Write every request to FILE, one JSON line each (`{"method", "path", "body"}`, the body
    /// as received): to compare what two clients sent. Started afresh; a file there that is not
    /// an earlier request log is refused.
    #[arg(long, value_name = "FILE")]
    pub request_log: Option<std::path::PathBuf>,
    /// Test fault: exit, unanswered, when search N+1 arrives (a crash mid-run).
    #[arg(long, value_name = "N", hide = true)]
    pub exit_after_searches: Option<usize>,
    /// No messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,

    /// The suite whose ids `/add` resolves (its corpus and session beliefs).
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// The built-in backends' settings.
    #[command(flatten)]
    pub backends: BackendFlags,
    /// Served models (for cosine): calls in flight, timeout, retries.
    #[command(flatten)]
    pub remote: RemoteArgs,
}

/// Serve until killed.
pub(crate) fn run(args: ServeArgs) -> Result<ExitCode> {
    let given = load(&args.suite)?;
    // Alias-BM25 over items without aliases (LoCoMo, BEAM) retrieves almost nothing: a run
    // against it read as a broken memory system, every figure 0 (an audit found it in silence).
    let backend = match args.backend {
        Some(b) => b,
        None if given.has_aliases() => BackendArg::Bm25,
        None => BackendArg::Bm25Text,
    };
    if backend == BackendArg::Bm25 && !given.has_aliases() {
        say!("warning: {}", crate::job::names_only_warning(&given));
    }
    args.backends.check(&[backend], None, false)?;
    // A served backend answers each search alone (built as a static search): the composite
    // scorer's revisitation, which reads a session's earlier turns, never acts there.
    crate::cli::given::refuse_ignored(&[
        ("revisit_rate", "--revisit-rate acts on a session's earlier turns, which a served search never sees"),
        ("revisit_cap", "--revisit-cap acts on a session's earlier turns, which a served search never sees"),
        ("revisit_threshold", "--revisit-threshold acts on a session's earlier turns, which a served search never sees"),
        ("corrections", "--corrections changes LoCoMo's gold evidence, which a served memory system never reads: it serves the same items with or without it"),
    ])?;
    if backend == BackendArg::Http {
        return Err(Error::Usage(
            "serve exposes a built-in backend (bm25, bm25-text, cosine, rrf, composite, ...), not \
             another server"
                .into(),
        ));
    }
    // A served backend is a memory system that PrecisionMemBench's harness (or ours, standing
    // in for it) seeds: it holds PrecisionMemBench's own copy of the suite, the texts it is sent.
    let suite = given.harness_copy()?.unwrap_or(given);
    let configs = args.backends.configs(&[backend], &args.remote, None)?;
    let mut config =
        (args.backends).one(configs, "serve serves one backend", "a server per value")?;
    let mut progress = Progress::new(args.quiet, &suite.label());
    config.prepare(&suite, &mut |done, total| {
        crate::run::Observer::embedding(&mut progress, done, total)
    })?;
    progress.finish();
    let server = Server::bind(
        &format!("{}:{}", args.bind, args.port),
        &suite,
        Box::new(config),
    )?
    .with_latency(std::time::Duration::from_millis(args.latency_ms))
    .exit_after_searches(args.exit_after_searches);
    // Said once, with the first id: a harness of another suite sends every id so.
    let label = suite.label();
    let quiet = args.quiet;
    let server = server.on_unknown_id(move |id, n| {
        if n == 1 && !quiet {
            say!(
                "serve: {id:?} is none of {label}'s beliefs: indexed from the text sent, without \
                 the suite's aliases (said for the first such id; GET /health counts them)"
            );
        }
    });
    let server = match &args.request_log {
        Some(path) => server.with_request_log(path)?,
        None => server,
    };
    crate::cli::write_stdout(&format!("{}\n", server.url()))?;
    if !args.quiet {
        say!(
            "serving {} over suite {}{} at {} with {} workers{} (DELETE /reset, POST /add, POST \
             /search, PUT /update, POST /wait, GET /health); Ctrl-C stops",
            backend.name(),
            suite.label(),
            suite
                .copy
                .map(|c| format!(" ({c}'s copy)"))
                .unwrap_or_default(),
            server.url(),
            args.workers,
            match args.latency_ms {
                0 => String::new(),
                ms => format!(", each answer delayed by --latency-ms {ms}"),
            }
        );
    }
    server.run(args.workers);
    Ok(ExitCode::SUCCESS)
}
