//! A custom suite: the user's own files in upstream's formats (`--corpus`, `--cases`,
//! `--sessions`), read and checked as the built-in ones are.

use super::{Source, Suite};
use crate::error::Result;
use crate::io::read_bytes;
use crate::profile::Profile;
use std::path::PathBuf;

/// The files of a custom suite.
#[derive(Debug, Clone)]
pub struct CustomFiles {
    /// Beliefs (`beliefs.seed.json` format).
    pub corpus: PathBuf,
    /// Static cases (`retrieval.cases.json` format).
    pub cases: PathBuf,
    /// Session cases, optional.
    pub sessions: Option<PathBuf>,
    /// Pipeline profile; HEAD unless asked.
    pub profile: Profile,
}

impl Source for CustomFiles {
    fn load(&self) -> Result<Suite> {
        let corpus_bytes = read_bytes(&self.corpus)?;
        let cases_bytes = read_bytes(&self.cases)?;
        let sessions_bytes = self.sessions.as_deref().map(read_bytes).transpose()?;
        Suite::from_bytes(
            "custom",
            self.profile,
            (&self.corpus, &corpus_bytes),
            (&self.cases, &cases_bytes),
            self.sessions.as_deref().zip(sessions_bytes.as_deref()),
        )
    }
}
