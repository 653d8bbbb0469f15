//! `tenure-eval`: the command line over the `tenure_eval` library. The command line itself
//! (`tenure_eval::cli::main`) maps errors to exit codes: 0 ok, 1 a CI gate failed (or `verify`
//! found a mismatch), 2 usage or input error, 3 runtime failure (or a case the backend failed
//! on); this file adds the allocator and 130 on an interrupt (SIGINT, SIGTERM or SIGHUP;
//! temporary files removed, no report half-written).

use std::process::ExitCode;
use tenure_eval::error::exit;

// mimalloc, not glibc's malloc: building the BM25 index, tantivy's indexing thread frees what
// the main thread allocated, and a perf profile of a 1M-belief build put a fifth of its samples
// in glibc's malloc and free (docs/results.md, "Beside Lucene").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // While a runner runs cases, the first signal stops it after the cases in flight, so that
    // its partial report, JUnit, summary and page are written and `--resume` continues it
    // from its journal. Else, and at a second signal: reports are written through temporary files and renamed
    // (tenure_eval::io), so remove the temporary files in flight, mark the journals stopped,
    // and exit, nothing of the run left half-written.
    let _ = ctrlc::set_handler(|| {
        use std::io::Write as _;
        use tenure_eval::run::{cases_running, journal, request_stop, stop_requested};
        if cases_running() && !stop_requested() {
            request_stop();
            let _ = writeln!(
                std::io::stderr(),
                "interrupted: stopping after the cases in flight (Ctrl-C again to quit now)"
            );
            return;
        }
        tenure_eval::io::remove_in_flight();
        for (path, at) in journal::interrupted() {
            let _ = writeln!(
                std::io::stderr(),
                "interrupted after {at}; {} keeps the finished cases: run the same command \
                 with --resume to continue",
                path.display()
            );
        }
        let _ = writeln!(std::io::stderr(), "interrupted");
        std::process::exit(exit::INTERRUPTED);
    });
    tenure_eval::cli::main()
}
