//! A suite: the seed corpus of beliefs, the static cases and the session cases, loaded and
//! validated, plus the sha256 of every input file for the report manifest.

pub mod beam;
mod belief;
mod benchmark;
mod builtin;
mod case;
mod custom;
pub mod locomo;
pub mod locomo_plus;
pub mod longmemeval;
pub mod select;
mod session;
pub mod synthetic;
pub mod temporal_memory;
pub mod text;
pub(crate) mod trec;
mod vacuous;
mod validate;

pub use belief::{Belief, BeliefType};
pub use builtin::{BuiltinFile, BuiltinName, BuiltinSuite, BUILTIN_SUITES};
pub use case::{
    BudgetOverride, Expect, IdsExpect, PreludeExpect, RelevantExpect, StaticCase, DEFAULT_USER,
};
pub use custom::CustomFiles;
pub(crate) use session::{
    BeliefUpdate, SessionCase, Turn, TurnExpect, TurnLabel, TurnRelevantExpect,
};

use crate::error::Result;
use crate::io::{parse_json, sha256_hex};
use crate::profile::Profile;
use serde::Serialize;
use std::path::Path;

/// One input file of a suite, as recorded in report manifests.
#[derive(Debug, Clone, Serialize)]
pub struct InputFile {
    /// `corpus`, `cases` or `sessions`.
    pub role: &'static str,
    /// Path as given (custom) or repository path (built-in).
    pub path: String,
    /// Hex sha256 of the exact bytes read.
    pub sha256: String,
    /// Where it was read from, when `path` is relative to a data folder (BEAM, the Temporal
    /// Memory Dataset): what side files are checked against (`job::files`). Not recorded.
    #[serde(skip)]
    pub read_from: Option<std::path::PathBuf>,
}

/// An input anomaly a loader met and what became of it (LoCoMo's evidence strings that hold
/// several ids, are mistyped or name no turn): listed by `validate`, said once on stderr and
/// recorded in every report's manifest, so nothing is dropped silently.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Anomaly {
    /// The case (question) whose input it is.
    pub case: String,
    /// The input as written.
    pub raw: String,
    /// What became of it (`split into …`, `fixed to …`, `dropped: …`).
    pub outcome: String,
}

/// A question of the input that is not a case, and why (no gold to score it by).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Excluded {
    /// Its case id.
    pub case: String,
    /// Why it is not scored.
    pub reason: String,
}

/// A place suites come from, one file each (built-in, custom files, LoCoMo, LongMemEval): a new
/// benchmark is one type implementing this plus one [`SuiteSource`] variant.
pub(crate) trait Source {
    /// Load and validate the suite.
    fn load(&self) -> Result<Suite>;
}

/// A loaded, validated suite.
#[derive(Debug, Clone)]
pub struct Suite {
    /// `paper`, `pmb`, `custom`, `locomo`, `beam`, ...: what `--suite` names.
    pub name: String,
    /// What one item of a benchmark is, when the benchmark offers a choice (`--unit`); `None`
    /// for suites of one kind of item.
    pub unit: Option<Unit>,
    /// A view of the benchmark other than its release (`corrected`: LoCoMo with an overlay of
    /// corrections), named in the label so its reports never overwrite the released view's.
    pub view: Option<&'static str>,
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
    /// Input anomalies and what became of them (empty for suites in our own formats).
    pub anomalies: Vec<Anomaly>,
    /// Questions of the input that are not cases, with the reason.
    pub excluded: Vec<Excluded>,
    /// Whether the input is the file its benchmark released (by sha256); `None` for suites in
    /// our own formats.
    pub released: Option<bool>,
    /// The rank measures its runs report unless `--metrics` says (ir_measures names); `None`:
    /// the harness's default.
    pub default_measures: Option<&'static str>,
    /// What an overlay of corrections did to the answer key (LoCoMo's `--corrections`).
    pub corrections: Option<locomo::Applied>,
    /// The cases a run chose (`--case`, `--category`, `--limit`; [`select::Selection`]): its
    /// label ends `-selected`, and manifests record it. `None`: every case.
    pub selection: Option<select::Selection>,
}

