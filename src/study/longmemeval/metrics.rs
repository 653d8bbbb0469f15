//! LongMemEval's retrieval metrics, as its code defines them (xiaowu0162/LongMemEval 9e0b455,
//! src/retrieval/eval_utils.py):
//!
//! - `recall_any@k`: 1 when any gold item is among the first k retrieved, else 0;
//! - `recall_all@k`: 1 when every gold item is;
//! - `ndcg_any@k`: binary relevance, DCG = rel₁ + Σ_{i≥2} relᵢ / log₂ i (its `dcg`: the first
//!   rank undiscounted, the second divided by log₂ 2 = 1, unlike ir_measures' nDCG, which
//!   divides rank i by log₂(i + 1)), over the ideal DCG of the haystack's relevances sorted;
//! - at session level from a turn ranking (`evaluate_retrieval_turn2session`): each turn stands
//!   for its session, the gold is the gold turns' sessions, and k grows until the first k
//!   ranked turns cover k distinct sessions (or the haystack ends); the three above at that k,
//!   the ideal over the haystack's turns mapped to sessions, repeats and all.
//!
//! The ranking is what the backend returned (the report's context); an item it did not return
//! counts as not retrieved.

use std::collections::HashSet;

/// LongMemEval's `dcg(relevances, k)`.
fn dcg(relevances: &[f64], k: usize) -> f64 {
    let r = &relevances[..k.min(relevances.len())];
    match r.split_first() {
        None => 0.0,
        Some((first, rest)) => {
            first
                + rest
                    .iter()
                    .enumerate()
                    .map(|(i, x)| x / ((i + 2) as f64).log2())
                    .sum::<f64>()
        }
    }
}

/// (recall_any, recall_all, ndcg_any) at `k` of `ranking` (item ids, best first) for `gold`,
/// in a haystack holding `haystack_gold` gold items (repeats counted, as `corpus_ids` holds
/// them).
pub(crate) fn evaluate(
    ranking: &[&str],
    gold: &HashSet<&str>,
    haystack_gold: usize,
    k: usize,
) -> [f64; 3] {
    let top = &ranking[..k.min(ranking.len())];
    let recalled: HashSet<&str> = top.iter().copied().collect();
    let any = gold.iter().any(|g| recalled.contains(g));
    let all = gold.iter().all(|g| recalled.contains(g));
    let actual: Vec<f64> = top
        .iter()
        .map(|id| f64::from(u8::from(gold.contains(id))))
        .collect();
    let ideal = vec![1.0; haystack_gold.min(k)];
    let ideal_dcg = dcg(&ideal, k);
    let ndcg = if ideal_dcg == 0.0 {
        0.0
    } else {
        dcg(&actual, k) / ideal_dcg
    };
    [f64::from(u8::from(any)), f64::from(u8::from(all)), ndcg]
}

/// The session of a turn id: everything before its last `_` (`strip_turn_id`).
pub(crate) fn session_of(turn: &str) -> &str {
    turn.rsplit_once('_').map_or(turn, |(s, _)| s)
}

