//! How the flywheel study reads its sessions and moves its parameters: coverage is pooled over
//! five sessions, C2 fails only when coverage does not grow, and `--sweep` moves the store's
//! starting size (the axis along which precision 1.0, claim C1, holds or not).

use crate::common::{tenure_eval, tenure_eval_ok};
use crate::flywheel::small_flywheel;
use tenure_eval::study::flywheel::claims::{c1_c2, coverage_at, Verdict};
use tenure_eval::study::flywheel::metrics::SessionMetrics;

/// Sessions with these (covered, references) counts, all retrieving only what was meant.
fn sessions(counts: &[(usize, usize)]) -> Vec<SessionMetrics> {
    counts
        .iter()
        .enumerate()
        .map(|(i, &(covered, references))| SessionMetrics {
            session: i + 1,
            references,
            covered,
            coverage: covered as f64 / references as f64,
            retrieved: covered,
            correct: covered,
            precision: (covered > 0).then_some(1.0),
            ..SessionMetrics::default()
        })
        .collect()
}

/// Five sessions with `first`'s counts, then five with `then`'s.
fn five_then_five(first: (usize, usize), then: (usize, usize)) -> Vec<SessionMetrics> {
    sessions(&[[first; 5], [then; 5]].concat())
}

#[test]
fn coverage_pools_the_five_sessions_ending_at_n() {
    let s = sessions(&[(1, 4), (2, 4), (3, 4), (4, 4), (4, 4), (0, 4), (4, 4)]);
    assert_eq!(coverage_at(&s, 1), Some(0.25));
    // Sessions 1-5: 14 of 20.
    assert_eq!(coverage_at(&s, 5), Some(0.7));
    // Sessions 3-7: 15 of 20; a window past the end did not run: no figure (it read the last
    // five, labelled as sessions that never ran).
    assert_eq!(coverage_at(&s, 7), Some(0.75));
    assert_eq!(coverage_at(&s, 8), None);
    assert_eq!(coverage_at(&s, 0), None);
    assert_eq!(coverage_at(&[], 5), None);
}

#[test]
fn c2_fails_only_when_coverage_does_not_grow() {
    // Grows from 0.5 (sessions 1-5) to 1.0 (6-10) with precision 1.0: holds.
    let grows_full = five_then_five((2, 4), (4, 4));
    assert_eq!(c1_c2(&grows_full), (Verdict::Holds, Verdict::Holds));
    // Grows, but to 0.75 of "full" 0.95: partly.
    let grows = five_then_five((2, 4), (3, 4));
    assert_eq!(c1_c2(&grows).1, Verdict::Partly);
    // One bad last session does not decide it: sessions 6-10 pool 17 of 20 against 10 of 20.
    let mut dip = grows_full.clone();
    dip[9] = sessions(&[(1, 4)])[0].clone();
    assert_eq!(c1_c2(&dip).1, Verdict::Partly);
    // Flat coverage fails whatever the precision.
    let flat = sessions(&[(3, 4); 10]);
    assert_eq!(c1_c2(&flat), (Verdict::Holds, Verdict::Fails));
    // A session retrieving another belief fails C1 and keeps C2 at partly.
    let mut noisy = grows_full;
    noisy[3].retrieved += 1;
    noisy[3].precision = Some(2.0 / 3.0);
    assert_eq!(c1_c2(&noisy), (Verdict::Fails, Verdict::Partly));
}

#[test]
fn the_sweep_moves_the_stores_starting_size() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fw");
    small_flywheel("2", &["--sweep", "initial-beliefs=5,60", "--out"], &[&out]);
    let rows: Vec<serde_json::Value> =
        serde_json::from_slice(&std::fs::read(out.join("sensitivity.json")).unwrap()).unwrap();
    let points: Vec<(&str, f64)> = rows
        .iter()
        .map(|r| {
            (
                r["parameter"].as_str().unwrap(),
                r["value"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        points,
        [("initial-beliefs", 5.0), ("initial-beliefs", 60.0)]
    );
    // More beliefs to tell apart, more of them sharing words: word overlaps grow with the store.
    let overlaps = |r: &serde_json::Value| r["wordOverlaps"].as_u64().unwrap();
    assert!(overlaps(&rows[0]) < overlaps(&rows[1]), "{rows:?}");
}

#[test]
fn a_sweep_value_that_cannot_be_that_parameter_is_a_usage_error() {
    for (sweep, says) in [
        ("initial-beliefs=2.5", "expected a whole number"),
        ("initial-beliefs=1", "--initial-beliefs must be at least 2"),
        ("collision=1.5", "expected a probability in [0, 1]"),
        ("store-size=10", "expected collision, tool-reuse"),
    ] {
        let out = tenure_eval(&["flywheel", "--sessions", "1", "--sweep", sweep, "--quiet"]);
        assert_eq!(out.status.code(), Some(2), "{sweep}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{sweep}: {err}");
    }
    // Growth is a count too, 0 included.
    tenure_eval_ok(
        &[
            "flywheel",
            "--sessions",
            "1",
            "--initial-beliefs",
            "20",
            "--references",
            "5",
            "--variants",
            "all",
            "--sweep",
            "growth=0,1",
            "--quiet",
        ],
        &[],
    );
}
