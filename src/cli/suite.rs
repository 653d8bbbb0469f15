//! The suite flags (`--suite`, a custom suite's files, a benchmark's files and options) and
//! the one place they become a library `SuiteSource`: each suite says which flags it reads,
//! and a flag the chosen suite does not read is refused, naming it (exit 2).

use crate::suite::beam::BeamSource;
use crate::suite::locomo::LocomoSource;
use crate::suite::locomo_plus::LocomoPlusSource;
use crate::suite::longmemeval::LongMemEvalSource;
use crate::suite::temporal_memory::TemporalMemorySource;
use crate::suite::trec::CollectionSource;
use crate::suite::{CustomFiles, Suite, SuiteSource, Unit};
use crate::{Error, Profile, Result};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Which suite to load.
#[derive(Debug, Args)]
#[command(next_help_heading = "Suite")]
pub(crate) struct SuiteArgs {
    /// A built-in suite, or a benchmark's files named with --data (docs/reference.md, "Suites").
    #[arg(long, value_enum, conflicts_with_all = ["cases", "sessions", "profile"])]
    pub suite: Option<SuiteArg>,
    /// Or a custom suite.
    #[command(flatten)]
    pub custom: CustomSuiteArgs,
    /// Or a benchmark's file.
    #[command(flatten)]
    pub data: DataSuiteArgs,
}

/// `--suite` values: what each reads is checked by [`SuiteArgs::source`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SuiteArg {
    /// Built in: the paper tag's suite (60 static cases, 2 sessions).
    Paper,
    /// Built in: PrecisionMemBench's suite (77 static cases, 2 sessions) [default].
    Pmb,
    /// Built in: the dissertation's chapter 8 (42 cases, 3 sessions; docs/temporal.md).
    Bitemporal,
    /// LoCoMo: --data locomo10.json [--unit] [--corrections] (docs/locomo.md).
    Locomo,
    /// LongMemEval: --data longmemeval_s.json, _m or _oracle [--unit] (docs/longmemeval.md).
    Longmemeval,
    /// A test collection in TREC files: --corpus DOCS.jsonl --topics FILE --qrels FILE.
    Trec,
    /// A BEIR folder: --data DIR [--split] (docs/qrels.md).
    Beir,
    /// BEAM: --data DIR laid out as its chats/ [--tier] (docs/beam.md).
    Beam,
    /// LoCoMo-Plus: --data locomo_plus.json --locomo locomo10.json [--splice-seed] (docs/locomo-plus.md).
    LocomoPlus,
    /// The Temporal Memory Dataset: --data DIR (its ConversationData/ and TestData/; docs/temporal-memory.md).
    TemporalMemory,
}

impl SuiteArg {
    /// The name the command line and reports use (`locomo-plus`).
    pub(crate) fn name(self) -> String {
        self.to_possible_value()
            .expect("no value is skipped")
            .get_name()
            .to_string()
    }
}

