//! `claims` as a CI gate: a tolerance on the claims' numbers, and which statuses fail the run.
//!
//! A claim's figures are compared number by number (`60/60`: 60 and 60; `0.43–0.50`: its two
//! ends; a single paper figure against a measured range: against each end). With a tolerance
//! T > 0, a claim that differs by at most T in every number reads "within ±T" and does not
//! fail `--fail-on differs`. The figures compared are the ones shown, so a tolerance below
//! their last digit changes nothing.

use super::{Claim, Status};

/// The numbers of a figure as the table shows it (`—` has none).
fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && *t != ".")
        .filter_map(|t| t.parse().ok())
        .collect()
}

/// Does `measured` lie within `tolerance` of `paper`, number by number?
fn within(paper: &str, measured: &str, tolerance: f64) -> bool {
    let (p, m) = (numbers(paper), numbers(measured));
    if p.is_empty() || m.is_empty() {
        return false;
    }
    let close = |a: f64, b: f64| (a - b).abs() <= tolerance + 1e-9;
    match (p.len(), m.len()) {
        (1, _) => m.iter().all(|x| close(p[0], *x)),
        (a, b) if a == b => p.iter().zip(&m).all(|(x, y)| close(*x, *y)),
        _ => false,
    }
}

/// Re-judge the claims that differ: within `tolerance`, they read "within ±T".
pub(crate) fn apply_tolerance(claims: &mut [Claim], tolerance: f64) {
    if tolerance <= 0.0 {
        return;
    }
    for c in claims.iter_mut() {
        if c.status == Status::Differs && within(&c.paper, &c.measured, tolerance) {
            c.status = Status::Within(tolerance);
        }
    }
}

/// What fails the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailOn {
    /// A measured claim that differs beyond the tolerance.
    Differs,
    /// A claim that differs, or that the reports given cannot measure.
    Fails,
}

/// Whether `claim` fails under `fail_on`.
pub(crate) fn fails(claim: &Claim, fail_on: FailOn) -> bool {
    matches!(
        (fail_on, claim.status),
        (_, Status::Differs) | (FailOn::Fails, Status::NotMeasured)
    )
}

/// The claims that fail under `fail_on`.
#[cfg(test)]
pub(crate) fn failing(claims: &[Claim], fail_on: FailOn) -> Vec<&Claim> {
    claims.iter().filter(|c| fails(c, fail_on)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(paper: &str, measured: &str, status: Status) -> Claim {
        Claim {
            claim: "c".into(),
            paper: paper.into(),
            measured: measured.into(),
            status,
            reason: String::new(),
        }
    }

    #[test]
    fn a_tolerance_rejudges_only_claims_within_it() {
        let mut claims = vec![
            claim("0.12", "0.13", Status::Differs),
            claim("8/60", "10/60", Status::Differs),
            claim("0.43–0.50", "0.44–0.50", Status::Differs),
            claim("0", "0.00–0.02", Status::Differs),
            claim("11.71", "—", Status::NotMeasured),
        ];
        apply_tolerance(&mut claims, 0.01);
        let statuses: Vec<Status> = claims.iter().map(|c| c.status).collect();
        assert_eq!(
            statuses,
            [
                Status::Within(0.01),
                Status::Differs,
                Status::Within(0.01),
                Status::Differs,
                Status::NotMeasured
            ]
        );
        assert_eq!(failing(&claims, FailOn::Differs).len(), 2);
        assert_eq!(failing(&claims, FailOn::Fails).len(), 3);
        apply_tolerance(&mut claims, 2.0);
        assert_eq!(claims[1].status, Status::Within(2.0));
    }
}
