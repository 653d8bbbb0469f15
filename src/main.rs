//! `tenure-eval`: the command line over the `tenure_eval` library. This file is the only
//! place that maps errors to exit codes: 0 ok, 1 a CI gate failed (or `verify` found a
//! mismatch), 2 usage or input error, 3 runtime failure (or a case the backend failed on),
//! 130 interrupted (SIGINT, SIGTERM or SIGHUP; temporary files removed, no report half-written).

mod cli;

use std::process::ExitCode;
use tenure_eval::error::exit;

fn main() -> ExitCode {
    // Reports are written through temporary files and renamed (tenure_eval::io): on a signal,
    // remove the temporary files in flight, so that nothing of the run is left half-written.
    let _ = ctrlc::set_handler(|| {
        tenure_eval::io::remove_in_flight();
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "interrupted");
        std::process::exit(exit::INTERRUPTED);
    });
    let parsed = match cli::given::parse() {
        Ok(parsed) => parsed,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            });
        }
    };
    match cli::dispatch(parsed) {
        Ok(code) => code,
        // The reader went away (`| head`): nothing is wrong, and nothing more to say.
        Err(tenure_eval::Error::Output { source, .. })
            if source.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr(), "error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
