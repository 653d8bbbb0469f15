//! Cross-record checks serde cannot express: unique ids, assertions that name beliefs absent
//! from the corpus, and the order of session mutations.

use super::{IdsExpect, Suite, DEFAULT_USER};
use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet};
use std::path::Path;

mod impossible;
mod records;
use impossible::never_passes;

/// A turn's assertion groups.
const TURN_KEYS: &[&str] = &[
    "relevantBeliefs",
    "pinnedFacts",
    "openQuestions",
    "noiseCheck",
];
/// A turn's `relevantBeliefs` assertions.
const RELEVANT_KEYS: &[&str] = &["shouldOnlyInclude", "mustInclude", "mustExclude"];
/// Keys upstream's own session files hold and its harness ignores: they load with a warning
/// (`topicRetrieval`; the `pinnedFacts` that turn 10 nests inside `relevantBeliefs`). Any
/// other unknown key is an error, as in static cases: a misspelt assertion would pass.
const UPSTREAM_TURN_KEYS: &[&str] = &["topicRetrieval"];
const UPSTREAM_RELEVANT_KEYS: &[&str] = &["pinnedFacts"];

/// Check `suite`; return warnings for things that load but are ignored.
pub(crate) fn validate(
    suite: &Suite,
    corpus: &Path,
    cases: &Path,
    sessions: &Path,
) -> Result<Vec<String>> {
    let mut known: HashSet<&str> = HashSet::new();
    if suite.corpus.is_empty() {
        return Err(Error::input(
            corpus,
            "$",
            "empty corpus; expected an array of at least one belief",
        ));
    }
    records::beliefs(suite, corpus)?;
    let mut first_at: HashMap<&str, usize> = HashMap::new();
    for (i, belief) in suite.corpus.iter().enumerate() {
        if let Some(j) = first_at.insert(&belief.id, i) {
            return Err(Error::input(
                corpus,
                format!("$[{i}]._id"),
                format!(
                    "duplicate belief id {:?} (first at $[{j}]); expected unique ids",
                    belief.id
                ),
            ));
        }
        // Tenure's confidence is a probability: an audit found 1e308 read as 1 and -5 drop the
        // belief from the composite scorer's context, both in silence.
        if let Some(c) = belief.confidence.filter(|c| !(0.0..=1.0).contains(c)) {
            return Err(Error::input(
                corpus,
                format!("$[{i}].confidence"),
                format!("{c}; expected a confidence in [0, 1]"),
            ));
        }
        known.insert(&belief.id);
    }

    if suite.cases.is_empty() {
        return Err(Error::input(
            cases,
            "$",
            "no cases; expected an array of at least one case",
        ));
    }
    let mut case_at: HashMap<&str, usize> = HashMap::new();
    for (i, case) in suite.cases.iter().enumerate() {
        records::id(cases, format!("$[{i}].caseId"), &case.case_id, "case id")?;
        if let Some(j) = case_at.insert(&case.case_id, i) {
            return Err(Error::input(
                cases,
                format!("$[{i}].caseId"),
                format!(
                    "duplicate case id {:?} (first at $[{j}]); expected unique ids",
                    case.case_id
                ),
            ));
        }
    }

    if !sessions.as_os_str().is_empty() && suite.sessions.is_empty() {
        return Err(Error::input(
            sessions,
            "$",
            "no session cases; expected an array of at least one session case (or no --sessions)",
        ));
    }
    if let Some(c) = suite.sessions.iter().position(|s| s.turns.is_empty()) {
        return Err(Error::input(
            sessions,
            format!("$[{c}].turns"),
            "no turns; expected at least one turn",
        ));
    }

    // Session mutations replay in file order across cases, as upstream shares one store.
    let mut warnings = Vec::new();
    let mut live: HashSet<&str> = known.clone();
    let mut session_at: HashMap<&str, usize> = HashMap::new();
    for (c, case) in suite.sessions.iter().enumerate() {
        records::id(
            sessions,
            format!("$[{c}].caseId"),
            &case.case_id,
            "session case id",
        )?;
        if let Some(j) = session_at.insert(&case.case_id, c) {
            return Err(Error::input(
                sessions,
                format!("$[{c}].caseId"),
                format!(
                    "duplicate session case id {:?} (first at $[{j}]); expected unique ids",
                    case.case_id
                ),
            ));
        }
        let mut previous: Option<i64> = None;
        for (t, turn) in case.turns.iter().enumerate() {
            let at = format!("$[{c}].turns[{t}]");
            if let Some(p) = previous.filter(|&p| turn.turn_index <= p) {
                return Err(Error::input(
                    sessions,
                    format!("{at}.turnIndex"),
                    format!(
                        "turnIndex {} after {p}; expected strictly increasing turn indexes",
                        turn.turn_index
                    ),
                ));
            }
            previous = Some(turn.turn_index);
            if let Some(created) = &turn.create_belief_at_turn {
                // Session turns search as the default user: another user's belief is a dead
                // mutation, and a check that it does not surface always holds (a fourteenth
                // audit).
                if created.user_id != DEFAULT_USER {
                    warnings.push(format!(
                        "{}: {at}.createBeliefAtTurn.user_id: {:?} is created for user {:?}, and \
                         session turns search as {DEFAULT_USER:?}: no turn can retrieve it",
                        sessions.display(),
                        created.id,
                        created.user_id
                    ));
                }
                if !live.insert(&created.id) {
                    return Err(Error::input(
                        sessions,
                        format!("{at}.createBeliefAtTurn._id"),
                        format!(
                            "belief {:?} already exists at this point; expected a new id",
                            created.id
                        ),
                    ));
                }
            }
            if let Some(update) = &turn.update_belief_at_turn {
                records::update(sessions, format!("{at}.updateBeliefAtTurn"), update)?;
                if !live.contains(update.belief_id.as_str()) {
                    return Err(Error::input(
                        sessions,
                        format!("{at}.updateBeliefAtTurn.beliefId"),
                        format!(
                            "belief {:?} does not exist at this point; expected a corpus id or one created by an earlier turn",
                            update.belief_id
                        ),
                    ));
                }
            }
            let groups = [
                (
                    format!("{at}.expect"),
                    Some(&turn.expect.ignored),
                    TURN_KEYS,
                    UPSTREAM_TURN_KEYS,
                ),
                (
                    format!("{at}.expect.relevantBeliefs"),
                    turn.expect.relevant_beliefs.as_ref().map(|rb| &rb.ignored),
                    RELEVANT_KEYS,
                    UPSTREAM_RELEVANT_KEYS,
                ),
            ];
            for (at, ignored, expected, upstream) in groups {
                for key in ignored.into_iter().flat_map(|m| m.keys()) {
                    if key.starts_with('_') || upstream.contains(&key.as_str()) {
                        if !key.starts_with('_') {
                            warnings.push(format!(
                                "{}: {at}.{key}: not an assertion upstream evaluates; ignored",
                                sessions.display()
                            ));
                        }
                        continue;
                    }
                    return Err(Error::input(
                        sessions,
                        format!("{at}.{key}"),
                        format!(
                            "unknown assertion key `{key}`, expected one of {} (or a `_`-prefixed note)",
                            expected.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
            }
        }
    }

    // Pinned beliefs come in the pinned tier, which `maxCount` does not count.
    let pinned: HashSet<&str> = (suite.corpus.iter())
        .filter(|b| b.pinned)
        .map(|b| b.id.as_str())
        .collect();
    let by_id: HashMap<&str, &crate::suite::Belief> =
        suite.corpus.iter().map(|b| (b.id.as_str(), b)).collect();
    // Assertions may name any belief that exists at some point of the run.
    for (i, case) in suite.cases.iter().enumerate() {
        let e = &case.expect;
        let at = format!("$[{i}].expect");
        // Static cases run on the seed corpus: a belief only a session creates is never there.
        let unseeded = (case.expect.relevant_beliefs.iter())
            .flat_map(|rb| &rb.must_include)
            .find(|id| !known.contains(id.as_str()));
        if let Some(id) = unseeded {
            warnings.push(format!(
                "{}: {at}.relevantBeliefs.mustInclude: case {:?} can never pass ({id:?} is \
                 created by a session only, and static cases run on the seed corpus)",
                cases.display(),
                case.case_id
            ));
        }
        for why in never_passes(case, &pinned, &by_id) {
            warnings.push(format!(
                "{}: {at}: case {:?} can never pass ({why}): every backend fails it",
                cases.display(),
                case.case_id
            ));
        }
        if let Some(rb) = &e.relevant_beliefs {
            let at = format!("{at}.relevantBeliefs");
            check_ids(cases, &live, &format!("{at}.mustInclude"), &rb.must_include)?;
            check_ids(cases, &live, &format!("{at}.mustExclude"), &rb.must_exclude)?;
            check_ids(
                cases,
                &live,
                &format!("{at}.shouldInclude"),
                &rb.should_include,
            )?;
            if let Some(only) = &rb.should_only_include {
                check_ids(cases, &live, &format!("{at}.shouldOnlyInclude"), only)?;
            }
            for (k, (a, b)) in rb.ordered_before.iter().enumerate() {
                check_ids(
                    cases,
                    &live,
                    &format!("{at}.orderedBefore[{k}]"),
                    &[a.clone(), b.clone()],
                )?;
            }
        }
        check_tier(
            cases,
            &live,
            &format!("{at}.pinnedFacts"),
            e.pinned_facts.as_ref(),
        )?;
        check_tier(
            cases,
            &live,
            &format!("{at}.openQuestions"),
            e.open_questions.as_ref(),
        )?;
    }
    for (c, case) in suite.sessions.iter().enumerate() {
        for (t, turn) in case.turns.iter().enumerate() {
            let at = format!("$[{c}].turns[{t}].expect");
            let e = &turn.expect;
            if let Some(rb) = &e.relevant_beliefs {
                let at = format!("{at}.relevantBeliefs");
                check_ids(
                    sessions,
                    &live,
                    &format!("{at}.mustInclude"),
                    &rb.must_include,
                )?;
                check_ids(
                    sessions,
                    &live,
                    &format!("{at}.mustExclude"),
                    &rb.must_exclude,
                )?;
                if let Some(only) = &rb.should_only_include {
                    check_ids(sessions, &live, &format!("{at}.shouldOnlyInclude"), only)?;
                }
            }
            check_tier(
                sessions,
                &live,
                &format!("{at}.pinnedFacts"),
                e.pinned_facts.as_ref(),
            )?;
            check_tier(
                sessions,
                &live,
                &format!("{at}.openQuestions"),
                e.open_questions.as_ref(),
            )?;
            if let Some(noise) = &e.noise_check {
                check_ids(
                    sessions,
                    &live,
                    &format!("{at}.noiseCheck.mustNotSurface"),
                    &noise.must_not_surface,
                )?;
            }
        }
    }
    warnings.extend(records::dangling_successors(suite, corpus, &live));
    warnings.extend(default_user_without_beliefs(suite, corpus));
    Ok(warnings)
}

/// Cases that leave `userId` out search as `test-user`; a corpus written for another user
/// would score 0 everywhere without a word. (A case that names a user without beliefs, as
/// pmb's cold-start case does, means it.)
fn default_user_without_beliefs(suite: &Suite, corpus: &Path) -> Option<String> {
    let relying = suite.cases.iter().filter(|c| c.user_id.is_none()).count();
    let owned = |user: &str| {
        suite.corpus.iter().any(|b| b.user_id == user)
            || suite
                .sessions
                .iter()
                .flat_map(|s| &s.turns)
                .filter_map(|t| t.create_belief_at_turn.as_ref())
                .any(|b| b.user_id == user)
    };
    if relying == 0 || owned(DEFAULT_USER) {
        return None;
    }
    let mut users: Vec<&str> = suite.corpus.iter().map(|b| b.user_id.as_str()).collect();
    users.sort_unstable();
    users.dedup();
    Some(format!(
        "{}: no belief belongs to {DEFAULT_USER:?}, the user of the {relying} cases without \
         `userId`; they will retrieve nothing (the corpus's users: {}). Set `userId` in the \
         cases, or `user_id` in the beliefs",
        corpus.display(),
        users.join(", ")
    ))
}

fn check_tier(
    file: &Path,
    known: &HashSet<&str>,
    at: &str,
    tier: Option<&IdsExpect>,
) -> Result<()> {
    if let Some(tier) = tier {
        check_ids(
            file,
            known,
            &format!("{at}.mustInclude"),
            &tier.must_include,
        )?;
        check_ids(
            file,
            known,
            &format!("{at}.mustExclude"),
            &tier.must_exclude,
        )?;
    }
    Ok(())
}

fn check_ids(file: &Path, known: &HashSet<&str>, at: &str, ids: &[String]) -> Result<()> {
    match ids.iter().position(|id| !known.contains(id.as_str())) {
        None => Ok(()),
        Some(k) => Err(Error::input(
            file,
            format!("{at}[{k}]"),
            format!("belief id {:?} is not in the corpus; expected the _id of a seed belief (or one a session creates)", ids[k]),
        )),
    }
}
