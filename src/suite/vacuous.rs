//! Cases that assert nothing. An `expect` or assertion group written as `{}` is an input
//! error: a case that checks nothing passes whatever is retrieved, silently. A group that
//! spells out only empty lists (upstream's own `recency-tiebreak-reinforcement` has
//! `"pinnedFacts": {"mustInclude": []}` and nothing else) loads, with a warning, so that
//! upstream's files load as they are.

use super::case::{Expect, IdsExpect, PreludeExpect, RelevantExpect};
use super::session::TurnExpect;
use super::Suite;
use crate::error::{Error, Result};
use std::path::Path;

const STATIC_GROUPS: &str =
    "relevantBeliefs, pinnedFacts, openQuestions, personaPrelude, scopePrelude";
const TURN_GROUPS: &str = "relevantBeliefs, pinnedFacts, openQuestions, noiseCheck";

/// Refuse `{}` where assertions belong, in a cases file (`sessions`: a session file) as
/// written: `$[i].expect` (or `$[i].turns[t].expect`) and each group in it. Keys starting with
/// `_` are notes and do not count.
pub(crate) fn refuse_empty(file: &Path, bytes: &[u8], sessions: bool) -> Result<()> {
    // Only the keys of each `expect` and of its groups are read (not a JSON tree of the file:
    // a 100,000-case file would cost 400 MB as one).
    let Ok(cases) = serde_json::from_slice::<Vec<CaseShape>>(bytes) else {
        return Ok(()); // typed parsing already refused it
    };
    let mut expects = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if sessions {
            for (t, turn) in case.turns.iter().enumerate() {
                let at = format!("$[{i}].turns[{t}]");
                // A turn without `expect` checks nothing and passes whatever is retrieved, as
                // `{}` would (an audit found a file of such turns "passed 12/12"); upstream's
                // own turns all have one.
                let Some(expect) = &turn.expect else {
                    return Err(Error::input(
                        file,
                        at,
                        format!("no \"expect\"; expected one with at least one of {TURN_GROUPS}"),
                    ));
                };
                expects.push((format!("{at}.expect"), expect));
            }
        } else if let Some(expect) = &case.expect {
            expects.push((format!("$[{i}].expect"), expect));
        }
    }
    let groups = if sessions { TURN_GROUPS } else { STATIC_GROUPS };
    for (at, expect) in expects {
        let Group::Object { keys, empty } = expect else {
            continue;
        };
        if !keys.iter().any(|k| !k.starts_with('_')) {
            return Err(Error::input(
                file,
                at,
                format!("no assertion; expected at least one of {groups}"),
            ));
        }
        if let Some(key) = empty.first() {
            return Err(Error::input(
                file,
                format!("{at}.{key}"),
                "empty assertion group; expected at least one assertion (mustInclude, ...)",
            ));
        }
    }
    Ok(())
}

/// What [`refuse_empty`] reads of a case or turn.
#[derive(serde::Deserialize)]
struct CaseShape {
    #[serde(default)]
    expect: Option<Group>,
    #[serde(default)]
    turns: Vec<CaseShape>,
}

/// A JSON value as far as emptiness goes: an object's keys, and which of its values are
/// objects without a key that is not a note (`_`); anything else is `Other`.
#[derive(Default)]
enum Group {
    Object {
        keys: Vec<String>,
        empty: Vec<String>,
    },
    #[default]
    Other,
}

impl<'de> serde::Deserialize<'de> for Group {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Group, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Group;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Group, A::Error> {
                let (mut keys, mut empty) = (Vec::new(), Vec::new());
                while let Some(key) = map.next_key::<String>()? {
                    if let Group::Object { keys: inner, .. } = map.next_value::<Group>()? {
                        if !inner.iter().any(|k| !k.starts_with('_')) {
                            empty.push(key.clone());
                        }
                    }
                    keys.push(key);
                }
                Ok(Group::Object { keys, empty })
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Group, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Group::Other)
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<Group, E> {
                Ok(Group::Other)
            }
            fn visit_i64<E>(self, _: i64) -> std::result::Result<Group, E> {
                Ok(Group::Other)
            }
            fn visit_u64<E>(self, _: u64) -> std::result::Result<Group, E> {
                Ok(Group::Other)
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<Group, E> {
                Ok(Group::Other)
            }
            fn visit_str<E>(self, _: &str) -> std::result::Result<Group, E> {
                Ok(Group::Other)
            }
            fn visit_unit<E>(self) -> std::result::Result<Group, E> {
                Ok(Group::Other)
            }
        }
        d.deserialize_any(Visit)
    }
}

/// Warnings for cases and turns whose assertions are all empty lists.
pub(crate) fn warnings(suite: &Suite, cases: &Path, sessions: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for (i, case) in suite.cases.iter().enumerate() {
        if static_asserts_nothing(&case.expect) {
            out.push(format!(
                "{}: $[{i}].expect ({}): asserts nothing (only empty lists); it passes whatever is retrieved",
                cases.display(),
                case.case_id
            ));
        }
    }
    for (c, case) in suite.sessions.iter().enumerate() {
        for (t, turn) in case.turns.iter().enumerate() {
            if turn_asserts_nothing(&turn.expect) {
                out.push(format!(
                    "{}: $[{c}].turns[{t}].expect: asserts nothing (only empty lists); it passes whatever is retrieved",
                    sessions.display()
                ));
            }
        }
    }
    out
}

fn ids_empty(g: Option<&IdsExpect>) -> bool {
    g.is_none_or(|g| g.must_include.is_empty() && g.must_exclude.is_empty())
}

fn relevant_empty(g: Option<&RelevantExpect>) -> bool {
    g.is_none_or(|g| {
        g.must_include.is_empty()
            && g.must_exclude.is_empty()
            && g.should_include.is_empty()
            && g.should_only_include.is_none()
            && g.ordered_before.is_empty()
            && g.max_count.is_none()
            && g.min_count.is_none()
    })
}

fn prelude_empty(g: Option<&PreludeExpect>) -> bool {
    g.is_none_or(|g| {
        !g.non_empty && !g.is_null && g.contains.is_empty() && g.must_not_contain.is_empty()
    })
}

fn static_asserts_nothing(e: &Expect) -> bool {
    relevant_empty(e.relevant_beliefs.as_ref())
        && ids_empty(e.pinned_facts.as_ref())
        && ids_empty(e.open_questions.as_ref())
        && prelude_empty(e.persona_prelude.as_ref())
        && prelude_empty(e.scope_prelude.as_ref())
}

fn turn_asserts_nothing(e: &TurnExpect) -> bool {
    e.relevant_beliefs.as_ref().is_none_or(|g| {
        g.should_only_include.is_none() && g.must_include.is_empty() && g.must_exclude.is_empty()
    }) && ids_empty(e.pinned_facts.as_ref())
        && ids_empty(e.open_questions.as_ref())
        && e.noise_check
            .as_ref()
            .is_none_or(|n| n.must_not_surface.is_empty())
}
