//! The alias flywheel on held-out real questions (`tenure-eval alias-learning`,
//! docs/alias-learning.md): the essay's capture (docs/spec/alias-flywheel.md, mechanisms 2 and 3:
//! a user's words for a belief become its aliases) tried on a benchmark's own questions, where
//! nobody here wrote the words.
//!
//! Each user's questions are split by a seeded shuffle into a learning half and a held-out half
//! ([`split`]). From the learning half only, each question's text is appended as one alias to
//! every item its gold names ([`learn`]): what the capture would keep once the user's question
//! had been answered from those items. The held-out half is then retrieved by plain BM25 over
//! each item's name, aliases and text (`bm25-text`, which indexes aliases as words), over the
//! items as released (`none`), with the learned aliases (`learned`), and with the same number of
//! captures given to items of the same user drawn at random (`random`, the control: aliases that
//! carry no evidence). Held-out questions are also split by whether any of their gold items was
//! aliased ("evidence seen") or none was ("evidence unseen"): the mechanism can only help the
//! first. Each condition's per-question measures are paired with `none`'s and tested by Fisher's
//! randomisation test (`eval::stats`).
//!
//! No held-out text can reach an alias: [`learn`] and [`control`] read the questions of the
//! learning half only, and a held-out question whose text a learning question of the same user
//! also asks is left out, counted (tests/it/alias_learning.rs checks every alias against both
//! halves).

use crate::backend::text::TextBm25Config;
use crate::backend::BackendConfig;
use crate::error::Result;
use crate::eval::qrels::{case_scores, Qrels};
use crate::eval::rank::{parse_measures, Measure};
use crate::eval::stats::{mean, paired_randomisation};
use crate::run::run_static;
use crate::run::Observer;
use crate::suite::{Belief, StaticCase, Suite, DEFAULT_USER};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

mod table;
pub(crate) use table::table;

/// The essay's ceiling: at most this many aliases per belief (mechanism 4).
pub const ALIAS_CEILING: usize = 25;

/// The measures reported, LoCoMo's and BEAM's rank measures at the reader's depth.
pub const MEASURES: &str = "R@10,nDCG@10";

fn measures() -> Vec<Measure> {
    parse_measures(MEASURES).expect("the study's measures parse")
}

/// Sign patterns drawn by the randomisation test beyond its exact range.
const RESAMPLES: usize = 20_000;

/// A draw in `0..n` (n ≥ 1); the modulo's bias is below 2^-40 for the sizes here.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Which half of its user's questions a case is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// Indexes into `suite.cases` of the learning half, in file order.
    pub learning: Vec<usize>,
    /// Indexes of the held-out half, in file order.
    pub held_out: Vec<usize>,
    /// Held-out questions left out because a learning question of the same user has the same
    /// text (LoCoMo asks some twice): its text would be an alias, so held-out text would reach
    /// one. In file order.
    pub twins: Vec<usize>,
}

/// A question's text as BM25's analyzer would read it alike: lowercased, spaces collapsed.
fn same_text(text: &str) -> String {
    text.split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

fn user_of(case: &StaticCase) -> &str {
    case.user_id.as_deref().unwrap_or(DEFAULT_USER)
}

/// Each user's questions shuffled by ChaCha8 from `seed` (users in order of first appearance),
/// the first half (rounded down) learning, the rest held out.
pub fn split(suite: &Suite, seed: u64) -> Split {
    let mut users: Vec<&str> = Vec::new();
    let mut cases: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, case) in suite.cases.iter().enumerate() {
        let user = user_of(case);
        if !cases.contains_key(user) {
            users.push(user);
        }
        cases.entry(user).or_default().push(i);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut learning, mut held_out) = (Vec::new(), Vec::new());
    for user in users {
        let mut own = cases.remove(user).unwrap_or_default();
        for i in (1..own.len()).rev() {
            own.swap(i, below(&mut rng, i + 1));
        }
        let half = own.len() / 2;
        learning.extend_from_slice(&own[..half]);
        held_out.extend_from_slice(&own[half..]);
    }
    learning.sort_unstable();
    held_out.sort_unstable();
    let learned: HashSet<(&str, String)> = (learning.iter())
        .map(|&i| (user_of(&suite.cases[i]), same_text(&suite.cases[i].query)))
        .collect();
    let (twins, held_out) = held_out.into_iter().partition(|&i| {
        learned.contains(&(user_of(&suite.cases[i]), same_text(&suite.cases[i].query)))
    });
    Split {
        learning,
        held_out,
        twins,
    }
}

