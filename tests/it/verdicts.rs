//! Every verdict agrees with the cells shown beside it (issue 34): the flywheel's claims and
//! sweep, and the paper's claims, each re-derived here from the table's own figures by the
//! rules docs/flywheel.md ("How the verdicts are decided") and docs/results.md print.

use crate::common::{tenure_eval, tenure_eval_ok};

/// The numbers of a text, in order (`6/6` gives 6 and 6; `0.43–0.50` gives both ends).
fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && *t != ".")
        .filter_map(|t| t.trim_end_matches('.').parse().ok())
        .collect()
}

/// The figure right after `label` in `text`.
fn after(text: &str, label: &str) -> f64 {
    let rest = text
        .split(label)
        .nth(1)
        .unwrap_or_else(|| panic!("{label:?} in {text}"));
    numbers(rest)[0]
}

/// (covered, references) of the `(a/b)` right after `label`.
fn fraction(text: &str, label: &str) -> Option<(f64, f64)> {
    let rest = text.split(label).nth(1)?;
    let inner = rest.split('(').nth(1)?.split(')').next()?;
    let n = numbers(inner);
    (n.len() == 2).then(|| (n[0], n[1]))
}

/// The mechanism rule of C5 and C6.
fn mechanism(
    fixed: bool,
    full: bool,
    with: Option<(f64, f64)>,
    without: Option<(f64, f64)>,
) -> &'static str {
    if !fixed {
        return "fails";
    }
    let agrees = match (with, without) {
        (Some((a, b)), Some((c, d))) if b > 0.0 && d > 0.0 => a / b > c / d,
        _ => true,
    };
    if full && agrees {
        "holds"
    } else {
        "partly"
    }
}

/// C2 from its cells: growth (last 5 above first 5), full (≥ 0.95), precision 1.0.
fn c2(first: f64, last: f64, min_precision: f64) -> &'static str {
    match (last > first, last >= 0.95 && min_precision >= 1.0) {
        (false, _) => "fails",
        (true, true) => "holds",
        (true, false) => "partly",
    }
}

/// A small simulation (8 sessions of 15 references over 40 beliefs, quietly) with `more`
/// arguments: its stdout.
fn small_flywheel(more: &[&str]) -> String {
    let base = [
        "flywheel",
        "--sessions",
        "8",
        "--references",
        "15",
        "--initial-beliefs",
        "40",
        "--quiet",
    ];
    String::from_utf8(tenure_eval_ok(&[&base[..], more].concat(), &[]).stdout).unwrap()
}

#[test]
fn flywheel_verdicts_follow_from_their_cells() {
    for seed in ["7", "8"] {
        let out = small_flywheel(&[
            "--variants",
            "all,seed-only,no-union,no-counter-signals",
            "--seed",
            seed,
            "--format",
            "json",
        ]);
        let claims: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
        let get = |id: &str| claims.iter().find(|c| c["id"] == id).unwrap();
        let text = |id: &str| get(id)["measured"].as_str().unwrap().to_string();
        let verdict = |id: &str| get(id)["verdict"].as_str().unwrap().to_string();

        let min = after(&text("C1"), "min ");
        assert_eq!(
            verdict("C1"),
            if min >= 1.0 { "holds" } else { "fails" },
            "{}",
            text("C1")
        );

        let t2 = text("C2");
        let (first, last) = (after(&t2, "sessions 1-5: "), after(&t2, "of 8: "));
        assert_eq!(
            verdict("C2"),
            c2(first, last, after(&t2, "min precision ")),
            "{t2}"
        );

        let t5 = text("C5");
        let fixed = numbers(t5.split("merge): ").nth(1).unwrap());
        let lost = after(&t5, "past the ceiling (2 x 15 two-word aliases) ");
        let want = mechanism(
            fixed[0] == fixed[1],
            lost == 0.0,
            fraction(&t5, "covered: union "),
            fraction(&t5, "no union "),
        );
        assert_eq!(verdict("C5"), want, "{t5}");

        let t6 = text("C6");
        let fixed = numbers(t6.split("Redis): ").nth(1).unwrap());
        let want = mechanism(
            fixed[0] == fixed[1],
            true,
            fraction(&t6, "covered: counter-signals "),
            fraction(&t6, "none "),
        );
        assert_eq!(verdict("C6"), want, "{t6}");
    }
}