/// What one item of a benchmark's conversation is (`--unit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// One turn.
    Turns,
    /// One session, its turns joined.
    Sessions,
    /// One observation: a fact an LLM extracted from a session, standing for the turns it
    /// cites (LoCoMo's observation database).
    Observations,
    /// One session's summary (LoCoMo's summary database).
    Summaries,
}

impl Unit {
    /// Every unit, in the order `--unit` lists them.
    pub(crate) const ALL: [Unit; 4] = [
        Unit::Turns,
        Unit::Sessions,
        Unit::Observations,
        Unit::Summaries,
    ];

    /// The unit's name (`sessions`), as `--unit` spells it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Unit::Turns => "turns",
            Unit::Sessions => "sessions",
            Unit::Observations => "observations",
            Unit::Summaries => "summaries",
        }
    }
}

/// A suite's label as reports, report folders and tables carry it, typed: the one place a
/// label is made ([`Label::text`]) and read back ([`Label::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Label<'a> {
    /// The suite's name (`locomo`).
    pub name: &'a str,
    /// Its unit; turns, the first, is not written.
    pub unit: Unit,
    /// Its view, if not the release (`corrected`).
    pub view: Option<&'a str>,
}

/// The views a label can name.
const VIEWS: [&str; 2] = [locomo::CORRECTED, SCALE];

/// The scale study's reports' view: the suite's cases over a synthetic store, no run of it.
pub(crate) const SCALE: &str = "scale";

impl<'a> Label<'a> {
    /// `locomo`, `locomo-sessions`, `locomo-observations-corrected`.
    pub(crate) fn text(&self) -> String {
        let mut text = self.name.to_string();
        if self.unit != Unit::Turns {
            text.push('-');
            text.push_str(self.unit.name());
        }
        if let Some(view) = self.view {
            text.push('-');
            text.push_str(view);
        }
        text
    }

    /// The parts of a label a report carries.
    pub(crate) fn parse(label: &'a str) -> Label<'a> {
        let (rest, view) = VIEWS
            .iter()
            .find_map(|v| Some((label.strip_suffix(&format!("-{v}"))?, Some(*v))))
            .unwrap_or((label, None));
        let (name, unit) = Unit::ALL[1..]
            .iter()
            .find_map(|u| Some((rest.strip_suffix(&format!("-{}", u.name()))?, *u)))
            .unwrap_or((rest, Unit::Turns));
        Label { name, unit, view }
    }
}

/// Where a suite comes from.
#[derive(Debug, Clone)]
pub enum SuiteSource {
    /// One of [`BUILTIN_SUITES`], by name.
    Builtin(String),
    /// User files (`--corpus`, `--cases`, `--sessions`).
    Custom(CustomFiles),
    /// LoCoMo's released file (`--suite locomo --data FILE`).
    Locomo(locomo::LocomoSource),
    /// One of LongMemEval's released files (`--suite longmemeval --data FILE`).
    LongMemEval(longmemeval::LongMemEvalSource),
    /// A test collection: TREC files or a BEIR folder (`--suite trec|beir`).
    Collection(trec::CollectionSource),
    /// BEAM's chats folder (`--suite beam --data DIR`).
    Beam(beam::BeamSource),
    /// LoCoMo-Plus's items spliced into LoCoMo (`--suite locomo-plus`).
    LocomoPlus(locomo_plus::LocomoPlusSource),
    /// The Temporal Memory Dataset's folder (`--suite temporal-memory --data DIR`).
    TemporalMemory(temporal_memory::TemporalMemorySource),
}

/// The suites judged by their cases' assertions (pass/fail, precision over the context), not
/// by qrels: the built-in ones and custom files, every one loaded by `Suite::from_bytes`.
pub(crate) const ASSERTION_SUITES: &[&str] = &["paper", "pmb", "bitemporal", "custom"];

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