/// What a capture did to a corpus.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Captures {
    /// Aliases added (question × item).
    pub added: usize,
    /// Captures the ceiling refused.
    pub over_ceiling: usize,
    /// Items that gained at least one alias.
    pub items: usize,
}

/// Append `alias` to `belief` unless it holds it or is at the ceiling.
fn capture(belief: &mut Belief, alias: &str, tally: &mut Captures) {
    if belief.aliases.iter().any(|a| a == alias) {
        return;
    }
    if belief.aliases.len() >= ALIAS_CEILING {
        tally.over_ceiling += 1;
        return;
    }
    belief.aliases.push(alias.to_string());
    tally.added += 1;
}

/// The items of `before` whose aliases `after` (the same corpus, captured) changed.
fn aliased<'a>(before: &'a [Belief], after: &[Belief]) -> Vec<&'a Belief> {
    before
        .iter()
        .zip(after)
        .filter(|(a, b)| a.aliases.len() != b.aliases.len())
        .map(|(a, _)| a)
        .collect()
}

/// The corpus after capturing each learning question (with gold) as an alias of the items
/// `targets` names for it (corpus indexes, given the question and its gold ids), in file order.
fn captured(
    suite: &Suite,
    qrels: &Qrels,
    learning: &[usize],
    mut targets: impl FnMut(&StaticCase, &[String]) -> Vec<usize>,
) -> (Vec<Belief>, Captures) {
    let mut corpus = suite.corpus.clone();
    let mut tally = Captures::default();
    for &i in learning {
        let case = &suite.cases[i];
        let Some(j) = qrels.get(&case.case_id, None) else {
            continue;
        };
        for k in targets(case, &j.relevant) {
            capture(&mut corpus[k], &case.query, &mut tally);
        }
    }
    tally.items = aliased(&suite.corpus, &corpus).len();
    (corpus, tally)
}

/// The corpus after the capture over the learning half: each learning question appended as an
/// alias to each of its gold items, in file order.
pub fn learn(suite: &Suite, qrels: &Qrels, learning: &[usize]) -> (Vec<Belief>, Captures) {
    let at: HashMap<&str, usize> = suite
        .corpus
        .iter()
        .enumerate()
        .map(|(i, b)| (b.id.as_str(), i))
        .collect();
    captured(suite, qrels, learning, |_, gold| {
        gold.iter()
            .filter_map(|id| at.get(id.as_str()).copied())
            .collect()
    })
}

/// The control: the same captures (each learning question, once per gold item) given to items
/// of the question's user drawn uniformly at random (ChaCha8 from `seed`).
pub fn control(
    suite: &Suite,
    qrels: &Qrels,
    learning: &[usize],
    seed: u64,
) -> (Vec<Belief>, Captures) {
    let mut by_user: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, b) in suite.corpus.iter().enumerate() {
        by_user.entry(b.user_id.as_str()).or_default().push(i);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_c0de);
    captured(suite, qrels, learning, |case, gold| {
        match by_user.get(user_of(case)) {
            Some(items) => gold
                .iter()
                .map(|_| items[below(&mut rng, items.len())])
                .collect(),
            None => Vec::new(),
        }
    })
}

/// One condition over one group of held-out questions.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    /// `all`, `evidence seen`, `evidence unseen`.
    pub group: String,
    /// `none`, `learned`, `random`.
    pub condition: String,
    /// Questions with gold in the group.
    pub questions: usize,
    /// Means of [`MEASURES`], in order (`None` for a group without questions: an audit found
    /// an empty group printed as a mean of 0.000).
    pub means: Vec<Option<f64>>,
    /// Against `none`, per measure: the mean difference and the two-sided p (none for `none`,
    /// and for a group without questions).
    pub versus_none: Vec<Option<(f64, f64)>>,
}