/// A benchmark's released file as a suite (`--suite locomo --data locomo10.json`).
#[derive(Debug, Clone, Default, Args)]
#[command(next_help_heading = "Suite")]
pub(crate) struct DataSuiteArgs {
    /// The benchmark's file or folder, downloaded by you: LoCoMo's `data/locomo10.json` (CC
    /// BY-NC 4.0; the snap-research/LoCoMo repository), one of LongMemEval's
    /// (longmemeval_s.json, _m, _oracle), BEAM's `chats/` folder, LoCoMo-Plus's
    /// `locomo_plus.json`, the Temporal Memory Dataset's folder, a BEIR folder.
    #[arg(long, value_name = "PATH")]
    pub data: Option<PathBuf>,
    /// What one memory item is [default: turns]: a dialog turn or a whole session (LoCoMo and
    /// LongMemEval); LoCoMo's observations or session summaries (its other two databases).
    #[arg(long, value_enum)]
    pub unit: Option<UnitArg>,
    /// `--suite beir`: the split whose qrels judge (`qrels/SPLIT.tsv`) [default: test].
    #[arg(long)]
    pub split: Option<String>,
    /// `--suite trec`: the topics (BEIR's queries.jsonl, or `QID<TAB>TEXT` lines).
    #[arg(long, value_name = "FILE", requires = "qrels")]
    pub topics: Option<PathBuf>,
    /// `--suite trec`: the qrels (TREC's `QID ITER DOCNO REL`, or BEIR's TSV).
    #[arg(long, value_name = "FILE", requires = "topics")]
    pub qrels: Option<PathBuf>,
    /// `--suite beam`: the tiers to run (`100K`, `500K`, ...; comma-separated) [default: every
    /// tier found].
    #[arg(long, value_name = "TIER", value_delimiter = ',')]
    pub tier: Vec<String>,
    /// `--suite locomo`: LoCoMo's answer-key corrections (the locomo-audit's
    /// `errors_conv_*.json`, files or a folder of them): WRONG_CITATION entries replace a
    /// question's evidence (docs/locomo.md, "Corrections").
    #[arg(long, value_name = "PATH")]
    pub corrections: Vec<PathBuf>,
    /// `--suite locomo-plus`: LoCoMo's `locomo10.json`, the conversations its cues are spliced
    /// into.
    #[arg(long, value_name = "FILE")]
    pub locomo: Option<PathBuf>,
    /// `--suite locomo-plus`: the seed that picks each item's conversation and place [default:
    /// 20260511].
    #[arg(long, value_name = "N")]
    pub splice_seed: Option<u64>,
}

/// `--unit` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum UnitArg {
    /// One dialog turn per item (`conv-26/D1:3`).
    Turns,
    /// One session per item (`conv-26/S1`).
    Sessions,
    /// LoCoMo: one observation (a fact an LLM extracted from a session) per item (`conv-26/O0`).
    Observations,
    /// LoCoMo: one session summary per item (`conv-26/S1`).
    Summaries,
}

impl From<UnitArg> for Unit {
    fn from(unit: UnitArg) -> Unit {
        match unit {
            UnitArg::Turns => Unit::Turns,
            UnitArg::Sessions => Unit::Sessions,
            UnitArg::Observations => Unit::Observations,
            UnitArg::Summaries => Unit::Summaries,
        }
    }
}

/// `--profile` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ProfileArg {
    /// Paper-tag behaviour.
    Paper,
    /// HEAD behaviour (PrecisionMemBench).
    Head,
}

/// The flags of [`SuiteArgs`] that only some suites read, each with the suites that read it.
const SUITE_FLAGS: [(&str, &str, &[SuiteArg]); 8] = [
    ("unit", "--unit", &[SuiteArg::Locomo, SuiteArg::Longmemeval]),
    ("split", "--split", &[SuiteArg::Beir]),
    ("topics", "--topics", &[SuiteArg::Trec]),
    ("qrels", "--qrels", &[SuiteArg::Trec]),
    ("tier", "--tier", &[SuiteArg::Beam]),
    ("corrections", "--corrections", &[SuiteArg::Locomo]),
    ("locomo", "--locomo", &[SuiteArg::LocomoPlus]),
    ("splice_seed", "--splice-seed", &[SuiteArg::LocomoPlus]),
];

/// The suites read from a file or folder named with --data.
const DATA_SUITES: [SuiteArg; 6] = [
    SuiteArg::Locomo,
    SuiteArg::Longmemeval,
    SuiteArg::Beir,
    SuiteArg::Beam,
    SuiteArg::LocomoPlus,
    SuiteArg::TemporalMemory,
];

