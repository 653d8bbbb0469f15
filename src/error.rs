//! Errors, split by who must act: the user (bad input, exit 2) or the run (exit 3).

use std::path::{Path, PathBuf};

/// Result alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can stop a command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An input file is missing, unreadable, malformed or inconsistent.
    #[error("{}: {location}: {message}", file.display())]
    Input {
        /// The offending file.
        file: PathBuf,
        /// A JSON path (`$[3].expect.pinnedFacts`) or `line L, column C`.
        location: String,
        /// What was found and what was expected.
        message: String,
    },
    /// The command line asks for something impossible.
    #[error("{0}")]
    Usage(String),
    /// A backend failed while indexing or searching.
    #[error("backend {backend}: {message}")]
    Backend {
        /// Backend id (`bm25`, ...).
        backend: String,
        /// What went wrong.
        message: String,
    },
    /// A report or other output could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Output {
        /// Destination that failed.
        path: PathBuf,
        /// Underlying I/O error.
        source: std::io::Error,
    },
}

impl Error {
    /// Input error at a location inside `file`.
    pub(crate) fn input(
        file: &Path,
        location: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::Input {
            file: file.to_path_buf(),
            location: location.into(),
            message: message.into(),
        }
    }

    /// Backend failure.
    pub(crate) fn backend(backend: &str, message: impl std::fmt::Display) -> Self {
        Error::Backend {
            backend: backend.to_string(),
            message: message.to_string(),
        }
    }

    /// Process exit code: 2 for input and usage errors, 3 for runtime failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Input { .. } | Error::Usage(_) => exit::USAGE,
            Error::Backend { .. } | Error::Output { .. } => exit::RUNTIME,
        }
    }
}

/// The process's exit codes, named: what `cli::main` (the one place they are chosen) and a finished
/// job's outcome return.
pub mod exit {
    /// Everything ran and held.
    pub const OK: u8 = 0;
    /// A CI gate failed, or `verify` / `doctor` found a problem.
    pub const FAILED_CHECK: u8 = 1;
    /// Usage or input error: the user must fix a flag or a file.
    pub const USAGE: u8 = 2;
    /// Runtime failure: a backend, the output, or a case the backend failed on.
    pub const RUNTIME: u8 = 3;
    /// Interrupted by SIGINT, SIGTERM or SIGHUP (128 + SIGINT).
    pub const INTERRUPTED: i32 = 130;
}
