//! Static-case assertions with the upstream failure messages, in the upstream check order
//! (spec §F.1). A case passes iff it has no failures.

use crate::context::Context;
use crate::profile::Profile;
use crate::suite::{Expect, IdsExpect, PreludeExpect, RelevantExpect};

// Absent assertion groups, borrowed instead of building an empty one per case.
static NO_RELEVANT: RelevantExpect = RelevantExpect::NONE;
static NO_IDS: IdsExpect = IdsExpect::NONE;

/// Every failure of `expect` on `ctx`, in check order.
pub fn check_static(expect: &Expect, ctx: &Context, profile: Profile) -> Vec<String> {
    let mut failures = Vec::new();
    let mut check = |ok: bool, message: String| {
        if !ok {
            failures.push(message);
        }
    };
    let in_union = |id: &String| ctx.pinned.contains(id) || ctx.relevant.contains(id);
    let rb = expect.relevant_beliefs.as_ref().unwrap_or(&NO_RELEVANT);
    for id in &rb.must_include {
        check(in_union(id), format!("missing expected belief: {id}"));
    }
    for id in &rb.must_exclude {
        check(!in_union(id), format!("forbidden belief surfaced: {id}"));
    }
    let count = ctx.relevant.len();
    if let Some(max) = rb.max_count {
        check(
            count as u64 <= max,
            format!("relevantBeliefs count {count} > maxCount {max}"),
        );
    }
    if let Some(min) = rb.min_count {
        check(
            count as u64 >= min,
            format!("relevantBeliefs count {count} < minCount {min}"),
        );
    }
    if let Some(only) = &rb.should_only_include {
        for id in &ctx.relevant {
            check(
                only.contains(id),
                format!("unexpected belief in relevantBeliefs: {id}"),
            );
        }
        for id in dedup(only) {
            check(
                ctx.relevant.contains(id),
                format!("missing expected belief: {id}"),
            );
        }
    }
    let pf = expect.pinned_facts.as_ref().unwrap_or(&NO_IDS);
    for id in &pf.must_include {
        check(
            ctx.pinned.contains(id),
            format!("missing pinned belief: {id}"),
        );
    }
    for id in &pf.must_exclude {
        check(
            !ctx.pinned.contains(id),
            format!("forbidden belief in pinnedFacts: {id}"),
        );
    }
    for id in &rb.should_include {
        check(
            in_union(id),
            format!("expected belief missing (shouldInclude): {id}"),
        );
    }
    for (a, b) in &rb.ordered_before {
        let ia = ctx.relevant.iter().position(|x| x == a);
        let ib = ctx.relevant.iter().position(|x| x == b);
        check(
            ia.is_some(),
            format!("orderedBefore: {a} not in relevantBeliefs"),
        );
        check(
            ib.is_some(),
            format!("orderedBefore: {b} not in relevantBeliefs"),
        );
        if let (Some(ia), Some(ib)) = (ia, ib) {
            check(
                ia < ib,
                format!("ranking: {a} (idx {ia}) should precede {b} (idx {ib})"),
            );
        }
    }
    let oq = expect.open_questions.as_ref().unwrap_or(&NO_IDS);
    for id in &oq.must_include {
        check(
            ctx.questions.contains(id),
            format!("missing expected question: {id}"),
        );
    }
    for id in &oq.must_exclude {
        check(
            !ctx.questions.contains(id),
            format!("forbidden question surfaced: {id}"),
        );
    }
    if let Some(pp) = &expect.persona_prelude {
        check_prelude(&mut check, "personaPrelude", pp, Some(&ctx.persona_prelude));
    }
    // PAPER checked a scope prelude the context no longer has: it reads as undefined.
    if let (Some(sp), Profile::Paper) = (&expect.scope_prelude, profile) {
        check_prelude(&mut check, "scopePrelude", sp, None);
    }
    failures
}

fn check_prelude(
    check: &mut impl FnMut(bool, String),
    name: &str,
    expect: &PreludeExpect,
    text: Option<&str>,
) {
    if expect.non_empty {
        check(text.is_some_and(|t| !t.is_empty()), format!("{name} empty"));
    }
    if expect.is_null {
        check(
            text.is_none_or(|t| t.is_empty()),
            format!("{name} not empty"),
        );
    }
    for s in &expect.contains {
        check(
            text.is_some_and(|t| t.contains(s.as_str())),
            format!("{name} missing \"{s}\""),
        );
    }
    for s in &expect.must_not_contain {
        check(
            text.is_none_or(|t| !t.contains(s.as_str())),
            format!("{name} contains \"{s}\""),
        );
    }
}

/// Ids in first-occurrence order without repeats (a JS `Set` built from an array).
pub fn dedup(ids: &[String]) -> Vec<&String> {
    let mut seen: Vec<&String> = Vec::with_capacity(ids.len());
    for id in ids {
        if !seen.contains(&id) {
            seen.push(id);
        }
    }
    seen
}

/// Failures of one session turn and the noise beliefs that surfaced (spec §F.2), in check order.
pub fn check_turn(
    turn_index: i64,
    expect: &crate::suite::TurnExpect,
    ctx: &Context,
) -> (Vec<String>, Vec<String>) {
    let mut failures = Vec::new();
    let mut check = |ok: bool, message: String| {
        if !ok {
            failures.push(message);
        }
    };
    let surfaced = |id: &String| ctx.relevant.contains(id) || ctx.pinned.contains(id);
    let t = turn_index;
    if let Some(rb) = &expect.relevant_beliefs {
        if let Some(only) = &rb.should_only_include {
            for id in &ctx.relevant {
                check(
                    only.contains(id),
                    format!("turn {t}: unexpected relevant belief: {id}"),
                );
            }
            for id in dedup(only) {
                check(
                    ctx.relevant.contains(id),
                    format!("turn {t}: missing expected relevant belief: {id}"),
                );
            }
        }
        for id in &rb.must_include {
            check(
                surfaced(id),
                format!("turn {t}: missing expected belief: {id}"),
            );
        }
        for id in &rb.must_exclude {
            check(
                !surfaced(id),
                format!("turn {t}: forbidden belief surfaced: {id}"),
            );
        }
    }
    if let Some(pf) = &expect.pinned_facts {
        for id in &pf.must_include {
            check(
                ctx.pinned.contains(id),
                format!("turn {t}: missing pinned belief: {id}"),
            );
        }
        for id in &pf.must_exclude {
            check(
                !ctx.pinned.contains(id),
                format!("turn {t}: forbidden pinned belief: {id}"),
            );
        }
    }
    if let Some(oq) = &expect.open_questions {
        for id in &oq.must_include {
            check(
                ctx.questions.contains(id),
                format!("turn {t}: missing expected question: {id}"),
            );
        }
        for id in &oq.must_exclude {
            check(
                !ctx.questions.contains(id),
                format!("turn {t}: forbidden question surfaced: {id}"),
            );
        }
    }
    let mut noise = Vec::new();
    if let Some(nc) = &expect.noise_check {
        for id in nc.must_not_surface.iter().filter(|id| surfaced(id)) {
            noise.push(id.clone());
            failures.push(format!("turn {t}: noise belief surfaced: {id}"));
        }
    }
    (failures, noise)
}
