//! Claims C3 and C4, which need the vector side: cosine precision as the store grows, and
//! whether alias-BM25 and cosine run in opposite directions.

use super::super::metrics::SessionMetrics;
use super::super::vector::VectorRow;
use super::{coverage_ends, coverage_grows, f2, shown, Claim, Evidence, Verdict};

/// Each system's rows, in size order.
fn systems(rows: &[VectorRow]) -> Vec<(&str, Vec<&VectorRow>)> {
    let mut out: Vec<(&str, Vec<&VectorRow>)> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|(s, _)| *s == r.system) {
            Some((_, v)) => v.push(r),
            None => out.push((&r.system, vec![r])),
        }
    }
    out
}

fn curve(rows: &[&VectorRow]) -> String {
    rows.iter()
        .map(|r| {
            let p = f2(r.precision);
            format!("{}: {p}", r.beliefs)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// First and last precision of a curve, over the sizes where it retrieved anything (a high
/// floor retrieves nothing from a small store).
fn ends(rows: &[&VectorRow]) -> Option<(f64, f64)> {
    let mut defined = rows.iter().filter_map(|r| r.precision);
    let first = defined.next()?;
    Some((first, defined.next_back().unwrap_or(first)))
}

/// C3 and C4.
pub(crate) fn c3_c4(e: &Evidence, all: &[SessionMetrics]) -> Vec<Claim> {
    let c3_essay = "Vector search gets worse as the store grows (one domain's beliefs sit close \
                    together); the essay's illustration: 10 beliefs moderate precision, 50 low, \
                    200 about 0.05.";
    let c4_essay = "The two curves run in opposite directions: \"precision improves as the store \
                    grows\" for alias-BM25 while vector search degrades.";
    let Some(rows) = e.vector else {
        let missing = |id, essay| Claim {
            id,
            essay,
            measured: "not measured: run with --vector (needs an embedding model)".into(),
            parameters: "-".into(),
            verdict: Verdict::NotMeasured,
        };
        return vec![missing("C3", c3_essay), missing("C4", c4_essay)];
    };
    // One store size has nothing to grow: C3 and C4 compare sizes.
    let mut sizes: Vec<usize> = rows.iter().map(|r| r.beliefs).collect();
    sizes.sort_unstable();
    sizes.dedup();
    if sizes.len() < 2 {
        let one = |id, essay| Claim {
            id,
            essay,
            measured: format!("not measured: one store size ({sizes:?}); give --sizes two or more"),
            parameters: "-".into(),
            verdict: Verdict::NotMeasured,
        };
        return vec![one("C3", c3_essay), one("C4", c4_essay)];
    }
    let systems = systems(rows);
    let cosine: Vec<&(&str, Vec<&VectorRow>)> = systems
        .iter()
        .filter(|(s, _)| s.starts_with("cosine"))
        .collect();
    let falls = |rows: &[&VectorRow]| ends(rows).is_some_and(|(a, b)| shown(b) < shown(a));
    let all_fall = !cosine.is_empty() && cosine.iter().all(|(_, r)| falls(r));
    let some_fall = cosine.iter().any(|(_, r)| falls(r));
    let c3_measured = cosine
        .iter()
        .map(|(s, r)| format!("{s}: {}", curve(r)))
        .collect::<Vec<_>>()
        .join("; ");
    let p = e.params;
    let parameters = format!(
        "same stores and queries for both (one query per belief, its user's most used form; \
         seed {}, forms {}, collision {}); limit {}; floors on (1 + cos) / 2",
        p.seed, p.forms, p.collision, p.limit
    );
    let bm25 = systems
        .iter()
        .find(|(s, _)| *s == "bm25")
        .map(|(_, r)| r.as_slice());
    let bm25_holds = bm25
        .and_then(ends)
        .is_some_and(|(a, b)| shown(b) >= shown(a));
    let (first, last) = coverage_ends(all);
    let cos_plain = cosine
        .iter()
        .find(|(s, _)| *s == "cosine")
        .map(|(_, r)| r.as_slice());
    let cos_falls = cos_plain.is_some_and(falls);
    vec![
        Claim {
            id: "C3",
            essay: c3_essay,
            measured: format!("precision by store size, {c3_measured}"),
            parameters: parameters.clone(),
            verdict: match (all_fall, some_fall) {
                (true, _) => Verdict::Holds,
                (false, true) => Verdict::Partly,
                _ => Verdict::Fails,
            },
        },
        Claim {
            id: "C4",
            essay: c4_essay,
            measured: format!(
                "bm25 precision by store size {}; cosine {}; bm25 coverage with use (variant \
                 all) {} -> {}",
                bm25.map_or("-".into(), curve),
                cos_plain.map_or("-".into(), curve),
                f2(first),
                f2(last),
            ),
            parameters,
            verdict: match (bm25_holds, cos_falls && coverage_grows(all)) {
                (true, true) => Verdict::Holds,
                (false, true) => Verdict::Partly,
                _ => Verdict::Fails,
            },
        },
    ]
}
