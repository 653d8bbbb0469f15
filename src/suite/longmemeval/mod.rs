//! LongMemEval (Wu et al., ICLR 2025) as a suite: `--suite longmemeval --data FILE`, for its
//! released files (`longmemeval_s.json`, `longmemeval_m.json`, `longmemeval_oracle.json`).
//!
//! The mapping follows its retrieval code (xiaowu0162/LongMemEval 9e0b455,
//! src/retrieval/run_retrieval.py, `process_item_flat_index`; docs/longmemeval.md):
//! - each question is its own user with its own haystack: user id and case id = `question_id`;
//! - only the user's turns are indexed, as the code does. `--unit sessions` (its
//!   `--granularity session`): one item per haystack session, id `QID/SESSION`, the user turns'
//!   contents joined by spaces; `--unit turns`: one item per user turn, id `QID/SESSION_N` (N
//!   the turn's 1-based place among all the session's turns);
//! - gold: the sessions of `answer_session_ids`, and their user turns marked `has_answer`. An
//!   answer session none of whose user turns is marked is not gold (the code renames it
//!   `noans`), and says so as an anomaly;
//! - an abstention question (`question_id` ending `_abs`) is excluded with its reason, as
//!   print_retrieval_metrics.py leaves them out; so is a question without gold;
//! - an item's time is its session's date (`2023/05/20 (Sat) 02:21`, read as UTC).

mod file;