#[test]
fn the_sweep_says_where_each_claim_holds_from_its_rows() {
    let text = small_flywheel(&["--variants", "all", "--sweep", "drift=0,0.02,0.2"]);
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.starts_with("| drift"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect();
    let (cells, summary): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| r.len() == 10);
    assert_eq!(cells.len(), 3, "{text}");
    let mut c1 = Vec::new();
    let mut c2s = Vec::new();
    for r in &cells {
        let num = |i: usize| r[i].parse::<f64>().unwrap();
        let want1 = if num(2) >= 1.0 { "holds" } else { "fails" };
        assert_eq!(r[8], want1, "{r:?}");
        assert_eq!(r[9], c2(num(3), num(5), num(2)), "{r:?}");
        c1.push((r[1].clone(), r[8].clone()));
        c2s.push((r[1].clone(), r[9].clone()));
    }
    // The summary groups the rows' verdicts in sweep order.
    let group = |cells: &[(String, String)]| -> String {
        let mut verdicts: Vec<&str> = Vec::new();
        for (_, v) in cells {
            if !verdicts.contains(&v.as_str()) {
                verdicts.push(v);
            }
        }
        if verdicts.len() == 1 {
            return format!("{} at every value", verdicts[0]);
        }
        verdicts
            .iter()
            .map(|v| {
                let at: Vec<&str> = cells
                    .iter()
                    .filter(|(_, x)| x == v)
                    .map(|(a, _)| a.as_str())
                    .collect();
                format!("{v} at {}", at.join(", "))
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    assert_eq!(summary.len(), 1, "{text}");
    assert_eq!(summary[0][1], group(&c1));
    assert_eq!(summary[0][2], group(&c2s));
}

#[test]
fn paper_claim_statuses_follow_from_their_figures() {
    let out = tenure_eval_ok(&["claims"], &[]);
    let text = String::from_utf8(out.stdout).unwrap();
    let mut rows = 0;
    for line in text.lines().filter(|l| l.starts_with("| ")).skip(1) {
        let row: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        rows += 1;
        let cell = |i: usize| row[i];
        let (paper, measured) = (numbers(cell(1)), numbers(cell(2)));
        let same = !measured.is_empty()
            && if paper.len() == 1 {
                measured.iter().all(|m| (m - paper[0]).abs() < 1e-9)
            } else {
                paper == measured
            };
        let want = if measured.is_empty() {
            "not measured"
        } else if same {
            "reproduced"
        } else {
            "differs"
        };
        assert_eq!(cell(3), want, "{row:?}");
    }
    assert_eq!(rows, 16);
}

/// A verdict needs its measurement: with five sessions or fewer there is no first window of
/// five to grow from, so C2 is not measured, and the windows that did not run print "-"; with no
/// reference, no precision is measured and C1 is not either (an audit found both read as
/// "fails", and `--sessions 1` printing one coverage for sessions 1-5, 6-10 and the last 5).
/// `--sweep` and `--sensitivity` choose the sweep two ways: both at once is refused.
#[test]
fn a_claim_without_its_measurement_is_not_measured() {
    let claims = |args: &[&str]| -> serde_json::Value {
        let out = tenure_eval_ok(
            &[
                &[
                    "flywheel",
                    "--initial-beliefs",
                    "20",
                    "--quiet",
                    "--format",
                    "json",
                ],
                args,
            ]
            .concat(),
            &[],
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let verdict = |c: &serde_json::Value, id: &str| {
        c.as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .unwrap()["verdict"]
            .clone()
    };
    let one = claims(&["--sessions", "1"]);
    assert_eq!(verdict(&one, "C2"), "not-measured");
    assert_ne!(verdict(&one, "C1"), "not-measured");
    let six = claims(&["--sessions", "6"]);
    assert_ne!(verdict(&six, "C2"), "not-measured");
    // No reference: nothing is searched, so nothing is claimed (refused, exit 2).
    let none = crate::common::tenure_eval(&["flywheel", "--sessions", "12", "--references", "0"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--references must be at least 1"));
    // The variants table: in a run of 7, sessions 6-10 did not all run; in a run of 3,
    // sessions 1-5 did not either; the last five are as many as ran.
    for (sessions, measured) in [("7", [true, false]), ("3", [false, false])] {
        let args = [
            "flywheel",
            "--sessions",
            sessions,
            "--initial-beliefs",
            "20",
            "--quiet",
        ];
        let text = String::from_utf8(tenure_eval_ok(&args, &[]).stdout).unwrap();
        let all = text.lines().find(|l| l.starts_with("| all ")).unwrap();
        let cells: Vec<&str> = all.split('|').map(str::trim).collect();
        assert_eq!(
            [cells[2] != "-", cells[3] != "-"],
            measured,
            "{sessions}: {all}"
        );
        assert_ne!(cells[4], "-", "{sessions}: {all}");
    }
    let out = tenure_eval(&[
        "flywheel",
        "--sweep",
        "collision=0,0.1",
        "--sensitivity",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