impl SuiteArgs {
    /// The flags of a suite given that `suite` does not read: the first, named.
    fn refuse_unread(&self, suite: Option<SuiteArg>) -> Result<()> {
        let d = &self.data;
        let given = [
            d.unit.is_some(),
            d.split.is_some(),
            d.topics.is_some(),
            d.qrels.is_some(),
            !d.tier.is_empty(),
            !d.corrections.is_empty(),
            d.locomo.is_some(),
            d.splice_seed.is_some(),
        ];
        let named = |s: Option<SuiteArg>| match s {
            Some(s) => format!("--suite {}", s.name()),
            None if self.custom.corpus.is_some() => "a custom suite".to_string(),
            None => "--suite pmb (the default)".to_string(),
        };
        for ((_, flag, readers), given) in SUITE_FLAGS.iter().zip(given) {
            if given && !suite.is_some_and(|s| readers.contains(&s)) {
                let names: Vec<String> = readers.iter().map(|s| s.name()).collect();
                return Err(Error::Usage(format!(
                    "{flag} is read by --suite {} only; {} reads none",
                    names.join(" or "),
                    named(suite)
                )));
            }
        }
        let reads_data = suite.is_some_and(|s| DATA_SUITES.contains(&s));
        if d.data.is_some() && !reads_data {
            let names: Vec<String> = DATA_SUITES.iter().map(|s| s.name()).collect();
            return Err(Error::Usage(format!(
                "--data names a benchmark's file or folder, for --suite {}; {} reads none",
                names.join(", "),
                named(suite)
            )));
        }
        if reads_data && d.data.is_none() {
            return Err(Error::Usage(format!(
                "{} reads the benchmark's released files: give them with --data PATH ({})",
                named(suite),
                match suite {
                    Some(SuiteArg::Locomo) => {
                        "data/locomo10.json of the snap-research/LoCoMo repository, docs/locomo.md"
                    }
                    Some(SuiteArg::Longmemeval) => {
                        "longmemeval_s.json, _m or _oracle, docs/longmemeval.md"
                    }
                    Some(SuiteArg::Beir) => "a BEIR folder: corpus.jsonl, queries.jsonl, qrels/",
                    Some(SuiteArg::Beam) => {
                        "the chats/ folder of the mohammadtavakoli78/BEAM repository, docs/beam.md"
                    }
                    Some(SuiteArg::LocomoPlus) => {
                        "data/locomo_plus.json of the xjtuleeyf/Locomo-Plus repository, \
                         docs/locomo-plus.md"
                    }
                    _ => {
                        "the folder of the Zyphra/TemporalMemoryDataset repository, \
                         docs/temporal-memory.md"
                    }
                }
            )));
        }
        if self.custom.corpus.is_some() && !matches!(suite, None | Some(SuiteArg::Trec)) {
            return Err(Error::Usage(format!(
                "--corpus is a custom suite's (with --cases) or --suite trec's; {} reads none",
                named(suite)
            )));
        }
        Ok(())
    }

    /// Refuse a benchmark's flag (`--unit`, `--tier`, ...) that the suite named (or the default)
    /// does not read, before anything is loaded.
    pub(crate) fn check_flags(&self) -> Result<()> {
        self.refuse_unread(self.suite)
    }

    /// A suite was named: `--suite`, or a custom suite's files.
    pub(crate) fn named(&self) -> bool {
        self.suite.is_some() || self.custom.corpus.is_some() || self.custom.cases.is_some()
    }

