//! A suite: the seed corpus of beliefs, the static cases and the session cases, loaded and
//! validated, plus the sha256 of every input file for the report manifest.

mod belief;
mod builtin;
mod case;
mod session;
pub mod synthetic;
pub mod text;
mod vacuous;
mod validate;

pub use belief::{Belief, BeliefType};
pub use builtin::{BuiltinFile, BuiltinSuite, BUILTIN_SUITES};
pub use case::{
    BudgetOverride, Expect, IdsExpect, PreludeExpect, RelevantExpect, StaticCase, DEFAULT_USER,
};
pub use session::{
    BeliefUpdate, NoiseCheck, SessionCase, Turn, TurnExpect, TurnLabel, TurnRelevantExpect,
};

use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes, sha256_hex};
use crate::profile::Profile;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One input file of a suite, as recorded in report manifests.
#[derive(Debug, Clone, Serialize)]
pub struct InputFile {
    /// `corpus`, `cases` or `sessions`.
    pub role: &'static str,
    /// Path as given (custom) or repository path (built-in).
    pub path: String,
    /// Hex sha256 of the exact bytes read.
    pub sha256: String,
}

/// A loaded, validated suite.
#[derive(Debug, Clone)]
pub struct Suite {
    /// `paper`, `pmb` or `custom`.
    pub name: String,
    /// Which upstream pipeline to reproduce.
    pub profile: Profile,
    /// Seed beliefs in file (natural) order.
    pub corpus: Vec<Belief>,
    /// Static cases in file order.
    pub cases: Vec<StaticCase>,
    /// Session cases in file order (empty when none were given).
    pub sessions: Vec<SessionCase>,
    /// Every file read, with its hash.
    pub inputs: Vec<InputFile>,
    /// Things that load but deserve a look (keys upstream ignores, ...).
    pub warnings: Vec<String>,
    /// Whose copy of a built-in suite this is (`tenurehq/tenure dc348a8`); none for custom
    /// files. Manifests record it.
    pub copy: Option<&'static str>,
}

/// Where a suite comes from.
#[derive(Debug, Clone)]
pub enum SuiteSource {
    /// One of [`BUILTIN_SUITES`], by name.
    Builtin(String),
    /// User files.
    Custom {
        /// Beliefs (`beliefs.seed.json` format).
        corpus: PathBuf,
        /// Static cases (`retrieval.cases.json` format).
        cases: PathBuf,
        /// Session cases, optional.
        sessions: Option<PathBuf>,
        /// Pipeline profile; HEAD unless asked.
        profile: Profile,
    },
}

impl Suite {
    /// The paper tag's cases have no category; each of its 60 case ids exists in the HEAD
    /// case file (the `pmb` suite), whose category it takes, so that `static --suite paper`
    /// prints the categories `tables --style paper` does (and the pass taxonomy knows which
    /// cases are structural). Reports of the paper shape carry no category, as the tag's.
    fn borrow_head_categories(&mut self) -> Result<()> {
        if self.name != "paper" || self.cases.iter().all(|c| c.category.is_some()) {
            return Ok(());
        }
        let head = Suite::load(&SuiteSource::Builtin("pmb".into()))?;
        for case in self.cases.iter_mut().filter(|c| c.category.is_none()) {
            case.category = head
                .cases
                .iter()
                .find(|h| h.case_id == case.case_id)
                .and_then(|h| h.category.clone());
        }
        Ok(())
    }

    /// Load and validate a suite.
    pub fn load(source: &SuiteSource) -> Result<Suite> {
        match source {
            SuiteSource::Builtin(name) => {
                let builtin = BUILTIN_SUITES
                    .iter()
                    .find(|s| s.name == name)
                    .ok_or_else(|| {
                        let names: Vec<_> = BUILTIN_SUITES.iter().map(|s| s.name).collect();
                        Error::Usage(format!(
                            "unknown suite {name:?}; expected one of {}",
                            names.join(", ")
                        ))
                    })?;
                Suite::from_builtin(builtin)
            }
            SuiteSource::Custom {
                corpus,
                cases,
                sessions,
                profile,
            } => {
                let corpus_bytes = read_bytes(corpus)?;
                let cases_bytes = read_bytes(cases)?;
                let sessions_bytes = sessions.as_deref().map(read_bytes).transpose()?;
                Suite::from_bytes(
                    "custom",
                    *profile,
                    (corpus, &corpus_bytes),
                    (cases, &cases_bytes),
                    sessions.as_deref().zip(sessions_bytes.as_deref()),
                )
            }
        }
    }

    /// Load one copy of a built-in suite, its files checked against PROVENANCE.md.
    fn from_builtin(builtin: &BuiltinSuite) -> Result<Suite> {
        for file in &builtin.files() {
            file.verify()?;
        }
        let mut suite = Suite::from_bytes(
            builtin.name,
            builtin.profile,
            (Path::new(builtin.corpus.path), builtin.corpus.bytes),
            (Path::new(builtin.cases.path), builtin.cases.bytes),
            Some((Path::new(builtin.sessions.path), builtin.sessions.bytes)),
        )?;
        suite.copy = Some(builtin.copy);
        suite.borrow_head_categories()?;
        Ok(suite)
    }

    /// PrecisionMemBench's own copy of this built-in suite, when it has one that differs
    /// (`pmb`): what tenure-eval runs wherever it stands in for PrecisionMemBench's harness
    /// (see `builtin`). `None` for custom files and for suites with one copy.
    pub fn harness_copy(&self) -> Result<Option<Suite>> {
        let Some(copy) = self.copy else {
            return Ok(None);
        };
        BUILTIN_SUITES
            .iter()
            .filter(|b| b.name == self.name && b.copy == copy)
            .find_map(|b| b.harness)
            .map(Suite::from_builtin)
            .transpose()
    }

    fn from_bytes(
        name: &str,
        profile: Profile,
        corpus: (&Path, &[u8]),
        cases: (&Path, &[u8]),
        sessions: Option<(&Path, &[u8])>,
    ) -> Result<Suite> {
        let input = |role, (path, bytes): (&Path, &[u8])| InputFile {
            role,
            path: path.display().to_string(),
            sha256: sha256_hex(bytes),
        };
        let mut inputs = vec![input("corpus", corpus), input("cases", cases)];
        let beliefs: Vec<Belief> = parse_json(corpus.0, corpus.1)?;
        let static_cases: Vec<StaticCase> = parse_json(cases.0, cases.1)?;
        vacuous::refuse_empty(cases.0, cases.1, false)?;
        let session_cases: Vec<SessionCase> = match sessions {
            Some(file) => {
                inputs.push(input("sessions", file));
                let parsed = parse_json(file.0, file.1)?;
                vacuous::refuse_empty(file.0, file.1, true)?;
                parsed
            }
            None => Vec::new(),
        };
        let mut suite = Suite {
            name: name.to_string(),
            profile,
            corpus: beliefs,
            cases: static_cases,
            sessions: session_cases,
            inputs,
            warnings: Vec::new(),
            copy: None,
        };
        let sessions_path = sessions.map(|(p, _)| p).unwrap_or(Path::new(""));
        suite.warnings = validate::validate(&suite, corpus.0, cases.0, sessions_path)?;
        suite
            .warnings
            .extend(vacuous::warnings(&suite, cases.0, sessions_path));
        Ok(suite)
    }
}
