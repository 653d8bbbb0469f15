//! `tenure-eval scale`: the scale study, one process per size so that each size's peak memory
//! is its own.

use crate::backend::cosine::HnswParams;
use crate::cli::args::{figure_format, load, FigureFormatArg, SuiteArgs};
use crate::cli::format::{only, OutputFormat, TABLES};
use crate::cli::study_rows::print_rows;
use crate::cli::{json_text, write_stdout};
use crate::embed::places::user_cache;
use crate::render::write_figure;
use crate::shard::Shard;
use crate::study::scale::figure::{scale_figure, ScalePoint};
use crate::study::scale::shard::{self, Rows, Settings};
use crate::study::scale::vectors::{self, VectorRow};
use crate::study::scale::{measure, parse_size, table, Outputs, ScaleRow};
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
    /// Generated queries searched per size.
    #[arg(long, default_value_t = 200)]
    pub queries: usize,
    /// Run the suite's static cases repeated to this many (ids suffixed `~1`, `~2`, ...):
    /// a long run, for its memory (the report is streamed).
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

/// Run the study.
pub(crate) fn run(args: ScaleArgs) -> Result<ExitCode> {
    if args.vectors {
        return run_vectors(&args);
    }
    // A size's child process reads the suite its parent read and named (a benchmark's files that
    // are not its release are said once, by the parent).
    let suite = match args.one {
        Some(_) => crate::suite::Suite::load(&args.suite.source()?)?,
        None => load(&args.suite)?,
    };
    if let Some(size) = args.one {
        let report = args
            .out
            .as_ref()
            .map(|d| d.join(format!("scale-{size}.json")));
        if let Some(dir) = &args.out {
            std::fs::create_dir_all(dir).map_err(|e| Error::Output {
                path: dir.clone(),
                source: e,
            })?;
        }
        let export = args.export.as_ref().map(|d| d.join(size.to_string()));
        let outputs = Outputs {
            report: report.as_deref(),
            export: export.as_deref(),
        };
        let row = measure(
            &suite,
            size,
            args.seed,
            args.queries,
            args.case_count,
            outputs,
        )?;
        write_stdout(&json_text(&row))?;
        return Ok(ExitCode::SUCCESS);
    }
    // Before the study: a --plot name that disagrees with --plot-format is refused.
    let plot = match &args.plot {
        Some(file) => Some((
            file,
            figure_format(args.plot_format, file, "--plot-format")?,
        )),
        None => None,
    };
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let mut rows = Vec::new();
    for size in sizes_of(&args, shard) {
        if !args.quiet {
            say!("scale: {size} beliefs");
        }
        rows.push(in_child::<ScaleRow>(size)?);
    }
    if let Some(shard) = shard {
        write_shard(&args, Some(&suite), shard, &Rows::Bm25(rows.clone()))?;
    }
    if let Some((file, format)) = plot {
        let points: Vec<ScalePoint> = rows
            .iter()
            .map(|r| ScalePoint {
                beliefs: r.beliefs as f64,
                build_ms: r.build_ms,
                search_p50_us: r.search_p50_us,
                search_p95_us: r.search_p95_us,
                precision: r.precision,
            })
            .collect();
        let title = format!("Suite {} planted in synthetic stores (BM25)", suite.label());
        write_figure(file, &scale_figure(&points, &title)?, format)?;
    }
    print_rows(&rows, table, args.format)
}

/// The sizes this process measures: all of --sizes, or its shard's.
fn sizes_of(args: &ScaleArgs, shard: Option<Shard>) -> Vec<usize> {
    match shard {
        Some(shard) => shard::sizes(&args.sizes, shard),
        None => args.sizes.clone(),
    }
}

/// Write a shard's rows into --out for `tenure-eval merge`.
fn write_shard(args: &ScaleArgs, suite: Option<&Suite>, shard: Shard, rows: &Rows) -> Result<()> {
    let settings = Settings {
        study: rows.study(),
        suite: suite.map_or_else(String::new, |s| s.name.clone()),
        inputs: suite.map_or_else(Vec::new, Suite::input_digests),
        sizes: args.sizes.clone(),
        seed: args.seed,
        queries: args.queries,
        case_count: args.case_count,
        ef_search: args.ef_search,
        format: format!("{:?}", args.format).to_lowercase(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
    };
    let dir = args
        .out
        .as_deref()
        .expect("clap requires --out with --shard");
    shard::write(dir, &settings, shard, rows)
}

/// `scale --vectors`: each size in a process of its own, as the BM25 study.
fn run_vectors(args: &ScaleArgs) -> Result<ExitCode> {
    let cache = match &args.index_cache {
        Some(dir) => Some(dir.clone()),
        None => user_cache().and_then(|c| c.parent().map(|p| p.join("indexes"))),
    };
    if let Some(size) = args.one {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let params = HnswParams {
            ef_search: args.ef_search.unwrap_or(vectors::STUDY_PARAMS.ef_search),
            ..vectors::STUDY_PARAMS
        };
        let row = vectors::measure(size, params, threads, cache.as_deref())?;
        write_stdout(&json_text(&row))?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.out.is_some() && args.shard.is_none() {
        return Err(Error::Usage(
            "scale --vectors writes no report: --out only names a shard's folder (--shard K/N)"
                .into(),
        ));
    }
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let mut rows = Vec::new();
    for size in sizes_of(args, shard) {
        if !args.quiet {
            say!("scale: {size} vectors");
        }
        rows.push(in_child::<VectorRow>(size)?);
    }
    if let Some(shard) = shard {
        write_shard(args, None, shard, &Rows::Vectors(rows.clone()))?;
    }
    print_rows(&rows, vectors::table, args.format)
}