/// The study's outcome.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// The suite's label.
    pub suite: String,
    /// The split's seed.
    pub seed: u64,
    /// Questions in each half (every case, with gold or not).
    pub learning: usize,
    /// Held-out questions.
    pub held_out: usize,
    /// Held-out questions left out as twins of learning ones ([`Split::twins`]).
    pub twins: usize,
    /// What the capture added over the learning half.
    pub learned: Captures,
    /// What the control added.
    pub random: Captures,
    /// Rows: each group, each condition.
    pub rows: Vec<Row>,
}

/// Run the study on `suite` with `seed`; `observer` hears each run's cases.
pub fn measure(suite: &Suite, seed: u64, observer: &mut dyn Observer) -> Result<Outcome> {
    let qrels = Qrels::of(suite);
    let measures = measures();
    let halves = split(suite, seed);
    // Each user's questions are halved: a suite whose users ask one question each (LoCoMo-Plus)
    // has no learning half, and its "learned" rows would be the none rows, printed as measured.
    if halves.learning.is_empty() {
        return Err(crate::error::Error::Usage(format!(
            "alias-learning: no user of {} asks more than one question, so the learning half \
             is empty and nothing can be learned; the study needs users with several questions \
             (LoCoMo, BEAM, a custom suite)",
            suite.label()
        )));
    }
    let (learned_corpus, learned) = learn(suite, &qrels, &halves.learning);
    let (random_corpus, random) = control(suite, &qrels, &halves.learning, seed);
    let aliased: HashSet<&str> = aliased(&suite.corpus, &learned_corpus)
        .into_iter()
        .map(|b| b.id.as_str())
        .collect();

    let mut held = suite.clone();
    held.cases = halves
        .held_out
        .iter()
        .map(|&i| suite.cases[i].clone())
        .collect();
    let factory = BackendConfig::Bm25Text(TextBm25Config::default());
    // Per condition: case id -> each measure's value (questions with gold only).
    let mut scores: Vec<(&str, BTreeMap<String, Vec<f64>>)> = Vec::new();
    for (name, corpus) in [
        ("none", suite.corpus.clone()),
        ("learned", learned_corpus),
        ("random", random_corpus),
    ] {
        held.corpus = corpus;
        let run = run_static(&held, &factory, observer)?;
        let mut by_case = BTreeMap::new();
        for result in &run.results {
            let Some(j) = qrels.get(&result.case_id, None) else {
                continue;
            };
            let values = case_scores(&measures, &result.context.relevant, j);
            if let Some(values) = values.into_iter().collect::<Option<Vec<f64>>>() {
                by_case.insert(result.case_id.clone(), values);
            }
        }
        scores.push((name, by_case));
    }

    let seen = |case_id: &str| {
        qrels
            .get(case_id, None)
            .is_some_and(|j| j.relevant.iter().any(|id| aliased.contains(id.as_str())))
    };
    // Each group: every question, or those whose evidence was (not) seen.
    let groups = [
        ("all", None),
        ("evidence seen", Some(true)),
        ("evidence unseen", Some(false)),
    ];
    let mut rows = Vec::new();
    for (group, want) in groups {
        let base: Vec<(&String, &Vec<f64>)> = scores[0]
            .1
            .iter()
            .filter(|(c, _)| want.is_none_or(|w| seen(c) == w))
            .collect();
        for (condition, by_case) in &scores {
            let values: Vec<&Vec<f64>> = base.iter().map(|(c, _)| &by_case[*c]).collect();
            let means = (0..measures.len())
                .map(|m| mean(values.iter().map(|v| v[m])))
                .collect();
            let versus_none = (0..measures.len())
                .map(|m| {
                    (*condition != "none" && !values.is_empty()).then(|| {
                        let diffs: Vec<f64> = values
                            .iter()
                            .zip(&base)
                            .map(|(v, (_, b))| v[m] - b[m])
                            .collect();
                        let p = paired_randomisation(&diffs, RESAMPLES, seed).p;
                        (mean(diffs.iter().copied()).unwrap_or(0.0), p)
                    })
                })
                .collect();
            rows.push(Row {
                group: group.to_string(),
                condition: condition.to_string(),
                questions: values.len(),
                means,
                versus_none,
            });
        }
    }
    Ok(Outcome {
        suite: suite.label(),
        seed,
        learning: halves.learning.len(),
        held_out: halves.held_out.len(),
        twins: halves.twins.len(),
        learned,
        random,
        rows,
    })
}