    /// The suite source these flags name (default: the built-in `pmb`).
    pub(crate) fn source(&self) -> Result<SuiteSource> {
        self.refuse_unread(self.suite)?;
        let custom = &self.custom;
        let d = &self.data;
        let data = || d.data.clone().expect("checked by refuse_unread");
        let unit = d.unit.map_or(Unit::Turns, Unit::from);
        let builtin = |s: SuiteArg| SuiteSource::Builtin(s.name());
        Ok(match self.suite {
            None => match (&custom.corpus, &custom.cases) {
                (Some(corpus), Some(cases)) => SuiteSource::Custom(CustomFiles {
                    corpus: corpus.clone(),
                    cases: cases.clone(),
                    sessions: custom.sessions.clone(),
                    profile: match custom.profile {
                        Some(ProfileArg::Paper) => Profile::Paper,
                        _ => Profile::Head,
                    },
                }),
                (None, None) => SuiteSource::Builtin("pmb".into()),
                _ => {
                    return Err(Error::Usage(
                        "a custom suite needs both --corpus and --cases".into(),
                    ))
                }
            },
            Some(s @ (SuiteArg::Paper | SuiteArg::Pmb | SuiteArg::Bitemporal)) => builtin(s),
            Some(SuiteArg::Locomo) => SuiteSource::Locomo(LocomoSource {
                data: data(),
                unit,
                corrections: d.corrections.clone(),
            }),
            Some(SuiteArg::Longmemeval) => {
                if matches!(unit, Unit::Observations | Unit::Summaries) {
                    return Err(Error::Usage(
                        "--unit observations and summaries are LoCoMo's databases; \
                         LongMemEval has turns and sessions"
                            .into(),
                    ));
                }
                SuiteSource::LongMemEval(LongMemEvalSource { data: data(), unit })
            }
            Some(SuiteArg::Beir) => SuiteSource::Collection(CollectionSource::Beir {
                dir: data(),
                split: d.split.clone().unwrap_or_else(|| "test".into()),
            }),
            Some(SuiteArg::Trec) => match (&custom.corpus, &d.topics, &d.qrels) {
                (Some(corpus), Some(topics), Some(qrels)) => {
                    SuiteSource::Collection(CollectionSource::Trec {
                        corpus: corpus.clone(),
                        topics: topics.clone(),
                        qrels: qrels.clone(),
                    })
                }
                _ => {
                    return Err(Error::Usage(
                        "--suite trec reads a test collection's files: --corpus DOCS.jsonl \
                         --topics FILE --qrels FILE (docs/qrels.md)"
                            .into(),
                    ))
                }
            },
            Some(SuiteArg::Beam) => SuiteSource::Beam(BeamSource {
                data: data(),
                tiers: d.tier.clone(),
            }),
            Some(SuiteArg::LocomoPlus) => {
                let Some(locomo) = d.locomo.clone() else {
                    return Err(Error::Usage(
                        "--suite locomo-plus splices its cues into LoCoMo's conversations: \
                         give LoCoMo's file with --locomo locomo10.json"
                            .into(),
                    ));
                };
                SuiteSource::LocomoPlus(LocomoPlusSource {
                    data: data(),
                    locomo,
                    seed: d.splice_seed.unwrap_or(crate::suite::locomo_plus::SEED),
                })
            }
            Some(SuiteArg::TemporalMemory) => {
                SuiteSource::TemporalMemory(TemporalMemorySource { data: data() })
            }
        })
    }
}

/// What a run says once about its input before it starts (unless quiet): each input anomaly
/// and what became of it, and the questions excluded with their reasons; `validate` lists the
/// same, and the manifest records them.
pub(crate) fn input_notes(suite: &Suite) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(applied) = &suite.corrections {
        let counted: Vec<String> = (applied.counted.iter())
            .map(|(kind, n)| format!("{kind} {n}"))
            .collect();
        notes.push(format!(
            "{}: corrections: {} questions' evidence replaced (WRONG_CITATION); counted, gold \
             unchanged: {}",
            suite.label(),
            applied.evidence_replaced,
            if counted.is_empty() {
                "none".into()
            } else {
                counted.join(", ")
            }
        ));
    }
    if !suite.anomalies.is_empty() {
        notes.push(format!(
            "{}: {} input anomalies (recorded in each report's manifest):",
            suite.label(),
            suite.anomalies.len()
        ));
        notes.extend(
            (suite.anomalies.iter()).map(|a| format!("  {}: {:?} {}", a.case, a.raw, a.outcome)),
        );
    }
    if !suite.excluded.is_empty() {
        notes.push(format!(
            "{}: {} questions not scored (recorded in each report's manifest):",
            suite.label(),
            suite.excluded.len()
        ));
        notes.extend((suite.excluded.iter()).map(|e| format!("  {}: {}", e.case, e.reason)));
    }
    notes
}

/// A custom suite.
#[derive(Debug, Clone, Default, Args)]
pub(crate) struct CustomSuiteArgs {
    /// Custom suite: belief corpus (beliefs.seed.json format); or `--suite trec`'s documents
    /// (JSON lines, `{"_id", "title", "text"}`).
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Custom suite: static cases (retrieval.cases.json format).
    #[arg(long, requires = "corpus")]
    pub cases: Option<PathBuf>,
    /// Custom suite: session cases (session-retrieval.cases.json format).
    #[arg(long, requires = "corpus")]
    pub sessions: Option<PathBuf>,
    /// Custom suite: which upstream pipeline to reproduce.
    #[arg(long, value_enum, requires = "corpus")]
    pub profile: Option<ProfileArg>,
}
