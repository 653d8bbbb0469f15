//! `tenure-eval`: the command line over the `tenure_eval` library. This file is the only
//! place that maps errors to exit codes: 0 ok, 2 usage or input error, 3 runtime failure.

mod cli;

use clap::Parser;
use cli::{Cli, Command, FormatArg, StaticArgs, SuiteArgs};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use tenure_eval::backend::BackendKind;
use tenure_eval::report::{self, json, table, Manifest, Shape};
use tenure_eval::run::run_static;
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
        Command::Static(args) => static_command(args),
        Command::Validate(args) => validate_command(args),
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

fn static_command(args: StaticArgs) -> Result<ExitCode> {
    let suite = load(&args.suite)?;
    let backend = BackendKind::from(args.backend);
    let mut progress = cli::progress::Progress::new(args.quiet, &format!("{} static", suite.name));
    let run = run_static(&suite, backend, &mut progress)?;
    progress.finish();

    let shape = Shape::of(suite.profile);
    let manifest = Manifest::for_static(&suite, &run);
    let (report, sidecar) = json::static_report(&run, &manifest, shape);
    let dir = args.out.join(&suite.name);
    let path = dir.join(match shape {
        Shape::Paper => "retrieval-report.json".to_string(),
        Shape::Pmb => format!("retrieval-report-{}.json", backend.provider()),
    });
    report::write_atomic(&path, &json::to_bytes(&report))?;
    let mut written: Vec<PathBuf> = vec![path.clone()];
    if let Some(manifest) = sidecar {
        let manifest_path = path.with_extension("manifest.json");
        report::write_atomic(&manifest_path, &json::to_bytes(&manifest))?;
        written.push(manifest_path);
    }

    let summary = run.summary();
    let mut stdout = std::io::stdout().lock();
    let printed = match args.format {
        FormatArg::Table => {
            let title = format!(
                "{} · static · {} ({} profile)",
                suite.name,
                backend.name(),
                suite.profile
            );
            write!(
                stdout,
                "{}",
                table::summary_table(&title, &summary, Some(&run.ingestion))
            )
        }
        FormatArg::Json => {
            let value = serde_json::json!({
                "suite": suite.name,
                "backend": backend.name(),
                "reports": written.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "retrieval": summary,
            });
            stdout.write_all(&json::to_bytes(&value))
        }
    };
    // A closed pipe (`| head`) is not an error.
    if let Err(e) = printed {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(Error::Output {
                path: PathBuf::from("<stdout>"),
                source: e,
            });
        }
    }
    if !args.quiet {
        for p in &written {
            eprintln!("wrote {}", p.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
