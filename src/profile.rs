//! Pipeline profiles: the two upstream code versions whose behaviour differs (spec **[DIFF]** marks).

use serde::Serialize;
use std::fmt;

/// Which upstream pipeline to reproduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Tag `v1.0.0-paper` of tenurehq/tenure: the paper's numbers.
    Paper,
    /// tenurehq/tenure HEAD, as run by PrecisionMemBench.
    Head,
}

impl Profile {
    /// Name used on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Paper => "paper",
            Profile::Head => "head",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
