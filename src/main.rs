//! `tenure-eval`: the command line over the `tenure_eval` library. This file is the only
//! place that maps errors to exit codes: 0 ok, 1 a CI gate failed (or `verify` found a
//! mismatch), 2 usage or input error, 3 runtime failure.

mod cli;

use clap::Parser;
use cli::progress::Progress;
use cli::{Cli, Command, FormatArg, OutputArgs, RunArgs, SuiteArgs};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use tenure_eval::backend::cosine::CosineSetup;
use tenure_eval::backend::BackendKind;
use tenure_eval::report::gates::{self, Gates};
use tenure_eval::report::table::{self, RunRow};
use tenure_eval::report::tables::LoadedReport;
use tenure_eval::report::{self, file_name, json, Manifest, RunKind, Shape};
use tenure_eval::run::{run_sessions, run_static};
use tenure_eval::suite::Suite;
use tenure_eval::{Error, Result};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn dispatch(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Static(args) => run_command(args, &[RunKind::Static]),
        Command::Session(args) => run_command(args, &[RunKind::Session]),
        Command::Run(args) => run_command(args, &[RunKind::Static, RunKind::Session]),
        Command::Validate(args) => validate_command(args),
        Command::Tables(args) => tables_command(args),
        Command::Verify(args) => verify_command(args),
        Command::Compare(args) => compare_command(args),
        Command::Claims(args) => claims_command(args),
        Command::Trec(args) => trec_command(args),
        Command::Plot(args) => plot_command(args),
        Command::Embed(args) => embed_command(args),
        Command::Models(args) => models_command(args),
    }
}

