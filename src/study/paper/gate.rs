//! `claims` as a CI gate: a tolerance on the claims' numbers, which statuses fail the run, and the
//! known differences let pass (`--known-difference`, by row or label), each said.
//!
//! A claim's figures are compared number by number (`60/60`: 60 and 60; `0.43–0.50`: its two
//! ends; a single paper figure against a measured range: against each end). With a tolerance
//! T > 0, a claim that differs by at most T in every number reads "within ±T" and does not
//! fail `--fail-on differs`. The figures compared are the ones shown, so a tolerance below
//! their last digit changes nothing; a tolerance of 1 or more leaves shares (every number in
//! [0, 1]) as they are, for it would cover their whole range.

use super::{Claim, Status};
use crate::error::{Error, Result};
use crate::render::tex::label;
use std::collections::BTreeSet;

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
    // A share (a precision, every number in [0, 1]) is not loosened by a tolerance of 1 or
    // more: it would cover the whole range, and the claim could never differ (an audit passed
    // `--fail-on differs` at 1e9). Pass counts and scores take such a tolerance.
    if tolerance >= 1.0 && p.iter().chain(&m).all(|x| *x <= 1.0) {
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

/// The claims `--known-difference` names, by row (1-based, as the table numbers them) or by
/// label (the table's LaTeX label); a name that is neither is refused, listing the labels.
pub(crate) fn exemptions(claims: &[Claim], named: &[String]) -> Result<BTreeSet<usize>> {
    let labels: Vec<String> = claims.iter().map(|c| label(&c.claim)).collect();
    let mut exempt = BTreeSet::new();
    for given in named {
        let row = given
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=claims.len()).contains(n));
        let at = row
            .map(|n| n - 1)
            .or_else(|| labels.iter().position(|l| l == given));
        let Some(at) = at else {
            return Err(Error::Usage(format!(
                "--known-difference {given}: no such claim; expected a row number (1 to {}) or \
                 a label: {}",
                claims.len(),
                labels.join(", ")
            )));
        };
        exempt.insert(at);
    }
    Ok(exempt)
}

/// The gate's verdict on the claims: the ones that fail it, and a note on each exemption (a
/// known difference that failed and was let pass, or one that no longer fails).
pub(crate) struct Verdict<'c> {
    /// The failing claims not exempt, in table order.
    pub failing: Vec<&'c Claim>,
    /// What each exemption did.
    pub notes: Vec<String>,
}

/// Judge `claims` under `fail_on`, the claims at `exempt` let pass.
pub(crate) fn judge<'c>(
    claims: &'c [Claim],
    fail_on: FailOn,
    exempt: &BTreeSet<usize>,
) -> Verdict<'c> {
    let mut verdict = Verdict {
        failing: Vec::new(),
        notes: Vec::new(),
    };
    for (at, c) in claims.iter().enumerate() {
        let name = || format!("{} ({})", c.claim, label(&c.claim));
        match (fails(c, fail_on), exempt.contains(&at)) {
            (true, false) => verdict.failing.push(c),
            (true, true) => verdict.notes.push(format!(
                "{}: a known difference, exempt from --fail-on",
                name()
            )),
            (false, true) => verdict.notes.push(format!(
                "{} is {}: its --known-difference is no longer needed",
                name(),
                c.status.label()
            )),
            (false, false) => {}
        }
    }
    verdict
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
        assert_eq!(
            judge(&claims, FailOn::Differs, &BTreeSet::new())
                .failing
                .len(),
            2
        );
        assert_eq!(
            judge(&claims, FailOn::Fails, &BTreeSet::new())
                .failing
                .len(),
            3
        );
        apply_tolerance(&mut claims, 2.0);
        assert_eq!(claims[1].status, Status::Within(2.0));
    }

    #[test]
    fn known_differences_are_named_by_row_or_label_and_each_is_said() {
        let claims = vec![
            claim("60/60", "60/60", Status::Reproduced),
            claim("8/60", "10/60", Status::Differs),
            claim("0.12", "0.19", Status::Differs),
        ];
        let by_row = exemptions(&claims, &["2".into()]).unwrap();
        assert_eq!(by_row.into_iter().collect::<Vec<_>>(), [1]);
        assert!(exemptions(&claims, &["4".into()]).is_err());
        assert!(exemptions(&claims, &["no-such-label".into()]).is_err());
        // Rows 1 and 2 exempt: row 1 no longer needs it, row 2 is let pass, row 3 fails.
        let exempt = BTreeSet::from([0, 1]);
        let verdict = judge(&claims, FailOn::Differs, &exempt);
        assert_eq!(verdict.failing.len(), 1);
        assert_eq!(verdict.failing[0].measured, "0.19");
        assert_eq!(verdict.notes.len(), 2);
        assert!(
            verdict.notes[0].ends_with("is reproduced: its --known-difference is no longer needed")
        );
        assert!(verdict.notes[1].ends_with("a known difference, exempt from --fail-on"));
    }
}
