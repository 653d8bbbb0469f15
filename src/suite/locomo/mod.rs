//! LoCoMo (Maharana et al., ACL 2024) as a suite: `--suite locomo --data locomo10.json`.
//!
//! The mapping (docs/locomo.md says why):
//! - each conversation is one user's memory: user id = its `sample_id` (`conv-26`), so a
//!   question about conv-26 only ever searches conv-26's items (the user filter);
//! - an item is one of LoCoMo's four databases (`--unit`, `items.rs`): a dialog turn
//!   (`conv-26/D1:3`, the default), a session, an observation or a session summary, each
//!   standing for the dialog ids it covers; its time is its session's date;
//! - the text is the item's canonical name and it has no aliases: alias-BM25 searches it with
//!   its name clauses (fuzzy terms and exact bigrams), the alias clauses never match;
//! - each question is one case, `conv-26/q0` (its 0-based place in the sample's `qa`), its
//!   category by LoCoMo's name (`category_name`), its gold the items standing for a turn its
//!   evidence resolves to (`evidence`), after the corrections' overlay when one is given
//!   (`corrections`). A question with no evidence, none that resolves, or (observations) none
//!   that an item stands for, is excluded and counted with its reason (the manifest's
//!   `excluded`);
//! - a case passes when every gold item is in the first `PASS_DEPTH` results; the context
//!   holds the first `DEPTH`, for R@50.

mod corrections;
mod evidence;
mod file;
mod items;
mod read;

pub(crate) use corrections::files as correction_files;
pub(crate) use corrections::is_audit_file;
pub use corrections::Applied;
pub use evidence::dialog_numbers;
pub use read::conversations;
pub use read::{observation_covers, questions, turns, Question, Turn};

use super::benchmark::{check_user, Asked};
use super::{Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{read_bytes, sha256_hex};
use crate::profile::Profile;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// The released `locomo10.json` (snap-research/LoCoMo 3eb6f2c, `data/locomo10.json`). Another
/// file runs, flagged in a warning and the manifest.
pub(crate) const RELEASED_SHA256: &str =
    "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4";

/// Results a case's context holds: enough for R@50.
pub(crate) const DEPTH: usize = 50;

/// A case passes when all its gold is within this many results (R@10 = 1).
pub(crate) const PASS_DEPTH: usize = 10;

/// The rank measures a LoCoMo run reports unless `--metrics` says otherwise.
pub(crate) const MEASURES: &str = "R@1,R@5,R@10,R@25,R@50,nDCG@10,RR";

pub(crate) use super::Unit;

/// LoCoMo's category names by number. The repository names three in its code: 1 multi-hop
/// (task_eval/evaluation.py, "multi-hop eval" for category 1), 2 temporal and 5 adversarial
/// (task_eval/hf_llm_utils.py, "Temporal (2) and Adversarial (5)"). It does not name 3 and 4;
/// they are open-domain (3: answers that need knowledge beyond the conversation, as "What
/// fields would Caroline be likely to pursue") and single-hop (4), as the evaluations of
/// memory systems that report LoCoMo by category name them. docs/locomo.md.
pub(crate) fn category_name(category: u8) -> Option<&'static str> {
    Some(match category {
        1 => "multi-hop",
        2 => "temporal",
        3 => "open-domain",
        4 => "single-hop",
        5 => "adversarial",
        _ => return None,
    })
}

