//! Static-case assertions with the upstream failure messages, in the upstream check order
//! (spec §F.1). A case passes iff it has no failures.

use crate::context::Context;
use crate::profile::Fidelity;
use crate::suite::{Expect, IdsExpect, PreludeExpect, RelevantExpect};

// Absent assertion groups, borrowed instead of building an empty one per case.
static NO_RELEVANT: RelevantExpect = RelevantExpect::NONE;
static NO_IDS: IdsExpect = IdsExpect::NONE;

pub(crate) use crate::profile::Harness;

/// The static checks, one group at a time.
struct StaticChecks<'a> {
    ctx: &'a Context,
    rb: &'a RelevantExpect,
    failures: Vec<String>,
}

impl StaticChecks<'_> {
    fn check(&mut self, ok: bool, message: String) {
        if !ok {
            self.failures.push(message);
        }
    }

    fn in_union(&self, id: &String) -> bool {
        self.ctx.pinned.contains(id) || self.ctx.relevant.contains(id)
    }

    fn must_include(&mut self) {
        for id in &self.rb.must_include {
            match self.rb.within_top {
                None => {
                    let ok = self.in_union(id);
                    self.check(ok, format!("missing expected belief: {id}"));
                }
                Some(n) => {
                    let ok = self.ctx.relevant.iter().take(n).any(|r| r == id);
                    self.check(ok, format!("missing expected belief in the top {n}: {id}"));
                }
            }
        }
    }

    fn must_exclude(&mut self) {
        for id in &self.rb.must_exclude {
            let ok = !self.in_union(id);
            self.check(ok, format!("forbidden belief surfaced: {id}"));
        }
    }

    fn counts(&mut self) {
        let count = self.ctx.relevant.len();
        if let Some(max) = self.rb.max_count {
            self.check(
                count as u64 <= max,
                format!("relevantBeliefs count {count} > maxCount {max}"),
            );
        }
        if let Some(min) = self.rb.min_count {
            self.check(
                count as u64 >= min,
                format!("relevantBeliefs count {count} < minCount {min}"),
            );
        }
    }

    fn should_only_include(&mut self) {
        let (ctx, rb) = (self.ctx, self.rb);
        if let Some(only) = &rb.should_only_include {
            for id in &ctx.relevant {
                self.check(
                    only.contains(id),
                    format!("unexpected belief in relevantBeliefs: {id}"),
                );
            }
            for id in dedup(only) {
                self.check(
                    ctx.relevant.contains(id),
                    format!("missing expected belief: {id}"),
                );
            }
        }
    }

    fn pinned(&mut self, pf: &IdsExpect) {
        for id in &pf.must_include {
            let ok = self.ctx.pinned.contains(id);
            self.check(ok, format!("missing pinned belief: {id}"));
        }
        for id in &pf.must_exclude {
            let ok = !self.ctx.pinned.contains(id);
            self.check(ok, format!("forbidden belief in pinnedFacts: {id}"));
        }
    }

    fn should_include(&mut self) {
        for id in &self.rb.should_include {
            let ok = self.in_union(id);
            self.check(ok, format!("expected belief missing (shouldInclude): {id}"));
        }
    }

    fn ordered_before(&mut self) {
        let ctx = self.ctx;
        for (a, b) in &self.rb.ordered_before {
            let ia = ctx.relevant.iter().position(|x| x == a);
            let ib = ctx.relevant.iter().position(|x| x == b);
            self.check(
                ia.is_some(),
                format!("orderedBefore: {a} not in relevantBeliefs"),
            );
            self.check(
                ib.is_some(),
                format!("orderedBefore: {b} not in relevantBeliefs"),
            );
            if let (Some(ia), Some(ib)) = (ia, ib) {
                self.check(
                    ia < ib,
                    format!("ranking: {a} (idx {ia}) should precede {b} (idx {ib})"),
                );
            }
        }
    }

    fn questions(&mut self, oq: &IdsExpect) {
        for id in &oq.must_include {
            let ok = self.ctx.questions.contains(id);
            self.check(ok, format!("missing expected question: {id}"));
        }
        for id in &oq.must_exclude {
            let ok = !self.ctx.questions.contains(id);
            self.check(ok, format!("forbidden question surfaced: {id}"));
        }
    }
}