fn embed_command(args: cli::EmbedArgs) -> Result<ExitCode> {
    use tenure_eval::embed::source::{fill, import_upstream};
    use tenure_eval::embed::{needed_texts, EmbeddingStore};
    let suites: Vec<Suite> = if args.custom.corpus.is_some() {
        vec![load(&SuiteArgs {
            suite: None,
            custom: args.custom,
        })?]
    } else if args.suite.is_empty() {
        vec![builtin("paper")?, builtin("pmb")?]
    } else {
        args.suite
            .iter()
            .map(|s| builtin(s))
            .collect::<Result<_>>()?
    };
    let store_dir = &args.cosine.store_dir;
    if let Some(file) = &args.import_upstream {
        let [suite] = suites.as_slice() else {
            return Err(Error::Usage(
                "--import-upstream needs exactly one --suite".into(),
            ));
        };
        let [name] = args.cosine.model.as_slice() else {
            return Err(Error::Usage(
                "--import-upstream needs one --model NAME (the store to fill)".into(),
            ));
        };
        let policy = args.cosine.policy(suite.profile);
        let existing = EmbeddingStore::open(store_dir, name)?;
        let before = existing.as_ref().map_or(0, EmbeddingStore::len);
        let store = import_upstream(file, name, &args.source, policy, existing)?;
        store.save(&store_dir.join(name))?;
        eprintln!(
            "imported {} into {}: {} belief vectors new, {} in all ({} dimensions)",
            file.display(),
            store_dir.join(name).display(),
            store.len() - before,
            store.len(),
            store.model.dimensions
        );
        return Ok(ExitCode::SUCCESS);
    }
    if args.cosine.model.is_empty() {
        return Err(Error::Usage(
            "embed needs --model DIR (an ONNX model folder)".into(),
        ));
    }
    for source in args.cosine.sources() {
        if !source.is_model_dir() {
            return Err(Error::Usage(format!(
                "embed needs a model folder (model.onnx + tokenizer.json); {} is not one",
                source.spec
            )));
        }
        let (mut embedder, mut store) = source.open_model()?;
        if args.refresh {
            store = EmbeddingStore::empty(embedder.info().clone(), store.origin.clone());
        }
        let name = embedder.info().name.clone();
        for suite in &suites {
            let policy = args.cosine.policy(suite.profile);
            let needed = needed_texts(suite, policy);
            let progress = Progress::new(args.quiet, &format!("{name} {}", suite.name));
            let start = std::time::Instant::now();
            let embedded = fill(
                &mut embedder,
                &mut store,
                policy,
                &needed,
                &mut |done, total| progress.update(done, total, "texts"),
            )?;
            progress.finish();
            let seconds = start.elapsed().as_secs_f64();
            eprintln!(
                "{name} · suite {} · {}: {} texts needed, {embedded} embedded in {seconds:.2} s, {} already stored",
                suite.name,
                policy.label(),
                needed.len(),
                needed.len() - embedded
            );
        }
        store.save(&store_dir.join(&name))?;
        eprintln!(
            "wrote {} ({} vectors)",
            store_dir.join(&name).display(),
            store.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn builtin(name: &str) -> Result<Suite> {
    Suite::load(&tenure_eval::suite::SuiteSource::Builtin(name.to_string()))
}

fn models_command(args: cli::ModelsArgs) -> Result<ExitCode> {
    use tenure_eval::report::table::{models_table, ModelRow};
    let suite = load(&args.suite)?;
    let shape = Shape::of(suite.profile);
    let dir = args.out.join(&suite.name);
    let output = OutputArgs {
        out: args.out.clone(),
        format: FormatArg::Table,
        quiet: args.quiet,
    };
    let chosen = [cli::BackendArg::Bm25, cli::BackendArg::Cosine];
    let mut rows = Vec::new();
    for backend in backends(&suite, &chosen, &args.cosine, args.quiet)? {
        let stat = pass(&suite, &backend, RunKind::Static, shape, &dir, &output)?;
        let session = if suite.sessions.is_empty() {
            None
        } else {
            Some(pass(
                &suite,
                &backend,
                RunKind::Session,
                shape,
                &dir,
                &output,
            )?)
        };
        if !args.quiet {
            for p in stat
                .reports
                .iter()
                .chain(session.iter().flat_map(|s| &s.reports))
            {
                eprintln!("wrote {}", p.display());
            }
        }
        let (model, policy) = match &backend {
            BackendKind::Cosine(setup) => (setup.store.model.name.clone(), setup.policy.label()),
            BackendKind::Bm25 => ("–".to_string(), "–".to_string()),
        };
        rows.push(ModelRow {
            backend: backend.name().to_string(),
            model,
            text_policy: policy,
            static_summary: stat.row.summary,
            mean_drift: session.as_ref().and_then(|s| s.row.mean_drift),
            session_summary: session.map(|s| s.row.summary),
        });
    }
    let text = match args.format {
        cli::CompareFormatArg::Markdown => format!(
            "### Embedding model invariance · suite {} ({} profile, index {})\n\n{}",
            suite.name,
            suite.profile,
            args.cosine.index().name(),
            models_table(&rows)
        ),
        cli::CompareFormatArg::Json => String::from_utf8_lossy(&json::to_bytes(
            &serde_json::to_value(&rows).unwrap_or_default(),
        ))
        .into_owned(),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn plot_command(args: cli::PlotArgs) -> Result<ExitCode> {
    if let Some(case) = &args.case {
        use tenure_eval::report::plot::{score_figure, ScoreSource};
        let [top, bottom] = args.reports.as_slice() else {
            return Err(Error::Usage(
                "plot --case needs two static reports: BM25 first, then cosine".into(),
            ));
        };
        let read = |p: &PathBuf| -> Result<serde_json::Value> {
            tenure_eval::suite::parse_json(p, &tenure_eval::suite::read_bytes(p)?)
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
        report::write_atomic(&args.out, svg.as_bytes())?;
        eprintln!("wrote {}", args.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let reports = args
        .reports
        .iter()
        .map(|p| LoadedReport::load(p))
        .collect::<Result<Vec<_>>>()?;
    let svg = tenure_eval::report::plot::drift_figure(&reports)?;
    report::write_atomic(&args.out, svg.as_bytes())?;
    eprintln!("wrote {}", args.out.display());
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

fn trec_command(args: cli::TrecArgs) -> Result<ExitCode> {
    use tenure_eval::report::trec::{qrels_file, run_file};
    let suite = load(&args.suite)?;
    let value: serde_json::Value = tenure_eval::suite::parse_json(
        &args.report,
        &tenure_eval::suite::read_bytes(&args.report)?,
    )?;
    let report = LoadedReport::from_value(&args.report, &value)?;
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| args.report.parent().map(PathBuf::from).unwrap_or_default());
    let stem = args
        .report
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "report".into());
    let run_path = dir.join(format!("{stem}.run"));
    let qrels_path = dir.join(format!("{stem}.qrels"));
    report::write_atomic(
        &run_path,
        run_file(&report, &value, &report.provider).as_bytes(),
    )?;
    report::write_atomic(&qrels_path, qrels_file(&report, &suite).as_bytes())?;
    eprintln!(
        "wrote {}\nwrote {}",
        run_path.display(),
        qrels_path.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn claims_command(args: cli::ClaimsArgs) -> Result<ExitCode> {
    use tenure_eval::report::claims::{claims, claims_table, ClaimSources};
    use tenure_eval::report::tables::render;
    let reports = if args.reports.is_empty() {
        // The paper suite through BM25, in memory.
        let suite = builtin("paper")?;
        let static_run = run_static(&suite, BackendKind::Bm25, &mut tenure_eval::run::Silent)?;
        let session_run = run_sessions(&suite, BackendKind::Bm25, &mut tenure_eval::run::Silent)?;
        let s = json::static_report(
            &static_run,
            &Manifest::for_static(&suite, &static_run),
            Shape::Pmb,
        )
        .0;
        let t = json::session_report(
            &session_run,
            &Manifest::for_sessions(&suite, &session_run),
            Shape::Pmb,
        )
        .0;
        vec![
            LoadedReport::from_value(
                std::path::Path::new("paper/retrieval-report (in memory)"),
                &s,
            )?,
            LoadedReport::from_value(
                std::path::Path::new("paper/session-retrieval-report (in memory)"),
                &t,
            )?,
        ]
    } else {
        args.reports
            .iter()
            .map(|p| LoadedReport::load(p))
            .collect::<Result<Vec<_>>>()?
    };
    let table = claims_table(&claims(&ClaimSources::from_reports(&reports)));
    write_stdout(&render(&[table], table_format(args.format)))?;
    Ok(ExitCode::SUCCESS)
}

fn table_format(format: cli::TableFormatArg) -> tenure_eval::report::tables::TableFormat {
    use tenure_eval::report::tables::TableFormat;
    match format {
        cli::TableFormatArg::Markdown => TableFormat::Markdown,
        cli::TableFormatArg::Csv => TableFormat::Csv,
        cli::TableFormatArg::Latex => TableFormat::Latex,
        cli::TableFormatArg::Json => TableFormat::Json,
    }
}

fn compare_command(args: cli::CompareArgs) -> Result<ExitCode> {
    let base = LoadedReport::load(&args.base)?;
    let new = LoadedReport::load(&args.new)?;
    if base.kind != new.kind {
        return Err(Error::Usage(
            "compare needs two reports of the same kind (both static or both session)".into(),
        ));
    }
    let comparison = tenure_eval::report::compare::compare(&base, &new, args.seed);
    let text = match args.format {
        cli::CompareFormatArg::Markdown => comparison.markdown(),
        cli::CompareFormatArg::Json => String::from_utf8_lossy(&json::to_bytes(
            &serde_json::to_value(&comparison).unwrap_or_default(),
        ))
        .into_owned(),
    };
    write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn verify_command(args: cli::VerifyArgs) -> Result<ExitCode> {
    let mut failed = false;
    for path in &args.reports {
        let problems = tenure_eval::report::verify::verify(path)?;
        if problems.is_empty() {
            println!("{}: verified", path.display());
        }
        for problem in &problems {
            println!("mismatch: {problem}");
        }
        failed |= !problems.is_empty();
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn tables_command(args: cli::TablesArgs) -> Result<ExitCode> {
    use tenure_eval::report::tables::{paper_tables, pmb_tables, render};
    let reports = args
        .reports
        .iter()
        .map(|p| LoadedReport::load(p))
        .collect::<Result<Vec<_>>>()?;
    if !args.quiet {
        for warning in reports.iter().flat_map(LoadedReport::disagreements) {
            eprintln!("warning: {warning}; the table uses the rows");
        }
    }
    let tables = match args.style {
        cli::TableStyleArg::Pmb => pmb_tables(&reports),
        cli::TableStyleArg::Paper => paper_tables(&reports),
        cli::TableStyleArg::All => [pmb_tables(&reports), paper_tables(&reports)].concat(),
    };
    write_stdout(&render(&tables, table_format(args.format)))?;
    Ok(ExitCode::SUCCESS)
}

/// Print to stdout; a closed pipe (`| head`) is not an error.
fn write_stdout(text: &str) -> Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::Output {
            path: PathBuf::from("<stdout>"),
            source: e,
        }),
        _ => Ok(()),
    }
}

fn load(args: &SuiteArgs) -> Result<Suite> {
    Suite::load(&args.source()?)
}

fn validate_command(args: SuiteArgs) -> Result<ExitCode> {
    let suite = load(&args)?;
    for warning in &suite.warnings {
        eprintln!("warning: {warning}");
    }
    let turns: usize = suite.sessions.iter().map(|s| s.turns.len()).sum();
    println!(
        "{}: ok ({} profile) — {} beliefs, {} static cases, {} session cases ({} turns), {} warnings",
        suite.name,
        suite.profile,
        suite.corpus.len(),
        suite.cases.len(),
        suite.sessions.len(),
        turns,
        suite.warnings.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// What one (backend, kind) pass produced.
struct Outcome {
    row: RunRow,
    reports: Vec<PathBuf>,
}

fn run_command(args: RunArgs, kinds: &[RunKind]) -> Result<ExitCode> {
    let suite = load(&args.suite)?;
    // Gate inputs are checked before any work.
    let gates = args.gates.gates();
    if gates.need_baseline() && args.gates.baseline.is_empty() {
        return Err(Error::Usage(
            "--fail-on new-failures and --max-precision-drop need --baseline FILE".into(),
        ));
    }
    let baselines = args
        .gates
        .baseline
        .iter()
        .map(|p| LoadedReport::load(p))
        .collect::<Result<Vec<_>>>()?;
    let shape = Shape::of(suite.profile);
    let dir = args.output.out.join(&suite.name);
    // Without session cases `session` is a usage error; `run` does the static half only.
    let kinds: Vec<RunKind> = if suite.sessions.is_empty() && kinds.contains(&RunKind::Session) {
        if kinds.len() == 1 {
            return Err(Error::Usage(format!(
                "suite {} has no session cases (give --sessions FILE)",
                suite.name
            )));
        }
        if !args.output.quiet {
            eprintln!(
                "note: suite {} has no session cases; running the static cases only",
                suite.name
            );
        }
        vec![RunKind::Static]
    } else {
        kinds.to_vec()
    };
    let mut outcomes = Vec::new();
    for backend in backends(
        &suite,
        &args.backend_args(),
        &args.cosine,
        args.output.quiet,
    )? {
        for &kind in &kinds {
            outcomes.push(pass(&suite, &backend, kind, shape, &dir, &args.output)?);
        }
    }
    print_outcomes(&suite, &outcomes, &args.output)?;
    apply_gates(&outcomes, &baselines, &gates, &args)
}

/// Read the written reports back, check the gates, write JUnit and the step summary.
fn apply_gates(
    outcomes: &[Outcome],
    baselines: &[LoadedReport],
    gates: &Gates,
    args: &RunArgs,
) -> Result<ExitCode> {
    if !gates.any() && args.gates.junit.is_none() && args.gates.summary_md.is_none() {
        return Ok(ExitCode::SUCCESS);
    }
    let written = outcomes
        .iter()
        .map(|o| LoadedReport::load(&o.reports[0]))
        .collect::<Result<Vec<_>>>()?;
    let mut checks = Vec::new();
    for report in &written {
        checks.extend(gates::check(
            report,
            gates::pick_baseline(report, baselines),
            gates,
        )?);
    }
    if let Some(path) = &args.gates.junit {
        report::write_atomic(path, gates::junit(&written, &checks)?.as_bytes())?;
    }
    if let Some(path) = &args.gates.summary_md {
        let rows: Vec<RunRow> = outcomes.iter().map(|o| o.row.clone()).collect();
        report::write_atomic(
            path,
            gates::summary_markdown(&table::run_table(&rows), &written, &checks).as_bytes(),
        )?;
    }
    for c in &checks {
        if !args.output.quiet || !c.passed {
            eprintln!(
                "gate {} {} on {}: {}",
                c.gate,
                if c.passed { "passed" } else { "FAILED" },
                c.report,
                c.detail
            );
        }
    }
    Ok(if checks.iter().all(|c| c.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The backends `chosen`, cosine once per model with its vectors ready (embedded now if the
/// model is a folder and its store lacks some).
fn backends(
    suite: &Suite,
    chosen: &[cli::BackendArg],
    cosine: &cli::CosineArgs,
    quiet: bool,
) -> Result<Vec<BackendKind>> {
    let mut kinds = Vec::new();
    for b in chosen {
        match b {
            cli::BackendArg::Bm25 => kinds.push(BackendKind::Bm25),
            cli::BackendArg::Cosine => {
                let policy = cosine.policy(suite.profile);
                for source in cosine.sources() {
                    let progress = Progress::new(quiet, &format!("embedding for {}", suite.name));
                    let store = source.vectors_for(suite, policy, &mut |done, total| {
                        progress.update(done, total, "texts")
                    })?;
                    progress.finish();
                    kinds.push(BackendKind::Cosine(CosineSetup {
                        store: Arc::new(store),
                        policy,
                        index: cosine.index(),
                    }));
                }
            }
        }
    }
    Ok(kinds)
}

/// One (backend, kind) pass: run, write the report, summarise.
fn pass(
    suite: &Suite,
    backend: &BackendKind,
    kind: RunKind,
    shape: Shape,
    dir: &std::path::Path,
    out: &OutputArgs,
) -> Result<Outcome> {
    let label = kind.label();
    let mut progress = Progress::new(
        out.quiet,
        &format!("{} {label} {}", suite.name, backend.label()),
    );
    let (report, summary, drift) = match kind {
        RunKind::Static => {
            let run = run_static(suite, backend.clone(), &mut progress)?;
            (
                json::static_report(&run, &Manifest::for_static(suite, &run), shape),
                run.summary(),
                None,
            )
        }
        RunKind::Session => {
            let run = run_sessions(suite, backend.clone(), &mut progress)?;
            let report = json::session_report(&run, &Manifest::for_sessions(suite, &run), shape);
            (report, run.summary(), Some(run.mean_drift_scores()))
        }
    };
    progress.finish();
    let reports =
        report::write_report(&dir.join(file_name(kind, suite.profile, backend)), &report)?;
    let row = RunRow {
        suite: suite.name.clone(),
        backend: backend.label(),
        kind,
        summary,
        mean_drift: drift.map(|d| d.0),
        mean_precision_drift: drift.map(|d| d.1),
    };
    Ok(Outcome { row, reports })
}

fn print_outcomes(suite: &Suite, outcomes: &[Outcome], out: &OutputArgs) -> Result<()> {
    let text = match out.format {
        FormatArg::Table if outcomes.len() == 1 => {
            let row = &outcomes[0].row;
            let title = format!(
                "{} · {} · {} ({} profile)",
                suite.name,
                row.kind.label(),
                row.backend,
                suite.profile
            );
            let mut text = table::summary_table(&title, &row.summary, None);
            if let (Some(d), Some(p)) = (row.mean_drift, row.mean_precision_drift) {
                text.push_str(&format!("mean drift {d:.2} (paper: noise / surfaced) · {p:.2} (PrecisionMemBench: 1 − precision)\n"));
            }
            text
        }
        FormatArg::Table => {
            table::run_table(&outcomes.iter().map(|o| o.row.clone()).collect::<Vec<_>>())
        }
        FormatArg::Json => {
            let rows: Vec<_> = outcomes
                .iter()
                .map(|o| {
                    json!({
                        "suite": o.row.suite,
                        "backend": o.row.backend,
                        "kind": o.row.kind.label(),
                        "reports": o.reports.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                        "retrieval": o.row.summary,
                        "meanDriftScore": o.row.mean_drift,
                        "meanPrecisionDriftScore": o.row.mean_precision_drift,
                    })
                })
                .collect();
            String::from_utf8_lossy(&json::to_bytes(&json!(rows))).into_owned()
        }
    };
    // A closed pipe (`| head`) is not an error.
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(Error::Output {
                path: PathBuf::from("<stdout>"),
                source: e,
            });
        }
    }
    if !out.quiet {
        for p in outcomes.iter().flat_map(|o| &o.reports) {
            eprintln!("wrote {}", p.display());
        }
    }
    Ok(())
}
