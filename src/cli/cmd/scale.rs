//! `tenure-eval scale`: the scale study (`study::scale::plan`), one process per size so that
//! each size's peak memory is its own.

use crate::cli::args::{figure_format, load, FigureFormatArg, SuiteArgs};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::study_rows::print_rows;
use crate::cli::{json_text, write_stdout};
use crate::shard::Shard;
use crate::study::scale::plan::ScalePlan;
use crate::study::scale::vectors::{self, VectorRow};
use crate::study::scale::{parse_size, table, ScaleRow};
use crate::suite::Suite;
use crate::{Error, Result};
use clap::Args;
use std::process::{Command, ExitCode, Stdio};

/// `tenure-eval scale`.
#[derive(Debug, Args)]
pub(crate) struct ScaleArgs {
    /// Store sizes, in beliefs (`1k`, `10k`, `1m`).
    #[arg(long, value_delimiter = ',', default_value = "1k,10k,100k", value_parser = parse_size)]
    pub sizes: Vec<usize>,
    /// Seed of the synthetic corpus and queries.
    #[arg(long, default_value_t = 20_260_511)]
    pub seed: u64,
    /// Generated queries searched per size (at least 1: no query, no latency).
    #[arg(long, default_value_t = 200, value_parser = crate::cli::remote::at_least_one)]
    pub queries: usize,
    /// Run the suite's static cases repeated to this many (ids suffixed `~1`, `~2`, ...):
    /// a long run, for its memory (the report is streamed). At least the suite's own count; a
    /// count that is no multiple of it is said (its first cases run once more).
    #[arg(long, value_parser = parse_size)]
    pub case_count: Option<usize>,
    /// Output format: the table as markdown, CSV or LaTeX, or the rows as JSON.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
    /// Also write each size's static report here, as `scale-<beliefs>.json` (which cases the
    /// grown store fails, and why).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Also write each size's corpus, generated queries, the suite's case searches and our
    /// answers here, as `<beliefs>/corpus.tsv`, `queries.tsv` and `cases.tsv`, for another
    /// engine to run and check (`scripts/lucene-side-by-side.sh` runs Lucene on them).
    #[arg(long)]
    pub export: Option<std::path::PathBuf>,
    /// Also draw the study as a figure here (`.svg`, `.png` or `.pdf`): search latency, build
    /// time and the suite's precision against store size.
    #[arg(long)]
    pub plot: Option<std::path::PathBuf>,
    /// The figure's format; by default the one --plot's extension names, else SVG.
    #[arg(long, value_enum, requires = "plot")]
    pub plot_format: Option<FigureFormatArg>,
    /// Measure cosine search instead of BM25: exact and HNSW over synthetic 384-d vectors of
    /// each size (recall@10 against exact, latency, build time, memory). The graph is cached
    /// in --index-cache and reused while the vectors and parameters are the same.
    #[arg(long, conflicts_with_all = ["case_count", "export", "plot"])]
    pub vectors: bool,
    /// Where --vectors keeps built graphs (default: `indexes` in the user cache, beside its
    /// embedding stores; `TENURE_EVAL_CACHE` moves both).
    #[arg(long, requires = "vectors")]
    pub index_cache: Option<std::path::PathBuf>,
    /// --vectors: the graph's candidate list while searching (a search-time setting: a cached
    /// graph is reused). Default: the study's, 200.
    #[arg(long, requires = "vectors")]
    pub ef_search: Option<usize>,
    /// Measure only shard K of N of --sizes (the size at position i goes to shard i mod N + 1)
    /// and write its rows to --out/scale-shard.json; `tenure-eval merge` makes the study's table
    /// from every shard's --out folder (docs/guide.md, "Run on a cluster").
    #[arg(long, value_name = "K/N", requires = "out", conflicts_with = "plot")]
    pub shard: Option<String>,
    /// No messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Measure one size in this process and print its row as JSON (what each size's own
    /// process runs).
    #[arg(long, hide = true)]
    pub one: Option<usize>,

    /// The suite planted in the synthetic store (its static cases judge precision).
    #[command(flatten)]
    pub suite: SuiteArgs,
}