use super::benchmark::{check_user, item, Asked};
use super::{Anomaly, Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{read_bytes, sha256_hex};
use crate::profile::Profile;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub(crate) use super::Unit;
pub(crate) use file::parse_date;

/// At most this many results a case's context holds. Its code ranks the whole haystack, and its
/// turn-to-session metrics read past k until k sessions are covered, so a context holds the
/// whole haystack up to this: every haystack of `_s` and `_oracle` (about 500 user turns at
/// most); `_m`'s turn haystacks are cut here, and what lies past counts as not retrieved.
pub(crate) const DEPTH: usize = 1000;

/// A case passes when all its gold is within this many results (its recall_all@10).
pub(crate) const PASS_DEPTH: usize = 10;

/// The rank measures a LongMemEval run reports unless `--metrics` says otherwise; its own
/// (recall_any, recall_all, ndcg_any) are `tenure-eval longmemeval`'s.
pub(crate) const MEASURES: &str = "R@5,R@10,R@50,nDCG@10,RR";

/// Load `data` as a suite of `unit` items.
pub(crate) fn load(data: &Path, unit: Unit) -> Result<Suite> {
    if !matches!(unit, Unit::Turns | Unit::Sessions) {
        return Err(Error::Usage(format!(
            "--unit {}: LongMemEval's items are turns or sessions",
            unit.name()
        )));
    }
    let bytes = read_bytes(data)?;
    let instances = file::instances(data, &bytes)?;
    let mut corpus = Vec::new();
    let mut cases = Vec::new();
    let mut anomalies = Vec::new();
    let mut excluded = Vec::new();
    let mut seen = HashSet::new();
    for (i, q) in instances.iter().enumerate() {
        let user = &q.question_id;
        check_user(data, &format!("$[{i}].question_id"), user, &mut seen)?;
        let answer_sessions: HashSet<&str> =
            q.answer_session_ids.iter().map(String::as_str).collect();
        // An answer session the haystack lacks was left out of the gold in silence (a
        // seventeenth audit): said, as an answer session without a marked turn is.
        for missing in (q.answer_session_ids.iter()).filter(|a| !q.haystack_session_ids.contains(a))
        {
            anomalies.push(Anomaly {
                case: user.clone(),
                raw: missing.clone(),
                outcome: "answer session not in the haystack: not gold".into(),
            });
        }
        let mut gold = Vec::new();
        let before = corpus.len();
        // An item's id is its session's: a session given twice made two items of one id, each
        // ranked and each gold (a tenth audit), where LoCoMo and BEAM refuse a repeated id.
        let ids = &q.haystack_session_ids;
        if let Some(t) = (1..ids.len()).find(|&t| ids[..t].contains(&ids[t])) {
            let first = ids.iter().position(|id| *id == ids[t]).unwrap_or(0);
            return Err(Error::input(
                data,
                format!("$[{i}].haystack_session_ids[{t}]"),
                format!(
                    "{:?} is given twice in this haystack (also at [{first}]): expected each \
                     session once, its id is its items'",
                    ids[t]
                ),
            ));
        }
        for (s, (session_id, turns)) in q
            .haystack_session_ids
            .iter()
            .zip(&q.haystack_sessions)
            .enumerate()
        {
            let at = format!("$[{i}].haystack_dates[{s}]");
            let time = parse_date(&q.haystack_dates[s]).ok_or_else(|| {
                Error::input(
                    data,
                    &at,
                    format!(
                        "{:?}: expected a date as LongMemEval writes them (2023/05/20 (Sat) 02:21)",
                        q.haystack_dates[s]
                    ),
                )
            })?;
            let is_answer = answer_sessions.contains(session_id.as_str());
            let user_turns: Vec<(usize, &file::Turn)> = turns
                .iter()
                .enumerate()
                .filter(|(_, t)| t.role == "user")
                .collect();
            let marked = user_turns.iter().any(|(_, t)| t.has_answer);
            if is_answer && !marked {
                anomalies.push(Anomaly {
                    case: user.clone(),
                    raw: session_id.clone(),
                    outcome: "answer session without a marked user turn: not gold, as \
                              LongMemEval's retrieval code renames it noans"
                        .into(),
                });
            }
            match unit {
                Unit::Sessions => {
                    let text: Vec<&str> =
                        user_turns.iter().map(|(_, t)| t.content.as_str()).collect();
                    let id = format!("{user}/{session_id}");
                    if is_answer && marked {
                        gold.push(id.clone());
                    }
                    corpus.push(item(id, user, text.join(" "), time));
                }
                Unit::Turns | Unit::Observations | Unit::Summaries => {
                    for (n, turn) in user_turns {
                        let id = format!("{user}/{session_id}_{}", n + 1);
                        if is_answer && turn.has_answer {
                            gold.push(id.clone());
                        }
                        corpus.push(item(id, user, turn.content.clone(), time));
                    }
                }
            }
        }
        let case_id = user.clone();
        let reason = if user.ends_with("_abs") {
            Some("abstention question (its answer is not in the haystack)")
        } else if gold.is_empty() {
            Some("no gold item (no answer session with a marked user turn)")
        } else {
            None
        };
        if let Some(reason) = reason {
            excluded.push(Excluded {
                case: case_id,
                reason: reason.into(),
            });
            continue;
        }
        let question = Asked {
            case_id,
            user,
            category: &q.question_type,
            query: &q.question,
            gold,
            depth: (corpus.len() - before).min(DEPTH),
            pass_depth: PASS_DEPTH,
        };
        cases.push(question.case());
    }
    if cases.is_empty() {
        return Err(Error::input(
            data,
            "$",
            "no question with gold to score; expected LongMemEval's instances",
        ));
    }
    Ok(Suite {
        name: "longmemeval".into(),
        unit: Some(unit),
        view: None,
        profile: Profile::Head,
        corpus,
        cases,
        sessions: Vec::new(),
        inputs: vec![InputFile {
            role: "data",
            path: data.display().to_string(),
            sha256: sha256_hex(&bytes),
            read_from: None,
        }],
        warnings: Vec::new(),
        copy: None,
        anomalies,
        excluded,
        released: None,
        default_measures: Some(MEASURES),
        corrections: None,
        selection: None,
    })
}

/// Where a LongMemEval suite comes from.
#[derive(Debug, Clone)]
pub struct LongMemEvalSource {
    /// One of its released files.
    pub data: PathBuf,
    /// Turns or sessions.
    pub unit: Unit,
}

impl super::Source for LongMemEvalSource {
    fn load(&self) -> Result<Suite> {
        load(&self.data, self.unit)
    }
}
