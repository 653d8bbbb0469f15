//! # A run from the library
//!
//! What `tenure-eval run --suite pmb --backend bm25 --junit J --summary-md S --history H --html
//! P --out DIR` does, through the library: load the suite, choose the backend, plan the run,
//! carry it out (which writes the reports and the journal), then write the other files. The
//! files, and the table on stdout, are the command line's, byte for byte apart from measured
//! fields: the test command runs both and compares them (`scripts/library-matches-cli.sh`).
//!
//! Run it with `cargo run --example library_run -- OUT_DIR`.

use std::path::PathBuf;
use tenure_eval::backend::bm25::Bm25Config;
use tenure_eval::backend::{BackendConfig, Workload};
use tenure_eval::job::files::{write_outputs, Outputs};
use tenure_eval::job::{execute, show, RunPlan};
use tenure_eval::run::Silent;
use tenure_eval::suite::{Suite, SuiteSource};

fn main() -> tenure_eval::Result<()> {
    let out: PathBuf = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "library-run".into())
        .into();

    // Step 1: the suite, from the files built into the crate (any `SuiteSource` loads the same
    // way: a custom suite's files, LoCoMo's, BEAM's folder).
    let suite = Suite::load(&SuiteSource::Builtin("pmb".into()))?;

    // Step 2: the backends, as configurations; the run builds each one over the suite.
    let backends = vec![BackendConfig::Bm25(Bm25Config::default())];

    // Step 3: the plan: static cases and sessions, reports into `out/pmb/`.
    let mut plan = RunPlan::new(
        suite,
        backends,
        &[Workload::Static, Workload::Session],
        &out,
    )?;

    // Step 4: carry it out. The reports and journals are written as each pass ends; `Silent`
    // observes nothing (a terminal program passes its progress bar here).
    let outcome = execute(&mut plan, &mut Silent)?;

    // The table the command line prints: one row per pass (or, for a single pass, its
    // summary), then any flaky repeats and the first failing cases.
    print!("{}", show::outcome_table(&plan.suite, &outcome));

    // Step 5: the other files, each when asked for: JUnit (a test case per case and turn), the
    // step summary, the run history (a line per pass; `tenure-eval history` reads it) and the
    // page of the run's reports.
    write_outputs(
        &plan,
        &outcome,
        &Outputs {
            junit: Some(out.join("junit.xml")),
            summary: Some(out.join("summary.md")),
            history: Some(out.join("history")),
            commit: None,
            page: Some(out.join("page.html")),
        },
        // Told of the history and the page as each is written (messages go to stderr, as the
        // command line's do).
        &mut |wrote| eprintln!("{wrote:?}"),
    )?;
    for pass in &outcome.passes {
        for report in &pass.reports {
            eprintln!("wrote {}", report.display());
        }
    }
    eprintln!("exit code {}", outcome.exit_code());
    Ok(())
}