/// One size in a process of its own: the same flags, `--one SIZE`.
fn in_child<T: serde::de::DeserializeOwned>(size: usize) -> Result<T> {
    let exe = std::env::current_exe().map_err(|e| Error::backend("scale", e))?;
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    args.extend(["--one".into(), size.to_string()]);
    let out = Command::new(exe)
        .args(&args)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| Error::backend("scale", e))?;
    if !out.status.success() {
        return Err(Error::backend(
            "scale",
            format!("measuring {size} beliefs failed ({})", out.status),
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| Error::backend("scale", e))
}

/// Run the study: the library's plan, each size measured in a child process.
pub(crate) fn run(args: ScaleArgs) -> Result<ExitCode> {
    // Before the study: a --plot name that disagrees with --plot-format is refused.
    let plot = match &args.plot {
        Some(file) => Some((
            file.clone(),
            figure_format(args.plot_format, file, "--plot-format")?,
        )),
        None => None,
    };
    let plan = ScalePlan {
        sizes: args.sizes.clone(),
        seed: args.seed,
        queries: args.queries,
        case_count: args.case_count,
        out: args.out.clone(),
        export: args.export.clone(),
        plot,
        shard: args.shard.as_deref().map(Shard::parse).transpose()?,
        ef_search: args.ef_search,
        index_cache: args.index_cache.clone(),
        format: format!("{:?}", args.format).to_lowercase(),
    };
    let quiet = args.quiet;
    // The vector study draws its own vectors (seeds 7 and 8) and 200 queries, and plants no
    // suite: these flags were taken and changed nothing (an audit).
    if args.vectors {
        // On the command line only: a suite the config file names for every command is said.
        let why = "--vectors measures synthetic vectors alone and plants no suite";
        if let Some(flag) = crate::cli::given::first_given(["suite", "corpus", "cases"], why) {
            return Err(Error::Usage(format!("{why}: drop {flag}")));
        }
        crate::cli::given::refuse_ignored(&[
            (
                "seed",
                "--seed: --vectors draws its vectors and queries from fixed seeds (7, 8)",
            ),
            (
                "queries",
                "--queries: --vectors searches its own 200 synthetic queries",
            ),
        ])?;
    }
    if args.vectors {
        if let Some(size) = args.one {
            return write_stdout(&json_text(&plan.measure_vectors_one(size)?))
                .map(|()| ExitCode::SUCCESS);
        }
        let rows = plan.run_vectors(|size| {
            if !quiet {
                say!("scale: {size} vectors");
            }
            in_child::<VectorRow>(size)
        })?;
        return print_rows(&rows, vectors::table, args.format);
    }
    // A size's child process reads the suite its parent read and named (a benchmark's files that
    // are not its release are said once, by the parent).
    if let Some(size) = args.one {
        let suite = Suite::load(&args.suite.source()?)?;
        return write_stdout(&json_text(&plan.measure_one(&suite, size)?))
            .map(|()| ExitCode::SUCCESS);
    }
    let suite = load(&args.suite)?;
    // The study measures alias-BM25, the paper's system: over items without aliases (LoCoMo,
    // BEAM) every case fails, which read as precision collapsing with size (an audit).
    // Your own files without aliases still match whole names: said, not refused.
    if !suite.has_aliases() && suite.name == "custom" {
        say!(
            "warning: scale measures alias-BM25, and {}'s items have no aliases: a query word \
             matches only a whole name",
            suite.label()
        );
    } else if !suite.has_aliases() {
        return Err(Error::Usage(format!(
            "scale measures alias-BM25 (the paper's system), which matches a query word only \
             against a whole name or alias, and {}'s items are whole messages without aliases: \
             almost every case would fail at every size. Scale a suite whose items have \
             aliases (paper, pmb, your own files)",
            suite.label()
        )));
    }
    // --case-count repeats the whole suite: a count below its cases ran the first N alone, a
    // subset reported as the suite's precision (a fifteenth audit); a count that is no multiple
    // of them runs the first cases once more than the others, said even with --quiet.
    if let Some(n) = args.case_count {
        let own = suite.cases.len();
        if n < own {
            return Err(Error::Usage(format!(
                "--case-count {n} is fewer than {}'s {own} static cases: it repeats the whole \
                 suite (a count below it would run the first {n} alone); give {own} or more",
                suite.label()
            )));
        }
        if n % own != 0 {
            say!(
                "warning: --case-count {n} is not a multiple of {}'s {own} static cases: the \
                 first {} run {} times and the others {}, and the pass rate weights them so",
                suite.label(),
                n % own,
                n / own + 1,
                n / own
            );
        }
    }
    // The default sizes below a large suite's own corpus are left out, said; sizes given are
    // the user's, and one too small is refused by the plan.
    let mut plan = plan;
    if !crate::cli::given::set("sizes") {
        let own = suite.corpus.len();
        let (kept, left): (Vec<usize>, Vec<usize>) = plan.sizes.iter().partition(|s| **s >= own);
        if !left.is_empty() && !quiet {
            say!("note: {} holds {own} beliefs of its own: the default sizes below that ({left:?}) are left out", suite.label());
        }
        plan.sizes = kept;
    }
    let rows = plan.run(&suite, |size| {
        if !quiet {
            say!("scale: {size} beliefs");
        }
        in_child::<ScaleRow>(size)
    })?;
    print_rows(&rows, table, args.format)
}
