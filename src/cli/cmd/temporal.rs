//! `tenure-eval temporal`: the TemporalClassifier over a statements file (classify) and its
//! per-class precision, recall and F1 against gold labels (eval). See `docs/temporal.md`.

use crate::cli::format::{only, OutputFormat, TABLES};
use clap::{Args, Subcommand};
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tenure_eval::render::render;
use tenure_eval::study::temporal::{classify_all, evaluate, parse_statements, tables, Statement};
use tenure_eval::{Error, Result};

/// `tenure-eval temporal`.
#[derive(Debug, Args)]
pub struct TemporalArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TemporalCommand,
}

/// `temporal` subcommands.
#[derive(Debug, Subcommand)]
pub enum TemporalCommand {
    /// Print each statement's id, valid-time class (forward_open, current_state, closed,
    /// correction) and the marker that decided it.
    Classify(ClassifyArgs),
    /// Precision, recall and F1 per class, macro averages, the confusion matrix and the
    /// misclassified ids against the gold `class` of every line.
    Eval(EvalArgs),
}

/// `temporal classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// JSON Lines `{"id", "text"[, "class"]}`; `-` reads stdin.
    pub file: PathBuf,
    /// `tsv`: id, class, marker (`-` for none); `json`: an array of {id, class, marker, source}.
    #[arg(long, default_value = "tsv", value_parser = only(&[OutputFormat::Tsv, OutputFormat::Json]))]
    pub format: OutputFormat,
}

/// `temporal eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// JSON Lines `{"id", "text", "class"}`; `-` reads stdin.
    pub file: PathBuf,
    /// Output format: the tables (per class with the macro averages, the confusion matrix, the
    /// misclassified statements) as markdown, CSV or LaTeX, or the evaluation as JSON.
    #[arg(long, default_value = "markdown", value_parser = only(TABLES))]
    pub format: OutputFormat,
}

/// Run a `temporal` subcommand.
pub fn run(args: TemporalArgs) -> Result<ExitCode> {
    match args.command {
        TemporalCommand::Classify(a) => classify(a),
        TemporalCommand::Eval(a) => eval(a),
    }
}

/// The statements of `path` (`-` is stdin, named `<stdin>` in messages).
fn read_statements(path: &Path) -> Result<(PathBuf, Vec<Statement>)> {
    if path.as_os_str() != "-" {
        let bytes = tenure_eval::io::read_bytes(path)?;
        return Ok((path.to_path_buf(), parse_statements(path, &bytes)?));
    }
    let stdin = PathBuf::from("<stdin>");
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| Error::input(&stdin, "file", format!("cannot read stdin: {e}")))?;
    let statements = parse_statements(&stdin, &bytes)?;
    Ok((stdin, statements))
}

fn classify(args: ClassifyArgs) -> Result<ExitCode> {
    let (_, statements) = read_statements(&args.file)?;
    let classified = classify_all(&statements);
    let out = match args.format {
        OutputFormat::Tsv => {
            let mut out = String::from("id\tclass\tmarker\n");
            for (s, c) in statements.iter().zip(&classified) {
                let marker = c.marker.as_deref().unwrap_or("-");
                // A tab or newline inside an id or marker would shift the columns.
                let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
                let _ = writeln!(out, "{}\t{}\t{}", clean(&s.id), c.class, clean(marker));
            }
            out
        }
        _ => {
            let rows: Vec<serde_json::Value> = statements
                .iter()
                .zip(&classified)
                .map(|(s, c)| {
                    serde_json::json!({
                        "id": s.id, "class": c.class, "marker": c.marker, "source": c.source,
                    })
                })
                .collect();
            to_json(&rows)?
        }
    };
    crate::cli::write_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn eval(args: EvalArgs) -> Result<ExitCode> {
    let (path, statements) = read_statements(&args.file)?;
    let evaluation = evaluate(&path, &statements)?;
    let out = match args.format {
        OutputFormat::Json => to_json(&evaluation)?,
        other => render(&tables(&evaluation), other.table()),
    };
    crate::cli::write_stdout(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map(|s| s + "\n")
        .map_err(|e| Error::Usage(format!("cannot serialise the output: {e}")))
}