    /// Each input file's role and sha256, in load order: what identifies the suite a journal or
    /// a shard was made from.
    pub(crate) fn input_digests(&self) -> Vec<(String, String)> {
        self.inputs
            .iter()
            .map(|i| (i.role.to_string(), i.sha256.clone()))
            .collect()
    }

    /// Load and validate a suite.
    pub fn load(source: &SuiteSource) -> Result<Suite> {
        // The one match on where a suite comes from: each source is one file behind `Source`.
        match source {
            SuiteSource::Builtin(name) => return BuiltinName(name).load(),
            SuiteSource::Custom(files) => return files.load(),
            SuiteSource::Locomo(source) => source.load(),
            SuiteSource::LongMemEval(source) => source.load(),
            SuiteSource::Collection(source) => source.load(),
            SuiteSource::Beam(source) => source.load(),
            SuiteSource::LocomoPlus(source) => source.load(),
            SuiteSource::TemporalMemory(source) => source.load(),
        }
        .and_then(benchmark::checked)
    }

    /// Whether any item carries aliases (the seeds' beliefs do; a benchmark's turns, messages
    /// and documents do not): alias-BM25 can match nothing else.
    pub(crate) fn has_aliases(&self) -> bool {
        self.corpus.iter().any(|b| !b.aliases.is_empty())
    }

    /// Whether the suite is judged by qrels (a benchmark's evidence, a test collection's
    /// judgments): its tables lead with its rank measures, not PrecisionMemBench's set
    /// precision over the context.
    pub(crate) fn judged_by_qrels(&self) -> bool {
        self.default_measures.is_some()
    }

    /// [`Suite::judged_by_qrels`] of the suite a report's manifest names by `label`, for the
    /// commands that read reports without loading their suite: every suite but those judged by
    /// assertions, the built-in ones and custom files ([`ASSERTION_SUITES`]).
    pub(crate) fn label_judged_by_qrels(label: &str) -> bool {
        !ASSERTION_SUITES.contains(&select::whole_label(label))
    }

    /// The suite's label as reports, report folders and tables carry it (`locomo-sessions`;
    /// [`Label`]).
    pub fn label(&self) -> String {
        let label = Label {
            name: &self.name,
            unit: self.unit.unwrap_or(Unit::Turns),
            view: self.view,
        }
        .text();
        match self.selection {
            Some(_) => format!("{label}-{}", select::SELECTED),
            None => label,
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

    /// PrecisionMemBench's own copy of this built-in suite when it differs (`pmb`): what runs
    /// where tenure-eval stands in for its harness (`builtin`), with this suite's selection.
    /// `None` for custom files and suites with one copy.
    pub fn harness_copy(&self) -> Result<Option<Suite>> {
        let Some(copy) = self.copy else {
            return Ok(None);
        };
        let mut harness = BUILTIN_SUITES
            .iter()
            .filter(|b| b.name == self.name && b.copy == copy)
            .find_map(|b| b.harness)
            .map(Suite::from_builtin)
            .transpose()?;
        if let (Some(h), Some(selection)) = (harness.as_mut(), &self.selection) {
            h.select(selection)?;
        }
        Ok(harness)
    }

    /// A suite of our own formats (beliefs, cases with assertions), named `name`: one of
    /// [`ASSERTION_SUITES`].
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
            read_from: None,
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
            unit: None,
            view: None,
            profile,
            corpus: beliefs,
            cases: static_cases,
            sessions: session_cases,
            inputs,
            warnings: Vec::new(),
            copy: None,
            anomalies: Vec::new(),
            excluded: Vec::new(),
            released: None,
            default_measures: None,
            corrections: None,
            selection: None,
        };
        let sessions_path = sessions.map(|(p, _)| p).unwrap_or(Path::new(""));
        suite.warnings = validate::validate(&suite, corpus.0, cases.0, sessions_path)?;
        suite
            .warnings
            .extend(vacuous::warnings(&suite, cases.0, sessions_path));
        Ok(suite)
    }
}