/// Load `source` as a suite.
pub(crate) fn load(source: &LocomoSource) -> Result<Suite> {
    let data = source.data.as_path();
    let unit = source.unit;
    let bytes = read_bytes(data)?;
    let sha256 = sha256_hex(&bytes);
    let samples = file::samples(data, &bytes)?;
    let overlay = corrections::read(&source.corrections, &samples)?;
    let mut corpus = Vec::new();
    let mut cases = Vec::new();
    let mut anomalies = Vec::new();
    let mut excluded = Vec::new();
    let mut seen_samples = HashSet::new();
    for (i, sample) in samples.iter().enumerate() {
        let user = &sample.sample_id;
        check_user(data, &format!("$[{i}].sample_id"), user, &mut seen_samples)?;
        let sessions = dated_sessions(data, i, sample)?;
        let turns: HashSet<String> = (sessions.iter())
            .flat_map(|(s, _)| s.turns.iter().map(|t| t.dia_id.clone()))
            .collect();
        let items = items::items(data, (i, sample), &sessions, unit, &mut anomalies)?;
        // Which items stand for each dialog id, in item order.
        let mut standing: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for it in &items {
            for id in &it.covers {
                standing.entry(id).or_default().push(&it.belief.id);
            }
        }
        for (q, question) in sample.qa.iter().enumerate() {
            let case_id = format!("{user}/q{q}");
            let category = category_name(question.category).ok_or_else(|| {
                Error::input(
                    data,
                    format!("$[{i}].qa[{q}].category"),
                    format!("{}: expected a category from 1 to 5", question.category),
                )
            })?;
            let evidence = overlay.evidence.get(&(i, q)).unwrap_or(&question.evidence);
            let resolved = evidence::resolve(&case_id, evidence, &turns, &mut anomalies);
            let mut gold: Vec<String> = Vec::new();
            for id in &resolved.ids {
                for item in standing.get(id.as_str()).into_iter().flatten() {
                    if !gold.iter().any(|g| g == item) {
                        gold.push(item.to_string());
                    }
                }
            }
            let reason = if evidence.is_empty() {
                Some("no evidence")
            } else if resolved.ids.is_empty() {
                Some("no evidence names a turn of the conversation")
            } else if gold.is_empty() {
                Some("no item stands for its evidence turns (no observation cites them)")
            } else {
                None
            };
            if let Some(reason) = reason {
                excluded.push(Excluded {
                    case: case_id,
                    reason: reason.to_string(),
                });
                continue;
            }
            let question = Asked {
                case_id,
                user,
                category,
                query: &question.question,
                gold,
                depth: DEPTH,
                pass_depth: PASS_DEPTH,
            };
            cases.push(question.case());
        }
        corpus.extend(items.into_iter().map(|it| it.belief));
    }
    let mut warnings = Vec::new();
    let released = sha256 == RELEASED_SHA256;
    if !released {
        warnings.push(format!(
            "{}: sha256 {sha256} is not the released locomo10.json's ({RELEASED_SHA256}); it \
             runs, and reports say so",
            data.display()
        ));
    }
    let mut inputs = vec![InputFile {
        role: "data",
        path: data.display().to_string(),
        sha256,
        read_from: None,
    }];
    let corrected = !overlay.inputs.is_empty();
    inputs.extend(overlay.inputs);
    Ok(Suite {
        name: "locomo".into(),
        unit: Some(unit),
        view: corrected.then_some(CORRECTED),
        profile: Profile::Head,
        corpus,
        cases,
        sessions: Vec::new(),
        inputs,
        warnings,
        copy: None,
        anomalies,
        excluded,
        released: Some(released),
        default_measures: Some(MEASURES),
        corrections: corrected.then_some(overlay.applied),
        selection: None,
    })
}

/// The view a corrections overlay makes, in the suite's label (`locomo-corrected`).
pub(crate) const CORRECTED: &str = "corrected";

/// The sessions of sample `i` with their dates as Unix milliseconds.
pub(crate) fn dated_sessions(
    data: &Path,
    i: usize,
    sample: &file::RawSample,
) -> Result<Vec<(file::Session, i64)>> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for session in file::sessions(data, i, sample)? {
        let time = file::parse_date(&session.date_time).ok_or_else(|| {
            Error::input(
                data,
                format!("$[{i}].conversation.session_{}_date_time", session.number),
                format!(
                    "{:?}: expected a date as LoCoMo writes them (1:56 pm on 8 May, 2023)",
                    session.date_time
                ),
            )
        })?;
        for (t, turn) in session.turns.iter().enumerate() {
            // `D<session>:<turn>`, as every id of the release is: an id with a blank, a tab or
            // another session's number loaded, and the evidence naming the turn's real id was
            // said to name no turn (a seventeenth audit).
            let own = (turn.dia_id.strip_prefix(&format!("D{}:", session.number)))
                .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()));
            if !own {
                return Err(Error::input(
                    data,
                    format!("$[{i}].conversation.session_{}[{t}].dia_id", session.number),
                    format!(
                        "{:?}; expected D{}:N, the session's number and the turn's",
                        turn.dia_id, session.number
                    ),
                ));
            }
            if !seen.insert(turn.dia_id.clone()) {
                return Err(Error::input(
                    data,
                    format!("$[{i}].conversation.session_{}", session.number),
                    format!("dialog id {} twice; expected unique ids", turn.dia_id),
                ));
            }
        }
        out.push((session, time));
    }
    Ok(out)
}

/// Where a LoCoMo suite comes from.
#[derive(Debug, Clone)]
pub struct LocomoSource {
    /// The user's `locomo10.json`.
    pub data: PathBuf,
    /// Which of its databases is the memory: turns, sessions, observations or summaries.
    pub unit: Unit,
    /// Corrections of its answer key (the locomo-audit's files, or folders of them); empty:
    /// the released evidence.
    pub corrections: Vec<PathBuf>,
}

impl LocomoSource {
    /// The released file's turns, without corrections.
    pub fn turns(data: &Path) -> LocomoSource {
        LocomoSource {
            data: data.to_path_buf(),
            unit: Unit::Turns,
            corrections: Vec::new(),
        }
    }
}

impl super::Source for LocomoSource {
    fn load(&self) -> Result<Suite> {
        load(self)
    }
}
