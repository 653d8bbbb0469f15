//! Backend failures a run can survive: each says whether trying again may help.

use std::fmt;

/// Whether a failure may go away by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    /// May succeed if tried again (a timeout, a 503): the runner retries, boundedly.
    Transient,
    /// Will fail again (a bad request, a missing vector): recorded at once.
    Permanent,
    /// The backend cannot do this at all (`replace` on a store without updates).
    Unsupported,
    /// The store no longer holds what was seeded (a remote system restarted empty): every
    /// later answer would be scored against the wrong store, so the run stops.
    Lost,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Transient => "transient",
            ErrorKind::Permanent => "permanent",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Lost => "lost",
        })
    }
}

/// A failed backend call.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct BackendError {
    /// Retry or not.
    pub kind: ErrorKind,
    /// What went wrong, for a person.
    pub message: String,
    /// The underlying error, when there is one.
    #[source]
    pub source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl BackendError {
    /// A failure of `kind` described by `message`.
    pub(crate) fn new(kind: ErrorKind, message: impl fmt::Display) -> BackendError {
        BackendError {
            kind,
            message: message.to_string(),
            source: None,
        }
    }

    /// A failure that will happen again.
    pub fn permanent(message: impl fmt::Display) -> BackendError {
        BackendError::new(ErrorKind::Permanent, message)
    }

    /// A failure that may not happen again.
    pub fn transient(message: impl fmt::Display) -> BackendError {
        BackendError::new(ErrorKind::Transient, message)
    }

    /// `operation` is not something this backend does.
    pub(crate) fn unsupported(operation: &str) -> BackendError {
        BackendError::new(
            ErrorKind::Unsupported,
            format!("{operation} is not supported by this backend"),
        )
    }

    /// A permanent failure caused by `source`.
    pub(crate) fn caused_by(
        message: impl fmt::Display,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> BackendError {
        BackendError {
            kind: ErrorKind::Permanent,
            message: format!("{message}: {source}"),
            source: Some(Box::new(source)),
        }
    }
}