/// Every failure of `expect` on `ctx`, in the check order of `fidelity`'s harness.
pub(crate) fn check_static(expect: &Expect, ctx: &Context, fidelity: Fidelity) -> Vec<String> {
    let mut c = StaticChecks {
        ctx,
        rb: expect.relevant_beliefs.as_ref().unwrap_or(&NO_RELEVANT),
        failures: Vec::new(),
    };
    let pf = expect.pinned_facts.as_ref().unwrap_or(&NO_IDS);
    let oq = expect.open_questions.as_ref().unwrap_or(&NO_IDS);
    match fidelity.harness() {
        Harness::Tenure => {
            c.must_include();
            c.must_exclude();
            c.counts();
            c.should_only_include();
            c.pinned(pf);
            c.should_include();
            c.ordered_before();
        }
        Harness::External => {
            c.must_include();
            c.must_exclude();
            c.should_include();
            c.should_only_include();
            c.counts();
            c.ordered_before();
            c.pinned(pf);
        }
    }
    c.questions(oq);
    let mut check = |ok: bool, message: String| c.check(ok, message);
    if let Some(pp) = &expect.persona_prelude {
        check_prelude(&mut check, "personaPrelude", pp, Some(&ctx.persona_prelude));
    }
    // PAPER checked a scope prelude the context no longer has: it reads as undefined.
    if let (Some(sp), true) = (&expect.scope_prelude, fidelity.checks_scope_prelude()) {
        check_prelude(&mut check, "scopePrelude", sp, None);
    }
    c.failures
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
pub(crate) fn dedup(ids: &[String]) -> Vec<&String> {
    let mut seen: Vec<&String> = Vec::with_capacity(ids.len());
    for id in ids {
        if !seen.contains(&id) {
            seen.push(id);
        }
    }
    seen
}

/// How a harness words session failures.
struct TurnWords {
    missing_only: &'static str,
    missing: &'static str,
    forbidden: &'static str,
    missing_pinned: &'static str,
    forbidden_pinned: &'static str,
    missing_question: &'static str,
    forbidden_question: &'static str,
}

const TENURE_WORDS: TurnWords = TurnWords {
    missing_only: "missing expected relevant belief",
    missing: "missing expected belief",
    forbidden: "forbidden belief surfaced",
    missing_pinned: "missing pinned belief",
    forbidden_pinned: "forbidden pinned belief",
    missing_question: "missing expected question",
    forbidden_question: "forbidden question surfaced",
};

// provider-http spec §6.3 (SS:252-325).
const EXTERNAL_WORDS: TurnWords = TurnWords {
    missing_only: "missing expected belief",
    missing: "missing belief",
    forbidden: "forbidden belief",
    missing_pinned: "missing pinned",
    forbidden_pinned: "forbidden pinned",
    missing_question: "missing question",
    forbidden_question: "forbidden question",
};

/// Failures of one session turn and the noise beliefs that surfaced (spec §F.2), in check order.
pub(crate) fn check_turn(
    turn_index: i64,
    expect: &crate::suite::TurnExpect,
    ctx: &Context,
    harness: Harness,
) -> (Vec<String>, Vec<String>) {
    let w = match harness {
        Harness::Tenure => &TENURE_WORDS,
        Harness::External => &EXTERNAL_WORDS,
    };
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
                    format!("turn {t}: {}: {id}", w.missing_only),
                );
            }
        }
        for id in &rb.must_include {
            check(surfaced(id), format!("turn {t}: {}: {id}", w.missing));
        }
        for id in &rb.must_exclude {
            check(!surfaced(id), format!("turn {t}: {}: {id}", w.forbidden));
        }
    }
    if let Some(pf) = &expect.pinned_facts {
        for id in &pf.must_include {
            check(
                ctx.pinned.contains(id),
                format!("turn {t}: {}: {id}", w.missing_pinned),
            );
        }
        for id in &pf.must_exclude {
            check(
                !ctx.pinned.contains(id),
                format!("turn {t}: {}: {id}", w.forbidden_pinned),
            );
        }
    }
    if let Some(oq) = &expect.open_questions {
        for id in &oq.must_include {
            check(
                ctx.questions.contains(id),
                format!("turn {t}: {}: {id}", w.missing_question),
            );
        }
        for id in &oq.must_exclude {
            check(
                !ctx.questions.contains(id),
                format!("turn {t}: {}: {id}", w.forbidden_question),
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