/// The same at session level from a turn ranking: `haystack` every turn id of the question's
/// haystack (to know how many turns belong to gold sessions and how far k may grow),
/// `gold_turns` the gold turns.
pub(crate) fn turn_to_session(
    ranking: &[&str],
    gold_turns: &HashSet<&str>,
    haystack: &[&str],
    k: usize,
) -> [f64; 3] {
    let gold: HashSet<&str> = gold_turns.iter().map(|t| session_of(t)).collect();
    let sessions: Vec<&str> = ranking.iter().map(|t| session_of(t)).collect();
    // eval_utils grows k one by one, recounting the distinct sessions of the first k turns,
    // while k is within the haystack and covers fewer than k sessions. The count only grows, so
    // one walk finds where it first reaches k; past the ranking it stays as it is, and k then
    // grows to one past the haystack.
    let effective = if k > haystack.len() {
        k
    } else {
        let mut seen = HashSet::new();
        let reached = sessions.iter().enumerate().find_map(|(i, s)| {
            seen.insert(*s);
            (i + 1 >= k && seen.len() >= k).then_some(i + 1)
        });
        reached.map_or(haystack.len() + 1, |n| n.min(haystack.len() + 1))
    };
    let haystack_gold = haystack
        .iter()
        .filter(|t| gold.contains(session_of(t)))
        .count();
    evaluate(&sessions, &gold, haystack_gold, effective)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set<'a>(ids: &[&'a str]) -> HashSet<&'a str> {
        ids.iter().copied().collect()
    }

    /// Values worked by hand from eval_utils.py.
    #[test]
    fn known_answers_of_longmemevals_definitions() {
        // Gold b and d among a b c d e; retrieved a b c.
        let ranking = ["a", "b", "c"];
        let gold = set(&["b", "d"]);
        let [any, all, ndcg] = evaluate(&ranking, &gold, 2, 3);
        assert_eq!((any, all), (1.0, 0.0));
        // dcg(0,1,0) = 0 + 1/log2(2) = 1; ideal dcg(1,1) = 1 + 1 = 2.
        assert!((ndcg - 0.5).abs() < 1e-15, "{ndcg}");
        // At k = 1 nothing gold: ideal dcg(1) = 1, actual 0.
        assert_eq!(evaluate(&ranking, &gold, 2, 1), [0.0, 0.0, 0.0]);
        // Gold first and third: dcg = 1 + 1/log2(3); ideal 1 + 1.
        let [_, all, ndcg] = evaluate(&["b", "a", "d"], &gold, 2, 3);
        assert_eq!(all, 1.0);
        assert!((ndcg - (1.0 + 1.0 / 3f64.log2()) / 2.0).abs() < 1e-15);
        // No gold in the haystack: ndcg 0 (its `if ideal_dcg == 0`).
        assert_eq!(evaluate(&ranking, &set(&[]), 0, 3)[2], 0.0);
    }

    #[test]
    fn turns_become_sessions_and_k_grows_to_k_sessions() {
        // Sessions s1 (3 turns), s2 (2), s3 (1); gold turn s2_2.
        let haystack = ["s1_1", "s1_3", "s1_5", "s2_1", "s2_2", "s3_1"];
        let gold = set(&["s2_2"]);
        // The first two turns are both s1: k = 2 grows to 3 to cover s1 and s2.
        let ranking = ["s1_1", "s1_3", "s2_1", "s3_1"];
        let [any, all, ndcg] = turn_to_session(&ranking, &gold, &haystack, 2);
        assert_eq!((any, all), (1.0, 1.0));
        // Ranked sessions s1 s1 s2: dcg = 0 + 0 + 1/log2(3); the haystack has 2 turns of s2,
        // so the ideal at k 3 is dcg(1, 1) = 2.
        assert!((ndcg - (1.0 / 3f64.log2()) / 2.0).abs() < 1e-15, "{ndcg}");
        // k = 1: one session at once, no growth; s1 is not gold.
        assert_eq!(
            turn_to_session(&ranking, &gold, &haystack, 1),
            [0.0, 0.0, 0.0]
        );
        assert_eq!(session_of("answer_4be1b6b4_2_7"), "answer_4be1b6b4_2");
    }

    /// The one walk finds the k eval_utils' loop grows to, on rankings that cover k sessions
    /// early, late, exactly at the haystack's end, or never.
    #[test]
    fn the_grown_k_is_the_loops() {
        let loop_k = |sessions: &[&str], k: usize, h: usize| {
            let distinct = |n: usize| {
                sessions[..n.min(sessions.len())]
                    .iter()
                    .collect::<HashSet<_>>()
                    .len()
            };
            let mut e = k;
            while e <= h && distinct(e) < k {
                e += 1;
            }
            e
        };
        let haystack = ["a_1", "a_2", "a_3", "b_1", "b_2", "c_1"];
        for ranking in [
            &["a_1", "a_2", "a_3", "b_1", "b_2", "c_1"][..],
            &["a_1", "b_1", "c_1"],
            &["a_1", "a_2"],
            &[],
        ] {
            let sessions: Vec<&str> = ranking.iter().map(|t| session_of(t)).collect();
            for k in 1..=8 {
                let gold: HashSet<&str> = ["c_1"].into_iter().collect();
                let got = turn_to_session(ranking, &gold, &haystack, k);
                let e = loop_k(&sessions, k, haystack.len());
                let g: HashSet<&str> = ["c"].into_iter().collect();
                assert_eq!(got, evaluate(&sessions, &g, 1, e), "{ranking:?} k {k}");
            }
        }
    }
}
